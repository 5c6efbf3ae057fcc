"""Taking back one's own last decision on the site (``services.game_take_back``, the "Take
back" button): allowed exactly when the engine says so and the move was the player's own;
the taken-back move stays in the log, marked; its turn emails are cancelled; a stale page
is refused with the reason."""
import pytest
from django.urls import reverse

import engine
from games.errors import NotSeated, StaleVersion, TakeBackRefused
from games.integrity import verify_game
from games.models import Move
from games.services import game_take_back
from games.services.undo import NOT_BY_HAND, NOTHING_TO_TAKE_BACK
from notifications.models import Notification, NotificationKind, NotificationStatus
from tests.support import engine_states as H
from tests.support.game_driver import CASTLE_PLAN, install, new_started_game, play_until, seats, state_of, submit

VILLAGE = {"village": ["boatman", "craftsman", "farmer"]}
RECRUIT = {"type": "activate", "space": "village", "recruit": "boatman"}
PLAN = {"type": "submit_plan", "placements": CASTLE_PLAN}


def _both_plan(state):
    return sorted(engine.awaiting(state).items()) == [(0, "plan"), (1, "plan")]


@pytest.fixture
def planning_game(alice, bob):
    """A real game (seed 11) played through the services until both seats plan round 1."""
    game = play_until(new_started_game(alice, bob, seed=11), _both_plan)
    game.refresh_from_db()
    return game


@pytest.fixture
def village_game(started_game):
    """Seat 0 to act in round 2 with a Village ready; seat 1 waits for its turn."""
    return install(started_game, H.action_state({"spaces": VILLAGE}))


def _users(game):
    """The users at seat 0 and seat 1 (the start shuffles the seats)."""
    return seats(game)[0].user, seats(game)[1].user


def _take_back(game, user, version=None):
    game.refresh_from_db()
    return game_take_back(game_id=game.pk, user=user,
                          expected_version=game.version if version is None else version)


def _unchanged(game):
    game.refresh_from_db()
    return game.version, game.state, list(Move.objects.filter(game=game).values_list("seq", "taken_back"))


def test_a_submitted_plan_is_taken_back_to_the_exact_state_and_the_log_still_replays(planning_game):
    first, second = _users(planning_game)
    before = state_of(planning_game)
    plan = submit(planning_game, seats(planning_game)[0], PLAN)
    undo = _take_back(planning_game, first)
    planning_game.refresh_from_db()
    assert state_of(planning_game) == before
    assert planning_game.version == plan.seq + 1 == undo.seq
    assert (undo.seat, undo.action, undo.events) == (0, engine.UNDO, [engine.undo_event(0)])
    assert Move.objects.get(pk=plan.pk).taken_back and not Move.objects.get(pk=undo.pk).taken_back
    assert seats(planning_game)[0].awaiting == "plan"
    assert verify_game(planning_game) is None  # the take-back replays with engine.undo


def test_a_village_recruit_is_taken_back_with_the_turn_and_the_next_players_email_cancelled(village_game):
    first, second = _users(village_game)
    recruit = submit(village_game, seats(village_game)[0], RECRUIT)
    bobs_turn = Notification.objects.get(kind=NotificationKind.TURN, recipient=second, version=recruit.seq)
    assert bobs_turn.status == NotificationStatus.QUEUED
    _take_back(village_game, first)
    bobs_turn.refresh_from_db()
    assert (bobs_turn.status, bobs_turn.skip_reason) == (NotificationStatus.SKIPPED, "move taken back")
    assert {s.order: s.awaiting for s in seats(village_game).values()} == {0: "action", 1: ""}
    assert state_of(village_game).data["players"][0]["spaces"] == VILLAGE


def test_consecutive_take_backs_go_back_one_decision_each(planning_game):
    first, _second = _users(planning_game)
    start = state_of(planning_game)
    place = next(a for a in engine.legal_actions(start, 0) if a["type"] == "place")
    placed = submit(planning_game, seats(planning_game)[0], place)
    after_one = state_of(planning_game)
    again = next(a for a in engine.legal_actions(after_one, 0) if a["type"] == "place")
    submit(planning_game, seats(planning_game)[0], again)
    _take_back(planning_game, first)
    assert H.without_undo(state_of(planning_game)) == H.without_undo(after_one)
    _take_back(planning_game, first)
    assert state_of(planning_game) == start
    assert Move.objects.get(pk=placed.pk).taken_back
    with pytest.raises(TakeBackRefused, match="nothing to take back"):
        _take_back(planning_game, first)
    assert verify_game(planning_game) is None


def test_refused_once_another_player_has_acted_and_nothing_changes(planning_game):
    first, second = _users(planning_game)
    submit(planning_game, seats(planning_game)[0], PLAN)
    place = next(a for a in engine.legal_actions(state_of(planning_game), 1) if a["type"] == "place")
    submit(planning_game, seats(planning_game)[1], place)
    before = _unchanged(planning_game)
    with pytest.raises(TakeBackRefused) as refused:
        _take_back(planning_game, first)
    assert refused.value.message == NOTHING_TO_TAKE_BACK
    assert _unchanged(planning_game) == before


def test_refused_after_a_draw_from_the_bag(alice, bob):
    game = play_until(new_started_game(alice, bob, seed=11),
                      lambda state: engine.awaiting(state).get(0) == "draw")
    first, _second = _users(game)
    draw = next(a for a in engine.legal_actions(state_of(game), 0) if a["type"] == "draw")
    submit(game, seats(game)[0], draw)
    with pytest.raises(TakeBackRefused, match="drew or revealed"):
        _take_back(game, first)


@pytest.mark.parametrize("source", ["queue", "timeout", "bot"])
def test_a_queued_timed_out_or_bot_move_is_never_taken_back_by_the_player(village_game, source):
    first, second = _users(village_game)
    recruit = submit(village_game, seats(village_game)[0], RECRUIT)
    Move.objects.filter(pk=recruit.pk).update(source=source)
    before = _unchanged(village_game)
    with pytest.raises(TakeBackRefused) as refused:
        _take_back(village_game, first)
    assert refused.value.message == NOT_BY_HAND
    assert _unchanged(village_game) == before


def test_a_stale_version_from_another_tab_is_refused_with_the_reason(village_game):
    first, second = _users(village_game)
    recruit = submit(village_game, seats(village_game)[0], RECRUIT)
    _take_back(village_game, first)
    submit(village_game, seats(village_game)[0], RECRUIT)
    before = _unchanged(village_game)
    with pytest.raises(StaleVersion, match="moved on"):
        _take_back(village_game, first, version=recruit.seq)  # the first tab still shows the recruit
    assert _unchanged(village_game) == before


def test_only_a_seated_player_takes_back(village_game, carol):
    submit(village_game, seats(village_game)[0], RECRUIT)
    with pytest.raises(NotSeated):
        _take_back(village_game, carol)


# --- the page -------------------------------------------------------------------------------


def _page(client, game):
    return client.get(reverse("games-detail", kwargs={"game_id": game.pk})).text


def _post(client, game, version):
    return client.post(reverse("games-undo", kwargs={"game_id": game.pk}),
                       {"expected_version": version}, HTTP_HX_REQUEST="true")


def test_the_button_is_shown_to_the_player_who_may_take_back_only(village_game, client_for):
    first, second = _users(village_game)
    assert "Take back my last decision" not in _page(client_for(first), village_game)
    submit(village_game, seats(village_game)[0], RECRUIT)
    assert "Take back my last decision" in _page(client_for(first), village_game)
    assert "Take back my last decision" not in _page(client_for(second), village_game)


def test_the_button_takes_back_and_the_log_marks_the_move(village_game, client_for):
    first, second = _users(village_game)
    recruit = submit(village_game, seats(village_game)[0], RECRUIT)
    response = _post(client_for(first), village_game, recruit.seq)
    assert response.status_code == 200 and 'id="game-log"' in response.text
    assert Move.objects.get(pk=recruit.pk).taken_back
    page = _page(client_for(first), village_game)
    assert 'class=" taken-back"' in page
    assert "(taken back)" in page and f"{first.username} takes back their last decision" in page


def test_a_refusal_through_the_page_is_said_in_the_flash(village_game, client_for):
    first, second = _users(village_game)
    recruit = submit(village_game, seats(village_game)[0], RECRUIT)
    response = _post(client_for(second), village_game, recruit.seq)
    assert response.status_code == 200 and 'id="flash"' in response.text
    assert "nothing to take back" in response.text
    stale = _post(client_for(first), village_game, recruit.seq - 1)
    assert "moved on since this page was shown" in stale.text
    assert not Move.objects.get(pk=recruit.pk).taken_back


def test_an_exported_game_with_a_take_back_imports_and_replays(planning_game):
    from games.history import finished_export
    from games.models import GameStatus
    from games.services import game_import

    first, _second = _users(planning_game)
    plan = submit(planning_game, seats(planning_game)[0], PLAN)
    _take_back(planning_game, first)
    play_until(planning_game, engine.is_over)
    planning_game.refresh_from_db()
    assert planning_game.status == GameStatus.FINISHED
    document = finished_export(planning_game)
    assert document["log"][plan.seq - 1]["taken_back"] is True
    assert document["log"][plan.seq]["action"] == engine.UNDO
    imported = game_import(document=document)
    assert imported.state == planning_game.state
    assert Move.objects.get(game=imported, seq=plan.seq).taken_back
    assert verify_game(imported) is None


def test_taking_back_a_decision_gives_back_no_clock_increment(clocked_game, frozen_now, alice, bob):
    from games import clock
    from games.models import Seat

    game = install(clocked_game(alice, bob), H.action_state({"spaces": VILLAGE}))
    first, _second = _users(game)
    for seat in Seat.objects.filter(game=game):
        seat.bank_seconds = game.clock_initial_seconds
        clock.start(seat, frozen_now()) if seat.order == 0 else clock.stop(seat, frozen_now())
        seat.save()
    frozen_now.advance(minutes=10)
    submit(game, seats(game)[0], RECRUIT)
    earned = Seat.objects.get(game=game, order=0).bank_seconds
    assert earned == game.clock_initial_seconds - 600 + game.clock_increment_seconds
    _take_back(game, first)
    mine = Seat.objects.get(game=game, order=0)
    assert mine.bank_seconds == game.clock_initial_seconds - 600
    assert mine.clock_started_at == frozen_now() and mine.awaiting == "action"


def test_the_answer_to_a_decision_offers_its_take_back_without_reading_the_moves_again(village_game, client_for):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    first, _ = _users(village_game)
    village_game.refresh_from_db()
    with CaptureQueriesContext(connection) as captured:
        response = client_for(first).post(reverse("games-act", kwargs={"game_id": village_game.pk}),
                                          {"action": '{"type": "activate", "space": "village", "recruit": "boatman"}',
                                           "expected_version": village_game.version}, HTTP_HX_REQUEST="true")
    assert "Take back my last decision" in response.text
    assert not [q for q in captured if 'NOT "games_move"."taken_back"' in q["sql"]]
