"""Root URLs: only includes."""
from django.contrib import admin
from django.urls import include, path

from orleans_site.accounts import admin_login
from orleans_site.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/login/", admin_login, name="admin-login"),  # before the admin's own
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("games.urls")),
]
