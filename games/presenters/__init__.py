"""Presentation: display-ready contexts built from ``engine.view`` and site rows.

Nothing here writes or decides a rule, and nothing imports the engine: each presenter is
given the game's engine (``games.rules.engine_for(game)``). ``page.game_page`` is the page
selector (a ``GamePage`` of display records; ``page.game_context`` its template context);
the other modules build one concern each (board regions, map geometry, decision forms, the
action queue panel).
"""
