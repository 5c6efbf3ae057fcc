"""Presenters and template tags reach the rules engine only through ``games.rules``
(``engine_for(game)``, or the default engine for a filter with no game): no module of
games/presenters or games/templatetags imports the ``engine`` package."""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("games/presenters", "games/templatetags")


def engine_imports(source: str) -> list[int]:
    """Lines of ``source`` that import the ``engine`` package or a module of it."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        if any(name == "engine" or name.startswith("engine.") for name in names):
            lines.append(node.lineno)
    return lines


def test_no_presenter_or_template_tag_imports_the_engine():
    found = {path.relative_to(ROOT).as_posix(): lines
             for package in PACKAGES for path in sorted((ROOT / package).glob("*.py"))
             if (lines := engine_imports(path.read_text(encoding="utf-8")))}
    assert found == {}


@pytest.mark.parametrize(("source", "expected"), [
    ("import engine\n", [1]),
    ("from engine import content as C\n", [1]),
    ("x = 1\nfrom engine.describe import follower_name\n", [2]),
    ("from games import rules\nimport engineering\n", []),
])
def test_the_check_sees_every_form_of_engine_import(source, expected):
    assert engine_imports(source) == expected
