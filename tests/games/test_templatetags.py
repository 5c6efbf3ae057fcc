"""Follower tiles and circles on the page use the engine's vocabulary
(games.templatetags.games_extras -> engine.follower_name / follower_letter)."""
from __future__ import annotations

import engine
from games.templatetags.games_extras import circle, follower, follower_name


def test_a_starting_follower_is_ringed_and_named_by_the_engine():
    assert follower("start_farmer") == '<span class="tile t-farmer start" title="starting Farmer">F</span>'
    assert follower_name("start_farmer") == engine.follower_name("start_farmer")


def test_a_planned_follower_carries_the_extra_class():
    assert follower("monk", "planned") == '<span class="tile t-monk planned" title="Monk">M</span>'


def test_every_follower_type_has_the_engines_letter():
    for kind in engine.content.FOLLOWER_TYPES:
        assert f">{engine.follower_letter(kind)}</span>" in follower(kind)


def test_an_any_circle_reads_any_follower():
    assert circle("any") == '<span class="circle t-any" title="Any follower circle"></span>'


def test_a_time_under_a_minute_ago_reads_just_now_and_an_older_one_how_long_ago():
    import datetime as dt

    from django.utils import timezone, translation

    from games.templatetags.games_extras import ago

    now = timezone.now()
    with translation.override("en"):
        assert (ago(now - dt.timedelta(seconds=59)), ago(now - dt.timedelta(hours=3, minutes=40)), ago(None)) == (
            "just now", "3\xa0hours ago", "")
    with translation.override("ja"):
        assert ago(now - dt.timedelta(seconds=5)) == "たった今"
        assert ago(now - dt.timedelta(hours=3, minutes=40)).endswith("前")
