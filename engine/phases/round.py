"""Start and end of a round: hourglass, census, start player, end of game (RULES §8.1,
§8.2, §8.9, §10.2)."""

from __future__ import annotations

from .. import content as C
from .. import steps as S
from . import torture


def event_phase_letter(s: dict) -> str:
    """Phase A/B/C of the current round, by round number (RULES §14.1)."""
    return C.ROUND_PHASE[s["round"]]


def turn_order(s: dict) -> list[int]:
    """Seats clockwise from the start player (RULES §8.7)."""
    n = len(s["players"])
    return [(s["start_player"] + i) % n for i in range(n)]


def census(s: dict, ev: list) -> None:
    """Phase 2 (RULES §8.2, §14.10): the single leader on the Farmer track gains 1 coin;
    the single last player pays 1 coin (not with 2 players); ties cancel."""
    positions = [p["tracks"]["farmer"] for p in s["players"]]
    top, bottom = max(positions), min(positions)
    if positions.count(top) == 1 and top != bottom:
        S.gain_coins(s, positions.index(top), C.CENSUS["leaderGains"], ev, {"census": True})
    two_player = len(positions) == 2
    if positions.count(bottom) == 1 and top != bottom and (not two_player or C.CENSUS["twoPlayerLastPays"]):
        torture.pay(s, positions.index(bottom), C.CENSUS["lastPays"], ev, {"census": True})


def start_round(s: dict, ev: list) -> None:
    """Phases 1–3 (RULES §8.1–§8.3): reveal the hourglass tile, census, open the
    followers/planning phase for every seat."""
    s["round"] += 1
    s["event"] = s["hourglass"].pop(0)
    S.event(ev, "round", None, "event.round", {"round": s["round"], "event": s["event"]},
            round=s["round"], hourglass=s["event"])
    census(s, ev)
    for p in s["players"]:
        p["stage"] = "draw"
        p["drawn"] = []
        p["pulled"] = 0
        p["passed"] = False
        p["tower_used"] = False
    s["phase"] = "planning"
    s["turn"] = None


def finish_round(s: dict, ev: list) -> None:
    """Phase 7 (RULES §8.9): the start player passes left; after round 18 the game ends."""
    s["start_player"] = (s["start_player"] + 1) % len(s["players"])
    s["turn"] = None
    if s["round"] >= C.ROUNDS:
        end_game(s, ev)
    else:
        start_round(s, ev)


def award_station_majority(s: dict, ev: list) -> None:
    """The 14th citizen to the single player with the most built trading stations; nobody
    on a tie or when nobody has built one (RULES §10.2). Changes ``s`` in place."""
    built = [S.stations_built(s, seat) for seat in range(len(s["players"]))]
    best = max(built)
    if best > 0 and built.count(best) == 1:
        S.take_citizen(s, built.index(best), "trading_station_majority", ev)


def end_game(s: dict, ev: list) -> None:
    """End of the game (RULES §10.2): the station-majority citizen, then the game is over."""
    award_station_majority(s, ev)
    s["phase"] = "over"
    for p in s["players"]:
        p["stage"] = None
    S.event(ev, "game_over", None, "event.game_over")
