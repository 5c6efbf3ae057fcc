"""Presentational filters only: no rules, no queries."""
from __future__ import annotations

import json

from django import template

register = template.Library()


@register.filter
def pretty_json(value) -> str:
    """Indent a JSON-safe value for a ``<pre>`` block."""
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False, default=str)


@register.filter
def compact_json(value) -> str:
    """One-line JSON, for hidden form fields."""
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


@register.filter
def humanize_key(value) -> str:
    """``place_tile_market`` -> ``Place tile market``."""
    text = str(value).replace("_", " ").strip()
    return text[:1].upper() + text[1:]


@register.filter
def ordinal(value) -> str:
    """1 -> 1st, 2 -> 2nd, ...; empty for None."""
    if value is None:
        return ""
    number = int(value)
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


@register.filter
def option_value(value) -> str:
    """An option's value for display: booleans as on/off, names humanised."""
    if isinstance(value, bool):
        return "on" if value else "off"
    return humanize_key(value)
