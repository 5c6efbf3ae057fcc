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
