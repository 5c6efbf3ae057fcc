"""A tiny stand-in for ``engine`` with the same public API, for site tests that need
exact control of simultaneous phases, hidden information and the end of the game.

The game: for ``ROUNDS`` rounds every seat secretly picks 1 or 2 (a simultaneous
phase); once all have picked, ``resolve`` adds the picks to the scores. Highest total
wins. A seat's pick is hidden from the others until the round resolves.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from types import SimpleNamespace

ENGINE_VERSION = "fake-1"
ROUNDS = 2
STALE = "stale"
QUEUE_LIMIT = 10
PICKS = ({"type": "pick", "n": 1}, {"type": "pick", "n": 2})


class RulesError(ValueError):
    """Base of rule violations: ``str(err)`` is developer text, ``message`` the player's
    sentence, ``code`` and ``params`` the reason (as the real engine's errors)."""

    default_code = "refused"
    default_message = "That is not allowed."

    def __init__(self, text: str = "", *, code: str | None = None, params: dict | None = None,
                 message: str | None = None):
        self.code = code or self.default_code
        self.params = dict(params or {})
        self.message = message or self.default_message
        super().__init__(text or self.message)


class InvalidOptions(RulesError):
    """Bad game options."""

    default_code, default_message = "invalid_options", "These game options are not valid."


class MalformedAction(RulesError):
    """The action cannot be read."""

    default_code, default_message = "malformed", "That move could not be read."


class IllegalAction(RulesError):
    """Not allowed now."""

    default_code, default_message = "not_allowed", "Pick 1 or 2."


class NotYourTurn(RulesError):
    """The seat is not awaited."""

    default_code, default_message = "not_your_turn", "You have already picked this round."


class GameOver(RulesError):
    """The game has ended."""

    default_code, default_message = "game_over", "The game is over."


class QueueRefused(RulesError):
    """A queue of picks that is not acceptable."""

    default_code, default_message = "queue_entry", "Queue picks of 1 or 2."


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


def loads_version(version: str) -> bool:
    """The fake's compatibility table: only its own version."""
    return version == ENGINE_VERSION


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
    return [dict(pick) for pick in PICKS]


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


def view(state: GameState, seat: int | None, *, reveal: bool = False) -> dict:
    """Public scores; only the viewer's own pick (every pick with ``reveal``, once over)."""
    if reveal and not is_over(state):
        raise RulesError("not over", code="not_over", message="The game is not over yet.")
    return {
        "round": {"number": state.round, "of": ROUNDS},
        "start_player": 0,
        "scores": list(state.scores),
        "picked": sorted(state.picks),
        "my_pick": state.picks.get(seat) if seat is not None else None,
        "picks": dict(state.picks) if reveal else None,
    }


def plan_circles(state: GameState, seat: int, place_id: str, placing: str | None = None) -> None:
    """No places and no plans in this game: nothing stands anywhere."""
    return None


def replay_steps(options: GameOptions, seed: int, log, *, reveal: bool = False):
    """Every position of ``log`` as the real engine's ``replay_steps`` (``reveal`` unchecked)."""
    state = new_game(options, seed)
    yield SimpleNamespace(number=0, seat=None, action=None, state=state, events=[])
    for number, (seat, action) in enumerate(log, start=1):
        state, events = resolve(state) if seat is None else apply(state, seat, action)
        yield SimpleNamespace(number=number, seat=seat, action=action, state=state, events=events)


def outcome(state: GameState) -> dict | None:
    """Scores and ranking in the real engine's shape (ties share a place) once over."""
    return _result(state) if is_over(state) else None


def _result(state: GameState) -> dict:
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


def is_private_step(action) -> bool:
    """No move is treated as private: any move makes an older page stale."""
    return False


def is_provisional(action) -> bool:
    """Every pick is a decision."""
    return False


def score(state: GameState) -> dict:
    """The outcome as it stands, marked ``ended_early`` unless the game is over."""
    return {**_result(state), "ended_early": not is_over(state)}


def game_part(state: GameState) -> tuple[int, str]:
    """``(round, phase)``."""
    return state.round, state.phase


UNDO = {"type": "undo"}


def undoable(state: GameState, seat: int) -> bool:
    """The fake rules allow no take-back."""
    return False


def undo(state: GameState, seat: int) -> GameState:
    """Never undoable: always refused."""
    raise IllegalAction("nothing to take back", code="not_undoable")


def is_undo(action) -> bool:
    """True for the take-back log entry."""
    return action == UNDO


def undo_event(seat: int) -> dict:
    """The take-back's event."""
    return {"kind": "undo", "seat": seat, "text": "{player} takes back"}


def _check_queue(state: GameState, seat: int, entries, limit: int = QUEUE_LIMIT) -> list[dict]:
    """A queue is a list of at most ``limit`` picks (``{"type": "pick", "n": 1|2}``)."""
    if not isinstance(entries, list) or any(e not in PICKS for e in entries):
        raise QueueRefused(f"bad queue {entries!r}")
    if len(entries) > limit:
        raise QueueRefused(f"{len(entries)} > {limit}", code="queue_limit",
                           message=f"At most {limit} picks can be queued.")
    return [dict(e) for e in entries]


def _queue_after_move(entries: list, action) -> list:
    """A move the queue's head made drops the head."""
    return list(entries[1:]) if entries and entries[0] == action else list(entries or [])


def _next_queued(state: GameState, seat: int, entries: list) -> tuple:
    """Play the head if the seat is awaited and it is legal; drop the queue if it is not."""
    if not entries or seat not in awaiting(state):
        return "wait", {"code": "queue_not_turn", "params": {}, "message": "The queue waits."}
    if entries[0] in legal_actions(state, seat):
        return "play", dict(entries[0])
    return "drop", {"code": "queue_not_playable", "params": {}, "message": "Your queue was dropped."}


#: The action queue, as ``engine.queue``.
queue = SimpleNamespace(QUEUE_LIMIT=QUEUE_LIMIT, check_queue=_check_queue, queue_after_move=_queue_after_move,
                        next_queued=_next_queued)
