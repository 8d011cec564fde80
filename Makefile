# One entry point for every task. The first run of any target builds the
# virtual environment in .venv and installs the npm packages; later runs reuse them.
#
# What a caller sets (PYTHON, PORT, SOAK_ACTIONS, PAGES, CODE) reaches a recipe
# only through its environment, as "$$NAME" (never pasted into the command
# line, where a ';' would start another command), and each is checked before
# use; the paths below cannot be set from the command line at all
# (tests/project/test_project_makefile.py holds both).
PYTHON ?= python3
override VENV := .venv
override PY := $(VENV)/bin/python
override STAMP := $(VENV)/.installed
override NPM_STAMP := node_modules/.installed

.PHONY: setup serve build check check-browser lint test test-engine test-costs soak typecheck bench strength puzzles-check catalogs check-catalogs translated new-language clean

$(STAMP): export PYTHON := $(PYTHON)
$(STAMP): pyproject.toml sitegen/pyproject.toml
	"$$PYTHON" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]' -e sitegen
	touch $@

$(NPM_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

setup: $(STAMP) $(NPM_STAMP)

## Build the site into site/ and serve it with live reload at http://127.0.0.1:8000
## (PORT=8001 for another port)
PORT ?= 8000
serve: export PORT := $(PORT)
serve: setup
	@case "$$PORT" in ''|*[!0-9]*|0*) echo "make serve: PORT is a port number, such as 8001 (not '$$PORT')" >&2; exit 2;; esac; \
	test "$$PORT" -le 65535 || { echo "make serve: PORT is at most 65535 (not $$PORT)" >&2; exit 2; }; \
	$(VENV)/bin/mkdocs serve --dev-addr "127.0.0.1:$$PORT"

## Build the site into site/ (strict: any warning fails)
build: setup
	$(VENV)/bin/mkdocs build --strict

## The inner loop, for every change (at most 2 minutes on two quiet cores): the
## linters, the type checks (the engine's and the glue's, and the page code's with
## its lint), then every test that needs no site build, no browser and no Node (the
## engine, the examples and puzzles, the catalogs, the site glue's and the table
## renderer's units). `make test` stays the whole suite.
check: $(STAMP) lint check-browser
	$(VENV)/bin/mypy engine/dhumbal sitegen/dhumbal_site
	$(PY) -m pytest -n 2 --fast -q

## The linters alone: ruff over every Python file of the project (its rules in
## pyproject.toml), the GitHub workflows with actionlint (and shellcheck on their scripts)
lint: $(STAMP)
	$(VENV)/bin/ruff check --no-cache engine sitegen tests tools bench
	$(VENV)/bin/actionlint -no-color -shellcheck=$(VENV)/bin/shellcheck -pyflakes= .github/workflows/*.yml

## The page code in browser/: the page-worker types written from the engine's
## messages, then tsc --noEmit (strict) on the page side and on the worker, and
## Biome's lint and format check
check-browser: setup
	$(PY) -m dhumbal_site.runtime.tsprotocol
	node_modules/.bin/tsc --noEmit -p tsconfig.json
	node_modules/.bin/tsc --noEmit -p browser/worker/tsconfig.json
	node_modules/.bin/biome check browser

## Run every test: type check, engine, examples, site, Pyodide and browser.
## Three test processes on two cores: a browser test waits at times (a page's
## answer, a glide, a watchdog's deadline), and a third process fills those waits
## (the whole run 5 % shorter than with two, measured twice; four was slower again:
## 13 min 19 s against 11 min 53 s on a quiet clean clone, the run CPU-bound).
test: setup
	$(VENV)/bin/mypy engine/dhumbal sitegen/dhumbal_site
	$(PY) -m pytest -n 3

test-engine: $(STAMP)
	$(PY) -m pytest tests/engine -n 2

## Record what each test took in this checkout's last full run (tests/durations.json):
## the order, costliest first, that a fresh checkout's `make test` runs them in
test-costs: $(STAMP)
	$(PY) -m tests.testorder

## A long soak of random actions (the one in make test plays 200,000 per profile)
SOAK_ACTIONS ?= 3000000
soak: export SOAK_ACTIONS := $(SOAK_ACTIONS)
soak: $(STAMP)
	@case "$$SOAK_ACTIONS" in ''|*[!0-9]*) echo "make soak: SOAK_ACTIONS is a number of actions (not '$$SOAK_ACTIONS')" >&2; exit 2;; esac; \
	DHUMBAL_SOAK_ACTIONS="$$SOAK_ACTIONS" $(PY) -m pytest tests/engine/test_engine_soak.py -n 2 -q

typecheck: $(STAMP)
	$(VENV)/bin/mypy engine/dhumbal sitegen/dhumbal_site

## Print benchmark figures: deals per CPU second per profile and against the lean
## dashain loop; bot moves per second in Pyodide (Node) beside CPython; the bots'
## win shares with 95 % intervals (200 deals a table: `python -m bench.expert_bench --deals 2000`
## for the goals), its decision time and the call
## odds' time in CPython and Pyodide; the site build against a plain Material build
## of the same pages; then the browser runtime: boot time, bytes of a page view, bot
## moves, expert decisions and hints in the worker; the start-up goals: first
## and second visit, a visit offline, the first visit on an emulated 4G line; last,
## a page before Play against plain Material built from the same English Markdown
## (bytes, requests, first paint over an emulated phone line, Lighthouse's mobile
## scores) and Play -> first move (BASE=dir: beside that earlier build of the site)
bench: setup
	$(PY) -m dhumbal bench --lean bench/lean_dashain.py
	$(PY) -m bench.pyodide_bench
	$(PY) -m bench.expert_bench
	$(PY) -m bench.site_bench
	$(PY) -m bench.runtime_bench
	$(PY) -m bench.frontend_bench $${BASE:+--base "$$BASE"}

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
## locales/dhumbal.pot, write where each shows (locales/places.toml: a message
## from a file no place names stops here), and merge it into each language's
## catalog; the pages' titles and descriptions into locales/pages.pot, for Weblate
catalogs: $(STAMP)
	$(VENV)/bin/pybabel -q extract -F pyproject.toml -o locales/dhumbal.pot --omit-header \
		--sort-output --add-location=file --no-wrap --add-comments=TRANSLATORS: .
	$(PY) -m dhumbal_site.translation.places annotate
	$(PY) -m dhumbal_site.translation.pagemeta extract
	$(VENV)/bin/pybabel -q update -i locales/dhumbal.pot -d locales -D dhumbal \
		--no-fuzzy-matching --no-wrap --ignore-obsolete
	$(PY) -m dhumbal_site.translation.catalogs normalize
	-$(PY) -m dhumbal_site.translation.catalogs check

## Report what is missing or wrong in each catalog, every translated page that
## does not say everything the English page says (structure, generated content,
## length), every glossary entry a language lacks, every word the glossary
## rejects, a rule said wrongly, a word that agrees with a field it cannot know,
## and front matter that YAML misreads or that holds markup: each an `error:`
## line with its file and line, all of them repeated at the end (exit 1). A page
## whose English page changed since it was last updated, and what a language
## being translated still lacks, are `warning:` lines; QUIET=1 counts them instead
check-catalogs: $(STAMP)
	@$(PY) -m dhumbal_site.translation.checks $${QUIET:+--quiet}

## Record that translated pages follow the current English page (after updating
## them): make translated PAGES="fr/index.md nl/rules/dashain.md" (PAGES=fr: all of fr).
## A page that did not change while its English page did is refused; FORCE=1 records
## it anyway (an English change that does not touch the meaning, such as a typo)
translated: export PAGES := $(PAGES)
translated: $(STAMP)
	@test -n "$$PAGES" || { echo 'usage: make translated PAGES="fr/index.md nl/rules/dashain.md"'; exit 2; }
	@set -f; for page in $$PAGES; do case "$$page" in -*) echo "make translated: '$$page' is not a page" >&2; exit 2;; esac; done; \
	$(PY) -m dhumbal_site.translation.freshness record $(if $(FORCE),--force) $$PAGES

## Add a language, every mechanical step (catalog, pages, mkdocs.yml, glossary
## skeleton; see sitegen/dhumbal_site/translation/newlanguage.py): make new-language CODE=de
new-language: export CODE := $(CODE)
new-language: catalogs
	@test -n "$$CODE" || { echo "usage: make new-language CODE=xx"; exit 2; }
	@$(PY) -m dhumbal_site.translation.newlanguage "$$CODE"

clean:
	rm -rf site build dist .pytest_cache .mypy_cache
