"""The checker that finds English left on Japanese pages finds it, and only it."""
from tests.support.japanese import english_left


def test_visible_english_words_are_found():
    assert english_left("<p>ゲーム <b>Your turn</b></p>") == ["Your", "turn"]


def test_user_facing_attributes_are_read():
    html = '<button title="Cancel">×</button><input type="submit" value="Send"><img alt="map">'
    assert english_left(html) == ["Cancel", "Send", "map"]


def test_scripts_styles_and_content_marked_translate_no_are_skipped():
    html = ('<script>var x = "hello";</script><style>p { color: red }</style>'
            '<span translate="no">alice <i>Bob</i></span><p>手番</p>')
    assert english_left(html) == []


def test_proper_names_initials_numbers_and_urls_pass():
    html = "<p>Orléans Online 3 F B http://example.com/games/1 a@b.example</p>"
    assert english_left(html) == []


def test_extra_allowed_words_pass():
    assert english_left("<p>carol の手番</p>", allowed={"carol"}) == []
