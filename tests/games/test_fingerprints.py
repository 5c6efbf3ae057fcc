"""Fingerprints of display data (games.presenters.fingerprint): what every cached region,
player board and included partial is keyed by. Equal data has one fingerprint whatever its
objects, every field of a record counts, and what is not display data has none."""
from __future__ import annotations

import dataclasses
import datetime as dt
import importlib
import inspect
import pkgutil
import uuid

from django.utils import translation
from django.utils.translation import gettext_lazy

import games
from games.presenters.fingerprint import fingerprint


@dataclasses.dataclass
class Seat:
    name: str
    coins: int


def test_equal_data_has_one_fingerprint_whatever_its_objects_and_a_change_anywhere_another():
    data = {"seats": [Seat("alice", 3), Seat("bob", 5)], "round": 2, "names": {0: "alice", 1: "bob"},
            "when": dt.datetime(2026, 12, 3, 10, 0, tzinfo=dt.timezone.utc), "game": uuid.UUID(int=7)}
    copy = {"seats": [Seat("ali" + "ce", 3), Seat("bob", 5)], "round": 2, "names": {0: "alice", 1: "bob"},
            "when": dt.datetime(2026, 12, 3, 10, 0, tzinfo=dt.timezone.utc), "game": uuid.UUID(int=7)}
    assert fingerprint("r", data) == fingerprint("r", copy)
    copy["seats"][1].coins = 6
    assert fingerprint("r", data) != fingerprint("r", copy)
    assert fingerprint("r", {0: "a"}) == fingerprint("r", {"0": "a"})  # keys are written as JSON writes them


def test_a_set_has_one_fingerprint_in_any_order():
    assert fingerprint("r", {"b", "a", "c"}) == fingerprint("r", {"c", "b", "a"}) == fingerprint("r", ["a", "b", "c"])


def test_a_lazy_text_is_fingerprinted_as_its_text_in_the_active_language():
    word = gettext_lazy("Round")
    with translation.override("en"):
        english = fingerprint("r", [word], where="en|UTC")
        assert english == fingerprint("r", ["Round"], where="en|UTC")
    with translation.override("ja"):
        assert fingerprint("r", [word], where="en|UTC") != english


def test_the_kind_the_language_and_the_templates_are_part_of_it():
    assert len({fingerprint("a", [1], where="en|UTC"), fingerprint("b", [1], where="en|UTC"),
                fingerprint("a", [1], where="ja|UTC")}) == 3


def test_what_is_not_display_data_has_no_fingerprint():
    assert fingerprint("r", {"x": object()}) is None
    assert fingerprint("r", [2**70]) is None  # beyond 64 bits


def test_no_record_of_the_site_has_a_field_the_encoding_would_leave_out():
    """orjson writes a dataclass's fields but those named with a leading underscore: a
    record shown on a page with such a field would render differently under one fingerprint."""
    hidden = []
    for module_info in pkgutil.walk_packages(games.__path__, "games."):
        if ".migrations" in module_info.name or module_info.name.endswith(".tests"):
            continue
        module = importlib.import_module(module_info.name)
        for _name, cls in inspect.getmembers(module, dataclasses.is_dataclass):
            if cls.__module__ == module.__name__:
                hidden += [f"{cls.__qualname__}.{f.name}" for f in dataclasses.fields(cls) if f.name.startswith("_")]
    assert hidden == []
