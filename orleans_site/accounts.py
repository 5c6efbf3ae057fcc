"""Login protection (issue 8): failed-login limits per account *and* address, and the
admin's login sent to the site's rate-limited login."""
from __future__ import annotations

from urllib.parse import urlencode

from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import PermissionDenied
from django.http import HttpResponseRedirect
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext
from django.views.decorators.csrf import csrf_exempt


class AccountAdapter(DefaultAccountAdapter):
    """allauth's adapter, with the failed-login counter keyed on (account, client IP).

    allauth counts ``login_failed`` per typed login (``ACCOUNT_RATE_LIMITS`` ``.../key``), so
    five wrong passwords typed by anyone for a public username locked its owner out too.
    Keyed with the IP, a guesser only locks themselves out of that account, and the per-IP
    limit (``.../ip``) still bounds how fast one address guesses across accounts.
    """

    def _get_login_attempts_cache_key(self, request, **credentials) -> str:
        # allauth's private hook (used by pre_authenticate and by the reset after a password
        # change); its key is "<site domain>:<login>"
        from allauth.core.internal.ratelimit import get_ip

        return f"{super()._get_login_attempts_cache_key(request, **credentials)}:{get_ip(request)}"


@csrf_exempt  # it only redirects; nothing is read from a POST
def admin_login(request):
    """``/admin/login/``: the admin has no login form of its own (it had no brute-force
    limit); anyone not signed in is sent to the site's login, which is rate-limited, with
    ``next`` kept. A signed-in staff member goes on to ``next``; a signed-in player who is
    not staff gets a 403 (sending them to the login would loop back here)."""
    target = request.GET.get("next") or reverse("admin:index")
    if not url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()},
                                           require_https=request.is_secure()):
        target = reverse("admin:index")
    if request.user.is_authenticated:
        if request.user.is_active and request.user.is_staff:
            return HttpResponseRedirect(target)
        raise PermissionDenied(gettext("This account has no access to the administration."))
    return HttpResponseRedirect(f"{reverse('account_login')}?{urlencode({'next': target})}")
