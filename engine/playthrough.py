"""Golden playthroughs: a readable text dump of a seeded random game.

``python -m engine.playthrough --write`` regenerates ``tests/engine/playthroughs/*.txt``;
the test suite replays the same seeds and diffs the text, so any change of behaviour shows
up as a readable diff.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from . import GameOptions, describe_action, outcome
from .simulate import play_game

GOLDEN = {
    "2p_seed1_phased.txt": (GameOptions(players=2), 1),
    "3p_seed2_constant_market3.txt": (GameOptions(players=3, event_strength="constant", place_tile_market="market3"), 2),
    "4p_seed3_sequential_classic.txt": (GameOptions(players=4, simultaneous_followers=False,
                                                    hourglass_order="classic_shuffle"), 3),
}
FOLDER = Path(__file__).resolve().parent.parent / "tests" / "engine" / "playthroughs"


def playthrough_text(options: GameOptions, seed: int) -> str:
    """The dump: options, then one line per action with its public events, then the outcome."""
    from . import apply, new_game, resolve

    result = play_game(options, seed, check=False)
    lines = [f"options {json.dumps(options.to_dict(), sort_keys=True)} seed {seed}"]
    state = new_game(options, seed)
    for seat, action in result["log"]:
        if seat is None:
            state, events = resolve(state)
            lines.append("-- resolve")
        else:
            state, events = apply(state, seat, action)
            lines.append(f"P{seat}: {describe_action(action)}")
        for e in events:
            who = f"P{e['seat']}" if e.get("seat") is not None else "game"
            lines.append("    " + e["text"].replace("{player}", who))
    for b in outcome(state)["scores"]:
        lines.append(f"score P{b['seat']}: {json.dumps(b, sort_keys=True)}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--write", action="store_true", help="rewrite the golden files")
    args = parser.parse_args(argv)
    for name, (options, seed) in GOLDEN.items():
        text = playthrough_text(options, seed)
        path = FOLDER / name
        if args.write:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
        print(f"{name}: {len(text.splitlines())} lines{' written' if args.write else ''}")


if __name__ == "__main__":
    main()
