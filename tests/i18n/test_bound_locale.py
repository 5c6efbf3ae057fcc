"""``games.vocabulary.locale_bound``: an answer looks the language and time zone up once,
and a block's words, fingerprints and renders are those of the language it began in."""
from django.utils import timezone, translation

from games import vocabulary
from games.presenters.fingerprint import locale


def test_a_bound_block_answers_the_language_and_time_zone_it_began_with():
    with translation.override("ja"), timezone.override("Asia/Tokyo"):
        with vocabulary.locale_bound():
            assert (vocabulary.language(), vocabulary.time_zone_name()) == ("ja", "Asia/Tokyo")
            assert locale() == "ja|Asia/Tokyo"
            assert vocabulary.follower_name("knight") == "兵士"
            with translation.override("en-gb"), vocabulary.locale_bound():  # nested: the outer block's
                assert vocabulary.language() == "ja"
        with translation.override("en-gb"):  # after the block: Django's again
            assert vocabulary.language() == "en-gb" and locale() == "en-gb|Asia/Tokyo"
            assert vocabulary.follower_name("knight") == "Knight"


def test_without_a_block_the_language_is_djangos():
    with translation.override("ja"):
        assert vocabulary.language() == translation.get_language() == "ja"
    with translation.override(None):
        assert vocabulary.language() is None


def test_a_block_that_changes_the_language_is_logged_as_an_error(caplog):
    with translation.override("en-gb"):
        with vocabulary.locale_bound():
            translation.activate("ja")  # what the block's callers must never do
        translation.activate("en-gb")
    assert "the language changed inside locale_bound: en-gb -> ja" in caplog.text
