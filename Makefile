# Set-up from nothing: a virtualenv with webenv and its dev tools, and a Chromium.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The demo's own virtualenv: webenv alone, installed as a user installs it (no dev tools).
DEMO_VENV ?= .venv-demo
DEMO_BIN := $(DEMO_VENV)/bin
DEMO_PIP := $(DEMO_BIN)/python -m pip --quiet --disable-pip-version-check
DEMO_SOURCES := $(shell find webenv sites tasks -type f -not -path '*__pycache__*')
DEMO_OUT ?= runs/demo
DEMO_EPISODES ?= 1
DEMO_WORKERS ?= 2

.PHONY: demo demo-setup test test-full test-unit test-verifiers lint setup chromium test-tools clean

## Run the oracle over every built-in task with screenshots; print the table and where to look.
demo: demo-setup
	@echo "Running the oracle over every task ($(DEMO_EPISODES) episode each, $(DEMO_WORKERS) workers)..."
	@$(DEMO_BIN)/webenv eval --agent oracle --tasks '*' --episodes $(DEMO_EPISODES) \
		--workers $(DEMO_WORKERS) --record screenshots --out $(DEMO_OUT)
	@echo "Next: replay the episodes with  $(DEMO_BIN)/webenv view $(DEMO_OUT)"
	@echo "      or open $(DEMO_OUT)/report.html"

demo-setup: $(DEMO_VENV)/.installed
	@PYTHON=$(DEMO_BIN)/python scripts/install-chromium.sh

$(DEMO_VENV)/.installed: pyproject.toml setup.py $(DEMO_SOURCES)
	@$(PYTHON) scripts/check-python.py
	@echo "Creating the virtualenv $(DEMO_VENV)..."
	@$(PYTHON) -m venv $(DEMO_VENV)
	@$(DEMO_PIP) install --upgrade pip
	@echo "Installing webenv and its dependencies into $(DEMO_VENV)..."
	@$(DEMO_PIP) install .
	@touch $@

# Bytecode is cached even where PYTHONDONTWRITEBYTECODE is set (some CI images set it): the
# suite starts Pythons by the dozen (CLI runs, workers, Ray actors, servers), and each would
# compile webenv from source again (0.4 s of CPU for `webenv --help`), and each pytest worker
# would rewrite every test module's asserts again.
unexport PYTHONDONTWRITEBYTECODE

# Tests of one template run on one worker (--dist loadgroup), so each template's env is made once.
# Four workers on two cores: much of a browser test is waiting on Chromium and the sites, and
# each further worker fills more of those waits (see the README's Tests section for the measurements).
TEST_WORKERS ?= 4
PYTEST := $(BIN)/pytest --dist loadgroup

## The test suite (real Chromium, real Flask, real SQLite): the unit and browser tiers, and this
## run's slice of the full matrix (its seed is printed; WEBENV_TEST_SEED=N repeats a run).
test: setup test-tools
	$(PYTEST) -n $(TEST_WORKERS) -m "not suite" --durations=15

## Everything, the full matrix of templates, seeds and profiles included (two workers: its
## saturated-CPU tests run for many minutes, and the others beside them wait less). Each pass
## is written to $(FULL_PROGRESS); a run stopped part-way goes on with `make test-full RESUME=1`,
## which does not run again what passed at the same code, tests and run seed (tests/progress.py).
FULL_PROGRESS ?= runs/test-full.progress.jsonl
test-full: setup test-tools
	WEBENV_TEST_PROGRESS=$(FULL_PROGRESS) WEBENV_TEST_RESUME=$(RESUME) $(PYTEST) -n 2 --durations=25

## The tests that need no browser (seconds).
test-unit: setup
	$(BIN)/pytest -n 2 -m unit

## verifiers' adapter against its real library, in a virtualenv of its own: verifiers 0.4 needs
## an older openenv than the dev environment's (see tests/test_verifiers.py).
VF_VENV ?= .venv-verifiers
test-verifiers: setup $(VF_VENV)/.installed
	$(VF_VENV)/bin/pytest -p no:cacheprovider tests/test_verifiers.py

$(VF_VENV)/.installed: pyproject.toml setup.py
	$(PYTHON) -m venv $(VF_VENV)
	$(VF_VENV)/bin/python -m pip install --quiet --upgrade pip
	$(VF_VENV)/bin/python -m pip install --quiet -e '.[verifiers,server]' pytest pytest-timeout \
		pytest-xdist hypothesis
	touch $@

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
	rm -rf $(VENV) $(DEMO_VENV) runs build *.egg-info
