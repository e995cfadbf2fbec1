# Peloton — the two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
HOST   ?= 127.0.0.1
PORT   ?= 8000
DOCS_PORT ?= 8001
BIN    := $(VENV)/bin
# What `make run` needs (the package and its runtime dependencies), and what `make test`
# adds (the dev extra: test tools, linters, the analysis, RL and Ray extras). A fresh
# `make run` installs the first only: the dev extra is four times its size.
RUN_STAMP := $(VENV)/.installed-run
DEV_STAMP := $(VENV)/.installed-dev
NATIVE    := $(wildcard src/peloton/native/*.c src/peloton/native/*.h)
# The engine-level suites, run a second time on the pure-Python engine by `make test`
# (the whole suite plays Mind Cycling on the native engine wherever it was built).
# The browser code's checker, TypeScript's tsc (package.json pins it; no build step):
# installed from package-lock.json again when either changes.
NODE_STAMP := node_modules/.installed
ENGINE_TESTS := tests/games/mindcycling tests/native tests/bots/test_mcts.py \
	tests/bots/test_mindcycling_games.py tests/bots/test_mindcycling_heuristics.py \
	tests/bots/test_strength.py tests/analysis/test_simulate.py

.PHONY: run play test docs lint typecheck jscheck bench bench-server clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The editable install compiles the native engine (hatch_build.py): again when its C changes.
$(RUN_STAMP): pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(DEV_STAMP): pyproject.toml $(NATIVE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(DEV_STAMP) $(RUN_STAMP)

$(NODE_STAMP): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(NODE_STAMP)

## run: start the web table on http://127.0.0.1:8000 (SQLite in your data directory)
run: $(RUN_STAMP)
	$(BIN)/peloton serve --host $(HOST) --port $(PORT)

## play: a terminal game of Mind Cycling against two bots
play: $(RUN_STAMP)
	$(BIN)/peloton play --seats human,greedy,greedy --riders 3 --course short

## test: lint (ruff check and format), type-check (mypy, then tsc on the browser code), build the documentation site strictly (a link,
## an anchor or a page that leads nowhere fails) and run the whole suite (the server tests also run on a
## local PostgreSQL, made ready by scripts/test-postgres.sh; the browser tests drive Debian's Chromium,
## made ready by scripts/test-chromium.sh, or they fail saying why it could not be; the cluster tests
## start private redis-server processes, installed by scripts/test-redis.sh), then the engine-level
## suites again on the pure-Python engine
test: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	$(MAKE) --no-print-directory jscheck
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --strict --quiet
	scripts/test-chromium.sh >/dev/null || true
	scripts/test-redis.sh >/dev/null || true
	url="$$(scripts/test-postgres.sh)" && PELOTON_TEST_PG_URL="$$url" $(BIN)/python -m pytest -n 2 -q
	PELOTON_ENGINE=python $(BIN)/python -m pytest -n 2 -q $(ENGINE_TESTS)

## docs: serve the documentation site on http://127.0.0.1:8001, rebuilt as its pages change
docs: $(DEV_STAMP)
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs serve --strict --dev-addr $(HOST):$(DOCS_PORT)

lint: $(DEV_STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(DEV_STAMP)
	$(BIN)/mypy

## jscheck: type-check the browser code (src/peloton/web/js: each file marked `// @ts-check`)
jscheck: $(NODE_STAMP)
	npx tsc --noEmit -p .

bench: $(DEV_STAMP)
	$(BIN)/python benchmarks/mindcycling_playout.py

bench-server: $(DEV_STAMP)
	$(BIN)/python benchmarks/server_load.py

clean:
	rm -rf $(VENV) site .pytest_cache .mypy_cache .ruff_cache .hypothesis
