# Two entry points for a fresh machine: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
TEST_STAMP := $(VENV)/.installed-test

.PHONY: run test compile aids play benchmark clean

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e .
	touch $@

$(TEST_STAMP): pyproject.toml $(STAMP)
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

## run: compile every game, build the aids, play a short AI game
run: $(STAMP)
	$(PY) -m rulec compile games/*.rulec --out generated
	$(PY) -m rulec play drive_on_metz --player us=greedy --player germany=greedy --seed 1 --turns 2

## test: the whole suite
test: $(TEST_STAMP)
	$(PY) -m pytest

benchmark: $(STAMP)
	$(PY) benchmarks/compile.py

clean:
	rm -rf $(VENV) .pytest_cache
