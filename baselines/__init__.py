"""Baselines the product is measured against, built from the same parts (tools, planners, specialists)."""
