"""The web chat page and the profiling dashboard (static files, no CDN)."""
