"""The site's PostgreSQL sessions plan their prepared statements once (plan_cache_mode
force_generic_plan, set on each new session: orleans_site.database,
games.statements.set_plan_cache_mode): PostgreSQL's own
choice planned the page's widest read anew on every run."""
from contextlib import contextmanager

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection
from django.db.backends.signals import connection_created

from games.statements import set_plan_cache_mode
from orleans_site.database import plan_cache_mode


class FakeConnection:
    """What ``set_plan_cache_mode`` reads of a Django connection, and the SQL it runs."""

    def __init__(self, vendor="postgresql", options=None):
        self.vendor, self.settings_dict, self.ran = vendor, {"OPTIONS": options or {}}, []

    @contextmanager
    def cursor(self):
        class Cursor:
            def execute(cursor, sql, params=None):
                self.ran.append(sql)
        yield Cursor()


def test_the_setting_is_one_of_postgresqls_modes_in_any_case():
    assert plan_cache_mode("") == "force_generic_plan"
    assert plan_cache_mode(" Auto ") == "auto"
    assert plan_cache_mode("FORCE_CUSTOM_PLAN") == "force_custom_plan"
    with pytest.raises(ImproperlyConfigured, match="DATABASE_PLAN_CACHE_MODE='generic'"):
        plan_cache_mode("generic")


def test_a_new_postgresql_session_that_prepares_is_given_the_mode(settings):
    settings.DATABASE_PLAN_CACHE_MODE, settings.DATABASE_PREPARED_STATEMENTS = "force_generic_plan", True
    session = FakeConnection()
    set_plan_cache_mode(connection=session)
    assert session.ran == ["SET plan_cache_mode = force_generic_plan"]


@pytest.mark.parametrize("mode, prepared, session", [
    ("auto", True, FakeConnection()),  # PostgreSQL's own choice
    ("force_generic_plan", False, FakeConnection()),  # nothing prepared (behind a pooler)
    ("force_generic_plan", True, FakeConnection(options={"server_side_binding": True})),  # nothing prepared
    ("force_generic_plan", True, FakeConnection(vendor="sqlite")),
])
def test_sessions_that_prepare_nothing_or_keep_postgresqls_choice_are_left_alone(settings, mode, prepared, session):
    settings.DATABASE_PLAN_CACHE_MODE, settings.DATABASE_PREPARED_STATEMENTS = mode, prepared
    set_plan_cache_mode(connection=session)
    assert session.ran == []


def test_every_new_session_is_given_it():
    # connected when the apps are ready (games.apps): disconnecting finds it (then it is put back)
    assert connection_created.disconnect(dispatch_uid="games.plan_cache_mode")
    connection_created.connect(set_plan_cache_mode, dispatch_uid="games.plan_cache_mode")


@pytest.mark.django_db
def test_a_prepared_read_runs_its_generic_plan_on_postgresql(settings, started_game, alice):
    from games import selectors, statements

    if not statements.prepares(connection) or settings.DATABASE_PLAN_CACHE_MODE != "force_generic_plan":
        pytest.skip("PostgreSQL sessions that prepare, with the default mode")
    with connection.cursor() as cursor:
        cursor.execute("SHOW plan_cache_mode")
        assert cursor.fetchone() == ("force_generic_plan",)
    for _ in range(3):
        selectors.game_with_seat(started_game.pk, alice, state=False, waiting=True, seats=True)
    sql = selectors._game_with_seat_sql(connection.vendor, False, True, True)[0]
    with connection.cursor() as cursor:
        cursor.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements WHERE name = %s",
                       [statements.prepared_form(sql)[0]])
        generic, custom = cursor.fetchone()
    assert generic >= 3 and custom == 0
