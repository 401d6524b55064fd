"""Tests of the failure specialist: evidence, scoring, validity, handlers and generated episodes."""
