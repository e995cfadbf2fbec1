# Peloton — the two commands a newcomer needs: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
# The engine-level suites, run a second time on the pure-Python engine by `make test`
# (the whole suite plays Mind Cycling on the native engine wherever it was built).
ENGINE_TESTS := tests/games/mindcycling tests/native tests/bots/test_mcts.py \
	tests/bots/test_mindcycling_games.py tests/bots/test_mindcycling_heuristics.py \
	tests/bots/test_strength.py tests/analysis/test_simulate.py

.PHONY: run play test lint typecheck bench bench-server clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The editable install compiles the native engine (hatch_build.py): again when its C changes.
$(STAMP): pyproject.toml $(wildcard src/peloton/native/*.c src/peloton/native/*.h) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

## run: start the web table on http://127.0.0.1:8000 (SQLite in your data directory)
run: $(STAMP)
	$(BIN)/peloton serve --host 127.0.0.1 --port 8000

## play: a terminal game of Mind Cycling against two bots
play: $(STAMP)
	$(BIN)/peloton play --seats human,greedy,greedy --riders 3 --course short

## test: lint (ruff check and format), type-check and run the whole suite (the server tests also run on a
## local PostgreSQL, made ready by scripts/test-postgres.sh; the browser tests drive Debian's Chromium,
## made ready by scripts/test-chromium.sh, or they fail saying why it could not be; the cluster tests
## start private redis-server processes, installed by scripts/test-redis.sh), then the engine-level
## suites again on the pure-Python engine
test: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy
	scripts/test-chromium.sh >/dev/null || true
	scripts/test-redis.sh >/dev/null || true
	url="$$(scripts/test-postgres.sh)" && PELOTON_TEST_PG_URL="$$url" $(BIN)/python -m pytest -n 2 -q
	PELOTON_ENGINE=python $(BIN)/python -m pytest -n 2 -q $(ENGINE_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python benchmarks/mindcycling_playout.py

bench-server: $(STAMP)
	$(BIN)/python benchmarks/server_load.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache .hypothesis
