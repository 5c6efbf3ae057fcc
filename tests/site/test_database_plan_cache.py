"""The site's PostgreSQL sessions plan their prepared statements once (plan_cache_mode
force_generic_plan, orleans_site.database): PostgreSQL's own choice planned the page's
widest read anew on every run."""
import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from orleans_site.database import with_plan_cache_mode

POSTGRES = {"ENGINE": "django.db.backends.postgresql", "NAME": "orleans"}


def test_postgresql_sessions_get_the_mode_after_their_own_options():
    database = {**POSTGRES, "OPTIONS": {"options": "-c statement_timeout=5000", "sslmode": "prefer"}}
    assert with_plan_cache_mode(database, "force_generic_plan", prepared=True)["OPTIONS"] == {
        "options": "-c statement_timeout=5000 -c plan_cache_mode=force_generic_plan", "sslmode": "prefer"}
    assert database["OPTIONS"]["options"] == "-c statement_timeout=5000"  # the entry given is not changed
    assert with_plan_cache_mode(POSTGRES, "force_custom_plan", prepared=True)["OPTIONS"] == {
        "options": "-c plan_cache_mode=force_custom_plan"}


def test_auto_sqlite_and_unprepared_statements_leave_the_database_as_it_is():
    sqlite = {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}
    assert with_plan_cache_mode(POSTGRES, "auto", prepared=True) == POSTGRES
    assert with_plan_cache_mode(POSTGRES, "force_generic_plan", prepared=False) == POSTGRES
    assert with_plan_cache_mode(sqlite, "force_generic_plan", prepared=True) == sqlite


def test_an_unknown_mode_is_refused_with_the_setting_named():
    with pytest.raises(ImproperlyConfigured, match="DATABASE_PLAN_CACHE_MODE='generic'"):
        with_plan_cache_mode(POSTGRES, "generic", prepared=True)


@pytest.mark.django_db
def test_a_prepared_read_runs_its_generic_plan_on_postgresql(started_game, alice):
    if connection.vendor != "postgresql":
        pytest.skip("plan_cache_mode is PostgreSQL's")
    from games import selectors, statements

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
