# Two entry points: `make demo` (set up, then explore an example) and `make test` (set up, then
# run the whole test suite). Both create the virtual environment .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test setup fuzz bench clean

$(BIN)/pathloom: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[test]'
	touch $(BIN)/pathloom

setup: $(BIN)/pathloom

demo: setup
	mkdir -p out
	$(BIN)/pathloom explore examples/multise_example.py::f --verify --tests out/test_multise_example.py --json out/multise_example.json
	$(BIN)/python -m pytest out/test_multise_example.py

test: setup
	$(BIN)/python -m pytest -p no:cacheprovider tests

fuzz: setup
	$(BIN)/python -m tests.differential.fuzz $(FUZZ_ARGS)

bench: setup
	$(BIN)/pip install --quiet crosshair-tool
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) out .pytest_cache
