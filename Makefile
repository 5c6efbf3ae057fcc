# Orléans Online — developer commands. `make run` and `make test` work on a fresh clone.
# The interpreter the virtual environment is made from: the system's CPython 3.11 when it can
# make one (Debian's, with the python3.11-venv package), else python3; `make PYTHON=...` picks
# another. Debian builds it with profile-guided and link-time optimisation: it plays the
# engine's games about a sixth faster than pyenv's default source build of 3.11 and serves
# the pages faster too (docs/performance.md, 2026-12-07). An existing .venv is kept: `make
# clean` first to move it to another interpreter.
PYTHON ?= $(shell /usr/bin/python3.11 -c 'import ensurepip, venv' >/dev/null 2>&1 && echo /usr/bin/python3.11 || echo python3)
VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
STAMP := $(VENV)/.installed

.PHONY: run test test-engine lint bench bench-pages install migrate messages clean

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

# Site figures use a scratch database: PostgreSQL (database $(BENCH_DB)) when it answers on
# 127.0.0.1:5432, else a SQLite file; the worker latency needs PostgreSQL and Redis. The page
# figures (bench_pages, last: its final line is issue 14's JSON) serve gunicorn on BENCH_PORT.
# `make bench-pages` runs those alone (BENCH_ARGS=--quick: about a minute).
BENCH_DB ?= orleans_bench
BENCH_PG_URL ?= postgres://postgres@127.0.0.1:5432/$(BENCH_DB)
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/14
BENCH_PORT ?= 8107
BENCH_ARGS ?=
# A fresh scratch database (and an empty scratch Redis database: no task of an older run), then DATABASE_URL,
# REDIS_URL and CACHE_URL (that same Redis database: production caches in Redis) exported for the rest of the line.
define BENCH_SCRATCH
db="sqlite:///$(CURDIR)/.bench.sqlite3"; redis_url=""; \
if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null; then \
  dropdb -h 127.0.0.1 -U postgres --if-exists $(BENCH_DB) 2>/dev/null; \
  createdb -h 127.0.0.1 -U postgres $(BENCH_DB) 2>/dev/null; db="$(BENCH_PG_URL)"; \
  if redis-cli -u "$(BENCH_REDIS_URL)" ping >/dev/null 2>&1; then \
    redis-cli -u "$(BENCH_REDIS_URL)" flushdb >/dev/null; redis_url="$(BENCH_REDIS_URL)"; \
  fi; \
fi; \
export DATABASE_URL="$$db" REDIS_URL="$$redis_url" CACHE_URL="$$redis_url"; \
$(PY) manage.py migrate --noinput >/dev/null
endef

bench: export DJANGO_DEBUG ?= 1
bench: $(STAMP)
	$(PY) -m engine.bench
	@$(BENCH_SCRATCH) && $(PY) manage.py bench_async && $(PY) manage.py bench_sittings \
	  && $(PY) manage.py bench_pages --port $(BENCH_PORT) $(BENCH_ARGS)

bench-pages: export DJANGO_DEBUG ?= 1
bench-pages: $(STAMP)
	@$(BENCH_SCRATCH) && $(PY) manage.py bench_pages --port $(BENCH_PORT) $(BENCH_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis
