"""A tiny stand-in for ``engine`` with the same public API, for site tests that need
exact control of simultaneous phases, hidden information and the end of the game.

The game: for ``ROUNDS`` rounds every seat secretly picks 1 or 2 (a simultaneous
phase); once all have picked, ``resolve`` adds the picks to the scores. Highest total
wins. A seat's pick is hidden from the others until the round resolves.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace

ENGINE_VERSION = "fake-1"
ROUNDS = 2


class InvalidOptions(ValueError):
    """Bad game options."""


class RulesError(ValueError):
    """Base of rule violations."""


class MalformedAction(RulesError):
    """The action cannot be read."""


class IllegalAction(RulesError):
    """Not allowed now."""


class NotYourTurn(RulesError):
    """The seat is not awaited."""


class GameOver(RulesError):
    """The game has ended."""


@dataclass(frozen=True)
class GameOptions:
    """Same fields and validation as the real options."""

    players: int
    simultaneous_followers: bool = True
    place_tile_market: str = "normal"
    event_strength: str = "phased"
    hourglass_order: str = "abc"

    def __post_init__(self) -> None:
        if not isinstance(self.players, int) or not 2 <= self.players <= 4:
            raise InvalidOptions(f"players must be 2-4, not {self.players!r}")
        if self.place_tile_market not in {"normal", "market3", "market5", "all"}:
            raise InvalidOptions(f"bad place_tile_market {self.place_tile_market!r}")
        if self.event_strength not in {"phased", "constant"}:
            raise InvalidOptions(f"bad event_strength {self.event_strength!r}")
        if self.hourglass_order not in {"abc", "classic_shuffle"}:
            raise InvalidOptions(f"bad hourglass_order {self.hourglass_order!r}")

    @classmethod
    def from_dict(cls, data: dict) -> "GameOptions":
        """Build from a dict; unknown keys are refused."""
        try:
            return cls(**data)
        except TypeError as exc:
            raise InvalidOptions(str(exc)) from exc

    def to_dict(self) -> dict:
        """JSON-safe dict."""
        return asdict(self)


@dataclass(frozen=True)
class GameState:
    """Round, scores and this round's secret picks (seat -> 1|2)."""

    options: GameOptions
    seed: int
    round: int = 1
    scores: tuple = ()
    picks: dict = field(default_factory=dict)

    @property
    def phase(self) -> str:
        """The part of a round a seat decides in (a ``RulesEngine`` state has one)."""
        return "over" if self.round > ROUNDS else "pick"


def new_game(options: GameOptions, seed: int) -> GameState:
    """Round 1, all scores 0."""
    return GameState(options=options, seed=seed, scores=(0,) * options.players)


def to_json(state: GameState) -> dict:
    """JSON-safe snapshot."""
    return {
        "options": state.options.to_dict(),
        "seed": state.seed,
        "round": state.round,
        "scores": list(state.scores),
        "picks": {str(k): v for k, v in state.picks.items()},
    }


def from_json(data: dict) -> GameState:
    """Inverse of ``to_json``."""
    return GameState(
        options=GameOptions.from_dict(data["options"]),
        seed=data["seed"],
        round=data["round"],
        scores=tuple(data["scores"]),
        picks={int(k): v for k, v in data["picks"].items()},
    )


def is_over(state: GameState) -> bool:
    """After ROUNDS rounds."""
    return state.round > ROUNDS


def awaiting(state: GameState) -> dict[int, str]:
    """Seats that have not picked this round."""
    if is_over(state):
        return {}
    return {s: "pick" for s in range(state.options.players) if s not in state.picks}


def legal_actions(state: GameState, seat: int) -> list[dict]:
    """Pick 1 or 2, if still to pick."""
    if seat not in awaiting(state):
        return []
    return [{"type": "pick", "n": 1}, {"type": "pick", "n": 2}]


def apply(state: GameState, seat: int, action: dict) -> tuple[GameState, list[dict]]:
    """Record a secret pick."""
    if is_over(state):
        raise GameOver("The game is over.")
    if not isinstance(action, dict) or "type" not in action:
        raise MalformedAction(f"Cannot read action {action!r}.")
    if seat not in awaiting(state):
        raise NotYourTurn(f"Seat {seat} has already picked this round.")
    if action not in legal_actions(state, seat):
        raise IllegalAction(f"{action!r} is not allowed: pick 1 or 2.")
    picks = {**state.picks, seat: action["n"]}
    return replace(state, picks=picks), [{"text": f"Seat {seat} has picked."}]


def needs_resolution(state: GameState) -> bool:
    """Every seat has picked."""
    return not is_over(state) and not awaiting(state)


def resolve(state: GameState) -> tuple[GameState, list[dict]]:
    """Add the picks to the scores and start the next round."""
    scores = tuple(score + state.picks[s] for s, score in enumerate(state.scores))
    events = [{"text": f"Round {state.round}: picks {dict(sorted(state.picks.items()))}."}]
    return replace(state, round=state.round + 1, scores=scores, picks={}), events


def view(state: GameState, seat: int | None) -> dict:
    """Public scores; only the viewer's own pick."""
    return {
        "round": {"number": state.round, "of": ROUNDS},
        "start_player": 0,
        "scores": list(state.scores),
        "picked": sorted(state.picks),
        "my_pick": state.picks.get(seat) if seat is not None else None,
    }


def outcome(state: GameState) -> dict | None:
    """Scores and ranking in the real engine's shape (ties share a place) once over."""
    if not is_over(state):
        return None
    scores = [{"seat": s, "total": t} for s, t in enumerate(state.scores)]
    order = sorted(range(len(state.scores)), key=lambda s: -state.scores[s])
    ranking = []
    for i, s in enumerate(order):
        tied = ranking and state.scores[ranking[-1]["seat"]] == state.scores[s]
        ranking.append({"seat": s, "place": ranking[-1]["place"] if tied else i + 1, "total": state.scores[s]})
    return {"scores": scores, "ranking": ranking, "winners": [r["seat"] for r in ranking if r["place"] == 1]}


def describe_action(action: dict, state=None, seat=None) -> str:
    """Button label."""
    return f"Pick {action.get('n')}"


def timeout_action(state: GameState, seat: int) -> dict | None:
    """The timeout policy: pick 1; None if the seat is not awaited."""
    return {"type": "pick", "n": 1} if seat in awaiting(state) else None
