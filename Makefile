# Orléans Online — developer commands. `make run` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test test-engine bench install migrate clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: $(STAMP)
	@if [ -f manage.py ]; then $(PY) manage.py migrate --noinput; fi

run: migrate
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

test: $(STAMP)
	$(PY) -m pytest

test-engine: $(STAMP)
	$(PY) -m pytest tests/engine

bench: $(STAMP)
	$(PY) -m engine.bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
