"""games.selectors: projections used by the pages."""
from unittest import mock

from django.contrib.auth.models import AnonymousUser
from django.utils import timezone

from games.models import GameStatus, Move
from games.selectors import event_text, finished_game_result, move_log


def test_event_text_names_the_player():
    names = {0: "alice", 1: "bob"}
    assert event_text({"seat": 1, "text": "{player} passes"}, names) == "bob passes"
    assert event_text({"seat": None, "text": "Action phase"}, names) == "Action phase"
    assert event_text({"seat": 3, "text": "{player} passes"}, names) == "Seat 3 passes"


def test_move_log_groups_events_by_round_newest_first():
    moves = [
        Move(seq=1, seat=0, action={}, events=[{"seat": 0, "text": "{player} plans"}]),
        Move(seq=2, seat=None, action={}, events=[
            {"seat": 1, "text": "{player} passes", "forced": True},
            {"kind": "round", "seat": None, "text": "Round 2 begins", "round": 2},
            {"seat": 0, "text": "{player} draws 3 followers"},
        ]),
        Move(seq=3, seat=1, action={}, events=[]),
    ]
    log = move_log(moves, {0: "alice", 1: "bob"})
    assert [r.round for r in log] == [2, 1]
    assert [e["text"] for e in log[0].entries] == ["Round 2 begins", "alice draws 3 followers"]
    assert [e["text"] for e in log[1].entries] == ["alice plans", "bob passes"]
    assert log[1].entries[1]["forced"] and log[1].entries[1]["automatic"]


def test_a_moves_log_lines_are_made_anew_for_other_names_another_language_a_take_back_or_other_events():
    """move_log keeps a stored move's lines (selectors._MOVE_LINES) for the next page that
    shows its round: whatever they depend on, changed, gives lines of its own."""
    from django.utils import translation

    events = [{"seat": 0, "msg": "event.pass", "params": {}, "text": "{player} passes"}]
    move = Move(seq=7, seat=0, action={}, events=events)

    def line(of, names):
        return move_log([of], names, keep_lines=True)[0].entries[0]

    first = line(move, {0: "alice"})
    assert first["text"] == "alice passes" and not first["taken_back"]
    assert line(move, {0: "alice"}) is first  # the same move again: the line kept
    assert move_log([move], {0: "alice"})[0].entries[0] is not first  # not kept unless asked
    assert line(move, {0: "dora"})["text"] == "dora passes"
    move.taken_back = True
    assert line(move, {0: "alice"})["taken_back"]
    with translation.override("ja"):
        assert line(move, {0: "alice"})["text"] != "alice passes"
    # another game's move with the same number and seat, other events: its own line
    other = Move(seq=7, seat=0, action={}, events=[{"seat": 0, "text": "{player} builds a trading station"}])
    assert line(other, {0: "alice"})["text"] == "alice builds a trading station"


def test_finished_game_result_reads_the_engine_ranking(started_game, alice, bob):
    first, second = started_game.seats.order_by("order")
    started_game.status = GameStatus.FINISHED
    started_game.outcome = {
        "scores": [{"total": 40}, {"total": 55}],
        "ranking": [{"seat": second.order, "place": 1, "total": 55},
                    {"seat": first.order, "place": 2, "total": 40}],
    }
    result = finished_game_result(started_game, first.user)
    assert [(line.seat, line.score, line.placement) for line in result.results] == [
        (second, 55, 1), (first, 40, 2)]
    assert result.viewer.placement == 2


def test_finished_game_result_shares_a_place_on_a_tie(started_game):
    first, second = started_game.seats.order_by("order")
    started_game.outcome = {"scores": [{"total": 50}, {"total": 50}],
                            "ranking": [{"seat": 0, "place": 1}, {"seat": 1, "place": 1}]}
    result = finished_game_result(started_game)
    assert [line.placement for line in result.results] == [1, 1]


def test_page_seats_read_in_one_query_the_seat_records_the_orm_rows_give(alice, bob, carol, dave,
                                                                         django_assert_num_queries):
    """The page's seat query is written by hand (games.selectors.page_seats): its rows give
    the same ``SeatInfo`` as the ORM's (a bot seat, an absent player played by the takeover
    bot, one on vacation, running clocks), with nothing more read, and the chat's ids."""
    from games import services
    from games.models import ChatChannel, Seat
    from games.presenters.page import seat_infos
    from games.selectors import page_chat_known, page_seats

    game = services.game_create(creator=alice, name="Seats", max_seats=4, options={}, pace="fast",
                                bots=["random"], absent_bot_level="random")
    for user in (bob, carol):
        services.seat_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.is_active
    Seat.objects.filter(game=game, user=bob).update(absent=True)
    services.vacation_start(user=carol)
    services.chat_post(game_id=game.pk, user=alice, text="hello")
    services.chat_mark_read(game_id=game.pk, user=dave, up_to=0)
    game.refresh_from_db()
    orm = list(game.seats.select_related("user", "user__player_clock").order_by("order"))
    with mock.patch("games.presenters.page.timezone.now", return_value=timezone.now()):  # one clock reading
        with django_assert_num_queries(1):
            rows = page_seats(game, dave)
            infos = seat_infos(game, rows)
        assert infos == seat_infos(game, orm)
    assert {info.is_bot for info in infos} == {True, False} and any(info.on_vacation for info in infos)
    assert any(info.bot_playing and not info.is_bot for info in infos) and any(info.clock_left for info in infos)
    known = page_chat_known(game, dave, rows)
    assert known.newest[ChatChannel.PLAYERS] == game.chat_messages.get().pk and known.newest[ChatChannel.SPECTATORS] == 0
    assert (known.reader.last_read_id, known.reader.muted) == (0, False)


def test_game_with_seat_reads_the_page_seats_in_its_one_statement(alice, bob, carol, dave,
                                                                 django_assert_num_queries):
    """``game_with_seat(..., seats=True)`` reads the rows ``page_seats`` reads (the seat
    records, the chat's ids and the viewer's reader) in its one statement; ``page_seats``
    then asks nothing, once, and only for the same user at the version read."""
    from games import services
    from games.models import ChatChannel
    from games.presenters.page import seat_infos
    from games.selectors import game_with_seat, page_chat_known, page_seats

    game = services.game_create(creator=alice, name="Seats", max_seats=4, options={}, pace="fast",
                                bots=["random"])
    for user in (bob, carol):
        services.seat_join(game_id=game.pk, user=user)
    services.chat_post(game_id=game.pk, user=alice, text="hello")
    services.chat_mark_read(game_id=game.pk, user=dave, up_to=0)
    with mock.patch("games.presenters.page.timezone.now", return_value=timezone.now()):  # one clock reading
        for viewer, waiting in ((dave, True), (alice, False), (AnonymousUser(), False)):
            plain, seat = game_with_seat(game.pk, viewer, state=False, waiting=waiting)
            expected = page_seats(plain, viewer)
            with django_assert_num_queries(1):
                read, read_seat = game_with_seat(game.pk, viewer, state=False, waiting=waiting, seats=True)
                rows = page_seats(read, viewer)
            assert (read_seat and read_seat.pk) == (seat and seat.pk) and read.nav_waiting == plain.nav_waiting
            assert seat_infos(read, rows) == seat_infos(plain, expected) and len(rows) == 4
            assert [(r.chat_players, r.chat_spectators, r.chat_read, r.chat_muted) for r in rows] == \
                [(r.chat_players, r.chat_spectators, r.chat_read, r.chat_muted) for r in expected]
            assert page_chat_known(read, viewer, rows).newest[ChatChannel.PLAYERS] == game.chat_messages.get().pk
            with django_assert_num_queries(1):  # used once
                page_seats(read, viewer)
    read, _seat = game_with_seat(game.pk, dave, state=False, seats=True)
    with django_assert_num_queries(1):  # another viewer's rows are not served
        page_seats(read, alice)
    read, _seat = game_with_seat(game.pk, dave, state=False, seats=True)
    read.version += 1  # the game moved on (refreshed) after the read
    with django_assert_num_queries(1):
        page_seats(read, dave)


def test_recent_moves_compiled_once_read_the_rows_the_orm_query_reads(started_game, django_assert_num_queries):
    """``recent_moves`` runs its query's SQL compiled once (games.selectors._recent_moves_sql):
    the same moves, columns and decoded events as the ORM query, in one query."""
    from games.selectors import _recent_moves_query, recent_moves
    from tests.support.game_driver import play_until

    game = play_until(started_game, lambda state: state.data["round"] >= 3)
    recent_moves(game)  # compiles it, once per process
    with django_assert_num_queries(1), mock.patch("games.selectors._recent_moves_query",
                                                  side_effect=AssertionError("compiled again")):
        moves = recent_moves(game)
    fields = ("pk", "seq", "seat", "action", "events", "source", "taken_back", "round")
    assert [[getattr(m, f) for f in fields] for m in moves] == \
        [[getattr(m, f) for f in fields] for m in _recent_moves_query(game.pk)]
    assert moves and {m.round for m in moves} == {moves[-1].round - 1, moves[-1].round}
    assert isinstance(moves[0].events, list)
