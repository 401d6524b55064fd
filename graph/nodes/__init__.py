"""The supervisor graph's nodes: supervisor (decide / re-decide), dispatch (run specialists), respond."""
