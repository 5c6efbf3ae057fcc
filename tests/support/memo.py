"""Watching the per-process memo of ``pure_include`` (``games_extras.pure_render``) in a test:
which partials a render renders afresh (after another render), what the memo serves against a
fresh render in each language, and a region rendered at several versions."""
from __future__ import annotations

import dataclasses
import re

from games import templating
from games.templatetags import games_extras

_POSTED_VERSION = re.compile(r'name="expected_version" value="([^"]*)"')


def fresh_renders(monkeypatch) -> list[str]:
    """Empty the memo; the returned list gets the name of every partial rendered afresh
    (not served by the memo) from now on."""
    monkeypatch.setattr(games_extras, "_pure_rendered", type(games_extras._pure_rendered)())
    rendered: list[str] = []
    real = templating.render_values
    monkeypatch.setattr(templating, "render_values", lambda name, values: rendered.append(name) or real(name, values))
    return rendered


def at_versions(name: str, context: dict, request, versions) -> dict[int, tuple[str, set[str]]]:
    """The partial ``name`` rendered with ``context`` at each of ``versions`` (its game's
    version replaced): version -> (HTML, the versions its forms post)."""
    out = {}
    for version in versions:
        shown = context | {"game": dataclasses.replace(context["game"], version=version)}
        html = templating.render_partial(name, shown, request)
        out[version] = (html, set(_POSTED_VERSION.findall(html)))
    return out


def rendered_again(monkeypatch, render, before, after) -> tuple[str, list[str]]:
    """``render(after)`` (``render``: values -> HTML) once ``render(before)`` filled an
    emptied memo: its HTML and the partials it rendered afresh, in order."""
    rendered = fresh_renders(monkeypatch)
    render(before)
    rendered.clear()
    return render(after), list(rendered)


def served_and_fresh(monkeypatch, render, shown: list) -> list[tuple[list[str], list[str]]]:
    """In English, Japanese and English again: ``render`` (values -> HTML) of each of
    ``shown`` as the memo serves it after the languages before, and as rendered with an
    emptied memo."""
    from django.utils import translation

    out = []
    for language in ("en-gb", "ja", "en-gb"):
        with translation.override(language):
            served = [render(values) for values in shown]
            monkeypatch.setattr(games_extras, "_pure_rendered", type(games_extras._pure_rendered)())
            out.append((served, [render(values) for values in shown]))
    return out
