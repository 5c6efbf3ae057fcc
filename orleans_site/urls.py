"""Root URLs: only includes."""
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("notifications/", include("notifications.urls")),
    path("", include("games.urls")),
]
