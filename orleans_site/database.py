"""How the site's PostgreSQL sessions plan the statements they keep prepared (issue 14).

``games.statements`` prepares the widest statements once per database session, so that
PostgreSQL need not plan them on every run. PostgreSQL's own choice (``plan_cache_mode``
``auto``) kept planning them anyway: it makes a custom plan for each of the first five
runs, then keeps making them while the generic plan's estimated cost is above theirs, and
for the game page's widest read it never stopped (301 custom plans of 301 runs: 1.8 ms a
read, against 0.66 ms with its generic plan). Each new session of the site that prepares
statements (``games.statements.prepares``) is given ``DATABASE_PLAN_CACHE_MODE`` (default
``force_generic_plan``, read by ``plan_cache_mode``) by a ``SET`` when Django opens it
(``games.statements.set_plan_cache_mode``, on ``connection_created``): a ``SET`` passes
through a session-mode pooler, where a startup option may be refused. Only prepared
statements are affected: with client-side binding (Django's default) every other query is
sent with its values and planned on each run.

A generic plan does not know its parameters' values. Where a parameter in place of a fixed
value kept it from an index, the value is written in the SQL: the empty ``Seat.awaiting``
(``games.selectors._NOTHING_AWAITED``), the condition of the partial index
``seat_awaited_by_user``. A review timed every prepared statement's generic plan against
custom plans on 185,000 seats and 1.75 million moves (docs/performance.md, 2026-12-07).
"""
from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

#: The values of ``DATABASE_PLAN_CACHE_MODE``: PostgreSQL's ``plan_cache_mode``s.
PLAN_CACHE_MODES = ("auto", "force_generic_plan", "force_custom_plan")


def plan_cache_mode(text: str) -> str:
    """``DATABASE_PLAN_CACHE_MODE``'s value, lower-cased ("" -> ``force_generic_plan``).
    Raises ``ImproperlyConfigured`` for one not in ``PLAN_CACHE_MODES``."""
    mode = text.strip().lower() or "force_generic_plan"
    if mode not in PLAN_CACHE_MODES:
        raise ImproperlyConfigured(f"DATABASE_PLAN_CACHE_MODE={text!r}: give one of {', '.join(PLAN_CACHE_MODES)} "
                                   "(force_generic_plan unless set)")
    return mode
