"""The garbage collector of the site's processes (web and Celery workers): what startup
made is frozen, and the collector runs less often than CPython's default (issue 14).

A game page or a move's answer allocates tens of thousands of containers. Under CPython's
default thresholds (700, 10, 10) a full collection came every sixty-odd answers, and each
walked every object the process holds (Django, the compiled templates, the memos in
memory: 170,000 objects, about 100 ms on the 2-core box): one answer in sixty took five
times the median, a tenth of the mean. Frozen, the objects made at startup are never walked
again (``gc.freeze``; under a forking server the pages that hold them stay shared), and
with ``GC_THRESHOLDS`` (10000, 20, 100) a full collection waits for thousands of requests;
the young collections still free the cycles a request leaves behind.
"""
from __future__ import annotations

import gc

from django.core.exceptions import ImproperlyConfigured

#: CPython's collector thresholds the site sets unless ``GC_THRESHOLDS`` says otherwise.
DEFAULT_THRESHOLDS = (10000, 20, 100)


def parse_thresholds(text: str) -> tuple[int, ...] | None:
    """``"10000,20,100"`` -> ``(10000, 20, 100)``: the thresholds of ``gc.set_threshold``
    (one to three non-negative ints; the first 0 turns automatic collection off); "" ->
    ``DEFAULT_THRESHOLDS``; ``"default"`` -> None (CPython's own, untouched). Raises
    ``ImproperlyConfigured`` for anything else."""
    text = text.strip()
    if not text:
        return DEFAULT_THRESHOLDS
    if text == "default":
        return None
    try:
        values = tuple(int(part) for part in text.split(","))
    except ValueError:
        values = ()
    if not 1 <= len(values) <= 3 or any(value < 0 for value in values):
        raise ImproperlyConfigured(f"GC_THRESHOLDS={text!r}: give one to three non-negative integers "
                                   "(e.g. 10000,20,100), or 'default' for CPython's own")
    return values


def apply(thresholds: tuple[int, ...] | None) -> None:
    """Freeze every object alive now (``gc.freeze``, after a collection: only what is
    reachable is frozen) and set ``thresholds`` (None: CPython's, unchanged). Called once
    per process when its apps are ready (``games.apps``)."""
    gc.collect()
    gc.freeze()
    if thresholds is not None:
        gc.set_threshold(*thresholds)
