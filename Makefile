# Layerlight: every target sets itself up (a .venv with pinned packages, the
# pinned npm packages) so it works on a fresh clone.

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NODE_STAMP := node_modules/.installed
CHROMIUM := /usr/bin/chromium

.PHONY: sim test bench cards setup clean uf2 uf2-pico2

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

# --- the Layerlight UF2: MicroPython v1.28 for the Pico with the firmware frozen in --------
# `make uf2` builds the rp2 port of MicroPython v1.28.0 for uf2/boards/LAYERLIGHT_PICO (RPI_PICO
# plus a ROMFS partition for the decks) with uf2/manifest.py frozen in; layerlight_tools.uf2
# adds the decks' ROMFS image. MicroPython's source comes from, in order:
#   MICROPYTHON=DIR   a checkout of the v1.28.0 tag with its submodules (built in place);
#   MPY_TARBALL=FILE  a source tarball (mpsrc-v1.28.0.tar.xz, unpacked under build/); by
#                     default the one beside the repository, where it exists;
#   neither           a shallow clone of the tag (and the rp2 port's submodules) into build/,
#                     which needs the network once; pico-sdk then downloads and builds its
#                     host picotool too (the tarball brings picotool's source instead).
# Offline with none of them it stops with one line naming the three. With nothing changed
# it does nothing: the port is only rebuilt when a firmware file, a manifest, a board file,
# a deck or the version changed.
# `make uf2-pico2`: the same for the Pico 2 (RP2350), build/layerlight-pico2.uf2.
# `make dist`: dist/layerlight-pico-VERSION.uf2 and its .sha256, the files a release attaches.
MPY_TAG := v1.28.0
MPY_TARBALL ?= ../shared/micropython/mpsrc-$(MPY_TAG).tar.xz
MPY_GIT_URL ?= https://github.com/micropython/micropython.git
GIT ?= git
MPY_CLONE := build/micropython-$(MPY_TAG)
MPY_NO_SOURCE := make uf2 needs MicroPython $(MPY_TAG)'s source: give MICROPYTHON=DIR (a checkout of \
	the $(MPY_TAG) tag with its submodules), MPY_TARBALL=FILE (mpsrc-$(MPY_TAG).tar.xz), or the \
	network to clone $(MPY_GIT_URL) into build/
ifneq ($(MICROPYTHON),)
MPY_SOURCE := dir
else ifneq ($(wildcard $(MPY_TARBALL)),)
MPY_SOURCE := tarball
MICROPYTHON := build/mpsrc
else ifneq ($(filter command line environment,$(origin MPY_TARBALL)),)
MPY_SOURCE := missing
MICROPYTHON := build/mpsrc
else
MPY_SOURCE := clone
MICROPYTHON := $(MPY_CLONE)
endif
# what a goal that builds the UF2 needs: checked when it is asked for (make test does not ask
# unless the source is at hand, see UF2_IF_SOURCE), each failure one line
UF2_GOALS := $(filter uf2 uf2-pico2 dist soak build/% dist/%,$(MAKECMDGOALS))
ifneq ($(UF2_GOALS),)
ifeq ($(MPY_SOURCE),dir)
ifeq ($(wildcard $(MICROPYTHON)/ports/rp2/Makefile),)
$(error MICROPYTHON=$(MICROPYTHON) is not a MicroPython source tree (no ports/rp2/Makefile there))
endif
else ifeq ($(MPY_SOURCE),missing)
$(error MPY_TARBALL=$(MPY_TARBALL): no such file ($(MPY_NO_SOURCE)))
else ifeq ($(MPY_SOURCE),clone)
ifeq ($(wildcard $(MPY_CLONE)/.cloned),)
# the network, asked once before anything is cloned (no answer in 60 s counts as offline)
ifneq ($(shell timeout 60 $(GIT) ls-remote --exit-code $(MPY_GIT_URL) refs/tags/$(MPY_TAG) >/dev/null 2>&1 && echo yes),yes)
$(error offline: $(MPY_NO_SOURCE))
endif
endif
endif
endif
UF2_JOBS ?= 2
UF2 ?= build/layerlight-pico.uf2
UF2_PICO2 := build/layerlight-pico2.uf2
MPY_DIR := $(abspath $(MICROPYTHON))
# the step that brings the source: the tarball unpacked or the tag cloned (a tree given: none)
MPY_UNPACKED := $(if $(filter tarball missing,$(MPY_SOURCE)),build/mpsrc/.unpacked,$(if $(filter clone,$(MPY_SOURCE)),$(MPY_CLONE)/.cloned))
MPY_CROSS := $(MPY_DIR)/mpy-cross/build/mpy-cross
# pico-sdk 2.x needs a host picotool; the tarball brings its source (without it cmake
# would download one). A tree without offline-tools/picotool leaves that to pico-sdk.
PICOTOOL_SRC := $(MPY_DIR)/offline-tools/picotool
PICOTOOL_DIR := $(MPY_DIR)/offline-tools/picotool-install/picotool
PICOTOOL := $(if $(wildcard $(PICOTOOL_SRC))$(filter tarball,$(MPY_SOURCE)),$(PICOTOOL_DIR)/picotool)
# Debian's Arm toolchain (installed when missing, with cmake, a host compiler and xz, before
# anything is unpacked or built); libstdc++ for the C++ file pico-sdk compiles
ARM_GCC := /usr/bin/arm-none-eabi-gcc
ARM_LIBSTDCXX := /usr/lib/arm-none-eabi/newlib/libstdc++.a
# the sub-makes get none of this make's variables (FROZEN_MANIFEST in mpy-cross's
# environment breaks its link), the port only what is on its command line
SUBMAKE := env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u FROZEN_MANIFEST $(if $(PICOTOOL),picotool_DIR=$(PICOTOOL_DIR)) $(MAKE)
FIRMWARE_PY := $(shell find firmware -name '*.py' -not -path '*/__pycache__/*' 2>/dev/null)
DECKS := $(wildcard firmware/decks/*.deck)
VERSION_PY := build/uf2/layerlight_build.py
FROZEN_INPUTS := $(FIRMWARE_PY) manifest.py uf2/manifest.py uf2/main.py $(VERSION_PY)

uf2: $(UF2)
uf2-pico2: $(UF2_PICO2)

build/mpsrc/.unpacked: $(MPY_TARBALL) | $(ARM_GCC)
	rm -rf build/mpsrc
	mkdir -p build
	tar -xJf $(MPY_TARBALL) -C build
	touch $@

# the tag alone (--depth 1), then the submodules the rp2 port needs (pico-sdk, tinyusb, mbedtls,
# micropython-lib: its own `make submodules`, which asks cmake and so needs the toolchain)
$(MPY_CLONE)/.cloned: | $(ARM_GCC)
	rm -rf $(MPY_CLONE)
	mkdir -p build
	$(GIT) -c advice.detachedHead=false clone --depth 1 --branch $(MPY_TAG) $(MPY_GIT_URL) $(MPY_CLONE)
	$(SUBMAKE) -C $(MPY_CLONE)/ports/rp2 submodules
	touch $@

$(ARM_GCC) $(ARM_LIBSTDCXX):
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y gcc-arm-none-eabi \
		libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib cmake build-essential xz-utils
	touch -c $(ARM_GCC) $(ARM_LIBSTDCXX)

$(PICOTOOL_DIR)/picotool: $(MPY_UNPACKED) | $(ARM_GCC)
	cmake -S $(PICOTOOL_SRC) -B $(MPY_DIR)/offline-tools/picotool-build -DCMAKE_BUILD_TYPE=Release \
		-DPICO_SDK_PATH=$(MPY_DIR)/lib/pico-sdk -DPICOTOOL_NO_LIBUSB=1 -DPICOTOOL_FLAT_INSTALL=1 \
		-DCMAKE_INSTALL_PREFIX=$(MPY_DIR)/offline-tools/picotool-install
	cmake --build $(MPY_DIR)/offline-tools/picotool-build -j $(UF2_JOBS)
	cmake --install $(MPY_DIR)/offline-tools/picotool-build
	touch $@

$(MPY_CROSS): $(MPY_UNPACKED) | $(ARM_GCC)
	$(SUBMAKE) -C $(MPY_DIR)/mpy-cross -j$(UF2_JOBS)
	touch $@

# the project's version, frozen in: rewritten only when it changes (a new commit)
$(VERSION_PY): FORCE $(STAMP)
	@$(PY) -m layerlight_tools.uf2 version $@

.PHONY: FORCE
FORCE:

# $(1): board, $(2): the UF2 made
define UF2_RULES
$(MPY_DIR)/ports/rp2/build-$(1)/firmware.uf2: $(FROZEN_INPUTS) $(wildcard uf2/boards/$(1)/*) uf2/boards/layerlight_pystack.h $(MPY_CROSS) $(PICOTOOL) $(ARM_GCC) $(ARM_LIBSTDCXX)
	$(SUBMAKE) -C $(MPY_DIR)/ports/rp2 -j$(UF2_JOBS) BOARD_DIR=$(abspath uf2/boards/$(1)) \
		FROZEN_MANIFEST=$(abspath uf2/manifest.py)
	touch $$@

$(2): $(MPY_DIR)/ports/rp2/build-$(1)/firmware.uf2 $(DECKS) host_tools/layerlight_tools/uf2.py $(STAMP)
	$(PY) -m layerlight_tools.uf2 assemble --board-dir uf2/boards/$(1) --firmware $$< --decks firmware/decks -o $$@
endef
$(eval $(call UF2_RULES,LAYERLIGHT_PICO,$(UF2)))
$(eval $(call UF2_RULES,LAYERLIGHT_PICO2,$(UF2_PICO2)))

# Debian's chromium, for the browser test (tests/test_web_sim.py); the
# executable is its own stamp: installed only when it is missing.
$(CHROMIUM):
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y chromium

test: $(CHROMIUM)

# Debian's openscad, for the enclosure's test (tests/test_enclosure.py renders the parts to STL)
OPENSCAD := /usr/bin/openscad
$(OPENSCAD):
	apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y openscad

test: $(OPENSCAD)

# the UF2 where its source is at hand (a tarball, or MICROPYTHON=a tree), never a clone: a
# fresh clone with neither runs everything else and the UF2's tests skip (tests/uf2_fixture.py),
# as the emulated Pico's do without ../shared/rp2; `make uf2` first, and they run
UF2_IF_SOURCE := $(if $(filter tarball dir,$(MPY_SOURCE)),$(UF2))

test: $(UF2_IF_SOURCE)

# Every test, spread over this machine's cores (pytest-xdist; tests/conftest.py keeps the tests
# that share a fixture on one worker and starts the emulated chip's first); it ends with the ten
# slowest tests and the total. TEST_WORKERS=1 runs them in one process.
TEST_WORKERS ?= auto
PYTEST_PARALLEL = -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder
test: $(STAMP) $(NODE_STAMP)
	$(PY) -m pytest -q $(PYTEST_PARALLEL) --durations=10 --durations-min=1 $(PYTEST_ARGS)

# The edit-test loop: the CPython and WebAssembly MicroPython tests alone, none that runs the
# emulated RP2040 or needs the UF2 (marked `chip`) or drives Chromium (`browser`); make test
# stays the whole proof CI runs.
.PHONY: quick
quick: $(STAMP) $(NODE_STAMP)
	$(PY) -m pytest -q $(PYTEST_PARALLEL) -m "not chip and not browser" --durations=10 --durations-min=1 $(PYTEST_ARGS)

bench: $(STAMP) $(NODE_STAMP) $(UF2_IF_SOURCE)
	$(PY) tests/bench/run.py

# the emulated power cuts at seeded moments, SOAK_SEEDS new seeds (make test cuts at a fixed
# list); a reproducer line for every failure (tests/soak.py)
# and the device fuzzer (tests/test_fuzz_device.py) with new random examples, FUZZ_EXAMPLES of them
# (make test runs it with a fixed seed), and the whole unpaced CO.OP game at 16x16 that make test
# plays at 32x32 only (tests/test_emulated_journal.py), and layer cards read from synthetic photos,
# PHOTO_SEEDS a grid size, material, table and light (the rates docs/decks.md quotes; make test
# reads a fixed seed a size)
SOAK_SEEDS ?= 10
FUZZ_EXAMPLES ?= 300
PHOTO_SEEDS ?= 3
.PHONY: soak
soak: $(STAMP) $(NODE_STAMP) $(UF2)
	LAYERLIGHT_FUZZ_SEED=random FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) $(PY) -m pytest -q tests/test_fuzz_device.py
	LAYERLIGHT_SOAK=1 $(PY) -m pytest -q tests/test_emulated_journal.py -k coop-16
	$(PY) tests/soak.py --seeds $(SOAK_SEEDS)
	LAYERLIGHT_PHOTO_SWEEP=$(PHOTO_SEEDS) $(PY) -m pytest -q -s tests/test_layer_photo.py -k sweep

# the UF2 a release attaches, named for the version frozen into it, and its SHA-256
.PHONY: dist
dist: $(UF2)
	$(PY) -m layerlight_tools.uf2 dist $(UF2) --version-module $(VERSION_PY) -o dist

cards: $(STAMP)
	$(VENV)/bin/layerlight cards build host_tools/sets/default.toml -o firmware/decks/default.deck
	$(VENV)/bin/layerlight cards build host_tools/sets/otlo.toml -o firmware/decks/otlo.deck

# hardware/: the drawings and tables generated from boards.py, bom.csv and the
# power model, and the enclosure's preview by Debian's openscad (installed when
# missing; xvfb-run gives it the display it needs on a server).
.PHONY: hardware
hardware: $(STAMP) $(OPENSCAD)
	$(VENV)/bin/layerlight hardware
	command -v xvfb-run >/dev/null || (apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y xvfb xauth)
	xvfb-run -a openscad -o hardware/enclosure/preview.png --imgsize=1200,900 \
		--camera=0,-40,20,55,0,25,700 --colorscheme=Tomorrow hardware/enclosure/layerlight.scad
	xvfb-run -a openscad -o hardware/enclosure/inside.png --imgsize=1200,900 -D 'part="inside"' \
		--camera=25,-10,0,22,0,-20,760 --colorscheme=Tomorrow hardware/enclosure/layerlight.scad
	xvfb-run -a openscad -o hardware/enclosure/inside-32x32.png --imgsize=1200,900 -D 'part="inside"' \
		-D cells=32 -D label_turn=180 --camera=0,20,0,40,0,160,1150 --colorscheme=Tomorrow \
		hardware/enclosure/layerlight.scad
	cd hardware/enclosure && sha256sum layerlight.scad > pictures.sha256

clean:
	rm -rf $(VENV) node_modules .pytest_cache .hypothesis build dist
