"""WSGI entry point of the harness's gunicorn (``notifications.bench.settings``)."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "notifications.bench.settings")

application = get_wsgi_application()
