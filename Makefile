# `make run`  : create .venv, install, start the app on http://127.0.0.1:8501 (server.py: the page plus /inspector/health and /inspector/metrics)
# `make test` : create .venv, install everything (Python packages, Debian's chromium), run every test
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test test-fast bench bench-all bench-heavy install system-deps clean

$(BIN)/python:
	$(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[app,test,scale,bench,guard,litellm,langchain]'
	touch $(STAMP)

install: $(STAMP)

# Debian packages the browser tests need; skipped when already present.
system-deps:
	@./scripts/system-deps.sh

run: install
	$(BIN)/streamlit run server.py --server.address 127.0.0.1 --server.port 8501

test: install system-deps
	$(BIN)/python -m pytest -q

test-fast: install
	$(BIN)/python -m pytest -q -m "not e2e and not postgres"

# Engine benchmarks (a minute or two); `make bench-all` adds the browser ones (several minutes).
bench: install
	$(BIN)/python benchmarks/bench_check.py
	$(BIN)/python benchmarks/bench_repair.py
	$(BIN)/python benchmarks/bench_dialects.py

bench-all: bench system-deps
	$(BIN)/python benchmarks/bench_browser.py
	$(BIN)/python benchmarks/bench_load.py

# fit against LangChain's trimmer, hostile shapes (multi-GB transcripts) and the dataset scan (3 GB
# of temporary JSON Lines): long, and times; run them on a machine doing nothing else.
bench-heavy: install
	$(BIN)/python benchmarks/bench_fit.py
	$(BIN)/python benchmarks/bench_hostile.py
	$(BIN)/python benchmarks/bench_scan.py

clean:
	rm -rf $(VENV) build *.egg-info
