# Two commands on a fresh machine: `make run` and `make test`. Both bootstrap what is missing.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.deps-installed

.PHONY: venv setup run test bench lint clean

# Re-install only when the dependency list changed (the stamp is newer than pyproject.toml).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing dependencies into $(VENV) (first time: a few minutes)..."
	@$(BIN)/pip install -q --disable-pip-version-check -e ".[dev]"
	@touch $(STAMP)

venv: $(STAMP)

# Schema at head, default fleet generated and loaded when the database is empty, TTM checkpoints
# trained when missing. Each step is a no-op when its result is already there.
setup: venv
	@$(BIN)/assetops setup

run: setup
	@$(BIN)/assetops serve

test: setup
	@$(BIN)/python -m pytest

bench: setup
	@$(BIN)/python -m bench

lint: venv
	@$(BIN)/ruff check .
	@$(BIN)/mypy

clean:
	rm -rf var .pytest_cache .mypy_cache .ruff_cache
