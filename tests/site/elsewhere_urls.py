"""A urlconf serving the game pages under another path (a test's ``ROOT_URLCONF``)."""
from django.urls import include, path

urlpatterns = [path("elsewhere/", include("games.urls"))]
