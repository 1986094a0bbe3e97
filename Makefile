# Two entry points for a fresh machine: `make run` and `make test`.
# Everything is installed into a local virtual environment (.venv); system
# packages the aids need (Pango for PDF, poppler's pdftoppm and Chromium for the tests) come
# from scripts/install-system-deps.sh, which installs only what is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test
SYSTEM_STAMP := $(VENV)/.system-deps

.PHONY: run test test-long compile aids play battle benchmark fast pure clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(SYSTEM_STAMP): scripts/install-system-deps.sh | $(PY)
	bash scripts/install-system-deps.sh
	touch $@

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[pdf,balance,board]'
	touch $@

$(TEST_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

## run: compile every game, build the aids, play a short AI game, then say how to open the board
run: compile aids play battle
	@echo
	@echo "Play on a board in your browser:  $(PY) -m rulec serve   then open http://127.0.0.1:8000/"
	@echo "Play in this terminal:            $(PY) -m rulec play drive_on_metz   (docs/playing.md)"

compile: $(STAMP)
	$(PY) -m rulec compile games/*.rulec --out generated

## aids: the player aid card, tracks, OOB, counters, map and a balance sheet of a few AI games, per game
aids: $(STAMP) $(SYSTEM_STAMP)
	$(PY) -m rulec aids games/*.rulec --balance 6

play: $(STAMP)
	$(PY) -m rulec play drive_on_metz --player us=greedy --player germany=greedy --seed 1 --turns 2

battle: $(STAMP)
	$(PY) -m rulec battle engle_ww2_battle --side "Germany: panther/good, panzergrenadier/good, infantry" --side "Soviet: infantry x3, mortar, at-gun" --seed 1

## test: the whole suite but its long tier, on every core: pytest-xdist starts a worker process a core and each
## takes the next test as it frees up (worksteal: the tests last from milliseconds to half a minute).
## `make test TEST_WORKERS=0` runs it in one process (for debugging); `$(PY) -m pytest tests/test_x.py` runs one file
## in one process, without the workers' start-up.
TEST_WORKERS ?= auto
test: $(TEST_STAMP) $(SYSTEM_STAMP)
	$(PY) -m pytest -n $(TEST_WORKERS) --dist worksteal

## test-long: the suite's long tier, five hundred random games of each scenario of the big games through the
## engine's promises, on every core, played by the compiled engine it builds first (mypyc; pure Python where it
## cannot, or with RULEC_PURE=1). CI runs it after make test: six to seven minutes on two cores, more on a busy
## machine. On pytest-xdist's workers, as make test: one builds the compiled engine for all, and each batch of checked
## games gets the cores left to it (one on CI's two: tests/test_engine_conformance_long.py), so no core waits on a
## test that runs alone.
test-long: $(TEST_STAMP) $(SYSTEM_STAMP)
	$(PY) -m pytest -m long -n $(TEST_WORKERS) --dist worksteal --durations=10

benchmark: $(STAMP)
	$(PY) benchmarks/compile.py
	$(PY) benchmarks/loading.py
	$(PY) benchmarks/playouts.py
	$(PY) benchmarks/scaling.py
	$(PY) benchmarks/greedy.py
	$(PY) benchmarks/conformance.py

## fast: build the compiled engine in place (mypyc and Cython, a minute or two; needs a C compiler): `rulec --version` then says
## "compiled engine". RULEC_PURE=1 runs pure Python anyway; a source changed since the build runs pure Python too.
fast: $(STAMP)
	$(PY) -m pip install --quiet 'mypy>=1.8' 'cython>=3.0'
	RULEC_COMPILE=1 $(PY) setup.py --quiet build_ext --inplace
	$(PY) -m rulec --version

## pure: remove the compiled engine (the built extension modules and their record), back to pure Python only
pure:
	rm -rf build rulec/compiled_build.json rulec/engine/search_core.c
	find . -path ./$(VENV) -prune -o -name '*.so' -print -exec rm -f {} +

clean:
	rm -rf $(VENV) .pytest_cache build
