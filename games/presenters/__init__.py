"""Presentation: display-ready contexts built from ``engine.view`` and site rows.

Nothing here writes or decides a rule. ``page.game_context`` is the page selector; the
other modules build one concern each (board regions, map geometry, decision forms, the
action queue panel).
"""
