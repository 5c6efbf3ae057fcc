"""The site's copy of the engine's message catalog and its vocabulary of engine words:
every engine message id has a site template (this fails when the engine gains an id the
site lacks), the English of each is the engine's, and every Japanese template fills from
the same params."""
import re

import pytest
from django.utils.translation import override

import engine
from engine.messages import CATALOG, placeholders, render
from engine.simulate import play_game
from games import vocabulary as V
from games.messages import TEMPLATES, render_message, render_structured

C = engine.content


def playout(players: int, seed: int):
    """(every event, every (action, state, seat) decided) of one seeded random game."""
    options = engine.GameOptions(players=players)
    state = engine.new_game(options, seed)
    events, decided = [], []
    for seat, action in play_game(options, seed, check=False)["log"]:
        if seat is not None:
            decided.append((action, state, seat))
        state, new = engine.resolve(state) if seat is None else engine.apply(state, seat, action)
        events += new
    return events, decided


@pytest.fixture(scope="module")
def games():
    return [playout(2, 21), playout(4, 22)]


def test_every_engine_message_id_has_a_site_template():
    assert sorted(set(CATALOG) - set(TEMPLATES)) == []
    assert sorted(set(TEMPLATES) - set(CATALOG)) == []


def test_the_site_templates_are_the_engines_english():
    with override("en"):
        assert {k: str(v) for k, v in TEMPLATES.items()} == CATALOG


def test_in_english_the_site_renders_every_event_and_label_as_the_engine_does(games):
    with override("en"):
        for events, decided in games:
            for event in events:
                assert render_message(event["msg"], event["params"], "{player}") == event["text"]
            for action, state, seat in decided[::5]:
                assert render_structured(engine.action_message(action, state, seat)) == \
                    engine.describe_action(action, state, seat)


def test_in_japanese_every_event_renders_without_english_words(games):
    with override("ja"):
        for events, _ in games:
            for event in events:
                line = render_message(event["msg"], event["params"], "P")
                assert not re.search(r"[A-Za-z]{2,}", line), (event["msg"], line)


def test_every_japanese_template_is_translated_and_uses_only_placeholders_a_message_can_fill():
    fields = {name for template in CATALOG.values() for name in placeholders(template)}
    derived = {"follower_type", "followers", "follower_id", "track_word", "task", "to_town"}
    with override("ja"):
        for msg_id, template in TEMPLATES.items():
            japanese = str(template)
            if re.search(r"[A-Za-z]", re.sub(r"\{[^}]*\}", "", CATALOG[msg_id])):  # words, not only placeholders
                assert japanese != CATALOG[msg_id], msg_id
            assert placeholders(japanese) <= fields | derived, msg_id


def test_the_vocabulary_knows_every_id_of_the_component_data_by_its_engine_name():
    with override("en"):
        assert {k: V.place_name(k) for k in C.PLACES} == {k: p.name for k, p in C.PLACES.items()}
        assert {k: V.town_name(k) for k in C.TOWNS} == dict(C.TOWNS)
        assert {k: V.deed_name(k) for k in C.DEEDS} == {k: d.name for k, d in C.DEEDS.items()}
        assert {k: V.follower_type_name(k) for k in C.FOLLOWER_TYPES} == dict(C.FOLLOWER_NAMES)
        assert {k: V.followers_name(k) for k in C.FOLLOWER_TYPES} == \
            {k: engine.messages.ENGLISH.followers(k) for k in C.FOLLOWER_TYPES}
        assert set(V.GOODS) == set(C.GOODS) and set(V.EVENT_NAMES) == set(C.EVENTS)
        assert {k: V.event_name(k) for k in C.EVENTS} == {k: engine.event_name(k) for k in C.EVENTS}
        assert {k: str(V.SPOTS[k]) for k in C.CITIZEN_SPOTS} == {k: k.replace("_", " ") for k in C.CITIZEN_SPOTS}


def test_japanese_uses_the_terms_of_the_japanese_rules_summary():
    with override("ja"):
        assert [V.follower_type_name(k) for k in C.FOLLOWER_TYPES] == \
            ["農家", "船乗り", "木こり", "商人", "学者", "兵士", "修道士"]
        assert [V.good_name(g) for g in C.GOODS] == ["穀物", "チーズ", "ワイン", "毛", "綿織物"]
        assert (V.place_name("town_hall"), V.town_name("orleans")) == ("市役所", "オルレアン")
        assert render("event.station", {"town": "blois"}, player="P") == "P builds a trading station in Blois"
        assert render_message("event.station", {"town": "blois"}, "P") == "Pはブロワに商館を建てました"
        assert render_message("event.debt", {"debt": 2, "reason": {"event": "taxes"}}, "P") == \
            "Pは2コイン足りないため、拷問でアイテムを差し出さなければなりません（税収）"


@pytest.mark.parametrize("language", ["en", "ja"])
def test_every_site_template_fills_as_the_formatter_fills_it(language):
    # engine.messages fills a template from its pieces parsed once (_fill): the same text
    # as string.Formatter for every template of the site, in each language
    import string

    from engine import messages as M
    from games.messages import SiteWords

    words = SiteWords()
    with override(language):
        for msg_id in TEMPLATES:
            template = words.template(msg_id)
            values = {name: (3 if spec else f"<{name}>")
                      for _literal, name, spec, _conversion in string.Formatter().parse(template) if name}
            assert M._fill(words, template, values) == M._Formatter(words).format(template, **values), msg_id
