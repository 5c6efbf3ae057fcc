"""``python manage.py makemessages``: Django's, also reading the Jinja2 partials.

Django's ``makemessages`` reads templates in Django's syntax only (``templatize``); the
game page's Jinja2 partials (``templates/jinja2/``, ``games.templating``) are read by
Jinja2's own extractor instead: each is turned into a Python file of ``gettext``,
``ngettext`` and ``pgettext`` calls at the template's line numbers, which ``xgettext``
reads as it reads a templatized Django template. ``make messages`` runs it.
"""
from __future__ import annotations

import os

from django.core.management.commands import makemessages
from django.template import engines

#: Where the Jinja2 templates live, relative to the project's root (``TEMPLATES``).
JINJA_ROOT = os.path.join("templates", "jinja2") + os.sep


def jinja_stub(source: str) -> str:
    """Python source with one call per translatable string of the Jinja2 template
    ``source``, each on the template's line (``gettext('...')``, ``ngettext('...', '...',
    n)``, ``pgettext('context', '...')``): what ``xgettext`` extracts from. Raises
    ``jinja2.TemplateSyntaxError`` for a template that does not parse."""
    env = engines["jinja2"].env
    lines: dict[int, list[str]] = {}
    for lineno, function, message in env.extract_translations(source):
        args = [m for m in (message if isinstance(message, tuple) else (message,)) if m is not None]
        if function in ("ngettext", "npgettext"):
            args.append(1)  # the count: any expression
        call = f"{'gettext' if function == '_' else function}({', '.join(repr(a) for a in args)})"
        lines.setdefault(lineno, []).append(call)
    last = max(lines, default=0)
    return "\n".join("; ".join(lines.get(n, [])) for n in range(1, last + 1)) + "\n"


class JinjaAwareBuildFile(makemessages.BuildFile):
    """A file of the build: a Jinja2 template is preprocessed by ``jinja_stub``, anything
    else as Django preprocesses it."""

    def preprocess(self):
        if not (self.is_templatized and self.path[2:].startswith(JINJA_ROOT)):
            return super().preprocess()
        with open(self.path, encoding="utf-8") as source:
            content = jinja_stub(source.read())
        with open(self.work_path, "w", encoding="utf-8") as stub:
            stub.write(content)


class Command(makemessages.Command):
    build_file_class = JinjaAwareBuildFile
