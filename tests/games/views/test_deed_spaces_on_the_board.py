"""Town Hall on the board (issue 9): its choices name the single deed spaces their followers
fill, and those are exactly the legal actions' — each follower on the next free space of its
own type on its deed (RULES §7.2) — and every named space is an empty space of the deeds
board with that type."""
import re
from collections import Counter

import pytest

import engine
from engine import content
from tests.support import engine_states as H
from tests.support.act_board import act_board
from tests.support.game_driver import install, seats

pytestmark = pytest.mark.django_db

# a farmer and a boatman on the Town Hall; the second deed position has spaces already taken
TOWN_HALL = {"spaces": {"town_hall": ["farmer", "boatman"]}, "merchant": "orleans"}
TAKEN = {"canalisation": [["farmer", 1]], "boatmen_guild": [["boatman", 1]]}


def empty_spaces(text: str) -> dict[str, str]:
    """``{deed space name: its circle's follower type}`` of the deeds region's empty spaces."""
    deeds = text[text.index('id="game-deeds"'):]
    deeds = deeds[:deeds.index("</section>")]
    return dict(re.findall(r'data-deed-space="([^"]+)"><span class="circle t-(\w+)"', deeds))


@pytest.mark.parametrize("taken", [{}, TAKEN], ids=["no deed taken", "some spaces taken"])
def test_the_town_halls_choices_light_exactly_the_deed_spaces_their_followers_fill(taken, started_game, client_for):
    deeds = {**H.new_data()["deeds"], **taken}
    state = H.action_state(TOWN_HALL, deeds=deeds)
    game = install(started_game, state)
    text = client_for(seats(game)[0].user).get(f"/games/{game.pk}/").content.decode()
    board = act_board(text)
    town_hall = [(action, attrs) for place, action, attrs in board.targets if place == "town_hall"]
    legal = [a for a in engine.legal_actions(state, 0) if a.get("space") == "town_hall"]
    assert sorted(map(str, (a for a, _ in town_hall))) == sorted(map(str, legal)) and len(legal) > 1
    free = empty_spaces(text)
    for action, attrs in town_hall:
        named = (attrs.get("data-deed-spaces") or "").split()
        assert len(named) == len(set(named)) == len(action["deeds"])
        # per deed and follower type, as many spaces as followers sent there, each an empty one of that type
        sent = Counter((d["deed"], content.follower_type(d["follower"])) for d in action["deeds"])
        assert Counter(tuple(n.split(":")[:2]) for n in named) == sent
        for name in named:
            deed, kind, _index = name.split(":")
            assert free.get(name) == kind
    # the spaces taken before are never named: the first free space of a type is
    for deed, filled in taken.items():
        kind = filled[0][0]
        assert f"{deed}:{kind}:0" not in free
        assert any(f"{deed}:{kind}:1" in (attrs.get("data-deed-spaces") or "") for _a, attrs in town_hall)
