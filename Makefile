# Orléans Online — developer commands. `make run` and `make test` work on a fresh clone.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test test-engine lint bench install migrate messages clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $(STAMP)

install: $(STAMP)

migrate: $(STAMP)
	@if [ -f manage.py ]; then $(PY) manage.py migrate --noinput; fi

# Links in emails point at the address the site is served on (SITE_URL, .env.example).
run: export SITE_URL ?= http://127.0.0.1:$(PORT)
# Debug mode (and the development secret key) only for `make run`: DJANGO_DEBUG defaults to off.
run: export DJANGO_DEBUG ?= 1
run: migrate
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

test: $(STAMP)
	$(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/ruff check .

# Japanese catalogs (issue 11): locale/ (templates/, orleans_site/), games/locale/,
# notifications/locale/. Needs GNU gettext; the compiled .mo files are committed, so `make run`
# on a fresh clone shows Japanese without it. File-only locations keep merges small.
MESSAGE_FLAGS := -l ja --add-location=file --no-obsolete --ignore=.venv --ignore=tests --ignore=env --ignore=docs
messages: export DJANGO_DEBUG ?= 1
messages: $(STAMP)
	$(PY) manage.py makemessages $(MESSAGE_FLAGS)
	@find . -path ./.venv -prune -o -name django.po -exec sed -i "/^\"POT-Creation-Date/d" {} +
	$(PY) manage.py compilemessages --ignore=.venv
	@for po in $$(find . -path ./.venv -prune -o -name django.po -print); do printf '%s: ' $$po; msgfmt --statistics -o /dev/null $$po; done

test-engine: $(STAMP)
	$(PY) -m pytest tests/engine

# Site figures use a scratch database: PostgreSQL (database orleans_bench) when it answers on
# 127.0.0.1:5432, else a SQLite file; the worker latency needs PostgreSQL and Redis.
BENCH_PG_URL ?= postgres://postgres@127.0.0.1:5432/orleans_bench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/14

bench: export DJANGO_DEBUG ?= 1
bench: $(STAMP)
	$(PY) -m engine.bench
	@db="sqlite:///$(CURDIR)/.bench.sqlite3"; redis_url=""; \
	if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then \
	  dropdb -h 127.0.0.1 -U postgres --if-exists orleans_bench 2>/dev/null; \
	  createdb -h 127.0.0.1 -U postgres orleans_bench 2>/dev/null; db="$(BENCH_PG_URL)"; \
	  if redis-cli -u "$(BENCH_REDIS_URL)" ping >/dev/null 2>&1; then redis_url="$(BENCH_REDIS_URL)"; fi; \
	fi; \
	export DATABASE_URL="$$db" REDIS_URL="$$redis_url"; \
	$(PY) manage.py migrate --noinput >/dev/null && $(PY) manage.py bench_async && $(PY) manage.py bench_sittings

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
