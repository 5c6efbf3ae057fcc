"""A message's text is its template filled as ``str.format`` fills it, counted nouns by the
language's words (``engine.messages``): the parsed-once filling (``_fill``) writes the same
text as the formatter for every template of the catalog, and raises the same errors."""
import string

import pytest

from engine import messages as M


def _values(template: str, n: int) -> dict:
    values = {}
    for _literal, name, spec, _conversion in string.Formatter().parse(template):
        if name is not None:
            values[name] = n if spec in M.COUNTED or spec.startswith(("d", "+", ">", "<", "0")) else f"<{name}>"
    return values


@pytest.mark.parametrize("n", [0, 1, 3])
def test_every_catalog_template_is_filled_as_the_formatter_fills_it(n):
    for msg_id, template in M.CATALOG.items():
        values = _values(template, n)
        assert M._fill(M.ENGLISH, template, values) == M._Formatter(M.ENGLISH).format(template, **values), msg_id


@pytest.mark.parametrize("template, values, text", [
    ("{x!r}", {"x": "a"}, "'a'"),
    ("{x.real}", {"x": 7}, "7"),
    ("{x[0]}", {"x": [7]}, "7"),
    ("{{literal}} {x}", {"x": 7}, "{literal} 7"),
    ("{x:>{w}}", {"x": 7, "w": 3}, "  7"),
    ("{x:coin} {y:03d}", {"x": 1, "y": 7}, "1 coin 007"),
])
def test_templates_beyond_plain_names_fill_as_the_formatter(template, values, text):
    assert M._Formatter(M.ENGLISH).format(template, **values) == text
    assert M._fill(M.ENGLISH, template, values) == text


def test_a_missing_value_raises_key_error():
    with pytest.raises(KeyError):
        M._fill(M.ENGLISH, "{player} gains {coins:coin}", {"player": "x"})
