"""Django settings for Orléans Online.

Every setting that differs between a laptop and production comes from an environment
variable with an embedded default, so ``make run`` works on a fresh clone with no
configuration at all. ``.env.example`` documents each variable.

- Database: SQLite file ``db.sqlite3`` unless ``DATABASE_URL`` is set (PostgreSQL).
- Celery: tasks run eagerly in-process unless ``REDIS_URL`` is set (Redis broker).
- Email: printed to the console unless ``EMAIL_HOST`` is set (SMTP).
"""
from __future__ import annotations

import os
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from orleans_site import database as _database
from orleans_site import gc_tuning as _gc_tuning

BASE_DIR = Path(__file__).resolve().parent.parent

_INSECURE_SECRET_KEY = "django-insecure-orleans-online-development-key-change-me"


def env_str(name: str, default: str = "") -> str:
    """Return the environment variable ``name``, or ``default`` when unset or empty."""
    return os.environ.get(name) or default


def env_bool(name: str, default: bool) -> bool:
    """Read a boolean environment variable ("1", "true", "yes", "on" mean true)."""
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    """Read an integer environment variable."""
    value = os.environ.get(name)
    return int(value) if value else default


def env_list(name: str, default: str = "") -> list[str]:
    """Read a comma-separated environment variable into a list of non-empty strings."""
    return [item.strip() for item in env_str(name, default).split(",") if item.strip()]


# --- Core -------------------------------------------------------------------------------

# Off unless asked for (`make run` asks): a deploy that forgets it is not in debug mode.
DEBUG = env_bool("DJANGO_DEBUG", False)
SECRET_KEY = env_str("DJANGO_SECRET_KEY", _INSECURE_SECRET_KEY)
if not DEBUG and SECRET_KEY == _INSECURE_SECRET_KEY:
    raise ImproperlyConfigured(
        "DJANGO_SECRET_KEY is not set, and the public development key is refused with "
        "DJANGO_DEBUG off. In production set DJANGO_SECRET_KEY to a long random string "
        "(e.g. python -c 'import secrets; print(secrets.token_urlsafe(50))'); on your own "
        "machine use `make run`, or set DJANGO_DEBUG=1."
    )

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "127.0.0.1,localhost,testserver")
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS")
CSRF_FAILURE_VIEW = "orleans_site.csrf.csrf_failure"  # the site's "page expired" page, not Django's bare one
SITE_ID = 1
SITE_NAME = "Orléans Online"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.sites",
    "django_htmx",
    "allauth",
    "allauth.account",
    "games",
    "notifications",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # the browser's language (cookie, then Accept-Language); orleans_site.i18n then applies
    # the account's own choice, kept in the session (issue 11)
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "orleans_site.i18n.AccountLanguageMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # a signed-out user's htmx request: the login page as a page load, not a silent swap
    "orleans_site.htmx_login.HtmxLoginRedirectMiddleware",
    "allauth.account.middleware.AccountMiddleware",
]

# --- Security headers (issue 8; orleans_site/security.py) ---
MIDDLEWARE.insert(MIDDLEWARE.index("django.contrib.auth.middleware.AuthenticationMiddleware") + 1,
                  "orleans_site.security.SecurityHeadersMiddleware")
# Scripts only from the site's own files: no inline scripts or handlers, no eval (htmx runs
# with allowEval off, static/js/site.js). Inline styles stay allowed: templates colour seats
# with style="--seat: ..." and htmx adds its indicator <style>.
CONTENT_SECURITY_POLICY = env_str("DJANGO_CSP", "; ".join([
    "default-src 'self'", "script-src 'self'", "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:", "connect-src 'self'", "form-action 'self'",
    "frame-ancestors 'none'", "base-uri 'self'", "object-src 'none'",
]))
SECURE_REFERRER_POLICY = "same-origin"  # Django's default, said here on purpose
# --- end security headers ---

ROOT_URLCONF = "orleans_site.urls"
WSGI_APPLICATION = "orleans_site.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.template.context_processors.i18n",
                "django.contrib.messages.context_processors.messages",
                "games.context_processors.waiting_count",
            ],
        },
    },
    {
        # the game page's hottest region partials (issue 14: games.templating); their names
        # are those of the Django partials they replaced (games/partials/...)
        "BACKEND": "django.template.backends.jinja2.Jinja2",
        "NAME": "jinja2",
        "DIRS": [BASE_DIR / "templates" / "jinja2"],
        "APP_DIRS": False,
        "OPTIONS": {"environment": "games.templating.environment"},
    },
]

# --- Database ---------------------------------------------------------------------------
# SQLite by default; PostgreSQL (psycopg 3) when DATABASE_URL=postgres://... is set.

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
# PostgreSQL through the site's backend: Django's, whose commit of an answered write is
# awaited while the answer renders (orleans_site/postgresql/base.py, issue 14)
if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    DATABASES["default"]["ENGINE"] = "orleans_site.postgresql"
# --- Prepared statements (issue 14) ---
# The widest statements, a decision's writes and the game page's, the poll's and the
# navigation count's reads, are prepared once per database session (SQL PREPARE / EXECUTE,
# games.statements): their planning cost more than their run. Behind any pooler in
# transaction or statement mode (PgBouncer's max_prepared_statements tracks protocol-level
# statements only, not SQL PREPARE) set DATABASE_PREPARED_STATEMENTS=0. psycopg's own preparing (OPTIONS
# prepare_threshold) stays off, as Django leaves it: once it has prepared anything, psycopg
# answers DDL, a ROLLBACK or a DISCARD ALL on the connection with DEALLOCATE ALL, which
# would drop these behind the site's back.
DATABASE_PREPARED_STATEMENTS = env_bool("DATABASE_PREPARED_STATEMENTS", True)
# How PostgreSQL plans them: once a session (plan_cache_mode force_generic_plan, SET on each
# new session) unless DATABASE_PLAN_CACHE_MODE says otherwise ("auto": PostgreSQL's own
# choice, which planned the page's widest read anew on every run). orleans_site/database.py.
DATABASE_PLAN_CACHE_MODE = _database.plan_cache_mode(env_str("DATABASE_PLAN_CACHE_MODE"))
# --- Garbage collector (issue 14; orleans_site/gc_tuning.py) ---
# What startup made is frozen, and CPython's collector runs at these thresholds
# ("10000,20,100" unless set; "default": CPython's 700,10,10).
GC_THRESHOLDS = _gc_tuning.parse_thresholds(env_str("GC_THRESHOLDS"))
# --- SQLite for several players at once (issue 8) ---
# WAL lets readers go on while one connection writes; every transaction takes the write
# lock when it begins (IMMEDIATE) and waits for it up to `timeout` seconds, instead of
# failing with "database is locked" when a read inside a transaction turns into a write.
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": env_int("SQLITE_TIMEOUT_SECONDS", 20),
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
        **DATABASES["default"].get("OPTIONS", {}),
    }
# --- end SQLite ---
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache ------------------------------------------------------------------------------
# Used by allauth's rate limits. Per-process memory by default; set CACHE_URL to a Redis
# URL (use a different database number than REDIS_URL) when running several processes.

# "regions": the game page's rendered regions and log rounds (games.views.regions), shared
# by every process with CACHE_URL; a missing entry is only rendered again.

CACHE_URL = env_str("CACHE_URL")
CACHES = {
    "default": (
        # fails open when Redis is down: logins go on, unlimited (issue 8)
        {"BACKEND": "orleans_site.cache.FailOpenRedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    ),
    "regions": (
        # keys that name their content: each process keeps a copy of what it reads and writes
        {"BACKEND": "orleans_site.cache.LocalFirstRedisCache", "LOCATION": CACHE_URL, "KEY_PREFIX": "regions"}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "regions",
              "OPTIONS": {"MAX_ENTRIES": 5000}}
    ),
}

# --- Celery -----------------------------------------------------------------------------
# Eager (tasks run inside the request, after commit) unless REDIS_URL is set.

REDIS_URL = env_str("REDIS_URL")
CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = None
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL
# A task queued by a write is published behind the answer, on a thread of the process's own
# (orleans_site/tasks.py); 0: by the request itself, as before.
TASK_PUBLISH_BEHIND = env_bool("TASK_PUBLISH_BEHIND", True)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# --- Broker outages (issue 8) ---
# Retry the broker forever: the default (100 retries, up to 30 s apart) ends the worker
# for good after an outage of about 45 minutes.
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# No remote control: its broadcast mailbox is a Redis pub/sub subscription, the receive
# path that breaks while the worker reconnects. Nothing here uses `celery inspect/control`;
# /healthz reads heartbeats instead (orleans_site/health.py). Set it to 1 to debug.
CELERY_WORKER_ENABLE_REMOTE_CONTROL = env_bool("CELERY_REMOTE_CONTROL", False)
# A broker that neither answers nor refuses (a hung host) gives up after these seconds
# instead of kombu's default of never: a publish waits for it (orleans_site/tasks.py).
CELERY_BROKER_TRANSPORT_OPTIONS = {"socket_timeout": 5, "socket_connect_timeout": 2}
# --- end broker outages ---
# Periodic sweeps run by `celery -A orleans_site beat` (seconds, or crontab).
CELERY_BEAT_SCHEDULE: dict = {
    # Queued emails that are due: after quiet hours, retries, tasks lost while Redis was down.
    "notifications-send-due": {
        "task": "notifications.tasks.send_due_notifications_task", "schedule": 60.0,
    },
    # Daily digests at each user's local hour (several runs an hour; one digest a day).
    "notifications-digests": {
        "task": "notifications.tasks.send_digests_task", "schedule": crontab(minute="*/15"),
    },
    # Completed simultaneous phases whose resolution task was lost.
    "games-resolve-stalled": {
        "task": "games.tasks.resolve_stalled_games_task", "schedule": 120.0,
    },
    # Awaited seats whose time bank ran out: the timeout policy is applied (and vacations
    # that used up the year's days end).
    "games-deadlines": {"task": "games.tasks.enforce_deadlines_task", "schedule": 60.0},
    # Reminder emails to players who have not acted within the game's reminder interval.
    "notifications-reminders": {
        "task": "notifications.tasks.send_reminders_task", "schedule": 300.0,
    },
    # Bot turns whose bot_move_task was lost (broker or worker down).
    "games-bots-stalled": {
        "task": "games.tasks.play_stalled_bots_task", "schedule": 120.0,
    },
    # Open games nobody started within GAMES_OPEN_GAME_MAX_DAYS are cancelled.
    "games-expire-open": {
        "task": "games.tasks.expire_open_games_task", "schedule": crontab(minute=17),
    },
}

# --- Health heartbeats for /healthz (issue 8; orleans_site/health.py) ---
CELERY_IMPORTS = ["orleans_site.health"]
# Beat sends the heartbeat task this often; /healthz fails when a stamp is older than
# HEALTHZ_MAX_AGE_SECONDS.
HEALTHZ_HEARTBEAT_SECONDS = env_int("HEALTHZ_HEARTBEAT_SECONDS", 30)
HEALTHZ_MAX_AGE_SECONDS = env_int("HEALTHZ_MAX_AGE_SECONDS", 180)
CELERY_BEAT_SCHEDULE["site-heartbeat"] = {
    "task": "orleans_site.health.heartbeat_task", "schedule": float(HEALTHZ_HEARTBEAT_SECONDS),
    "options": {"expires": HEALTHZ_MAX_AGE_SECONDS},  # no backlog after a worker outage
}
# --- end health heartbeats ---

# --- Email ------------------------------------------------------------------------------

EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", False)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Orléans Online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Operators mailed about server errors and damaged games: DJANGO_ADMINS=ops@example.org,...
ADMINS = [(address, address) for address in env_list("DJANGO_ADMINS")]

# --- Accounts (django-allauth) ----------------------------------------------------------

AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"
ACCOUNT_LOGOUT_REDIRECT_URL = "home"

ACCOUNT_LOGIN_METHODS = {"email", "username"}  # log in with either
# The username is the public name shown at the table; either it or the email logs in.
ACCOUNT_SIGNUP_FIELDS = ["email*", "username*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = env_str("ACCOUNT_EMAIL_VERIFICATION", "mandatory")
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CHANGE_EMAIL = True
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Orléans Online] "
ACCOUNT_RATE_LIMITS = {
    # Failed logins: 10 a minute per IP, 5 per 5 minutes per account.
    "login_failed": "10/m/ip,5/5m/key",
    "login": "30/m/ip",
    "signup": "20/m/ip",
    "reset_password": "20/m/ip,5/m/key",
}
# --- Login protection (issue 8; orleans_site/accounts.py) ---
# The failed-login "key" is the typed login *and* the client IP: nobody can lock another
# player out. Behind a reverse proxy set ALLAUTH_TRUSTED_PROXY_COUNT (usually 1) so the
# client IP is read from X-Forwarded-For, else every visitor shares the proxy's address.
ACCOUNT_ADAPTER = "orleans_site.accounts.AccountAdapter"
ALLAUTH_TRUSTED_PROXY_COUNT = env_int("ALLAUTH_TRUSTED_PROXY_COUNT", 0)
# --- end login protection ---

# --- Internationalisation ---------------------------------------------------------------

LANGUAGE_CODE = "en-gb"
# English is the source language; Japanese from locale/ja, games/locale/ja and
# notifications/locale/ja (compiled .mo files are committed: `make messages` rebuilds them).
LANGUAGES = [("en-gb", "English"), ("ja", "日本語")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env_str("DJANGO_TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Static files (whitenoise) ----------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
# In development whitenoise serves straight from the source folders (no collectstatic).
WHITENOISE_AUTOREFRESH = DEBUG
WHITENOISE_USE_FINDERS = DEBUG
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}

# --- Production hardening (only when DEBUG is off) --------------------------------------

if not DEBUG:
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", True)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", False)
    _BEHIND_TLS_PROXY = env_bool("DJANGO_BEHIND_TLS_PROXY", False)
    if _BEHIND_TLS_PROXY:
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    # HSTS (issue 8): Django sends it on HTTPS requests only; on by default (a year) when
    # the site says it is behind TLS, DJANGO_HSTS_SECONDS=0 turns it off.
    _BEHIND_TLS = _BEHIND_TLS_PROXY or SECURE_SSL_REDIRECT
    SECURE_HSTS_SECONDS = env_int("DJANGO_HSTS_SECONDS", 365 * 24 * 3600 if _BEHIND_TLS else 0)

# --- Game site --------------------------------------------------------------------------

# Public address of the site, used for links in emails (no request there to build them).
SITE_URL = env_str("SITE_URL", "http://127.0.0.1:8000")
NOTIFICATIONS_SUBJECT_PREFIX = "[Orléans Online] "

# --- User text and mail hygiene (issue 8) ---------------------------------------------
# Usernames: no control characters, at most 30 characters (orleans_site/text.py).
ACCOUNT_USERNAME_VALIDATORS = "orleans_site.text.USERNAME_VALIDATORS"
# The mailto: of List-Unsubscribe; default unsubscribe@<DEFAULT_FROM_EMAIL's domain>.
NOTIFICATIONS_UNSUBSCRIBE_EMAIL = env_str(
    "NOTIFICATIONS_UNSUBSCRIBE_EMAIL",
    "unsubscribe@" + (DEFAULT_FROM_EMAIL.rsplit("@", 1)[-1].rstrip("> ") or "localhost"),
)

# Seconds between two polls of the game page for other players' moves.
GAMES_POLL_SECONDS = env_int("GAMES_POLL_SECONDS", 5)
# ... and of a finished game's page, for its chat and a rematch (no move comes any more).
GAMES_FINISHED_POLL_SECONDS = env_int("GAMES_FINISHED_POLL_SECONDS", 30)
# Consecutive timeouts after which a seat is marked absent (the others may end the game).
GAMES_ABSENT_AFTER_TIMEOUTS = env_int("GAMES_ABSENT_AFTER_TIMEOUTS", 3)
# Reminders: every quarter of the game's increment, but at least this many hours apart...
GAMES_REMINDER_MIN_HOURS = env_int("GAMES_REMINDER_MIN_HOURS", 6)
# Hours before a clock runs out when the player gets one "time is running out" warning.
GAMES_DEADLINE_WARNING_HOURS = env_int("GAMES_DEADLINE_WARNING_HOURS", 4)
# ...and this many hours apart in games without a clock.
GAMES_REMINDER_NO_CLOCK_HOURS = env_int("GAMES_REMINDER_NO_CLOCK_HOURS", 24)
# Vacation days each user has per calendar year (clocks stop while on vacation).
GAMES_VACATION_DAYS_PER_YEAR = env_int("GAMES_VACATION_DAYS_PER_YEAR", 21)
# Open games not started within this many days are cancelled (the creator is emailed).
GAMES_OPEN_GAME_MAX_DAYS = env_int("GAMES_OPEN_GAME_MAX_DAYS", 30)
# Bots (issue #10): a chain of bot moves run inside one request (eager tasks, the embedded
# default) stops after this many moves or milliseconds; the next page load or poll goes on.
GAMES_BOT_CHAIN_MOVES = env_int("GAMES_BOT_CHAIN_MOVES", 25)
GAMES_BOT_CHAIN_MS = env_int("GAMES_BOT_CHAIN_MS", 3000)
# The sweep plays a bot turn that has waited this many seconds (its task was lost).
GAMES_BOT_STALLED_SECONDS = env_int("GAMES_BOT_STALLED_SECONDS", 60)

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {
        "console": {"class": "logging.StreamHandler"},
        # does nothing while ADMINS is empty
        "mail_admins": {"class": "django.utils.log.AdminEmailHandler", "level": "ERROR"},
    },
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "INFO")},
    # --- issue 8: ordinary refusals (403, 404) are one line, not a traceback ---
    "filters": {"refusals": {"()": "orleans_site.log_filters.RefusalsWithoutTraceback"}},
    "loggers": {
        "django.request": {"filters": ["refusals"]},
        # a game that cannot be loaded, once per game an hour (games.rules.report_damaged)
        "games.damaged": {"handlers": ["mail_admins"], "level": "ERROR"},
    },
}
# Chat at a game: a user may post this many messages per this many seconds in one game.
GAMES_CHAT_RATE_MESSAGES = env_int("GAMES_CHAT_RATE_MESSAGES", 5)
GAMES_CHAT_RATE_SECONDS = env_int("GAMES_CHAT_RATE_SECONDS", 30)
