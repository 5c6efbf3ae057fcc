"""The Celery application. Configuration comes from Django settings (``CELERY_*`` names).

With ``REDIS_URL`` unset, tasks run eagerly in the calling process (see settings);
otherwise start a worker with ``celery -A orleans_site worker`` and beat with
``celery -A orleans_site beat``.
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orleans_site.settings")

app = Celery("orleans_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
