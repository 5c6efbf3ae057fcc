"""Ratings: each player's openskill rating per rules, updated once per finished rated game.

The arithmetic is the ``openskill`` library's (its Plackett-Luce model, default
parameters: mu 25, sigma 25/3); the site only feeds it each finished rated game's places
from the engine's ranking (``outcome["ranking"]``, RULES §10.3: players tied after the
development tie-break share a place, and openskill treats a shared rank as a tie). A game
is rated when it was created rated, no bot played in it (``has_bots``) and it was not imported;
a game ended early by vote is rated by its score as it stood.
"""
from __future__ import annotations

from django.db import transaction
from openskill.models import PlackettLuce

from games.models import Game, GameStatus, Rating, RatingChange, Seat
from games.services.locks import GameId, _lock_game
from games.services.records import records_touch

#: The rating model (openskill's defaults).
MODEL = PlackettLuce()


def has_bots(game: Game) -> bool:
    """True if a bot held a seat of ``game`` or played for an absent player
    (``Game.has_bots``): the one place the ratings ask."""
    return game.has_bots


def is_rateable(game: Game) -> bool:
    """True if ``game``'s result counts for ratings: created rated, finished with an
    outcome, no bot seat and not imported."""
    return (game.rated and game.status == GameStatus.FINISHED and bool(game.outcome)
            and not game.imported and not has_bots(game))


def _rating_of(user_id: int, rules: str) -> Rating:
    """The user's rating row for ``rules``, created at the model's start, locked."""
    start = MODEL.rating()
    Rating.objects.get_or_create(user_id=user_id, rules=rules,
                                 defaults={"mu": start.mu, "sigma": start.sigma, "ordinal": start.ordinal()})
    return Rating.objects.select_for_update().get(user_id=user_id, rules=rules)


def _rate(game: Game) -> list[RatingChange]:
    """Rate a finished ``game`` (caller holds its row lock); ``[]`` if it is not rateable
    or was rated already (its ``RatingChange`` rows exist)."""
    if not is_rateable(game) or RatingChange.objects.filter(game=game).exists():
        return []
    places = {entry["seat"]: entry["place"] for entry in game.outcome.get("ranking") or []}
    seats = sorted(Seat.objects.filter(game=game), key=lambda s: s.order)
    if len(seats) < 2 or any(s.order not in places for s in seats):
        return []
    ratings = [_rating_of(seat.user_id, game.rules) for seat in seats]  # seat order: locks in one order
    teams = [[MODEL.create_rating([r.mu, r.sigma])] for r in ratings]
    new = MODEL.rate(teams, ranks=[places[s.order] for s in seats])
    changes = []
    for seat, rating, (after,) in zip(seats, ratings, new, strict=True):
        changes.append(RatingChange(
            game=game, user_id=seat.user_id, placement=places[seat.order],
            mu_before=rating.mu, sigma_before=rating.sigma, ordinal_before=rating.ordinal,
            mu_after=after.mu, sigma_after=after.sigma, ordinal_after=after.ordinal()))
        rating.mu, rating.sigma, rating.ordinal = after.mu, after.sigma, after.ordinal()
        rating.games += 1
        rating.save(update_fields=["mu", "sigma", "ordinal", "games", "updated_at"])
    records_touch(seat.user_id for seat in seats)  # the profiles show the new ratings
    return RatingChange.objects.bulk_create(changes)


@transaction.atomic
def game_rate(*, game_id: GameId) -> list[RatingChange]:
    """Update the players' ratings from a finished rated game; idempotent.

    Locks the game; returns the new ``RatingChange`` rows (one per player, in seat order),
    or ``[]`` when the game is not rateable (``is_rateable``: unrated, a bot seat, imported,
    not finished) or was rated before. Called by the services that finish a game, in their
    transaction (``store._store``, ``play.game_vote_end``). Raises ``GameNotFound``.
    """
    return _rate(_lock_game(game_id))
