"""``manage.py bench_sittings`` (make bench, issue #15): the queue replays the very same
decisions through the services (the command refuses a replay that differs) and needs fewer
sittings than playing every turn by hand."""
import json
from io import StringIO

import pytest
from django.core.management import call_command

from games.management.commands.bench_sittings import annotate, round_queue
import engine
from engine.simulate import play_game


@pytest.mark.django_db
def test_the_queue_replays_the_same_game_in_fewer_sittings():
    out = StringIO()
    call_command("bench_sittings", "--games", "1", "--players", "2", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])["sittings"]["2"]
    assert figures["queue"] < figures["no_queue"]
    assert figures["queue"] >= figures["round_starts"]


def test_a_round_queue_holds_the_seats_moves_of_that_round_in_order():
    options = engine.GameOptions(players=2)
    entries = annotate(options, 3, play_game(options, 3, check=False)["log"])
    plan_at = next(i for i, e in enumerate(entries) if e[0] == 0 and e[1]["type"] == "submit_plan")
    queue = round_queue(entries, plan_at, 0, 10)
    later = [e[1] for e in entries[plan_at + 1:] if e[0] == 0 and e[2] == entries[plan_at][2] and e[3] == "action"]
    moves = [{k: v for k, v in q.items() if k not in ("keep", "technology")} for q in queue if q["type"] != "harvest"]
    assert later and moves == [a if a["type"] == "activate" else {"type": "pass"} for a in later]
