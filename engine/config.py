"""Game options: a validated, frozen configuration (RULES §12.1, §14.13)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from .errors import InvalidOptions

PLACE_TILE_MARKETS = ("normal", "market3", "market5", "all")
EVENT_STRENGTHS = ("phased", "constant")
HOURGLASS_ORDERS = ("abc", "classic_shuffle")
PLAYER_COUNTS = (2, 3, 4)


@dataclass(frozen=True)
class GameOptions:
    """Setup options of one game.

    - ``players``: 2, 3 or 4 (RULES §1; 5 players is not offered).
    - ``simultaneous_followers``: BGA option "Simultaneous Followers Phase" (RULES §8.3);
      on: every seat draws at once; off: seats draw one after another from the start player.
    - ``place_tile_market``: ``normal`` | ``market3`` | ``market5`` | ``all`` (RULES §12.3).
    - ``event_strength``: ``phased`` (A/B/C values) | ``constant`` (RULES §9.3).
    - ``hourglass_order``: ``abc`` stacks | ``classic_shuffle`` (RULES §9.2).

    Defaults follow RULES §14.13. Raises :class:`InvalidOptions` on a bad value.
    """

    players: int = 2
    simultaneous_followers: bool = True
    place_tile_market: str = "normal"
    event_strength: str = "phased"
    hourglass_order: str = "abc"

    def __post_init__(self):
        if not isinstance(self.players, int) or isinstance(self.players, bool) or self.players not in PLAYER_COUNTS:
            raise InvalidOptions(f"players must be one of {PLAYER_COUNTS}, not {self.players!r}")
        if not isinstance(self.simultaneous_followers, bool):
            raise InvalidOptions("simultaneous_followers must be true or false")
        for name, allowed in (
            ("place_tile_market", PLACE_TILE_MARKETS),
            ("event_strength", EVENT_STRENGTHS),
            ("hourglass_order", HOURGLASS_ORDERS),
        ):
            if getattr(self, name) not in allowed:
                raise InvalidOptions(f"{name} must be one of {allowed}, not {getattr(self, name)!r}")

    def to_dict(self) -> dict:
        """JSON-safe dict of every option."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict) -> "GameOptions":
        """Build options from a dict; unknown keys raise :class:`InvalidOptions`."""
        if isinstance(data, GameOptions):
            return data
        if not isinstance(data, dict):
            raise InvalidOptions("options must be an object")
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise InvalidOptions(f"unknown options: {sorted(unknown)}")
        return cls(**data)
