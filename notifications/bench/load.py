"""Throughput under gunicorn: start the site on a port, drive it with threads, stop it.

``serve`` runs gunicorn (``notifications.bench.settings``, ``DJANGO_DEBUG`` off) on the
configured database; ``drive`` is a small closed-loop load generator: ``clients`` threads
sending GETs back to back for ``seconds``, a new connection for each (``Connection: close``,
as nginx talks to its upstream by default: sync and threaded workers are compared on
concurrency, not on keep-alive).
"""
from __future__ import annotations

import contextlib
import http.client
import os
import statistics
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

from django.conf import settings


@dataclass
class Load:
    """What one load run measured: requests per second, p95 latency (ms), errors, and
    the answers by status."""

    clients: int
    rps: float
    p95_ms: float
    median_ms: float
    errors: int
    statuses: dict


@contextlib.contextmanager
def serve(port: int, *, workers: int = 2, threads: int = 1, timeout: float = 30.0):
    """gunicorn on 127.0.0.1:``port`` with ``workers`` sync workers (``threads`` > 1: the
    gthread worker with that many threads each); yields once it answers ``/healthz``.
    Raises ``RuntimeError`` if it does not within ``timeout`` seconds."""
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "notifications.bench.settings", "DJANGO_DEBUG": "0",
           "DJANGO_SECRET_KEY": os.environ.get("BENCH_SECRET_KEY", "bench-only-" + "k" * 50),
           "DJANGO_SECURE_COOKIES": "0"}
    command = [sys.executable, "-m", "gunicorn", "notifications.bench.wsgi", "--bind", f"127.0.0.1:{port}",
               "--workers", str(workers), "--log-level", "warning", "--timeout", "60"]
    if threads > 1:
        command += ["--worker-class", "gthread", "--threads", str(threads)]
    log = open(os.path.join(settings.BASE_DIR, ".bench-gunicorn.log"), "a")
    server = subprocess.Popen(command, env=env, cwd=settings.BASE_DIR, stdout=log, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + timeout
        while True:
            try:  # any answer will do: /healthz says 503 without a worker and beat
                _get(port, "/healthz", {}, timeout=2)
                break
            except (OSError, http.client.HTTPException):
                pass
            if server.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer on port {port} (see .bench-gunicorn.log)")
            time.sleep(0.1)
        yield
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def _get(port: int, path: str, headers: dict, timeout: float = 30) -> tuple[int, bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        conn.request("GET", path, headers={**headers, "Connection": "close"})
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def drive(port: int, paths: list[str], cookie: str, *, clients: int, seconds: float, ok=(200, 204)) -> Load:
    """``clients`` threads GET ``paths`` in turn (each thread from its own place in the
    list; with the session ``cookie``) back to back for ``seconds``; an answer whose status
    is not in ``ok`` or a broken connection is an error."""
    headers = {"Cookie": cookie, "Host": "127.0.0.1"}
    stop = time.monotonic() + seconds
    latencies: list[list[float]] = [[] for _ in range(clients)]
    statuses: list[dict] = [{} for _ in range(clients)]
    errors = [0] * clients

    def client(n: int) -> None:
        turn = n
        while time.monotonic() < stop:
            path, turn = paths[turn % len(paths)], turn + 1
            t0 = time.perf_counter()
            try:
                status, _ = _get(port, path, headers)
            except (OSError, http.client.HTTPException):
                errors[n] += 1
                continue
            latencies[n].append(time.perf_counter() - t0)
            statuses[n][status] = statuses[n].get(status, 0) + 1
            errors[n] += status not in ok

    threads = [threading.Thread(target=client, args=(n,), daemon=True) for n in range(clients)]
    started = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - started
    every = sorted(t for per in latencies for t in per)
    merged: dict = {}
    for per in statuses:
        for status, k in per.items():
            merged[status] = merged.get(status, 0) + k
    if not every:
        return Load(clients, 0.0, 0.0, 0.0, sum(errors), merged)
    return Load(clients, len(every) / elapsed, every[min(len(every) - 1, int(0.95 * len(every)))] * 1000,
                statistics.median(every) * 1000, sum(errors), merged)
