"""Rows handed over to the page (``selectors.hand_over_page_reads``): ``page_seats`` and
``recent_moves`` take them once, only at the game version they were read for and, for the
seats, for the same viewer."""
from games import selectors
from games.services.locks import _run_together


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

