# Set-up from nothing: a virtualenv with webenv (and, for the tests, its dev tools), and a Chromium.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip --quiet --disable-pip-version-check
DEMO_OUT ?= runs/demo
DEMO_EPISODES ?= 1
DEMO_WORKERS ?= 2

.PHONY: demo test lint setup install chromium test-tools clean

## Run the oracle over every built-in task with screenshots; print the table and where to look.
demo: install chromium
	@echo "Running the oracle over every task ($(DEMO_EPISODES) episode each, $(DEMO_WORKERS) workers)..."
	@$(BIN)/webenv eval --agent oracle --tasks '*' --episodes $(DEMO_EPISODES) \
		--workers $(DEMO_WORKERS) --record screenshots --out $(DEMO_OUT)
	@echo "Next: replay the episodes with  $(BIN)/webenv view $(DEMO_OUT)"
	@echo "      or open $(DEMO_OUT)/report.html"

## Run the whole test suite (real Chromium, real Flask, real SQLite).
test: setup test-tools
	$(BIN)/pytest -n 2 --durations=25

lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy

setup: $(VENV)/.installed chromium

## webenv alone (what the demo needs), in the virtualenv.
install: $(VENV)/.base

$(VENV)/.base: pyproject.toml setup.py
	@$(PYTHON) scripts/check-python.py
	@echo "Creating the virtualenv $(VENV)..."
	@$(PYTHON) -m venv $(VENV)
	@$(PIP) install --upgrade pip
	@echo "Installing webenv into $(VENV)..."
	@$(PIP) install -e .
	@touch $@

## The development tools on top (pytest, ruff, mypy, Ray, openai...), for the tests.
$(VENV)/.installed: $(VENV)/.base
	@echo "Installing the development tools into $(VENV)..."
	@$(PIP) install -e '.[dev]'
	@touch $@

chromium:
	@PYTHON=$(BIN)/python scripts/install-chromium.sh

test-tools:
	@scripts/install-test-tools.sh

clean:
	rm -rf $(VENV) runs build *.egg-info
