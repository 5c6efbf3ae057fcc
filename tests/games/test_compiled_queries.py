"""The home page's lists compiled once (games.compiled.UserQuery): each reads the same objects
as its queryset (fields, order, the objects read with them, annotations), for each user
its own, and compiles its SQL only the first time."""
import datetime as dt

import pytest
from django.db import connection
from django.db.models.sql.compiler import SQLCompiler
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from games import selectors
from games.compiled import UserQuery
from games.models import ChatChannel, ChatMessage, ChatReader, Game, GameStatus, Invitation, Seat
from tests.support.many_games import finished_games, open_games, waiting_games

pytestmark = pytest.mark.django_db


def _fields(obj) -> dict:
    # each value with its type: SQLite's 1 is not True, nor a str a UUID
    return {key: (type(value), value) for key, value in vars(obj).items() if key != "_state"}


def _same_objects(compiled: list, orm: list, related: tuple[str, ...] = ()) -> None:
    """The same rows, in the same order, with the same values, and the related objects
    ``related`` (dotted paths) read with them: the same, and no query to reach them."""
    assert [type(o) for o in compiled] == [type(o) for o in orm]
    assert [_fields(o) for o in compiled] == [_fields(o) for o in orm]
    assert [(o._state.adding, o._state.db) for o in compiled] == [(o._state.adding, o._state.db) for o in orm]
    with CaptureQueriesContext(connection) as captured:
        for path in related:
            for mine, theirs in zip(compiled, orm, strict=True):
                for name in path.split("."):
                    mine, theirs = getattr(mine, name), getattr(theirs, name)
                assert _fields(mine) == _fields(theirs)
    assert captured.captured_queries == []


@pytest.fixture
def home_rows(alice, bob, carol):
    """Waiting games with unread chat (one muted, one read), open tables (some of alice's,
    one full), an invitation and a rematch for alice; as much for bob elsewhere."""
    waiting = waiting_games([alice, bob], 4) + waiting_games([bob, carol], 2, start=4)
    Seat.objects.filter(game=waiting[0], user=alice).update(deadline=timezone.now() + dt.timedelta(hours=3))
    ChatReader.objects.create(game=waiting[1], user=alice, muted=True)
    ChatMessage.objects.create(game=waiting[2], author=bob, channel=ChatChannel.PLAYERS, text="again")
    open_games([bob], 3) + open_games([alice], 2, start=3)
    full = open_games([carol, bob], 1, start=5)[0]
    Game.objects.filter(pk=full.pk).update(max_seats=2)  # no free seat: on no list
    invited = open_games([carol], 1, start=6)[0]
    Invitation.objects.create(game=invited, inviter=carol, invitee=alice)
    finished = finished_games([alice, bob], 1)[0]
    rematch = open_games([bob], 1, start=7)[0]
    Game.objects.filter(pk=rematch.pk).update(rematch_of=finished)
    Seat.objects.create(game=rematch, user=alice, order=1, accepted=False)
    return waiting


def test_the_open_tables_are_the_querysets_for_a_player_and_a_visitor(home_rows, alice, bob):
    from django.contrib.auth.models import AnonymousUser

    for user in (alice, bob):
        orm = list(selectors._open_tables(user)[:20])
        assert orm  # some tables each
        _same_objects(selectors.open_tables_for(user), orm, ("creator",))
        assert [g.seat_count for g in selectors.open_tables_for(user)] == [g.seat_count for g in orm]
    _same_objects(selectors.open_tables_for(AnonymousUser()), list(selectors._open_tables(None)[:20]), ("creator",))
    assert selectors.open_tables_for(alice) != selectors.open_tables_for(bob)  # each their own


def test_the_waiting_page_is_the_querysets_slice_with_its_count(home_rows, alice, bob):
    for user, totals in ((alice, [4, 4]), (bob, [2])):
        orm = list(selectors.with_total(selectors.seats_waiting_for(user))[1:3])
        compiled = selectors.waiting_page_rows(user, 1, 3)
        _same_objects(compiled, orm, ("game",))
        assert [s.list_total for s in compiled] == totals
    assert selectors.waiting_page_rows(alice, 0, 25)[0].game_id == home_rows[0].pk  # its deadline first
    assert selectors.waiting_page_rows(alice, 25, 50) == []


def test_the_invitations_and_rematches_are_the_querysets(home_rows, alice, bob):
    for user in (alice, bob):
        _same_objects(selectors.invitations_list(user), list(selectors.invitations_for(user)), ("game", "inviter"))
        _same_objects(selectors.rematches_list(user), list(selectors.rematches_awaiting(user)),
                      ("game", "game.rematch_of", "game.creator"))
    assert len(selectors.invitations_list(alice)) == len(selectors.rematches_list(alice)) == 1
    assert selectors.invitations_list(bob) == selectors.rematches_list(bob) == []


def test_the_unread_counts_of_the_waiting_games_are_chat_unread_counts(home_rows, alice, bob):
    for user in (alice, bob):
        games = [seat.game_id for seat in selectors.seats_waiting_for(user)]
        assert selectors.chat_unread_waiting(user) == selectors.chat_unread_counts(user, games)
    assert selectors.chat_unread_waiting(alice) == {home_rows[0].pk: 1, home_rows[2].pk: 2, home_rows[3].pk: 1}


def test_a_compiled_query_compiles_once_for_every_user_and_page(monkeypatch, home_rows, alice, bob):
    from games import statements

    compiled = []
    as_sql = SQLCompiler.as_sql
    monkeypatch.setattr(SQLCompiler, "as_sql", lambda self, *a, **k: compiled.append(1) or as_sql(self, *a, **k))
    query = UserQuery(lambda user_id: selectors.seats_waiting_for(user_id))
    first = query.run(alice.pk)
    statements_before = len(statements.PREPARED_SQL)
    pages = [query.run(alice.pk, low, low + 1) for low in range(6)]
    assert query.run(bob.pk) != first
    assert len(compiled) == 1
    assert len(statements.PREPARED_SQL) <= statements_before + 1  # one statement for every page
    assert [page[0].pk for page in pages[:4]] == [s.pk for s in first] and pages[4:] == [[], []]
    assert query.run(alice.pk, 2, 2) == [] and query.run(alice.pk, 1, 3) == first[1:3]


def test_a_compiled_query_refuses_a_reversed_or_negative_slice(alice):
    query = UserQuery(lambda user_id: selectors.seats_waiting_for(user_id))
    for low, high in ((3, 2), (-1, 2), (2, None)):
        with pytest.raises(ValueError):
            query.run(alice.pk, low, high)


def test_a_compiled_values_list_gives_the_querysets_tuples(home_rows, alice, bob):
    def build(user_id):
        return (Seat.objects.filter(user=user_id).order_by("game__created_at", "pk")
                .values_list("game_id", "game__name", "awaiting_since", "accepted", "user__username"))

    query = UserQuery(build)
    for user in (alice, bob):
        assert query.run(user.pk) == list(build(user.pk))
        assert query.run(user.pk, 1, 3) == list(build(user.pk)[1:3])


def test_a_compiled_query_refuses_values_and_prefetching(alice):
    with pytest.raises(ValueError):
        UserQuery(lambda user_id: Seat.objects.filter(user=user_id).values("pk")).run(alice.pk)
    with pytest.raises(ValueError):
        UserQuery(lambda user_id: Game.objects.filter(seats__user=user_id).prefetch_related("seats")).run(alice.pk)
    with pytest.raises(ValueError):
        UserQuery(lambda user_id: Seat.objects.filter(user=user_id)[:3]).run(alice.pk)


def test_a_game_in_no_list_is_in_none(home_rows, alice):
    Game.objects.update(status=GameStatus.CANCELLED)
    assert selectors.open_tables_for(alice) == selectors.waiting_page_rows(alice, 0, 25) == []
    assert selectors.invitations_list(alice) == selectors.rematches_list(alice) == []
    assert selectors.chat_unread_waiting(alice) == {}


def test_the_lobby_page_of_open_games_is_the_querysets_slice(home_rows):
    for low, high in ((0, 25), (2, 4)):
        orm = list(selectors.with_total(selectors.games_open_public())[low:high])
        compiled = selectors.open_public_page_rows(low, high)
        _same_objects(compiled, orm, ("creator",))
        assert [(g.seat_count, g.list_total) for g in compiled] == [(g.seat_count, g.list_total) for g in orm]
    assert len(selectors.open_public_page_rows(0, 25)) == 7  # every open public game, full or not, but the rematch
