"""Helpers shared by the test suite, one module per kind of help:

- ``engine_states``: scenario builders for the engine rule tests (a position RULES.md talks about);
- ``game_driver``: a stored game driven through the services (one ``play_until``, one random policy);
- ``html_forms``: reading the decision forms of a rendered page, posting like htmx;
- ``snapshots``: database and HTML fingerprints for "this request changed nothing";
- ``concurrency``: requests racing on PostgreSQL (threads released together);
- ``queries``: the SQL statements captured queries ran (a batched execute split).
"""
