"""User text that the site shows or puts into email headers: validation and flattening.

Names (a game's, a user's) are checked where they enter (forms, services, allauth) by
:class:`PlainTextValidator`; headers are flattened again at the boundary by
:func:`header_text`, because rows stored before the validation existed may still hold a
line break (a header with one cannot be sent at all).
"""
from __future__ import annotations

import unicodedata

from django.contrib.auth.validators import UnicodeUsernameValidator
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator
from django.utils.deconstruct import deconstructible
from django.utils.html import format_html
from django.utils.translation import gettext, gettext_lazy

#: Unicode categories refused in a name: controls (\r, \n, \t, NUL...), format characters
#: (bidi overrides, zero-width spaces), line/paragraph separators, surrogates, private use.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp", "Cs", "Co"})
#: Longest username (characters): it is shown at the table and in email subjects.
USERNAME_MAX_LENGTH = 30


def is_refused(char: str) -> bool:
    """Whether the single character ``char`` is one a name may not hold (``REFUSED_CATEGORIES``)."""
    return unicodedata.category(char) in REFUSED_CATEGORIES


def refused_characters(text: str) -> list[str]:
    """The characters of ``text`` a name may not hold, in order of appearance, unique."""
    found: list[str] = []
    for char in text:
        if is_refused(char) and char not in found:
            found.append(char)
    return found


def describe_character(char: str) -> str:
    """A readable name for a refused character, e.g. ``"a line break"`` or ``"U+200B"``
    (in the active language)."""
    if char in "\r\n\v\f\x85\u2028\u2029":
        return gettext("a line break")
    if char == "\t":
        return gettext("a tab")
    return f"U+{ord(char):04X}"


@deconstructible
class PlainTextValidator:
    """Refuses text with control or invisible format characters (``REFUSED_CATEGORIES``).

    Raises ``ValidationError`` (code ``control_characters``) whose message names what was
    found, e.g. "Names cannot contain a line break.".
    """

    code = "control_characters"

    def __call__(self, value: str) -> None:
        found = refused_characters(str(value))
        if found:
            what = ", ".join(dict.fromkeys(describe_character(c) for c in found))
            raise ValidationError(
                gettext_lazy("Names cannot contain %(what)s: use letters, digits, spaces and punctuation."),
                code=self.code, params={"what": what})

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PlainTextValidator)


def check_name(value: str, *, max_length: int) -> str:
    """``value`` stripped of surrounding whitespace, if it is a plain name of at most
    ``max_length`` characters. Raises ``ValidationError`` (control characters, too long)."""
    value = value.strip()
    PlainTextValidator()(value)
    MaxLengthValidator(max_length)(value)
    return value


#: allauth's ``ACCOUNT_USERNAME_VALIDATORS``: the user model's own rule (letters, digits
#: and @/./+/-/_), no control characters (with a clear message), at most 30 characters.
USERNAME_VALIDATORS = [
    PlainTextValidator(), UnicodeUsernameValidator(), MaxLengthValidator(USERNAME_MAX_LENGTH),
]


def header_text(text: str) -> str:
    """``text`` made safe for an email header: every refused character (line breaks
    included) becomes a space, runs of whitespace become one space, ends are stripped."""
    cleaned = "".join(" " if is_refused(c) else c for c in str(text))
    return " ".join(cleaned.split())


def user_content_html(text: str) -> str:
    """``text`` (a username, a game's or any stored name: user content) escaped and marked
    ``translate="no"`` so that a browser's page translation leaves it alone."""
    return format_html('<span translate="no">{}</span>', text)
