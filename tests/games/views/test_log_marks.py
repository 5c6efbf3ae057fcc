"""The move log says why a move was made for a player: a forced move (the only one left)
and a move by the queue, a timeout or a bot each carry their words."""
from django.template.loader import render_to_string

from games.selectors import RoundLog


def entry(**kw):
    return {"seq": 1, "text": "Alice passes", "forced": False, "automatic": False, "source": "", "mark": "", **kw}


def test_a_forced_move_says_it_was_the_only_move_left():
    html = render_to_string("games/partials/_log.html", {"log": [RoundLog(round=2, entries=[entry(forced=True)])]})
    assert "Alice passes <em>(the only move left: played automatically)</em>" in html


def test_a_marked_move_shows_its_source_instead():
    html = render_to_string("games/partials/_log.html",
                            {"log": [RoundLog(round=2, entries=[entry(forced=True, source="bot", mark="played by a bot")])]})
    assert "Alice passes <em>(played by a bot)</em>" in html and "only move left" not in html


def test_a_move_by_its_player_has_no_mark():
    html = render_to_string("games/partials/_log.html", {"log": [RoundLog(round=2, entries=[entry()])]})
    assert "Alice passes</li>" in html
