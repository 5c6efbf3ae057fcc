"""The SQL statements a block of code ran, from a ``CaptureQueriesContext``: one execute may
run several statements in one round trip (``games.services.locks._run_together`` joins them
with ``;\\n`` on PostgreSQL), so tests that look for a statement look through these."""


def statements(captured) -> list[str]:
    """Every statement of the ``captured`` queries, in order (a batched execute split)."""
    return [sql for query in captured.captured_queries for sql in query["sql"].split(";\n")]

