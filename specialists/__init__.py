"""The four specialists (data, timeseries, failure, maintenance): plan tool calls, run them in
parallel, reuse what the session already knows, and normalise results into artifacts."""
