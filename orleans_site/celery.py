"""The Celery application. Configuration comes from Django settings (``CELERY_*`` names).

With ``REDIS_URL`` unset, tasks run eagerly in the calling process (see settings);
otherwise start a worker with ``celery -A orleans_site worker`` and beat with
``celery -A orleans_site beat`` (docs/deploy.md runs both supervised).
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "orleans_site.settings")

# Broker outages (issue 8): the worker's cluster features -- gossip (an event receiver on a
# Redis pub/sub channel), mingle (a broadcast at start-up) and event heartbeats -- are what
# fail while the consumer reconnects ("Error on restarting Gossip" through kombu's pub/sub
# receive path, celery/kombu#582, celery/celery#9250). This site runs one worker and needs
# none of them, so they are off by default. These are the `celery worker` options
# --without-gossip/--without-mingle/--without-heartbeat, which Celery's command line also
# reads from CELERY_WORKER_* variables; this module is imported before the worker parses its
# options, and an explicit option or variable still wins.
for _option in ("WITHOUT_GOSSIP", "WITHOUT_MINGLE", "WITHOUT_HEARTBEAT"):
    os.environ.setdefault(f"CELERY_WORKER_{_option}", "1")

app = Celery("orleans_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
