# Set-up from nothing: a virtualenv with webenv and its dev tools, and a Chromium.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: demo test lint setup chromium test-tools clean

## Run the oracle over every built-in task and print the success table.
demo: setup
	$(BIN)/webenv eval --agent oracle --tasks '*' --episodes 2 --out runs/demo

## Run the whole test suite (real Chromium, real Flask, real SQLite).
test: setup test-tools
	$(BIN)/pytest -n 2 --durations=25

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
