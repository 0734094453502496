# `make play` and `make test` are all a fresh machine needs.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

CHROMIUM := /usr/bin/chromium

NODE_STAMP := node_modules/.installed

.PHONY: play test check regen regen-check lint typecheck jscheck bench golden clean postgresql lab

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# pip builds the compiled engine (src/bezique/fast, a C extension) with the package; a change to
# its sources rebuilds it.  BEZIQUE_REQUIRE_FAST makes a failed build an error here.
$(STAMP): $(BIN)/python pyproject.toml setup.py $(wildcard src/bezique/fast/*.c src/bezique/fast/*.h)
	$(BIN)/python -m pip install --quiet --upgrade pip
	BEZIQUE_REQUIRE_FAST=1 $(BIN)/python -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

# The browser game; the terminal game is `.venv/bin/bezique play`.
play: $(STAMP)
	@echo "bezique: open http://127.0.0.1:8000 in your browser (Ctrl-C stops the server)"
	$(BIN)/bezique serve --host 127.0.0.1 --port 8000 --data bezique-data

# The browser tests drive Debian's chromium (never a browser downloaded by a test tool).
$(CHROMIUM):
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else \
		echo "the browser tests need Debian's chromium: run 'sudo apt-get install chromium'"; exit 1; \
	fi

# The storage tests start a PostgreSQL server of their own (tests/conftest.py) from Debian's
# postgresql programs, and the cluster tests HAProxy in front of several nodes (haproxy);
# whatever services the packages set up are not used.
postgresql:
	@if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && [ -x /usr/sbin/haproxy ]; then \
		:; \
	elif [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql haproxy >/dev/null; \
	else \
		echo "the storage and cluster tests need PostgreSQL and HAProxy: run 'sudo apt-get install postgresql haproxy'"; exit 1; \
	fi

# The suite runs on TEST_WORKERS processes (pytest-xdist); tests that share one service (a local
# Ray instance, the browser) are kept on one worker by their xdist_group mark.  A worker that
# dies ends the run at once and names its test: pytest-xdist 3.8 replaces a dead worker under
# --dist loadgroup and then waits for it for ever (reported upstream:
# https://github.com/pytest-dev/pytest-xdist/issues/1323 and .../issues/1327).
TEST_WORKERS ?= 2

test: $(STAMP) $(CHROMIUM) postgresql lint typecheck jscheck regen-check
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --max-worker-restart 0

# The quick loop for contributors: lint, types and the tests that need no browser, PostgreSQL
# or Ray and take no more than a second or two each (the marks: pyproject.toml, tests/conftest.py).
CHECK_MARKS := not browser and not postgres and not ray and not slow

check: $(STAMP) lint typecheck
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup --max-worker-restart 0 -m "$(CHECK_MARKS)"

# Every generated file, written again from the code: `make regen` then `git status` shows what
# a change did to them.  regen-check writes nothing and fails on a stale file (the cheap
# generators; the fingerprint is compared by tests/test_fingerprint.py).
GENERATORS := make_golden make_perft make_fast_tables make_variant_tables

regen: $(STAMP)
	for g in $(GENERATORS) make_fingerprint; do $(BIN)/python scripts/$$g.py || exit 1; done

regen-check: $(STAMP)
	for g in $(GENERATORS); do $(BIN)/python scripts/$$g.py --check || exit 1; done

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks scripts lab
	$(BIN)/ruff format --check src tests benchmarks scripts lab

# The package and the laboratory as pyproject.toml says; the tests and the scripts strictly, in
# two runs (each has a conformance.py, which one run would take for the same module twice).
typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --strict tests
	$(BIN)/mypy --strict scripts

# The browser client's JavaScript: ESLint, TypeScript's checker on the JSDoc types (checkJs) and
# the unit tests (node:test); the tools come from the npm registry, pinned in package-lock.json.
$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null || { \
		if [ "$$(id -u)" = 0 ]; then \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nodejs npm >/dev/null; \
		else \
			echo "the client checks need Node.js: run 'sudo apt-get install nodejs npm'"; exit 1; \
		fi; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

jscheck: $(NODE_STAMP)
	npx --no-install eslint src/bezique/web tests/js eslint.config.js
	npx --no-install tsc -p tsconfig.json
	node --test tests/js/

# The laboratory alone (lab/README.md): its scripts linted and type-checked, its tests run.
# `make test` runs these tests too (pyproject.toml's testpaths).
lab: $(STAMP)
	$(BIN)/ruff check lab
	$(BIN)/ruff format --check lab
	$(BIN)/mypy lab
	$(BIN)/python -m pytest lab/tests

bench: $(STAMP)
	$(BIN)/python benchmarks/engine.py
	$(BIN)/python benchmarks/fast.py

golden: $(STAMP)
	$(BIN)/python scripts/make_golden.py

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache node_modules test-output
