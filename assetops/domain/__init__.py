"""The vocabulary every layer shares: specialist ids, actions, turn types, events, the fleet catalog.

It sits on the floor with the rest of `assetops`: it imports nothing above it, so tools, specialists,
the graph and the edge all speak the same names without importing each other.
"""
