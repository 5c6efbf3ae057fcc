"""The repository's fixture games (tests/fixtures/games/*.json, export documents)."""
from __future__ import annotations

import json
import pathlib

DIRECTORY = pathlib.Path(__file__).resolve().parents[1] / "fixtures" / "games"


def fixture_names() -> list[str]:
    """Every fixture game's name (its file name without ``.json``), sorted."""
    return sorted(p.stem for p in DIRECTORY.glob("*.json"))


def load(name: str) -> dict:
    """The export document of fixture game ``name`` (a fresh copy each call)."""
    return json.loads((DIRECTORY / f"{name}.json").read_text())
