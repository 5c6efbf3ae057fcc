"""The Jinja2 environment of the game page's region partials (issue 14).

The partials a decision's answer renders (``templates/jinja2/``) are Jinja2 templates:
Django's engine took about twice as long to render the same HTML. They are the decision
panel and its forms, your board with its place and act cards, the player boards (the
region and each board's article), the status line with the final scores and the rematch,
the log with its rounds and the link to older ones (also the log view's fragments), the
players, the action queue, the poll element and the flash; and the shared board regions,
cached per game version (the map, the character tracks, the development track, the deeds,
the event, the place tiles and the supply; the replay page includes them with
``jinja_include``). The rest (the chat and the pages around the regions) are Django templates.
``environment`` is the ``OPTIONS["environment"]`` of the ``jinja2`` entry of ``TEMPLATES``;
``render_partial`` renders a region's partial (Jinja2 or Django), ``render_values`` a Jinja2
one with given values.

The templates see what Django templates see of ``games_extras``: its filters and tags,
under the same names, as filters and globals. Translations go through Django's catalogs
(the ``i18n`` extension with Django's ``gettext``/``ngettext``, newstyle), so a
``{% trans %}`` block has the msgid the ``{% blocktranslate %}`` it replaces had, and its
variables are rendered as ``blocktranslate`` renders them; a render looks the active
translation up once (``bound_translation``), not once per string. The project's ``makemessages``
(``games.management.commands.makemessages``) reads these templates. Output is escaped as
Django escapes (``&quot;``, ``&#x27;``) and an undefined name or attribute is empty, as in a
Django template.
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import html
import re

import jinja2
import jinja2.runtime
from django.conf import settings
from django.template import Context, defaultfilters, engines
from django.template.base import render_value_in_context
from django.template.loader import get_template, render_to_string
from django.urls import get_script_prefix, get_urlconf, reverse
from django.utils.html import conditional_escape
from django.utils.text import capfirst
from django.utils.timezone import template_localtime
from django.utils.translation import gettext, ngettext, npgettext, pgettext, trans_real
from markupsafe import Markup

from games.templatetags import games_extras
from games.vocabulary import forget_with_catalogs, locale_bound, remember

#: Every name the templates may call, as Django templates call them (``{{ circle(c) }}``
#: for ``{% circle c %}``).
GLOBALS = ("circle", "follower", "seat_token", "good_token", "clock_span", "log_entries", "article_id",
           "article_digest")
#: Every filter the templates may use (``{{ x|compact_json }}`` as in Django).
FILTERS = ("compact_json", "join_names", "follower_name", "good_name", "decision_badge", "awaited_list",
           "awaited_seat_list", "colour_name", "humanize_key", "phase_name", "ordinal", "seconds_as_duration",
           "get_item")


#: What a form memoised for several versions holds where the page's version goes: a decision
#: form (``_decision_form.html``; ``_decision.html`` writes the version in its place) and an
#: act board's place card (``_act_card.html``, as its ``form_version``; ``_my_board.html``
#: writes it). Raw ``<`` and ``>``, which escaped text never holds: only the slot is replaced.
VERSION_SLOT = Markup("<expected-version>")


def _finalize(value):
    # Django's escaping (``&quot;``, ``&#x27;``), so a converted partial writes the same bytes;
    # what is safe already (Markup, SafeString: both have ``__html__``) passes as it is, and
    # so does a whole number's text (nothing to escape)
    if type(value) is int:
        return Markup(value)
    if hasattr(value, "__html__"):
        return value
    return Markup(html.escape(str(value)))


#: A Django context for ``render_value_in_context`` (autoescape on, the settings' localization
#: and time zone use), as a converted template's values were rendered in.
_AS_DJANGO = Context()
#: A Django context inside ``{% localize off %}`` (autoescape on, numbers plain), as the
#: values of a converted template's ``{% fill %}`` were rendered in (SVG coordinates).
_AS_DJANGO_UNLOCALIZED = Context(use_l10n=False)


def _as_django(value, context: Context = _AS_DJANGO):
    # ``value`` as a Django template renders it in ``context`` (render_value_in_context: local
    # time, localized unless the context says not, escaped as Django escapes: &#x27; where
    # Markup's % writes &#39;); text straight to the escaping (neither localized nor
    # converted), a whole number as number_format gives it without separators, without its
    # language look-up
    if isinstance(value, str):
        return conditional_escape(value)
    if type(value) is int and (context.use_l10n is False or not settings.USE_THOUSAND_SEPARATOR):
        return str(value)
    return render_value_in_context(value, context)


#: The active translation while a template renders (``_render``): the templates' ``gettext``
#: and ``ngettext`` look it up once per render, not once per string (Django's look-up goes
#: through asgiref's ``Local``, ~3 µs; an answer translates hundreds). A context variable,
#: not a template value: a call of a template value's function inside a loop would copy the
#: whole template context for it (Jinja2's derived context), a function of the evaluation
#: context alone is not.
_TRANSLATION: contextvars.ContextVar = contextvars.ContextVar("jinja_translation", default=None)


def _active_translation():
    # what Django's gettext and ngettext translate with (trans_real.catalog: the active
    # DjangoTranslation, else the default language's); None when USE_I18N is off
    return trans_real.catalog() if settings.USE_I18N else None


@contextlib.contextmanager
def bound_translation(translation):
    """While in the block, the Jinja2 templates' ``gettext`` and ``ngettext`` translate
    with ``translation`` (a ``DjangoTranslation``; None: Django's active one, looked up per
    string)."""
    token = _TRANSLATION.set(translation)
    try:
        yield
    finally:
        _TRANSLATION.reset(token)


#: (translation, method, arguments) -> text: what ``_bound`` got from a translation, for
#: a template's next render (a message missing from a catalogue, as every English one is,
#: walks the catalogue's fallbacks: ~3.5 µs). Emptied when full, and with the catalogues.
_TRANSLATED: dict = {}
_TRANSLATED_MAX = 8192
forget_with_catalogs(_TRANSLATED.clear)


def _bound(translate, method: str):
    # ``translate`` (Django's gettext, ngettext or pgettext) by the bound translation's
    # ``method``, which is what Django's function calls on it for plain strs without "\r"
    # (gettext first normalises line ends: such a message, and a safe one, go through
    # Django's); pgettext as Django's: the message with its context, else the message
    texts = 2 if method == "pgettext" else 1

    def call(*args):
        translation = _TRANSLATION.get()
        if translation is None or any(type(a) is not str or "\r" in a or not a for a in args[:texts]):
            return translate(*args)
        key = (translation, method, args)
        text = _TRANSLATED.get(key)
        if text is None:
            if method == "pgettext":
                message = f"{args[0]}{trans_real.CONTEXT_SEPARATOR}{args[1]}"  # a variable: not extracted
                found = translation.gettext(message)
                text = args[1] if trans_real.CONTEXT_SEPARATOR in found else found
            else:
                text = getattr(translation, method)(*args)
            text = remember(_TRANSLATED, key, text, _TRANSLATED_MAX)
        return text

    return call


def _translating(translate, counted: bool = False, method: str | None = None):
    # the i18n extension's newstyle call of ``translate`` (Django's gettext, ngettext, ...):
    # the translation is safe text, formatted with its variables rendered by ``_as_django``;
    # ``counted``: the last argument is the count, also the variable ``num``; ``method``:
    # the translation object's method the bound translation answers with (``_bound``)
    text_of = _bound(translate, method) if method else translate

    @jinja2.pass_eval_context
    def call(eval_ctx, *args, **variables):
        if counted:
            variables.setdefault("num", args[-1])
        text = text_of(*args)
        if not eval_ctx.autoescape:
            return text % variables
        return Markup(text) % {name: _as_django(value) for name, value in variables.items()}

    return call


def fill(message, **values) -> Markup:
    """``games_extras.fill`` for Jinja2 (``{{ fill(title, step=c.position) }}``): the
    message's ``[[name]]`` slots replaced by ``values``, each rendered as the Django tag
    rendered it inside ``{% localize off %}`` (escaped, numbers never localized)."""
    return Markup(games_extras.fill_slots(message, values, functools.partial(_as_django, context=_AS_DJANGO_UNLOCALIZED)))


def date(value, arg=None) -> str:
    """Django's ``date`` filter (``{{ when|date(format) }}``), on ``value`` in the current
    time zone as a Django template gives it to the filter."""
    return defaultfilters.date(template_localtime(value), arg)


#: (urlconf, script prefix, name, arguments) -> path: what ``url`` reversed (an answer's
#: forms post to a few paths of one game, each reversed once). Emptied when full.
_URLS: dict = {}
_URLS_MAX = 4096


def url(name: str, **kwargs) -> str:
    """``{% url name key=value %}``: the path of the URL pattern ``name`` with ``kwargs``
    (remembered per urlconf and script prefix). Raises ``NoReverseMatch`` as the tag does."""
    try:  # the urlconf a request resolves with (outside one: the settings'); True is not 1
        key = (get_urlconf() or settings.ROOT_URLCONF, get_script_prefix(), name,
               tuple((key, type(value), value) for key, value in sorted(kwargs.items())))
        path = _URLS.get(key)
    except TypeError:  # an argument that cannot be a key: reversed each time
        return reverse(name, kwargs=kwargs)
    if path is None:
        path = remember(_URLS, key, reverse(name, kwargs=kwargs), _URLS_MAX)
    return path


def choice_options(choices) -> Markup:
    """``games_extras.choice_options`` for Jinja2: a form's ``<option>`` elements."""
    return Markup(games_extras.options_html(choices))


@jinja2.pass_context
def act_form(context, choice: dict, cls: str, text: str = "") -> Markup:
    """``games_extras.act_form`` for Jinja2 (``{{ act_form(choice, cls, text) }}``): one
    legal action of the board as a form (the template's ``act_url``, ``csrf_token`` and
    ``form_version``, else its ``game``'s URL and version)."""
    return Markup(games_extras.act_form(context, choice, cls, text))


@jinja2.pass_context
def player_boards(context, boards: list[dict]) -> Markup:
    """``games_extras.player_boards`` for Jinja2 (``{{ player_boards(board.boards) }}``):
    every player board's article, with the template's context (``player_boards_html``)."""
    return Markup(games_extras.player_boards_html(boards, context.get, context.get_all))


def pure_include(name: str, **values) -> Markup:
    """``{% pure_include name key=value %}`` for Jinja2: the partial ``name`` rendered with
    ``values`` alone, memoised (``games_extras.pure_render``)."""
    return Markup(games_extras.pure_render(name, values))


#: What ``getattr`` finds on a plain dict: its methods and dunders (a dict has no instance attributes).
_DICT_ATTRIBUTES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja2's environment, whose ``x.name`` of a plain dict (most of the page's values)
    looks the key up without first failing to find an attribute (Jinja2 tries
    ``getattr`` first, and an exception costs about a microsecond): the same value, as
    such a dict has no attribute but ``dict``'s own."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)

    def make_globals(self, d):
        """A template's globals as one plain dict (its own over the environment's), where
        Jinja2 chains them in a ``ChainMap``: every context made for an ``{% include %}``
        iterates them, and a ChainMap's iteration builds a dict each time. The same names
        and values, as the environment's globals are set once, before any template is
        loaded (``environment``; Jinja2 asks that they not change after)."""
        return {**self.globals, **(d or {})}


def environment(**options) -> jinja2.Environment:
    """The Jinja2 environment of ``TEMPLATES["jinja2"]`` (``options``: the backend's, with
    its loader), with the ``i18n`` extension on Django's catalogs, Django's escaping, lenient
    undefined names, and the project's filters and tags."""
    options["undefined"] = jinja2.ChainableUndefined  # the backend sets its own: Django templates are lenient
    options.setdefault("keep_trailing_newline", True)  # the bytes a Django template wrote
    env = _Environment(extensions=["jinja2.ext.i18n"], finalize=_finalize, **options)
    # newstyle: a {% trans %} block's variables are the call's keywords (``_translating``)
    env.newstyle_gettext = True
    translated = _translating(gettext, method="gettext")
    env.globals.update(gettext=translated, _=translated, pgettext=_translating(pgettext, method="pgettext"),
                       ngettext=_translating(ngettext, counted=True, method="ngettext"),
                       npgettext=_translating(npgettext, counted=True))
    env.globals.update({name: getattr(games_extras, name) for name in GLOBALS})
    env.globals.update(url=url, choice_options=choice_options, act_form=act_form, pure_include=pure_include,
                       player_boards=player_boards, fill=fill, version_slot=VERSION_SLOT)
    env.filters.update({name: getattr(games_extras, name) for name in FILTERS}, capfirst=capfirst, date=date)
    return env


def _env() -> jinja2.Environment:
    return engines["jinja2"].env


@functools.cache
def is_jinja(name: str) -> bool:
    """True if the partial ``name`` (e.g. ``games/partials/_decision.html``) is a Jinja2
    template (``templates/jinja2/``), else it is a Django one."""
    try:
        _env().loader.get_source(_env(), name)
    except jinja2.TemplateNotFound:
        return False
    return True


def template_source(name: str) -> str:
    """The source text of the template ``name``, Jinja2 or Django (for the fingerprints'
    template revision). Raises ``TemplateDoesNotExist`` for neither."""
    if is_jinja(name):
        return _env().loader.get_source(_env(), name)[0]
    return get_template(name).template.source


#: A partial's includes: Django's {% include "x" %} / {% pure_include "x" %}, Jinja2's
#: {% include "x" %} / {{ pure_include("x", ...) }} / {% from "x" import m %} / {% import "x" as m %}.
INCLUDES = re.compile(r'(?:{%\s*(?:(?:pure_)?include|from|import)\s+|pure_include\(\s*)"([^"]+)"')


def with_includes(names) -> set[str]:
    """The templates ``names`` (an iterable of names, Django or Jinja2) and every partial
    they include (``INCLUDES``), at any depth: what a piece rendered by ``names`` is a
    function of besides its data. Raises ``TemplateDoesNotExist`` for a name of neither."""
    found: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop()
        if name not in found:
            found.add(name)
            todo += INCLUDES.findall(template_source(name))
    return found


def render_partial(name: str, context: dict, request, *, token: str | None = None) -> str:
    """A region partial ``name`` rendered with ``context`` (a dict) for ``request``: a Jinja2
    one directly on its environment, a Django one by ``render_to_string``. A Jinja2 one's
    forms post ``token`` (None: the regions' placeholder, replaced on the way out by
    ``games.views.regions``). Raises what the template raises."""
    if not is_jinja(name):
        return render_to_string(name, context, request=request)
    from games.views.regions import TOKEN_PLACEHOLDER

    token = TOKEN_PLACEHOLDER if token is None else str(token)
    return _render(name, dict(context, request=request, csrf_input=_csrf_input(token), csrf_token=token))


@functools.lru_cache(maxsize=64)
def _csrf_input(token: str) -> Markup:
    # the forms' hidden token field (nearly always the regions' placeholder: one per answer)
    return Markup('<input type="hidden" name="csrfmiddlewaretoken" value="{}">').format(token)


def render_values(name: str, values: dict) -> str:
    """The Jinja2 template ``name`` rendered with ``values`` alone."""
    return _render(name, values)


def _render(name: str, values: dict) -> str:
    if _TRANSLATION.get() is not None:  # inside another render (a pure_include): bound already
        return _render_template(_template(name), values)
    with locale_bound(), bound_translation(_active_translation()):
        return _render_template(_template(name), values)


def _render_template(template: jinja2.Template, values: dict) -> str:
    # ``template.render(values)``: the same context (its globals, then ``values``), made in
    # one copy of its globals, a plain dict (``_Environment.make_globals``)
    flat = template.globals
    context = jinja2.runtime.new_context(template.environment, template.name, template.blocks, flat | values,
                                         True, flat)
    try:
        return template.environment.concat(template.root_render_func(context))
    except Exception:
        return template.environment.handle_exception()


#: Name -> compiled template, while the environment does not check its files (``auto_reload``
#: off, as in production): Jinja2's own lookup takes a lock and a cache key.
_TEMPLATES: dict[str, jinja2.Template] = {}


def _template(name: str) -> jinja2.Template:
    env = _env()
    if env.auto_reload:
        return env.get_template(name)
    found = _TEMPLATES.get(name)
    if found is None or found.environment is not env:  # a new environment (settings changed)
        found = remember(_TEMPLATES, name, env.get_template(name), 512)
    return found
