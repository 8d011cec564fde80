# One entry point for every task. The first run of any target builds the
# virtual environment in .venv and installs the npm packages; later runs reuse them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed

.PHONY: serve build test test-engine typecheck bench catalogs wheel clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

setup: $(STAMP) $(NPM_STAMP)

## Build the site into site/ and serve it with live reload at http://127.0.0.1:8000
serve: setup
	$(VENV)/bin/mkdocs serve --dev-addr 127.0.0.1:8000

## Build the site into site/ (strict: any warning fails)
build: setup
	$(VENV)/bin/mkdocs build --strict

## Run every test: type check, engine, examples, site, Pyodide and browser
test: setup
	$(VENV)/bin/mypy engine/dhumbal
	$(PY) -m pytest -n 2

test-engine: $(STAMP)
	$(PY) -m pytest tests/engine -n 2

typecheck: $(STAMP)
	$(VENV)/bin/mypy engine/dhumbal

## Print benchmark figures (deals per second, bot decision time)
bench: setup
	$(PY) -m dhumbal bench

clean:
	rm -rf site build dist .pytest_cache .mypy_cache
