"""URLs of the games app. Per-game routes live under ``games/<uuid:game_id>/``; names start
with ``games-``."""
from django.urls import include, path

from games.views import chat, fragments, history, invitations, lobby, log, pages, rematch, vacation

game_urls = [
    path("", pages.game_detail, name="games-detail"),
    path("invite/<str:token>/", pages.game_invite, name="games-invite"),
    path("join/", lobby.join, name="games-join"),
    path("leave/", lobby.leave, name="games-leave"),
    path("start/", lobby.start, name="games-start"),
    path("cancel/", lobby.cancel, name="games-cancel"),
    path("vote-end/", lobby.vote_end, name="games-vote-end"),
    path("visibility/", lobby.visibility, name="games-visibility"),
    path("take-back/", lobby.take_back, name="games-take-back"),
    path("act/", fragments.submit_action, name="games-act"),
    path("undo/", fragments.take_back, name="games-undo"),
    path("queue/", fragments.set_queue, name="games-queue"),
    path("poll/", fragments.poll, name="games-poll"),
    path("plan/", fragments.plan_preview, name="games-plan"),
    path("seats/", fragments.lobby_seats, name="games-seats"),
    path("chat/", chat.post, name="games-chat"),
    path("chat/read/", chat.read, name="games-chat-read"),
    path("chat/mute/", chat.mute, name="games-chat-mute"),
    path("rematch/", rematch.ask, name="games-rematch"),
    path("rematch/accept/", rematch.accept, name="games-rematch-accept"),
    path("rematch/decline/", rematch.decline, name="games-rematch-decline"),
    path("replay/", history.game_replay, name="games-replay"),
    path("download/", history.game_download, name="games-download"),
    path("log/<int:round>/", log.log_round, name="games-log-round"),
]

urlpatterns = [
    path("", pages.home, name="home"),
    path("profile/", pages.profile, name="games-profile"),
    path("vacation/", vacation.vacation, name="games-vacation"),
    path("games/", pages.lobby, name="games-lobby"),
    path("leaderboard/", pages.leaderboard, name="games-leaderboard"),
    path("games/new/", pages.game_new, name="games-new"),
    path("games/play-bots/", pages.play_bots, name="games-play-bots"),
    path("games/next/", pages.next_game, name="games-next"),
    path("invitations/<int:invitation_id>/accept/", invitations.accept, name="games-invitation-accept"),
    path("invitations/<int:invitation_id>/decline/", invitations.decline, name="games-invitation-decline"),
    path("games/<uuid:game_id>/", include(game_urls)),
]
