"""Fingerprints of display data: what the game page's regions (``games.views.regions``)
and the player boards' cached fragments are keyed by.

A fingerprint hashes the data a piece of the page reads, the active language and time
zone, and the sources of the templates that render it; so the same fingerprint always
renders the same HTML, and a cached piece can be served to anyone whose data has that
fingerprint (they could render it themselves) without ever carrying another seat's data.
"""
from __future__ import annotations

import functools
import hashlib
from typing import Any

import orjson

from django.utils.functional import Promise

from games.vocabulary import language, time_zone_name


def _plain(obj):
    """orjson's ``default`` for display data it does not encode itself (it does dicts,
    lists, tuples, strings, numbers, dataclasses, dates and UUIDs); anything else is refused
    (TypeError)."""
    if isinstance(obj, Promise):  # a lazy translation: its text in the active language
        return str(obj)
    if isinstance(obj, (set, frozenset)):
        return sorted(obj, key=repr)
    raise TypeError(f"display data of type {type(obj).__name__} cannot be fingerprinted")


def _encode(data: Any) -> bytes:
    """``data`` as compact JSON bytes (orjson: dict keys that are not strings written as
    strings, as ``json.dumps`` writes them); raises ``TypeError`` for what is not display data."""
    return orjson.dumps(data, default=_plain, option=orjson.OPT_NON_STR_KEYS)


@functools.cache
def templates_revision(*names: str) -> str:
    """A hash of the sources of the templates ``names`` and of every partial they include
    (``templating.with_includes``): a deploy that changes one never serves a piece cached
    by the old one."""
    from games import templating
    from games.templatetags import games_extras  # the templates' own tags render too

    sources = "".join(templating.template_source(name) for name in sorted(templating.with_includes(names))).encode()
    return hashlib.sha1(sources + modules_source(games_extras, templating)).hexdigest()[:8]


def modules_source(*modules) -> bytes:
    """The source files of ``modules`` (imported modules), one after the other: what a
    revision of the code that renders a piece hashes."""
    parts = []
    for module in modules:
        with open(module.__file__, "rb") as source:
            parts.append(source.read())
    return b"".join(parts)


def locale() -> str:
    """What a piece's text depends on besides its data: the active language and time zone
    (``vocabulary.language``, ``vocabulary.time_zone_name``)."""
    return f"{language()}|{time_zone_name()}"


def fingerprint(kind: str, data: Any, templates: tuple[str, ...] = (), where: str | None = None) -> str | None:
    """The full (40 hex digits) fingerprint of ``data`` shown as ``kind`` by ``templates``
    in the active language and time zone (``where``: their ``locale()``, if the caller read
    it already: an answer fingerprints a few dozen pieces in one language); None if
    ``data`` holds something that is not display data (dicts, lists, strings, numbers,
    dataclasses, dates, lazy translations)."""
    try:
        text = _encode(data)
    except (TypeError, ValueError):  # orjson.JSONEncodeError is a TypeError
        return None
    where = locale() if where is None else where
    return hashlib.sha1(f"{kind}|{templates_revision(*templates)}|{where}|".encode() + text).hexdigest()
