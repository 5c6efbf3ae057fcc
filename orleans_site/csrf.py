"""The page shown when a form's CSRF check fails (``CSRF_FAILURE_VIEW``).

It happens to ordinary players: a form left open across a log-out and log-in, or opened
before the session expired. They get the site's layout and a way on, not Django's bare page.
"""
from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def csrf_failure(request: HttpRequest, reason: str = "") -> HttpResponse:
    """Render ``403_csrf.html`` (status 403) in the site's layout; ``reason`` is Django's
    developer text and is not shown."""
    return render(request, "403_csrf.html", status=403)
