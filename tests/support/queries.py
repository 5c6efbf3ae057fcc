"""The SQL statements a block of code ran, from a ``CaptureQueriesContext``: one execute may
run several statements in one round trip (``games.services.locks._run_together`` joins them
with ``;\\n`` on PostgreSQL) and a statement prepared once a session shows as ``EXECUTE
name(...)``, so tests that look for a statement look through these."""
import re

from games.statements import PREPARED_SQL

_EXECUTE = re.compile(r"EXECUTE (orleans_\w+)")


def statements(captured) -> list[str]:
    """Every statement of the ``captured`` queries, in order: a batched execute split, a
    prepared statement's execution as its SQL (``%s`` for its parameters), its preparation
    left out (it runs nothing)."""
    out = []
    for query in captured.captured_queries:
        for sql in query["sql"].split(";\n"):
            if sql.startswith("PREPARE orleans_"):
                continue
            executed = _EXECUTE.match(sql)
            out.append(PREPARED_SQL[executed.group(1)] if executed else sql)
    return out
