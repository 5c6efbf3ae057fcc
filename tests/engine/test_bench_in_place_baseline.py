"""engine.bench's baseline plays the same games as the measured product: the rules applied
in place on one tree reach exactly the final state of engine.simulate.play_game."""
import json

import pytest

import engine
from engine.bench import play_in_place
from engine.simulate import play_game


@pytest.mark.parametrize("options", [dict(players=4), dict(players=3, simultaneous_followers=False)])
def test_the_in_place_baseline_reaches_the_same_final_state(options):
    options = engine.GameOptions(**options)
    product = play_game(options, 7, check=False)["state"]
    assert json.dumps(play_in_place(options, 7)) == json.dumps(product.data)
