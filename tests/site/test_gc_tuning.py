"""The site's processes freeze what startup made and run the garbage collector at the
thresholds of GC_THRESHOLDS (orleans_site.gc_tuning)."""
import gc

import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from orleans_site.gc_tuning import DEFAULT_THRESHOLDS, parse_thresholds


def test_a_process_runs_the_collector_at_the_sites_thresholds_with_startups_objects_frozen():
    assert settings.GC_THRESHOLDS == DEFAULT_THRESHOLDS == gc.get_threshold()
    assert gc.get_freeze_count() > 10_000  # Django's and the site's modules, at least


@pytest.mark.parametrize(("text", "thresholds"), [
    ("", DEFAULT_THRESHOLDS), (" 5000, 10 ", (5000, 10)), ("0", (0,)), ("default", None)])
def test_gc_thresholds_are_read_from_the_environment(text, thresholds):
    assert parse_thresholds(text) == thresholds


@pytest.mark.parametrize("text", ["a,b", "1,2,3,4", "-1", "700,,10"])
def test_gc_thresholds_that_are_not_one_to_three_counts_are_refused_at_startup(text):
    with pytest.raises(ImproperlyConfigured, match="GC_THRESHOLDS"):
        parse_thresholds(text)
