"""Settings of the site served by gunicorn for the throughput figures: the site's own
(environment as in production, ``DJANGO_DEBUG`` off) with the harness's urlconf, and static
files named as in development (no ``collectstatic`` manifest in a scratch run)."""
from orleans_site.settings import *  # noqa: F403

ROOT_URLCONF = "notifications.bench.urls"
STORAGES = {**STORAGES, "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"}}  # noqa: F405
