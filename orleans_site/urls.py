"""Root URLs: only includes."""
from django.contrib import admin
from django.urls import include, path

from orleans_site.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("games.urls")),
]
