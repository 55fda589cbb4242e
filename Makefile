# Layerlight: every target sets itself up (a .venv with pinned packages, the
# pinned npm packages) so it works on a fresh clone.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed

.PHONY: sim test bench cards setup clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

setup: $(STAMP) $(NODE_STAMP)

sim: $(STAMP)
	$(VENV)/bin/layerlight sim $(ARGS)

test: $(STAMP) $(NODE_STAMP)
	$(PY) -m pytest -q

bench: $(STAMP) $(NODE_STAMP)
	$(PY) tests/bench/run.py

cards: $(STAMP)
	$(VENV)/bin/layerlight cards build host_tools/sets/default.toml -o firmware/decks/default.deck

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis
