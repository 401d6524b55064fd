"""Pure metric code: no I/O, no clocks; every function takes records and returns figures."""
