"""LLM mode: chat model construction, recorded calls, structured decisions, tool arguments, synthesis."""
