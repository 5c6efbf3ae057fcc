"""The site's URLs plus ``/boom/``, a view that fails, for the 500 page tests."""
from django.urls import path

from orleans_site.urls import urlpatterns as site_urlpatterns


def boom(request):
    raise RuntimeError("boom")


urlpatterns = [path("boom/", boom), *site_urlpatterns]
