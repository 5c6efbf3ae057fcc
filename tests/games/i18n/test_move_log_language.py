"""The move log is composed when it is shown, in the viewer's language: the same stored
moves read in English for one viewer and in Japanese for another; a move stored before
events had message ids shows its stored text."""
import re

from django.urls import reverse
from django.utils.translation import override

from games import selectors
from games.models import Move

NAMES = {0: "alice", 1: "bob"}


def log_lines(moves) -> list[str]:
    return [entry["text"] for r in selectors.move_log(moves, NAMES) for entry in r.entries]


def test_the_same_stored_log_reads_in_english_and_in_japanese(game_in_round_two):
    moves = list(selectors.game_moves(game_in_round_two))
    with override("en"):
        english = log_lines(moves)
    with override("ja"):
        japanese = log_lines(moves)
    assert "Action phase" in english and "アクションフェイズ" in japanese
    assert any(line.startswith("alice recruits a ") for line in english)
    assert any(line.startswith("aliceは") and line.endswith("を獲得しました") for line in japanese)
    assert len(english) == len(japanese)
    for line in japanese:  # nothing left in English but the players' names
        assert not re.search(r"[A-Za-z]{3,}", line.replace("alice", "").replace("bob", "")), line


def test_the_english_log_is_exactly_the_text_the_engine_stored(game_in_round_two):
    moves = list(selectors.game_moves(game_in_round_two))
    stored = [e["text"].replace("{player}", NAMES[e["seat"]]) if e.get("seat") is not None else e["text"]
              for m in moves for e in m.events]
    with override("en"):
        assert log_lines(moves) == list(reversed_rounds(moves, stored))


def reversed_rounds(moves, lines):
    """``lines`` (oldest first) in move_log's order: newest round first, oldest entry first."""
    rounds, i = [[]], 0
    for m in moves:
        for e in m.events:
            if e.get("kind") == "round":
                rounds.append([])
            rounds[-1].append(lines[i])
            i += 1
    return [line for r in reversed(rounds) for line in r]


def test_an_old_event_without_a_message_id_shows_its_stored_text():
    old = Move(seq=1, seat=0, action={}, events=[{"kind": "pass", "seat": 0, "text": "{player} passes (old words)"}])
    new = Move(seq=2, seat=1, action={}, events=[{"kind": "pass", "seat": 1, "text": "{player} passes",
                                                  "msg": "event.pass", "params": {}}])
    with override("ja"):
        assert log_lines([old, new]) == ["alice passes (old words)", "bobはパスしました"]


def test_an_event_the_site_cannot_render_falls_back_to_its_text():
    newer = Move(seq=1, seat=0, action={}, events=[{"kind": "x", "seat": 0, "text": "{player} does a new thing",
                                                    "msg": "event.from_a_newer_engine", "params": {}}])
    broken = Move(seq=2, seat=0, action={}, events=[{"kind": "x", "seat": 0, "text": "{player} recruits",
                                                     "msg": "event.recruit", "params": {}}])
    with override("ja"):
        assert log_lines([newer, broken]) == ["alice does a new thing", "alice recruits"]


def test_the_game_page_shows_the_log_in_the_active_language(game_in_round_two, client_for):
    seat = game_in_round_two.seats.select_related("user").get(order=0)
    url = reverse("games-detail", kwargs={"game_id": game_in_round_two.pk})
    client = client_for(seat.user)
    japanese = client.get(url, HTTP_ACCEPT_LANGUAGE="ja").text
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").text
    assert "アクションフェイズ" in japanese and "アクションフェイズ" not in english
    assert "Action phase" in english
