"""The bot arena: seat-rotated games, one JSON line, illegal actions counted (issue #10)."""

import json

import engine
from engine import arena
from engine.bots import _REGISTRY


def test_the_arena_prints_one_json_line_with_every_bot_by_position(capsys):
    assert arena.main(["--players", "2", "--bots", "greedy,random", "--games", "2", "--seed", "3"]) == 0
    lines = capsys.readouterr().out.strip().splitlines()
    assert len(lines) == 1
    summary = json.loads(lines[0])
    assert summary["games"] == 2 and summary["players"] == 2
    assert [b["name"] for b in summary["bots"]] == ["greedy", "random"]
    for b in summary["bots"]:
        assert set(b) >= {"wins", "win_rate", "mean_score", "max_score", "breakdown", "decisions", "p50_ms",
                          "p95_ms", "illegal"}
        assert b["illegal"] == 0
        assert set(b["breakdown"]) == {"coins", "goods_total", "stations", "citizens", "level", "development",
                                       "stations_and_citizens"}
    assert sum(b["wins"] for b in summary["bots"]) == 2  # ties split, every game counted once


def test_seats_rotate_so_each_bot_sits_in_each_seat(monkeypatch):
    seats = {}
    real_play = arena.play

    def spy(options, seed, levels, budget=None, stats=None):
        seats[seed] = list(levels)
        return real_play(options, seed, levels, budget, stats)

    monkeypatch.setattr(arena, "play", spy)
    arena.run(engine.GameOptions(players=2), ["greedy", "random"], 2, 10)
    assert seats == {10: ["greedy", "random"], 11: ["random", "greedy"]}


class _IllegalBot:
    name = "illegal"

    def choose(self, view, legal_actions, rng, budget):
        return {"type": "pass"} if legal_actions[0]["type"] != "activate" else {"type": "draw", "count": 99}


def test_an_illegal_action_is_counted_and_replaced_by_a_legal_one(monkeypatch):
    monkeypatch.setitem(_REGISTRY, "illegal", _IllegalBot)
    monkeypatch.setattr(arena, "LEVELS", tuple(_REGISTRY))
    summary = arena.run(engine.GameOptions(players=2), ["illegal", "random"], 1, 4)
    bad, fine = summary["bots"]
    assert bad["illegal"] > 0 and bad["illegal"] <= bad["decisions"]
    assert fine["illegal"] == 0


def test_an_unknown_level_or_a_wrong_bot_count_is_refused(capsys):
    assert arena.main(["--players", "2", "--bots", "greedy,nobody", "--games", "1"]) == 2
    assert "unknown bot level" in capsys.readouterr().err
    assert arena.main(["--players", "3", "--bots", "greedy,random", "--games", "1"]) == 2
    assert "names 2 bots for 3 players" in capsys.readouterr().err


def test_progress_prints_one_line_per_finished_game_on_stderr(capsys):
    assert arena.main(["--players", "2", "--bots", "random,random", "--games", "2", "--seed", "5", "--progress"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines()[0].startswith("game seed 5: scores by position [")
    assert len(captured.err.splitlines()) == 2
    assert len(captured.out.strip().splitlines()) == 1
