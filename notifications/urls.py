"""URLs of the notifications app; names start with ``notifications-``."""
from django.urls import path

from notifications import views

urlpatterns = [
    path("preferences/", views.preferences, name="notifications-preferences"),
    path("vacation/", views.vacation, name="notifications-vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe_link, name="notifications-unsubscribe"),
    path("invite/<uuid:game_id>/", views.invite, name="notifications-invite"),
]
