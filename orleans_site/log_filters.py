"""Logging filters (issue 8)."""
from __future__ import annotations

import logging


class RefusalsWithoutTraceback(logging.Filter):
    """On ``django.request``: a 4xx below 500 (an ordinary refusal: 403 PermissionDenied, 404,
    400) keeps its one-line warning but loses the traceback; 5xx are left whole."""

    def filter(self, record: logging.LogRecord) -> bool:
        status = getattr(record, "status_code", None)
        if status is not None and 400 <= status < 500:
            record.exc_info, record.exc_text = None, None
        return True
