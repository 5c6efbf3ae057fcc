"""Response headers for every page (issue 8): a Content-Security-Policy and ``no-store``
for signed-in pages.

Django's SecurityMiddleware already sends ``Referrer-Policy`` (``SECURE_REFERRER_POLICY``),
``X-Content-Type-Options`` and, on HTTPS requests, HSTS (``SECURE_HSTS_SECONDS``).
"""
from __future__ import annotations

from django.conf import settings


class SecurityHeadersMiddleware:
    """Adds ``Content-Security-Policy`` (``settings.CONTENT_SECURITY_POLICY``; empty: none)
    and, for a signed-in user's response that sets no ``Cache-Control`` of its own,
    ``Cache-Control: no-store``: game pages show hidden information (a player's own market
    and plan) that no shared or back-button cache may keep. Needs ``request.user``: place it
    after AuthenticationMiddleware."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        policy = settings.CONTENT_SECURITY_POLICY
        if policy and "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = policy
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and "Cache-Control" not in response:
            response["Cache-Control"] = "no-store"
        return response
