"""Account emails name this site, not example.com (games.apps.sync_site_with_settings)."""
from django.contrib.sites.models import Site
from django.test import override_settings

from games.apps import SITE_NAME, sync_site_with_settings


def test_migrate_names_the_site_after_site_url(db):
    with override_settings(SITE_URL="http://127.0.0.1:8123"):
        sync_site_with_settings()
    site = Site.objects.get_current()
    assert (site.domain, site.name) == ("127.0.0.1:8123", SITE_NAME)
