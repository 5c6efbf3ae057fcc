"""The app graph is one-way: engine <- games <- notifications (orleans_site below them all).

Read from the source with ``ast``: games imports notifications only in
``games/services/outbox.py``, nothing imports across apps inside a function (a sign of a
hidden cycle), and the engine and the project package import no app.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
APPS = ("engine", "games", "notifications", "orleans_site")
#: What each package must never import.
FORBIDDEN = {
    "engine": {"games", "notifications", "orleans_site"},
    "games": {"notifications"},
    "orleans_site": {"games", "notifications"},
}
#: The one module of the games app that calls notifications.
OUTBOX = "games/services/outbox.py"


def _imported(node: ast.AST) -> list[str]:
    """Top-level package names an import node brings in (relative imports: none)."""
    if isinstance(node, ast.Import):
        return [alias.name.split(".")[0] for alias in node.names]
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
        return [node.module.split(".")[0]]
    return []


def violations(source: str, path: str) -> list[str]:
    """Every import in ``source`` (the file at repository path ``path``) that breaks the
    graph, as ``"path:line: what"``."""
    app = path.split("/")[0]
    found = []

    def visit(node: ast.AST, in_function: bool) -> None:
        for name in _imported(node):
            if name in FORBIDDEN.get(app, ()) and path != OUTBOX:
                found.append(f"{path}:{node.lineno}: {app} imports {name}")
            elif in_function and name in APPS and name != app:
                found.append(f"{path}:{node.lineno}: function-level import of {name}")
        nested = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
        for child in ast.iter_child_nodes(node):
            visit(child, nested)

    visit(ast.parse(source, filename=path), False)
    return found


def _sources():
    for app in APPS:
        for file in sorted((ROOT / app).rglob("*.py")):
            yield file.relative_to(ROOT).as_posix(), file.read_text(encoding="utf-8")


def test_no_import_breaks_the_one_way_app_graph():
    found = [v for path, source in _sources() for v in violations(source, path)]
    assert found == []


@pytest.mark.parametrize(("path", "source", "expected"), [
    ("games/services/play.py", "from notifications.services import x\n",
     ["games/services/play.py:1: games imports notifications"]),
    ("games/views/pages.py", "def f():\n    import notifications.models\n",
     ["games/views/pages.py:2: games imports notifications"]),
    ("notifications/views.py", "def f():\n    from games.services import x\n",
     ["notifications/views.py:2: function-level import of games"]),
    ("games/services/outbox.py", "from notifications.services import x\n", []),
    ("notifications/views.py", "from games.selectors import x\ndef f():\n    from notifications import y\n", []),
    ("engine/flow.py", "import games\n", ["engine/flow.py:1: engine imports games"]),
])
def test_the_checker_reports_what_breaks_the_graph(path, source, expected):
    assert violations(source, path) == expected
