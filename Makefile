# Two entry points: `make demo` (set up, then explore an example) and `make test` (set up, then
# run the whole test suite, in parallel on every core). Both create the virtual environment
# .venv on first use. `make check` is the fast loop: lint, type-check (mypy, set up in
# pyproject.toml), then the unit tier without the tests listed in tests/slow_tests.txt
# (`make slow-list` measures them again).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: demo test check lint slow-list setup fuzz bench clean docs

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
	$(BIN)/python -m pytest -p no:cacheprovider -n auto tests

lint: setup
	$(BIN)/ruff check pathloom tests benchmarks
	$(BIN)/ruff format --check pathloom tests benchmarks
	$(BIN)/mypy

check: lint
	$(BIN)/python -m pytest -p no:cacheprovider -n auto -m "unit and not slow" tests

slow-list: setup
	$(BIN)/python -m pytest -p no:cacheprovider -n auto -m unit --record-slow tests

fuzz: setup
	$(BIN)/python -m tests.differential.fuzz $(FUZZ_ARGS)

bench: setup
	$(BIN)/pip install --quiet crosshair-tool
	$(BIN)/python benchmarks/run.py

docs: setup
	$(BIN)/pip install --quiet -e '.[docs]'
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --site-dir out/site

clean:
	rm -rf $(VENV) out .pytest_cache
