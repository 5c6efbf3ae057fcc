"""The tags that write a region's repeated pieces in one go (games.templatetags.games_extras:
``fill``, ``log_entries``, ``choice_options``) escape every value once, as the template
loops they replace did."""
from __future__ import annotations

from django.template import Context, engines
from django.utils import translation

from games.templatetags.games_extras import choice_options, fill, log_entries


def test_a_filled_value_that_looks_like_a_slot_stays_text_and_html_is_escaped():
    out = fill(Context(), "[[a]] then [[b]], [[c]]", a="[[b]]", b="<i>x</i>")
    assert out == "[[b]] then &lt;i&gt;x&lt;/i&gt;, [[c]]"  # a slot without a value is left as it is


def test_fill_gives_what_blocktranslate_gives_for_the_same_values():
    template = engines["django"].from_string(
        '{% load i18n games_extras %}{% blocktranslate asvar title with name="[[name]]" %}Round of {{ name }}{% endblocktranslate %}'
        '{% fill title name=player %}|{% blocktranslate with name=player %}Round of {{ name }}{% endblocktranslate %}')
    with translation.override("en-gb"):
        filled, direct = template.render({"player": "Ann & <Bo>"}).split("|")
    assert filled == direct == "Round of Ann &amp; &lt;Bo&gt;"


def test_a_log_line_is_escaped_once_and_carries_every_mark():
    out = log_entries([{"text": "<b>Ann</b> & co", "forced": True, "taken_back": True, "source": "timeout"},
                       {"text": "Bo", "automatic": True, "source": "bot", "mark": "<queued>"}],
                      "only move", "taken back")
    assert '<li class="forced timed-out taken-back">&lt;b&gt;Ann&lt;/b&gt; &amp; co <em>(only move)</em> <em>(taken back)</em></li>' in out
    assert '<li class=" automatic source-bot">Bo <em>(&lt;queued&gt;)</em></li>' in out


def test_a_choice_option_carries_its_action_as_escaped_json_and_its_label_escaped():
    out = choice_options(Context(), [{"action": {"type": "pick", "name": "a\"<b>"}, "label": "Pick <b>"}])
    assert out == ('<option value="{&quot;type&quot;:&quot;pick&quot;,&quot;name&quot;:&quot;a\\&quot;&lt;b&gt;&quot;}">'
                   'Pick &lt;b&gt;</option>')
