"""Rows handed over to the page (``selectors.hand_over_page_reads``): ``page_seats`` and
``recent_moves`` take them once, only at the game version they were read for and, for the
seats, for the same viewer; a store that writes several moves hands over after the last."""
import pytest
from django.db import connection

import engine
from games import selectors, services
from games.services.locks import _run_together
from tests.support.game_driver import both_plan_the_castle, queue_set, seats, state_of


def _handed_over(game, user):
    seat_rows, move_rows = (rows for rows, _count in _run_together(selectors.page_read_statements(game, user)))
    selectors.hand_over_page_reads(game, user, seat_rows, move_rows)


def _fields(seats):
    return [(s.pk, s.order, s.awaiting, s.user.username, s.chat_players) for s in seats]


def test_the_rows_handed_over_are_what_the_page_reads_and_serve_once_without_a_query(
        game_in_round_two, alice, django_assert_num_queries):
    fresh_seats, fresh_moves = selectors.page_seats(game_in_round_two, alice), selectors.recent_moves(game_in_round_two)
    _handed_over(game_in_round_two, alice)
    with django_assert_num_queries(0):
        seats_handed, moves_handed = (selectors.page_seats(game_in_round_two, alice),
                                      selectors.recent_moves(game_in_round_two))
    assert _fields(seats_handed) == _fields(fresh_seats)
    assert [(m.seq, m.action, m.events, m.round) for m in moves_handed] == \
        [(m.seq, m.action, m.events, m.round) for m in fresh_moves]
    with django_assert_num_queries(2):  # used once
        selectors.page_seats(game_in_round_two, alice), selectors.recent_moves(game_in_round_two)


def test_rows_handed_over_at_an_older_version_are_ignored(game_in_round_two, alice, django_assert_num_queries):
    _handed_over(game_in_round_two, alice)
    game_in_round_two.version += 1  # the game moved on since they were read
    with django_assert_num_queries(2):
        selectors.page_seats(game_in_round_two, alice), selectors.recent_moves(game_in_round_two)


def test_seat_rows_handed_over_for_another_viewer_are_ignored(game_in_round_two, alice, bob,
                                                              django_assert_num_queries):
    _handed_over(game_in_round_two, alice)
    with django_assert_num_queries(1):
        selectors.page_seats(game_in_round_two, bob)  # bob's chat reader is not alice's


def test_forgotten_rows_are_read_again(game_in_round_two, alice, django_assert_num_queries):
    _handed_over(game_in_round_two, alice)
    selectors.forget_page_reads(game_in_round_two)
    with django_assert_num_queries(2):
        selectors.page_seats(game_in_round_two, alice), selectors.recent_moves(game_in_round_two)


def test_a_decision_followed_by_a_queued_move_hands_over_the_rows_after_the_queued_move(
        started_game, django_capture_on_commit_callbacks):
    both_plan_the_castle(started_game, django_capture_on_commit_callbacks)  # the actions' turns follow
    awaited = min(engine.awaiting(state_of(started_game)))
    acting, waiting = seats(started_game)[awaited], seats(started_game)[1 - awaited]
    queue_set(game_id=started_game.pk, user=waiting.user, entries=[{"type": "activate", "space": "castle"}])
    started_game.refresh_from_db()
    move = services.game_submit_action(
        game_id=started_game.pk, user=acting.user, action={"type": "activate", "space": "castle"},
        expected_version=started_game.version, answer_page=True)
    game = move.game
    assert game.version == move.seq + 1  # the waiting seat's queue played its move after the decision
    if connection.vendor != "postgresql":
        assert "_recent_moves" not in game.__dict__  # no batches: the page reads them itself
        pytest.skip("only PostgreSQL runs the page's reads with the writes")
    assert game._recent_moves[0] == game._page_seats[0] == game.version
    handed, moves = game._page_seats[2], game._recent_moves[1]
    selectors.forget_page_reads(game)
    assert moves[-1].source == "queue"
    assert [(m.seq, m.source) for m in moves] == [(m.seq, m.source) for m in selectors.recent_moves(game)]
    assert _fields(handed) == _fields(selectors.page_seats(game, acting.user))
