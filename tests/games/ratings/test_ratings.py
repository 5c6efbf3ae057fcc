"""Ratings (``games.services.ratings``): openskill Plackett-Luce, updated once per finished
rated game from the engine's ranking places; never for unrated, bot or imported games;
shown on the profile (with its history) and on the leaderboard."""
import pytest
from django.urls import reverse
from openskill.models import PlackettLuce

from games import services
from games.access import make_invite_token
from games.models import Game, Rating, RatingChange
from tests.support.game_driver import play_fake_game_to_the_end

MODEL = PlackettLuce()


@pytest.fixture
def new_game(fake_engine):
    def make(creator, *joiners, rated=True):
        game = services.game_create(creator=creator, name="Rated", max_seats=1 + len(joiners), options={},
                                    rated=rated)
        for user in joiners:
            services.seat_join(game_id=game.pk, user=user, invite_token=make_invite_token(game))
        game.refresh_from_db()
        return game
    return make


def _rating(user, game):
    return Rating.objects.get(user=user, rules=game.rules)


def _expected(ranks, before=None):
    """openskill's own answer for one game: ``[(mu, sigma)]`` per player in seat order."""
    teams = [[MODEL.create_rating(list(b))] if b else [MODEL.rating()] for b in (before or [None] * len(ranks))]
    return [(team[0].mu, team[0].sigma) for team in MODEL.rate(teams, ranks=ranks)]


def _seat_users(game):
    return [s.user for s in game.seats.order_by("order")]


def test_a_finished_rated_game_moves_the_winner_up_and_the_loser_down_by_openskill(
        new_game, alice, bob, django_capture_on_commit_callbacks):
    game = play_fake_game_to_the_end(new_game(alice, bob), django_capture_on_commit_callbacks, winner=bob)
    users = _seat_users(game)
    ranks = [1 if user == bob else 2 for user in users]
    for user, (mu, sigma) in zip(users, _expected(ranks), strict=True):
        rating = _rating(user, game)
        assert (rating.mu, rating.sigma, rating.games) == pytest.approx((mu, sigma, 1))
        assert rating.ordinal == pytest.approx(mu - 3 * sigma)
    assert _rating(bob, game).mu > 25 > _rating(alice, game).mu
    change = RatingChange.objects.get(game=game, user=bob)
    assert (change.placement, change.mu_before, change.ordinal_before) == (1, 25.0, pytest.approx(0.0))


def test_a_tie_shares_the_place_and_changes_both_alike(new_game, alice, bob, django_capture_on_commit_callbacks):
    game = play_fake_game_to_the_end(new_game(alice, bob), django_capture_on_commit_callbacks)
    assert sorted(RatingChange.objects.filter(game=game).values_list("placement", flat=True)) == [1, 1]
    assert _rating(alice, game).mu == pytest.approx(_rating(bob, game).mu)
    assert _rating(alice, game).sigma < MODEL.rating().sigma  # a result still makes both surer


def test_rating_a_game_twice_counts_it_once(new_game, alice, bob, django_capture_on_commit_callbacks):
    game = play_fake_game_to_the_end(new_game(alice, bob), django_capture_on_commit_callbacks, winner=alice)
    before = list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games"))
    assert services.game_rate(game_id=game.pk) == []
    assert list(Rating.objects.order_by("pk").values_list("mu", "sigma", "games")) == before
    assert RatingChange.objects.filter(game=game).count() == 2


def test_the_second_game_starts_from_the_first_games_ratings_so_order_matters(
        new_game, alice, bob, django_capture_on_commit_callbacks):
    capture = django_capture_on_commit_callbacks
    first = play_fake_game_to_the_end(new_game(alice, bob), capture, winner=alice)
    after_first = {u.pk: (_rating(u, first).mu, _rating(u, first).sigma) for u in (alice, bob)}
    second = play_fake_game_to_the_end(new_game(alice, bob), capture, winner=bob)
    users = _seat_users(second)
    ranks = [1 if user == bob else 2 for user in users]
    expected = _expected(ranks, [after_first[u.pk] for u in users])
    for user, (mu, sigma) in zip(users, expected, strict=True):
        assert (_rating(user, second).mu, _rating(user, second).sigma) == pytest.approx((mu, sigma))
        assert _rating(user, second).games == 2
    # one win each, but the later win counts more: bob, who won last, is ahead
    assert _rating(bob, second).mu > _rating(alice, second).mu
    history = list(RatingChange.objects.filter(user=bob).order_by("id").values_list("game_id", flat=True))
    assert history == [first.pk, second.pk]


def test_an_unrated_game_changes_no_rating(new_game, alice, bob, django_capture_on_commit_callbacks):
    play_fake_game_to_the_end(new_game(alice, bob, rated=False), django_capture_on_commit_callbacks, winner=bob)
    assert not Rating.objects.exists() and not RatingChange.objects.exists()


@pytest.mark.parametrize("why", ["imported", "bots"])
def test_an_imported_game_or_one_with_a_bot_is_never_rated(new_game, alice, bob, why,
                                                           django_capture_on_commit_callbacks):
    game = new_game(alice, bob)
    Game.objects.filter(pk=game.pk).update(**{"imported" if why == "imported" else "has_bots": True})
    play_fake_game_to_the_end(game, django_capture_on_commit_callbacks, winner=bob)
    assert services.game_rate(game_id=game.pk) == []
    assert not Rating.objects.exists()


def test_three_players_with_a_shared_second_place(new_game, alice, bob, carol, django_capture_on_commit_callbacks):
    game = play_fake_game_to_the_end(new_game(alice, bob, carol), django_capture_on_commit_callbacks, winner=carol)
    users = _seat_users(game)
    ranks = [1 if user == carol else 2 for user in users]
    for user, (mu, sigma) in zip(users, _expected(ranks), strict=True):
        assert (_rating(user, game).mu, _rating(user, game).sigma) == pytest.approx((mu, sigma))
    assert _rating(alice, game).mu == pytest.approx(_rating(bob, game).mu)


# --- pages ------------------------------------------------------------------------------------


def test_the_new_game_form_is_rated_unless_unticked(client_for, alice):
    client = client_for(alice)
    form = client.get(reverse("games-new")).text
    assert 'name="rated"' in form and 'id="id_rated" checked' in form
    client.post(reverse("games-new"), {"name": "Friendly", "seats": 2, "simultaneous_followers": "on",
                                       "place_tile_market": "normal", "event_strength": "phased",
                                       "hourglass_order": "abc", "pace": "none", "is_public": "on"})
    assert Game.objects.get(name="Friendly").rated is False


def _rate_orleans(winner, loser, game):
    """Ratings for the orleans rules as a finished game would leave them."""
    for user, (mu, sigma) in zip((winner, loser), _expected([1, 2]), strict=True):
        Rating.objects.create(user=user, rules="orleans", mu=mu, sigma=sigma, ordinal=mu - 3 * sigma, games=1)
        RatingChange.objects.create(game=game, user=user, placement=1 if user == winner else 2, mu_before=25,
                                    sigma_before=25 / 3, mu_after=mu, sigma_after=sigma, ordinal_before=0,
                                    ordinal_after=mu - 3 * sigma)


def test_the_profile_shows_the_rating_and_its_history(client_for, alice, bob, make_game):
    game = make_game(alice, bob, seats=2)
    _rate_orleans(bob, alice, game)
    page = client_for(bob).get(reverse("games-profile")).text
    rating = Rating.objects.get(user=bob)
    assert f"<strong>{rating.ordinal:.1f}</strong> after 1 rated game " in page
    assert f"+{rating.ordinal:.1f}" in page and game.name in page


def test_a_profile_without_a_rated_game_says_so(client_for, carol):
    assert "No rated game finished yet" in client_for(carol).get(reverse("games-profile")).text


def test_the_leaderboard_lists_the_best_first_and_is_in_the_nav(client_for, alice, bob, carol, make_game):
    _rate_orleans(bob, alice, make_game(alice, bob, seats=2))
    page = client_for(carol).get(reverse("games-leaderboard")).text
    assert page.index(">bob<") < page.index(">alice<")
    assert f'href="{reverse("games-leaderboard")}"' in page
    assert "carol" not in page.split('id="leaderboard"')[1]  # no rated game: not listed
