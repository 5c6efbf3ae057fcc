"""The action queue's note (why it waited or was dropped) is stored as the engine's reason
code and params and read in the viewer's language; a note stored before (text only) shows
its text."""
import html

from django.utils.translation import override

from games.messages import queue_note
from games.models import Seat
from tests.games.views.test_queue import queue_region
from tests.support.game_driver import both_plan_the_castle, queue_set, seats
from tests.support.japanese import english_left


def dropped_university(game, capture) -> Seat:
    """alice queued the University, which the Castle plan leaves unusable: dropped."""
    by_order = seats(game)
    queue_set(game_id=game.pk, user=by_order[0].user,
              entries=[{"type": "activate", "space": "university"}, {"type": "pass"}])
    both_plan_the_castle(game, capture)
    return Seat.objects.get(pk=by_order[0].pk)


def test_a_dropped_queues_note_keeps_its_code_and_params(started_game, django_capture_on_commit_callbacks):
    seat = dropped_university(started_game, django_capture_on_commit_callbacks)
    stored = seat.action_queue_note_message
    assert stored["code"] == "queue_not_playable"
    assert stored["params"]["entry"] == {"msg": "action.use", "params": {"place": "university"}}
    with override("en-gb"):
        assert queue_note(seat.action_queue_note, stored) == seat.action_queue_note  # the engine's English


def test_the_queue_card_shows_the_note_in_the_viewers_language(started_game, django_capture_on_commit_callbacks,
                                                               client_for):
    seat = dropped_university(started_game, django_capture_on_commit_callbacks)
    client = client_for(seat.user)
    with override("ja"):
        japanese_note = queue_note(seat.action_queue_note, seat.action_queue_note_message)
    assert japanese_note.startswith("予約は「大学を使う」で止まりました：")
    assert english_left(japanese_note) == []
    page = client.get(f"/games/{started_game.pk}/", HTTP_ACCEPT_LANGUAGE="ja")
    region = page.text.split('id="game-queue"')[1].split("</section>")[0]
    assert html.escape(japanese_note) in region
    assert seat.action_queue_note in queue_region(client_for(seat.user), started_game)  # English by default


def test_a_note_stored_before_notes_had_ids_shows_its_text():
    with override("ja"):
        assert queue_note("Your queue stopped (old words).", None) == "Your queue stopped (old words)."


def test_a_note_the_site_cannot_render_shows_its_text():
    with override("ja"):
        assert queue_note("old text", {"code": "queue_not_playable", "params": {}}) == "old text"
        assert queue_note("old text", {"params": {}}) == "old text"


def test_playing_by_hand_clears_the_note_and_its_message(started_game, django_capture_on_commit_callbacks):
    seat = dropped_university(started_game, django_capture_on_commit_callbacks)
    assert seat.action_queue_note and seat.action_queue_note_message
    queue_set(game_id=started_game.pk, user=seat.user, entries=[])
    seat.refresh_from_db()
    assert (seat.action_queue_note, seat.action_queue_note_message) == ("", None)
