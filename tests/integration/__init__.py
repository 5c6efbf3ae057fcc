"""The site against real services: PostgreSQL, Redis, a Celery worker and an SMTP sink."""
