"""What the time-series and failure specialists share: telemetry frames and derived signals, robust
statistics, the evidence and sensor-validity checks, and how their artifacts and results are built.

Both specialists import from here and never from each other.
"""
