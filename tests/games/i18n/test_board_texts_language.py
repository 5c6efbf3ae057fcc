"""The board's texts (what each place does, the round's hourglass tile, the character
tracks' rewards) are engine messages rendered in the viewer's language: in English exactly
the engine's descriptions, in Japanese no English left."""
import html
import re

import pytest
from django.utils.translation import override

import engine
from engine import content as C
from games import messages as M
from tests.support.japanese import english_left, game_page_in_both

LETTERS, STRENGTHS = "ABC", ("phased", "constant")


def test_in_english_every_board_text_is_the_engines_description():
    with override("en-gb"):
        assert {p: M.place_effect(engine, p) for p in C.PLACES} == {p: engine.describe_place(p) for p in C.PLACES}
        assert M.track_rewards(engine) == engine.track_rewards()
        for event in C.EVENTS:
            for letter in LETTERS:
                for strength in STRENGTHS:
                    assert M.event_effect(engine, event, letter, strength) == engine.describe_event(
                        event, letter, strength)


def test_in_japanese_no_board_text_is_left_in_english():
    with override("ja"):
        texts = [M.place_effect(engine, p) for p in C.PLACES]
        texts += [M.event_effect(engine, e, letter, s) for e in C.EVENTS for letter in LETTERS for s in STRENGTHS]
        texts += [step for steps in M.track_rewards(engine).values() for step in steps]
    left = {t: english_left(t) for t in texts if english_left(t)}
    assert left == {}


def test_japanese_board_texts_use_the_rules_summarys_terms():
    with override("ja"):
        assert M.place_effect(engine, "hay_rick") == "穀物を1つ受け取る"
        assert M.place_effect(engine, "windmill") == "2コイン、発展ポイント1を獲得する"
        assert "船乗り" in M.place_effect(engine, "herb_garden") and "木こり" in M.place_effect(engine, "herb_garden")
        assert M.event_effect(engine, "taxes", "B", "phased") == "商品2個ごとに1コインを支払う"
        assert M.track_rewards(engine)["boatman"][-1] == "市民 / 6コイン"


def test_an_unknown_event_has_no_effect_text_in_any_language():
    for language in ("en-gb", "ja"):
        with override(language):
            assert M.event_effect(engine, "eclipse", "A", "phased") == ""


@pytest.mark.parametrize("word, japanese", [("taxes", "税収"), ("harvest", "収穫"), ("census", "人口調査")])
def test_a_torture_prompts_stored_reason_reads_in_the_viewers_language(word, japanese):
    with override("ja"):
        assert M.payment_reason(word) == japanese
    with override("en-gb"):
        assert M.payment_reason(word) == word


def test_a_torture_reason_the_site_does_not_know_is_shown_as_stored():
    with override("ja"):
        assert M.payment_reason("a new reason") == "a new reason"


def _region(page: str, pattern: str) -> list[str]:
    return [html.unescape(m) for m in re.findall(pattern, page, re.S)]


def test_the_game_page_shows_place_cards_event_and_tracks_in_japanese(game_in_round_two, client_for):
    japanese, english = game_page_in_both(client_for, game_in_round_two)
    state = engine.from_json(game_in_round_two.state)
    owned = engine.view(state, 0)["players"][0]["owned_places"]
    with override("ja"):
        for place_id in owned:
            assert html.escape(M.place_effect(engine, place_id), quote=True) in japanese
    for place_id in owned:
        assert html.escape(engine.describe_place(place_id), quote=True) in english
        assert html.escape(engine.describe_place(place_id), quote=True) not in japanese
    effects = _region(japanese, r'data-place="[a-z_]+" title="([^"]*)"')
    rewards = _region(japanese, r'<span class="reward">(.*?)</span>')
    event = _region(japanese, r'<p><strong>[^<]*:</strong>([^<]*)</p>')
    assert effects and rewards and event
    assert [w for text in effects + rewards + event for w in english_left(text)] == []
