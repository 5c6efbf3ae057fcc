"""The page benchmark harness of ``manage.py bench_pages`` (``make bench``; issue 14).

Not part of the site: ``fixtures`` writes users and games into the (scratch) database,
``views`` and ``urls`` hold the bare baseline views (served only by the harness's own
urlconf, which adds them to the site's URLs), ``settings`` serves that urlconf under
gunicorn, ``load`` is the small threaded load generator. It lives in the notifications
app because it also times the reminder sweep (the games app never imports notifications).
"""
