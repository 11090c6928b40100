# Set-up from nothing: a virtualenv with webenv and its dev tools, and a Chromium.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test test-full test-unit lint setup chromium test-tools clean

## Run the oracle over every built-in task and print the success table.
demo: setup
	$(BIN)/webenv eval --agent oracle --tasks '*' --episodes 2 --out runs/demo

# Tests of one template run on one worker (--dist loadgroup), so each template's env is made once.
PYTEST := $(BIN)/pytest -n 2 --dist loadgroup

## The test suite (real Chromium, real Flask, real SQLite): the unit and browser tiers, and this
## run's slice of the full matrix (its seed is printed; WEBENV_TEST_SEED=N repeats a run).
test: setup test-tools
	$(PYTEST) -m "not suite" --durations=15

## Everything, the full matrix of templates, seeds and profiles included.
test-full: setup test-tools
	$(PYTEST) --durations=25

## The tests that need no browser (seconds).
test-unit: setup
	$(BIN)/pytest -n 2 -m unit

lint: setup
	$(BIN)/ruff check . && $(BIN)/ruff format --check . && $(BIN)/mypy

setup: $(VENV)/.installed chromium

$(VENV)/.installed: pyproject.toml setup.py
	$(PYTHON) scripts/check-python.py
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

chromium:
	@PYTHON=$(BIN)/python scripts/install-chromium.sh

test-tools:
	@scripts/install-test-tools.sh

clean:
	rm -rf $(VENV) runs build *.egg-info
