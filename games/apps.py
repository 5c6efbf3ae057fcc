"""App configuration for ``games``."""
from urllib.parse import urlsplit

from django.apps import AppConfig
from django.conf import settings
from django.db.backends.signals import connection_created
from django.db.models.signals import post_migrate

from games.statements import set_plan_cache_mode
from orleans_site import gc_tuning

SITE_NAME = "Orléans Online"


def sync_site_with_settings(sender=None, using="default", **kwargs) -> None:
    """After every ``migrate``: name the current ``Site`` (used by allauth's account emails)
    after ``settings.SITE_URL``, so emails show this site's name and address instead of
    example.com."""
    from django.contrib.sites.models import Site

    domain = urlsplit(settings.SITE_URL).netloc or "127.0.0.1:8000"
    Site.objects.using(using).update_or_create(pk=settings.SITE_ID, defaults={"domain": domain, "name": SITE_NAME})


class GamesConfig(AppConfig):
    """The games app."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        post_migrate.connect(sync_site_with_settings, sender=self, dispatch_uid="games.sync_site")
        # each new PostgreSQL session plans the prepared statements once (orleans_site.database)
        connection_created.connect(set_plan_cache_mode, dispatch_uid="games.plan_cache_mode")
        # once per process, its apps loaded: what startup made is frozen (orleans_site.gc_tuning)
        gc_tuning.apply(settings.GC_THRESHOLDS)
