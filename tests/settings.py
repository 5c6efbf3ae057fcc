"""Settings for the test suite: the site's own settings, with what tests need set first.

``DJANGO_DEBUG`` now defaults to off and the site refuses the development secret key then
(orleans_site/settings.py), so the suite supplies both: DEBUG on at import keeps the
development static-files storage (pytest-django still runs each test with DEBUG off), and
a key that is obviously for tests. An explicit environment value wins.
"""
import os

os.environ.setdefault("DJANGO_DEBUG", "1")
os.environ.setdefault("DJANGO_SECRET_KEY", "tests-only-secret-key-never-used-in-production")

from orleans_site.settings import *  # noqa: E402,F403

# The suite's SQLite database lives in memory with a shared cache (the live server's threads
# share it). Shared-cache locks are table locks that never wait, so BEGIN IMMEDIATE there
# turns a concurrent read into "database table is locked". The file database of `make run`
# keeps IMMEDIATE: tests/games/test_sqlite_concurrency.py runs it with the site's settings.
DATABASES["default"].get("OPTIONS", {}).pop("transaction_mode", None)  # noqa: F405
