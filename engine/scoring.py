"""Final scoring and the outcome (RULES §10.2, §10.3, §14.6)."""

from __future__ import annotations

from . import content as C
from . import steps as S
from .phases.round import award_station_majority


def score_breakdown(s: dict, seat: int) -> dict:
    """Points of one seat (RULES §10.3): coins, each good, and (built trading stations +
    citizens) × development level of the final position (RULES §14.6).

    Returns ``{"seat", "coins", "goods": {good: points}, "goods_total", "stations",
    "citizens", "level", "development", "stations_and_citizens", "total"}``; all in points
    except the counts ``stations``, ``citizens``, ``level`` and ``development`` (position).
    """
    p = s["players"][seat]
    goods = {g: p["goods"][g] * C.GOODS_VP[g] for g in C.GOODS}
    stations = S.stations_built(s, seat)
    level = C.development_level(p["development"])
    multiplied = (stations + p["citizens"]) * level
    total = p["coins"] + sum(goods.values()) + multiplied
    return {
        "seat": seat,
        "coins": p["coins"],
        "goods": goods,
        "goods_total": sum(goods.values()),
        "stations": stations,
        "citizens": p["citizens"],
        "level": level,
        "development": p["development"],
        "stations_and_citizens": multiplied,
        "total": total,
    }


def ranking(breakdowns: list[dict]) -> list[dict]:
    """Places by total, ties broken by development position (RULES §10.3); players still
    tied share the place. Returns ``[{"seat", "place", "total"}]`` best first."""
    key = lambda b: (b["total"], b["development"])  # noqa: E731
    ordered = sorted(breakdowns, key=lambda b: (-b["total"], -b["development"], b["seat"]))
    out = []
    for i, b in enumerate(ordered):
        place = out[-1]["place"] if out and key(ordered[i - 1]) == key(b) else i + 1
        out.append({"seat": b["seat"], "place": place, "total": b["total"]})
    return out


def score_data(s: dict) -> dict:
    """The outcome as it stands (RULES §10.3 scoring of the current position):
    ``{"scores", "ranking", "winners", "ended_early"}``; ``ended_early`` is True unless the
    game has ended normally after round 18 (RULES §10.2). A game ended early is scored as if
    it ended now, so the 14th citizen (trading-station majority, RULES §10.2) counts for the
    single player with the most built stations; ``s`` itself is not changed."""
    if s["phase"] != "over":
        s = {**s, "citizens": list(s["citizens"]), "players": [dict(p) for p in s["players"]]}
        award_station_majority(s, [])
    scores = [score_breakdown(s, seat) for seat in range(len(s["players"]))]
    rank = ranking(scores)
    return {"scores": scores, "ranking": rank, "winners": [r["seat"] for r in rank if r["place"] == 1],
            "ended_early": s["phase"] != "over"}


def outcome_data(s: dict) -> dict | None:
    """``None`` while the game runs (RULES §10.2); afterwards ``{"scores": [breakdown per seat],
    "ranking": [...], "winners": [seats]}``."""
    if s["phase"] != "over":
        return None
    out = score_data(s)
    del out["ended_early"]
    return out
