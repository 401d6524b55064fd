# Two commands on a fresh machine: `make run` and `make test`. Both bootstrap what is missing.
SHELL := /bin/bash
.SHELLFLAGS := -o pipefail -c
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.deps-installed

.PHONY: venv setup browser-deps redis-server-dep run test bench bench-compare faults load audit lint clean

# Re-install only when the dependency list changed (the stamp is newer than pyproject.toml).
$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing dependencies into $(VENV) (a few minutes on a fresh machine)..."
	@# (the grep drops this machine's harmless "Location ... is ignored" notices about its local indexes)
	@$(BIN)/pip install -q --disable-pip-version-check -e ".[dev]" 2>&1 | { grep -v "is ignored: it is neither" || true; }
	@touch $(STAMP)

venv: $(STAMP)

# Schema at head, default fleet generated and loaded when the database is empty, TTM checkpoints
# trained when missing. Each step is a no-op when its result is already there.
setup: venv
	@$(BIN)/assetops setup

run: setup
	@$(BIN)/assetops serve

# The browser test drives Debian's chromium through chromedriver (never a downloaded browser).
browser-deps:
	@command -v chromium >/dev/null 2>&1 && command -v chromedriver >/dev/null 2>&1 || \
	  { echo "Installing Debian chromium + chromium-driver for the browser test..."; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) || \
	    echo "Could not install chromium: the browser test skips here (it fails under CI=true)."; }

# The fault and load runs start their own Redis server (Debian redis-server) on a free loopback port.
redis-server-dep:
	@command -v redis-server >/dev/null 2>&1 || \
	  { echo "Installing Debian redis-server for make faults / make load..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null; }

test: setup browser-deps
	@$(BIN)/python -m pytest

bench: setup
	@$(BIN)/python -m bench

# Supervisor vs the plan-execute baseline on the same dialogs (DIALOGS.md ones + generated diagnosis
# scenarios from the fleet's fault schedule), offline; writes var/eval/compare/report.md and report.json.
bench-compare: setup
	@$(BIN)/assetops generate-scenarios --limit 6 --controls 2 -o var/eval/scenarios.yaml
	@$(BIN)/assetops eval compare var/eval/scenarios.yaml --arch supervisor --arch plan-execute --out var/eval/compare

# Infrastructure faults injected into a live loopback stack; one PASS/FAIL line per scenario.
faults: setup redis-server-dep
	@$(BIN)/python -m reliability.faults

# SESSIONS concurrent 5-turn dialogs (default 50) against PostgreSQL + Redis + tool workers on loopback.
SESSIONS ?= 50
load: setup redis-server-dep
	@$(BIN)/python -m reliability.load --sessions $(SESSIONS)

# Known vulnerabilities in the installed dependencies (PyPI's advisory data; fails when one is found).
audit: venv
	@$(BIN)/pip-audit --progress-spinner off --skip-editable

lint: venv
	@$(BIN)/ruff check .
	@$(BIN)/mypy
	@$(MAKE) --no-print-directory audit

clean:
	rm -rf var .pytest_cache .mypy_cache .ruff_cache
