"""URLs of the notifications app; names start with ``notifications-``."""
from django.urls import path

from games.views.vacation import vacation
from notifications import language, views

urlpatterns = [
    path("language/", language.set_language, name="set-language"),
    path("preferences/", views.preferences, name="notifications-preferences"),
    # The old address of the vacation form, now the games app's view: kept for one release
    # so pages still open in a browser post to a working address.
    path("vacation/", vacation, name="notifications-vacation"),
    path("unsubscribe/<str:token>/", views.unsubscribe_link, name="notifications-unsubscribe"),
    path("invite/<uuid:game_id>/", views.invite, name="notifications-invite"),
]
