# Two commands matter: `make run` and `make test`. Both create the
# virtual environment they need on a machine that has only Python.
PYTHON ?= python3
VENV   ?= .venv
PY      = $(VENV)/bin/python
# `make run` installs only the server's packages; `make test` adds the test
# tools, the research extras (PettingZoo, OpenSpiel), Ray, matplotlib and OpenSkill that their tests use.
RUN_STAMP  = $(VENV)/.installed-run
STAMP      = $(VENV)/.installed-test

.PHONY: run test test-fast typecheck play bench clean browser playthroughs

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip

$(RUN_STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[server]'
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install -q -e '.[server,test,rl,ray,report,tournament]'
	touch $(STAMP)

# The main program: the web server on http://127.0.0.1:8000 (SQLite in ./var).
run: $(RUN_STAMP)
	$(VENV)/bin/thieves serve

# Headless Chromium from Debian for the end-to-end tests (skipped if present).
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  echo "installing Debian's chromium for the browser tests"; \
	  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	  || echo "warning: could not install chromium; browser tests will be skipped"; }

test: $(STAMP) browser typecheck
	$(PY) -m pytest -n 2 -p no:cacheprovider

# The inner loop: every test but the slow ones (browsers, long simulations,
# load runs; marked `slow`). `make test` still runs them all.
test-fast: $(STAMP)
	$(PY) -m pytest -n 2 -p no:cacheprovider -m "not slow"

# mypy as configured in pyproject.toml: strict for the whole package
# (a few seconds with its cache).
typecheck: $(STAMP)
	$(PY) -m mypy

# Record the seeded playthroughs again, on purpose (review the diff like code).
playthroughs: $(STAMP)
	$(PY) tests/playthroughs/test_playthroughs.py

play: run

bench: $(STAMP)
	$(VENV)/bin/thieves bench thiefs-market --seconds 10

clean:
	rm -rf $(VENV) build *.egg-info src/*.egg-info
