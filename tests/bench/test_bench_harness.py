"""The page benchmark's harness (``notifications.bench``, ``manage.py bench_pages``): its
baselines are served by its own urlconf only, they do what the figures say they do, and
the games it builds are games the site itself could have stored."""
from __future__ import annotations

import uuid

import pytest
from django.core.management.base import CommandError
from django.test import override_settings
from django.urls import NoReverseMatch, Resolver404, resolve, reverse

from games.integrity import verify_game
from games.models import Game, Move
from notifications.bench import fixtures
from notifications.management.commands.bench_pages import parse_servers, region_hashes

BENCH_URLS = "notifications.bench.urls"


def test_the_site_urls_have_no_baseline_view():
    with pytest.raises(NoReverseMatch):
        reverse("bench-page", args=[uuid.uuid4()])
    with pytest.raises(Resolver404):
        resolve(f"/bench/page/{uuid.uuid4()}/")


@override_settings(ROOT_URLCONF=BENCH_URLS)
def test_the_bench_urlconf_serves_the_site_too():
    assert resolve("/").url_name == "home"
    assert resolve(f"/games/{uuid.uuid4()}/poll/").url_name == "games-poll"


@override_settings(ROOT_URLCONF=BENCH_URLS)
def test_bare_page_renders_the_games_row(client, alice, make_game):
    game = make_game(alice)
    Game.objects.filter(pk=game.pk).update(name="Bench table")
    response = client.get(reverse("bench-page", args=[game.pk]))
    assert response.status_code == 200
    assert b"Bench table" in response.content


@override_settings(ROOT_URLCONF=BENCH_URLS)
def test_lean_poll_answers_204_at_the_same_version_only(client_for, alice, make_game):
    game = make_game(alice)
    client = client_for(alice)
    url = reverse("bench-poll", args=[game.pk])
    assert client.get(url, {"v": game.version}).status_code == 204
    assert client.get(url, {"v": game.version + 1}).status_code == 200


@override_settings(ROOT_URLCONF=BENCH_URLS)
def test_lean_poll_refuses_an_anonymous_visitor(client, alice, make_game):
    game = make_game(alice)
    assert client.get(reverse("bench-poll", args=[game.pk]), {"v": 0}).status_code == 403


@override_settings(ROOT_URLCONF=BENCH_URLS)
def test_bare_submit_updates_the_row_once(client, alice, make_game):
    game = make_game(alice)
    before = game.version
    assert client.post(reverse("bench-submit", args=[game.pk])).status_code == 200
    assert Game.objects.get(pk=game.pk).version == before + 1


@pytest.mark.django_db
def test_advance_with_take_backs_stores_a_log_the_integrity_check_replays(django_user_model):
    users = fixtures.make_users("harness", 2)
    game = fixtures.advance(fixtures.start_game(users, 3, "harness"), 60, take_backs=1, seed=3)
    assert game.version == Move.objects.filter(game=game).count() == 60
    assert Move.objects.filter(game=game, taken_back=True).exists()
    assert verify_game(game) is None


@pytest.mark.django_db
def test_advance_to_the_end_stores_a_finished_game_that_replays(django_user_model):
    users = fixtures.make_users("ended", 2)
    game = fixtures.advance(fixtures.start_game(users, 4, "ended"), 10**6, seed=4, keep_active=False)
    assert game.status == "finished" and game.outcome
    assert verify_game(game) is None


@pytest.mark.django_db
def test_advance_keeping_the_game_active_stops_before_its_last_move(django_user_model):
    users = fixtures.make_users("kept", 2)
    game = fixtures.advance(fixtures.start_game(users, 4, "kept"), 10**6, seed=4)
    assert game.status == "active"
    assert verify_game(game) is None


@pytest.mark.django_db
def test_advance_stores_each_moves_round_as_the_services_do(django_user_model):
    # the page reads the moves of the last two rounds (selectors.recent_moves): a game whose
    # moves all said round 1 made every page and answer read and show the whole log
    users = fixtures.make_users("rounds", 2)
    game = fixtures.advance(fixtures.start_game(users, 4, "rounds"), 150, seed=4)
    moves = list(Move.objects.filter(game=game).order_by("seq"))
    assert [m.round for m in moves] == Move.rounds_of([m.events for m in moves])
    assert moves[-1].round > 2
    more = fixtures.advance(game, 170, seed=5)  # moves added to a game that has some
    moves = list(Move.objects.filter(game=more).order_by("seq"))
    assert [m.round for m in moves] == Move.rounds_of([m.events for m in moves])


@pytest.mark.django_db
def test_finished_copies_give_the_user_a_seat_in_each(django_user_model):
    users = fixtures.make_users("copies", 2)
    template = fixtures.advance(fixtures.start_game(users, 5, "copies"), 10**6, seed=5, keep_active=False)
    rivals = fixtures.make_users("rival", 3)
    assert fixtures.finished_copies(template, users[0], rivals, 7) == 7
    copies = Game.objects.filter(name__startswith="copies #")
    assert copies.count() == 7
    assert all(game.seats.filter(user=users[0]).count() == 1 for game in copies)


def test_region_hashes_are_read_as_the_page_script_sends_them():
    html = '<div id="game-map" class="x" data-region-hash="ab12">' \
           '<section id="game-log" data-region-hash="cd34"></section><p id="plain"></p>'
    assert region_hashes(html) == "game-map:ab12,game-log:cd34"


def test_region_hashes_are_read_whatever_the_order_of_the_root_attributes():
    # the site writes data-region-hash right after the tag name (games.views.regions)
    html = '<section data-region-hash="ab12" id="game-map" class="card"></section>' \
           '<div data-region-hash="cd34" class="x" id="game-log"></div>'
    assert region_hashes(html) == "game-map:ab12,game-log:cd34"


def test_servers_are_parsed_as_workers_and_threads():
    assert parse_servers("2,2x4, 3x8") == [(2, 1), (2, 4), (3, 8)]


@pytest.mark.parametrize("spec", ["", "two", "0", "2x0", "2x"])
def test_a_bad_servers_spec_is_refused(spec):
    with pytest.raises(CommandError):
        parse_servers(spec)
