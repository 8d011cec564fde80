# One entry point for every task. The first run of any target builds the
# virtual environment in .venv and installs the npm packages; later runs reuse them.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NPM_STAMP := node_modules/.installed

.PHONY: setup serve build check test test-engine test-costs soak typecheck bench strength puzzles-check catalogs check-catalogs translated new-language clean

$(STAMP): pyproject.toml sitegen/pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]' -e sitegen
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

## The inner loop, for every change (about 2 minutes on two cores): the type check,
## then every test that needs no site build, no browser and no Node (the engine,
## the examples and puzzles, the catalogs, the site glue's and the table
## renderer's units). `make test` stays the whole suite.
check: $(STAMP)
	$(VENV)/bin/mypy engine/dhumbal
	$(PY) -m pytest -n 2 --fast -q

## Run every test: type check, engine, examples, site, Pyodide and browser.
## Three test processes on two cores: a browser test waits at times (a page's
## answer, a glide, a watchdog's deadline), and a third process fills those waits
## (the whole run 5 % shorter than with two, measured twice; four was slower again:
## 13 min 19 s against 11 min 53 s on a quiet clean clone, the run CPU-bound).
test: setup
	$(VENV)/bin/mypy engine/dhumbal
	$(PY) -m pytest -n 3

test-engine: $(STAMP)
	$(PY) -m pytest tests/engine -n 2

## Record what each test took in this checkout's last full run (tests/durations.json):
## the order, costliest first, that a fresh checkout's `make test` runs them in
test-costs: $(STAMP)
	$(PY) tests/sitekit.py

## A long soak of random actions (the one in make test plays 200,000 per profile)
SOAK_ACTIONS ?= 3000000
soak: $(STAMP)
	DHUMBAL_SOAK_ACTIONS=$(SOAK_ACTIONS) $(PY) -m pytest tests/engine/test_engine_soak.py -n 2 -q

typecheck: $(STAMP)
	$(VENV)/bin/mypy engine/dhumbal

## Print benchmark figures: deals per CPU second per profile and against the lean
## dashain loop; bot moves per second in Pyodide (Node) beside CPython; the bots'
## win shares with 95 % intervals (200 deals a table: `bench/expert_bench.py --deals 2000`
## for the goals), its decision time and the call
## odds' time in CPython and Pyodide; the site build against a plain Material build
## of the same pages; then the browser runtime: boot time, bytes of a page view, bot
## moves, expert decisions and hints in the worker; last, the start-up goals: first
## and second visit, a visit offline, the first visit on an emulated 4G line
bench: setup
	$(PY) -m dhumbal bench --lean bench/lean_dashain.py
	$(PY) bench/pyodide_bench.py
	$(PY) bench/expert_bench.py
	$(PY) bench/site_bench.py
	$(PY) bench/runtime_bench.py

## Measure the bots' win shares that the rules pages show (2,000 seeded deals a
## table, eighteen tables: about half an hour of CPU) into the committed figures file
strength: setup
	$(PY) -m dhumbal.lab.strength --deals 2000 --out sitegen/dhumbal_site/content/strength.json

## Grade every puzzle again with a seed of its own: each answer must still be the
## best move by the margin its file states, and a generated puzzle's bot levels must
## still find (or miss) it as its file says (a few minutes of CPU; a test does 20 a run)
puzzles-check: $(STAMP)
	$(PY) -m dhumbal check puzzles/

## Extract every message (engine, site glue, templates, examples) into
## locales/dhumbal.pot and merge it into each language's catalog
catalogs: $(STAMP)
	$(VENV)/bin/pybabel -q extract -F pyproject.toml -o locales/dhumbal.pot --omit-header \
		--sort-output --add-location=file --no-wrap --add-comments=TRANSLATORS: .
	$(VENV)/bin/pybabel -q update -i locales/dhumbal.pot -d locales -D dhumbal \
		--no-fuzzy-matching --no-wrap --ignore-obsolete
	$(PY) -m dhumbal_site.translation.catalogs normalize
	-$(PY) -m dhumbal_site.translation.catalogs check

## Report what is missing or wrong in each catalog, every translated page that
## does not say everything the English page says (structure, generated content,
## length), every glossary entry a language lacks, every word the glossary
## rejects, and front matter that YAML misreads or that holds markup (exit 1 if
## anything is found); a page whose English page changed since it was last
## updated, and what a language being translated (dhumbal_partial) still lacks,
## are warnings
check-catalogs: $(STAMP)
	@status=0; \
	$(PY) -m dhumbal_site.translation.catalogs check || status=1; \
	$(PY) -m dhumbal_site.translation.parity || status=1; \
	$(PY) -m dhumbal_site.translation.freshness check || status=1; \
	$(PY) -m dhumbal_site.content.generated glossary || status=1; \
	$(PY) -m dhumbal_site.translation.terminology || status=1; \
	$(PY) -m dhumbal_site.translation.frontmatter || status=1; \
	exit $$status

## Record that translated pages follow the current English page (after updating
## them): make translated PAGES="fr/index.md nl/rules/dashain.md" (PAGES=fr: all of fr).
## A page that did not change while its English page did is refused; FORCE=1 records
## it anyway (an English change that does not touch the meaning, such as a typo)
translated: $(STAMP)
	@test -n "$(PAGES)" || { echo 'usage: make translated PAGES="fr/index.md nl/rules/dashain.md"'; exit 2; }
	@$(PY) -m dhumbal_site.translation.freshness record $(if $(FORCE),--force) $(PAGES)

## Add a language, every mechanical step (catalog, pages, mkdocs.yml, glossary
## skeleton; see sitegen/dhumbal_site/translation/newlanguage.py): make new-language CODE=de
new-language: catalogs
	@test -n "$(CODE)" || { echo "usage: make new-language CODE=xx"; exit 2; }
	@$(PY) -m dhumbal_site.translation.newlanguage $(CODE)

clean:
	rm -rf site build dist .pytest_cache .mypy_cache
