"""The harness's urlconf: the bare baselines under ``/bench/`` plus every URL of the site."""
from django.urls import path

from notifications.bench import views
from orleans_site.urls import urlpatterns as site_urlpatterns

urlpatterns = [
    path("bench/page/<uuid:game_id>/", views.bare_page, name="bench-page"),
    path("bench/poll/<uuid:game_id>/", views.lean_poll, name="bench-poll"),
    path("bench/submit/<uuid:game_id>/", views.bare_submit, name="bench-submit"),
    *site_urlpatterns,
]
