"""The Jinja2 partials (games.templating) are read by makemessages and translated to Japanese."""
import pathlib

from django.conf import settings
from django.template import engines
from django.utils import translation

from games.management.commands.makemessages import jinja_stub

JINJA_ROOT = pathlib.Path(settings.BASE_DIR) / "templates" / "jinja2"


def _messages():
    env = engines["jinja2"].env
    for path in sorted(JINJA_ROOT.rglob("*.html")):
        for _line, function, message in env.extract_translations(path.read_text()):
            yield path.relative_to(JINJA_ROOT), function, message


def test_makemessages_reads_each_string_of_a_jinja_template_on_its_line():
    source = ('<h2>{{ _("Your decision") }}</h2>\n\n'
              '<p>{% trans trimmed n=count, who=name %}{{ who }} has {{ n }} coin{% pluralize n %}'
              '{{ who }} has {{ n }} coins{% endtrans %} {{ pgettext("in a list", ", ") }}</p>\n')
    assert jinja_stub(source).splitlines() == [
        "gettext('Your decision')",
        "",
        "ngettext('%(who)s has %(n)s coin', '%(who)s has %(n)s coins', 1); pgettext('in a list', ', ')",
    ]


def test_there_are_jinja_partials_with_strings_to_translate():
    assert len(list(_messages())) >= 10


#: Strings whose Japanese is the English (translated so in locale/ja, not missing): the
#: development track's level mark ("L2").
SAME_IN_JAPANESE = {"L%(level)s"}


def test_every_string_of_the_jinja_partials_has_a_japanese_translation():
    missing = []
    with translation.override("ja"):
        for path, function, message in _messages():
            # the strings of the call; a variable argument (a count, a keyword) is None
            parts = [m for m in (message if isinstance(message, tuple) else (message,)) if m is not None]
            if function in ("ngettext", "npgettext"):
                translated = (translation.ngettext(*parts, 1) if function == "ngettext"
                              else translation.npgettext(*parts, 1))
            elif function == "pgettext":
                translated = translation.pgettext(*parts)
            else:
                translated = translation.gettext(*parts)
            english = parts[-2] if function in ("ngettext", "npgettext") else parts[-1]
            if translated == english and english not in SAME_IN_JAPANESE:
                missing.append(f"{path}: {english}")
    assert missing == []
