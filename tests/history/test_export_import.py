"""A game as one JSON document: a finished game's export imports as a finished, read-only
game that replays to the same outcome (and exports the same log again); a document that
does not replay is refused with the reason and nothing is created; an ongoing game's
export holds only what the requesting seat can see."""
from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

import engine
from games import services
from games.history import finished_export, move_source, seat_export, source_fields
from games.integrity import verify_game
from games.models import Game, Move
from tests.history.fixture_games import load
from tests.support.game_driver import new_started_game, play_until, user_at

pytestmark = pytest.mark.django_db


def same_record(document: dict) -> dict:
    """What must survive export -> import -> export: all but the game's new id."""
    return {key: value for key, value in document.items() if key != "game"} | {
        "game": {k: v for k, v in document["game"].items() if k != "id"}}


def test_export_import_export_keeps_the_whole_record():
    document = load("3p-default")
    game = services.game_import(document=document)
    assert (game.status, game.imported, game.version) == ("finished", True, len(document["log"]))
    assert verify_game(game) is None
    again = json.loads(json.dumps(finished_export(game)))
    assert same_record(again) == same_record(document) | {"seats": again["seats"]}
    assert [s["name"] for s in again["seats"]] == [f"imported-{s['name']}" for s in document["seats"]]
    assert engine.outcome(engine.from_json(game.state)) == document["outcome"]


def test_an_imported_game_replays_the_same_steps(client_for, carol):
    document = load("2p-default")
    game = services.game_import(document=document)
    page = client_for(carol).get(reverse("games-replay", kwargs={"game_id": game.pk}) + "?step=7")
    log = [(e["seat"], e["action"]) for e in document["log"]]
    step = list(engine.replay_steps(document["options"], document["seed"], log, reveal=True))[7]
    assert page.context["view"] == engine.view(step.state, None, reveal=True)


def test_an_imported_game_is_read_only(client_for):
    game = services.game_import(document=load("2p-default"))
    seat_user = user_at(game, 0)
    with pytest.raises(services.WrongStatus):
        services.game_submit_action(game_id=game.pk, user=seat_user, action={"type": "pass"},
                                    expected_version=game.version)


@pytest.mark.parametrize("tamper,reason", [
    (lambda d: d["log"][20].update(action={"type": "activate", "space": "no_such_place"}),
     "move #21 does not replay"),
    (lambda d: d["outcome"]["scores"][0].update(total=999), "its outcome is not the one its log replays to"),
    (lambda d: d.update(log=d["log"][:-5]), "its log does not end the game"),
    (lambda d: d.update(format_version=2), "format version 2 is not 1"),
    (lambda d: d.update(engine_version="0.1.0"), "engine version '0.1.0'"),
    (lambda d: d["log"][3].update(events=[{"kind": "coins", "text": "forged"}]), "move #4 records other events"),
    (lambda d: d.update(kind="seat"), "it is not a finished game's export"),
    (lambda d: d.update(seed="42"), "'seed' is missing or not an integer"),
    (lambda d: d["log"].pop(10), "log entry 11 is missing or out of order"),
])
def test_a_tampered_document_is_refused_with_the_reason_and_nothing_is_created(tamper, reason):
    document = load("2p-default")
    tamper(document)
    games, moves = Game.objects.count(), Move.objects.count()
    with pytest.raises(services.ImportRefused) as refused:
        services.game_import(document=document)
    assert reason in refused.value.message and refused.value.message.startswith("The document is refused")
    assert (Game.objects.count(), Move.objects.count()) == (games, moves)


def test_the_commands_export_and_import_a_game(tmp_path):
    game = services.game_import(document=load("4p-default"))
    path = tmp_path / "game.json"
    call_command("game_export", str(game.pk), "--output", str(path), stdout=StringIO())
    assert json.loads(path.read_text()) == json.loads(json.dumps(finished_export(game)))
    out = StringIO()
    call_command("game_import", str(path), stdout=out)
    new_id = out.getvalue().split()[2]
    assert Game.objects.get(pk=new_id).outcome == game.outcome


def test_the_import_command_says_why_a_document_is_refused(tmp_path):
    document = load("2p-default")
    document["outcome"]["winners"] = [5]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(document))
    with pytest.raises(CommandError, match="its outcome is not the one its log replays to") as failed:
        call_command("game_import", str(path), stdout=StringIO())
    assert failed.value.returncode == 1


def test_the_finished_game_page_links_its_download_and_replay(client_for, carol):
    game = services.game_import(document=load("2p-default"))
    client = client_for(carol)
    html = client.get(reverse("games-detail", kwargs={"game_id": game.pk})).content.decode()
    assert reverse("games-download", kwargs={"game_id": game.pk}) in html
    assert reverse("games-replay", kwargs={"game_id": game.pk}) in html
    response = client.get(reverse("games-download", kwargs={"game_id": game.pk}))
    assert response["Content-Type"].startswith("application/json")
    assert response["Content-Disposition"].startswith('attachment; filename="orleans-fixture-2p-default-')
    assert json.loads(response.content) == json.loads(json.dumps(finished_export(game)))


@pytest.fixture
def running_game(alice, bob):
    game = new_started_game(alice, bob, seed=987_654_321_012_345)
    play_until(game, lambda state: state.round >= 2 and state.phase == "planning"
               and any(p["plan"] for p in state.data["players"]))
    game.refresh_from_db()
    return game


def test_an_ongoing_games_export_holds_only_what_the_seat_can_see(running_game, client_for):
    seat = running_game.seats.get(order=0)
    document = seat_export(running_game, seat)
    assert "seed" not in document and "outcome" not in document
    assert str(running_game.seed) not in json.dumps(document)
    assert document["position"] == engine.view(engine.from_json(running_game.state), 0)
    hidden = [e for e in document["log"] if e["seat"] == 1 and engine.is_private_step(
        Move.objects.get(game=running_game, seq=e["seq"]).action)]
    assert hidden and all(e["action"] is None for e in hidden)
    own = [e for e in document["log"] if e["seat"] == 0]
    assert own and all(e["action"] is not None for e in own)
    downloaded = client_for(seat.user).get(reverse("games-download", kwargs={"game_id": running_game.pk}))
    assert json.loads(downloaded.content)["viewer_seat"] == 0


def test_a_spectator_cannot_download_a_game_in_progress(running_game, client_for, carol):
    response = client_for(carol).get(reverse("games-download", kwargs={"game_id": running_game.pk}), follow=True)
    assert "Only the game&#x27;s players can download a game in progress." in response.content.decode()


def test_a_spectator_asking_for_an_open_games_download_is_told_it_has_not_started(
        client_for, make_game, alice, carol):
    waiting = make_game(alice, seats=3)
    response = client_for(carol).get(reverse("games-download", kwargs={"game_id": waiting.pk}), follow=True)
    html = response.content.decode()
    assert waiting.not_playing_reason() in html.replace("&#x27;", "'")
    assert "in progress" not in html.split('class="message', 1)[1].split("</li>", 1)[0]


def test_move_sources_are_derived_in_one_place_and_map_back():
    for source in ("system", "timeout", "queue", "player", "bot"):
        move = Move(seat=None if source == "system" else 0, **source_fields(source))
        assert move_source(move) == source


def test_a_spectators_replay_of_a_game_in_progress_offers_no_download(running_game, client_for, carol):
    html = client_for(carol).get(reverse("games-replay", kwargs={"game_id": running_game.pk})).content.decode()
    assert reverse("games-download", kwargs={"game_id": running_game.pk}) not in html
    player = client_for(running_game.seats.get(order=0).user)
    html = player.get(reverse("games-replay", kwargs={"game_id": running_game.pk})).content.decode()
    assert reverse("games-download", kwargs={"game_id": running_game.pk}) in html


def test_a_refused_download_is_said_in_the_viewers_language(running_game, client_for, carol):
    client = client_for(carol)
    client.post(reverse("set-language"), {"language": "ja", "next": "/"})
    response = client.get(reverse("games-download", kwargs={"game_id": running_game.pk}), follow=True)
    assert "進行中のゲームをダウンロードできるのはそのゲームのプレイヤーだけです。" in response.content.decode()
