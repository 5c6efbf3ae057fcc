"""The Jinja2 environment of the hot partials writes what Django templates write."""
from django.template import engines
from django.test import override_settings
from django.utils.html import escape
from django.utils.safestring import mark_safe


def render(source: str, **context) -> str:
    return engines["jinja2"].env.from_string(source).render(context)


def test_values_are_escaped_as_django_escapes_them():
    value = """<b a="1">O'Brien & co</b>"""
    assert render("{{ v }}", v=value) == escape(value) == "&lt;b a=&quot;1&quot;&gt;O&#x27;Brien &amp; co&lt;/b&gt;"


def test_safe_html_is_written_as_it_is():
    assert render("{{ v }}", v=mark_safe("<em>x</em>")) == "<em>x</em>"


def test_a_missing_name_or_attribute_is_empty_as_in_a_django_template():
    assert render("[{{ nothing.at.all }}]{% if decision.forms %}x{% endif %}", decision=None) == "[]"


def test_a_dicts_key_is_read_as_jinja2_reads_it():
    import jinja2

    env = engines["jinja2"].env
    values = {"coins": 3, "items": "shadowed", "none": None}
    for name in ("coins", "items", "none", "missing", "keys", "__class__", "get"):
        ours, jinjas = env.getattr(values, name), jinja2.Environment.getattr(env, values, name)
        assert ours == jinjas and type(ours) is type(jinjas), name
    assert render("{{ d.coins }} {{ d.items is callable }} {{ d.missing.deeper }}|", d=values) == "3 True |"


def test_a_url_is_the_path_django_reverses_under_the_current_script_prefix():
    import uuid

    from django.urls import reverse, set_script_prefix

    game_id = uuid.uuid4()
    source = "{{ url('games-act', game_id=g) }}"
    assert render(source, g=game_id) == render(source, g=game_id) == reverse("games-act", kwargs={"game_id": game_id})
    set_script_prefix("/orleans/")
    try:
        assert render(source, g=game_id) == reverse("games-act", kwargs={"game_id": game_id})
        assert render(source, g=game_id).startswith("/orleans/")
    finally:
        set_script_prefix("/")


def test_a_render_sees_the_globals_and_values_as_jinja2s_own_render():
    from games import templating

    env = engines["jinja2"].env
    template = env.from_string("{{ follower('farmer') }}|{{ x }}|{{ range(2)|list }}|{% include t %}")
    sub = env.from_string("{{ x }}{{ seat_token }}")
    for values in ({"x": 1, "t": sub}, {"x": "<b>", "t": sub, "seat_token": "a value over a global"}):
        assert templating._render_template(template, values) == template.render(values)
        assert templating._render_template(template, values) == template.render(values)  # a second render: the same globals, unchanged by the first


def test_a_templates_own_globals_stand_over_the_environments_as_in_jinja2():
    import collections

    env = engines["jinja2"].env
    name = next(iter(env.globals))  # any of the environment's globals
    template = env.from_string("{{ %s }}" % name, globals={name: "its own"})
    assert template.render() == "its own"
    plain = env.from_string("{{ x }}")
    assert plain.globals == dict(collections.ChainMap({}, env.globals))  # Jinja2's own layering, flat


def test_a_url_follows_the_root_urlconf_the_settings_name():
    import uuid

    from django.urls import reverse

    game_id, source = uuid.uuid4(), "{{ url('games-act', game_id=g) }}"
    here = render(source, g=game_id)
    with override_settings(ROOT_URLCONF="tests.site.elsewhere_urls"):
        assert render(source, g=game_id) == reverse("games-act", kwargs={"game_id": game_id}) != here
        assert render(source, g=game_id).startswith("/elsewhere/")
    assert render(source, g=game_id) == here  # the path remembered for the other urlconf stays there


def test_the_project_filters_and_tags_are_there():
    assert render("{{ v|compact_json }}", v={"a": 1}) == "{&quot;a&quot;:1}"
    assert 'class="circle t-farmer"' in render("{{ circle('farmer') }}")


def test_a_trans_variable_is_rendered_as_blocktranslate_renders_it():
    import datetime as dt

    from django.template import Context, Template
    from django.utils import timezone, translation

    values = ["""<b a="1">O'Brien & co</b>""", mark_safe("<em>x</em>"), 3, 1234567, 2.5, None, True,
              dt.datetime(2026, 12, 3, 7, 30, tzinfo=dt.timezone.utc), dt.date(2026, 12, 3)]
    for language in ("en-gb", "ja"):
        with translation.override(language), timezone.override("Asia/Tokyo"):
            for value in values:
                django = Template("{% load i18n %}{% blocktranslate with who=v %}Waiting for {{ who }}."
                                  "{% endblocktranslate %}").render(Context({"v": value}))
                assert render("{% trans who=v %}Waiting for {{ who }}.{% endtrans %}", v=value) == django
                with override_settings(USE_THOUSAND_SEPARATOR=True):
                    django = Template("{% load i18n %}{% blocktranslate with who=v %}Waiting for {{ who }}."
                                      "{% endblocktranslate %}").render(Context({"v": value}))
                    assert render("{% trans who=v %}Waiting for {{ who }}.{% endtrans %}", v=value) == django


def test_the_date_filter_shows_the_current_time_zone_as_in_django():
    import datetime as dt

    from django.template import Context, Template
    from django.utils import timezone

    when = dt.datetime(2026, 12, 3, 23, 30, tzinfo=dt.timezone.utc)
    with timezone.override("Asia/Tokyo"):
        django = Template('{{ when|date:"D d M, H:i T" }}').render(Context({"when": when}))
        assert render('{{ when|date("D d M, H:i T") }}', when=when) == django == "Fri 04 Dec, 08:30 JST"


def test_a_render_translates_with_the_translation_it_was_given_once():
    from django.utils import translation

    from games import templating

    source = ('{{ _("Log") }} {% trans n=2 %}{{ n }} queued{% endtrans %} '
              '{% trans n=3 %}{{ n }} coin{% pluralize %}{{ n }} coins{% endtrans %} {{ pgettext("placement", "{number}st") }}')
    for language in ("en-gb", "ja"):
        with translation.override(language):
            with templating.bound_translation(templating._active_translation()):
                bound = render(source)
            assert bound == render(source) and ("ログ" in bound) == (language == "ja")

    class Marking:
        def gettext(self, message):
            return f"[{message}]"

        def ngettext(self, singular, plural, count):
            return f"[{plural}]"

    with templating.bound_translation(Marking()):
        assert render(source).startswith("[Log] [2 queued] [3 coins] ")
    assert render(source).startswith("Log 2 queued 3 coins ")  # unbound after the block


def test_a_bound_pgettext_gives_what_djangos_gives():
    from django.utils import translation
    from django.utils.translation import pgettext

    from games import templating

    source = '{{ pgettext("place", "Castle") }}|{{ pgettext("no such context", "Castle") }}|{{ pgettext("place", "") }}'
    for language in ("en-gb", "ja"):
        with translation.override(language):
            expected = "|".join([pgettext("place", "Castle"), pgettext("no such context", "Castle"), ""])
            with templating.bound_translation(templating._active_translation()):
                assert render(source) == render(source) == expected  # the second from the memo
                assert (templating._active_translation(), "pgettext", ("place", "Castle")) in templating._TRANSLATED
    assert expected.split("|")[:2] == ["城", "Castle"]  # Japanese has the place's word, not the other context


def test_a_remembered_translation_is_the_one_of_the_language_rendering_it():
    # the bound translation's answers are remembered (templating._TRANSLATED) per translation:
    # English, Japanese, then English again each render in their own language
    from django.utils import translation

    from games import templating

    source = '{{ _("Log") }} {% trans n=3 %}{{ n }} coin{% pluralize %}{{ n }} coins{% endtrans %}'
    seen = []
    for language in ("en-gb", "ja", "en-gb", "ja"):
        with translation.override(language):
            with templating.bound_translation(templating._active_translation()):
                seen.append(render(source))
    assert seen[0] == seen[2] and seen[1] == seen[3] and seen[0] != seen[1]
    assert "ログ" in seen[1] and seen[0].startswith("Log 3 coins")


def test_fill_renders_as_the_django_tag_inside_localize_off():
    # the shared board partials fill their titles' slots with SVG coordinates and counts
    import datetime as dt

    from django.template import Context, Template
    from django.utils import timezone, translation

    message = mark_safe("<b>[[who]]</b> at [[where]] ([[other]])")
    values = ["""<b a="1">O'Brien & co</b>""", mark_safe("<em>x</em>"), "[[where]]", 3, 1234567, 2.5, -0.0,
              12345.75, None, True, dt.date(2026, 12, 3)]
    django = Template("{% load games_extras l10n %}{% localize off %}{% fill m who=v where=w %}{% endlocalize %}")
    for language in ("en-gb", "ja"):
        with translation.override(language), timezone.override("Asia/Tokyo"):
            for value in values:
                for thousands in (False, True):
                    with override_settings(USE_THOUSAND_SEPARATOR=thousands):
                        want = django.render(Context({"m": message, "v": value, "w": 1234.5}))
                        assert render("{{ fill(m, who=v, where=w) }}", m=message, v=value, w=1234.5) == want
    assert render("{{ fill(m, who='a', where=1) }}", m=message) == "<b>a</b> at 1 ([[other]])"


def test_get_item_is_the_django_filter():
    names = {0: "alice", 1: "<bob>"}
    assert render("{{ n|get_item(1) }} {{ n|get_item(2) }} {{ none|get_item(0) }}", n=names) == "&lt;bob&gt; None None"
