"""``{% per_language %}...{% endper_language %}``: a piece of the site's shell (base.html,
the game page) whose HTML depends on the active language alone, rendered once per
language by each compiled template and kept in the process (static URLs, translations and
URLs do not change while it runs). Nothing else may vary inside: no user, request, form
token or context value."""
from __future__ import annotations

from django import template
from django.utils.safestring import mark_safe
from django.utils.translation import get_language

register = template.Library()


class PerLanguageNode(template.Node):
    """The nodelist's HTML, rendered once per active language."""

    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist
        self.rendered: dict[str | None, str] = {}

    def render(self, context) -> str:
        """The HTML of the active language (rendered with ``context`` the first time)."""
        language = get_language()
        html = self.rendered.get(language)
        if html is None:
            html = self.rendered[language] = mark_safe(self.nodelist.render(context))
        return html


@register.tag
def per_language(parser, token) -> PerLanguageNode:
    """``{% per_language %}…{% endper_language %}``: see the module."""
    nodelist = parser.parse(("endper_language",))
    parser.delete_first_token()
    return PerLanguageNode(nodelist)
