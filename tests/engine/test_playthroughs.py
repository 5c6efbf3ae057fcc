"""Golden seeded playthroughs: the same seeds must give the same games, line for line.

After an intended rules change, regenerate with ``python -m engine.playthrough --write`` and
read the diff.
"""

import pytest

from engine.playthrough import FOLDER, GOLDEN, playthrough_text


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_playthrough_matches_golden_file(name):
    options, seed = GOLDEN[name]
    expected = (FOLDER / name).read_text(encoding="utf-8")
    assert playthrough_text(options, seed) == expected
