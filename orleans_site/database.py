"""How the site's PostgreSQL sessions plan the statements they keep prepared (issue 14).

``games.statements`` prepares the widest statements once per database session, so that
PostgreSQL need not plan them on every run. PostgreSQL's own choice (``plan_cache_mode``
``auto``) kept planning them anyway: it makes a custom plan for each of the first five
runs, then keeps making them while the generic plan's estimated cost is above theirs, and
for the game page's widest read it never stopped (301 custom plans of 301 runs: 1.8 ms a
read, against 0.66 ms with its generic plan). The site sets the mode for its sessions
(``DATABASE_PLAN_CACHE_MODE``, default ``force_generic_plan``): only prepared statements
are affected, and Django's other queries are planned on every run as before.
"""
from __future__ import annotations

from django.core.exceptions import ImproperlyConfigured

#: The values of ``DATABASE_PLAN_CACHE_MODE``: PostgreSQL's ``plan_cache_mode``s.
PLAN_CACHE_MODES = ("auto", "force_generic_plan", "force_custom_plan")


def with_plan_cache_mode(database: dict, mode: str, *, prepared: bool) -> dict:
    """``database`` (a ``DATABASES`` entry) with its sessions' ``plan_cache_mode`` set to
    ``mode`` (libpq's ``options``: ``-c plan_cache_mode=...``, after any options it has)
    when it is PostgreSQL, statements are ``prepared`` (``DATABASE_PREPARED_STATEMENTS``)
    and ``mode`` is not ``auto`` (PostgreSQL's default, left as it is); else unchanged.
    Raises ``ImproperlyConfigured`` for a mode not in ``PLAN_CACHE_MODES``."""
    if mode not in PLAN_CACHE_MODES:
        raise ImproperlyConfigured(f"DATABASE_PLAN_CACHE_MODE={mode!r}: give one of {', '.join(PLAN_CACHE_MODES)} "
                                   "(force_generic_plan unless set)")
    if database.get("ENGINE") != "django.db.backends.postgresql" or not prepared or mode == "auto":
        return database
    options = dict(database.get("OPTIONS", {}))
    options["options"] = f"{options.get('options', '')} -c plan_cache_mode={mode}".strip()
    return {**database, "OPTIONS": options}
