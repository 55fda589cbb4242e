# Layerlight: every target sets itself up (a .venv with pinned packages, the
# pinned npm packages) so it works on a fresh clone.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: sim test bench cards setup clean

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

# npm ci also applies patches/ (patch-package, the package's postinstall)
$(NODE_STAMP): package.json package-lock.json $(wildcard patches/*.patch)
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

setup: $(STAMP) $(NODE_STAMP)

sim: $(STAMP)
	$(VENV)/bin/layerlight sim $(ARGS)

.PHONY: sim-web
sim-web: $(STAMP) $(NODE_STAMP)
	$(VENV)/bin/layerlight sim --web $(ARGS)

# Debian's chromium, for the browser test (tests/test_web_sim.py); the
# executable is its own stamp: installed only when it is missing.
$(CHROMIUM):
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

test: $(CHROMIUM)

test: $(STAMP) $(NODE_STAMP)
	$(PY) -m pytest -q

bench: $(STAMP) $(NODE_STAMP)
	$(PY) tests/bench/run.py

cards: $(STAMP)
	$(VENV)/bin/layerlight cards build host_tools/sets/default.toml -o firmware/decks/default.deck
	$(VENV)/bin/layerlight cards build host_tools/sets/otlo.toml -o firmware/decks/otlo.deck

# hardware/: the drawings and tables generated from boards.py, bom.csv and the
# power model, and the enclosure's preview by Debian's openscad (installed when
# missing; xvfb-run gives it the display it needs on a server).
.PHONY: hardware
hardware: $(STAMP)
	$(VENV)/bin/layerlight hardware
	command -v openscad >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y openscad)
	command -v xvfb-run >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y xvfb xauth)
	xvfb-run -a openscad -o hardware/enclosure/preview.png --imgsize=1200,900 \
		--camera=0,-40,20,55,0,25,700 --colorscheme=Tomorrow hardware/enclosure/layerlight.scad

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis
