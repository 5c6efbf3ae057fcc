"""The site's PostgreSQL backend: Django's own, whose commit of an answered write is awaited
last (issue 14).

``settings.DATABASES`` names this module (``ENGINE = "orleans_site.postgresql"``) for a
``postgres://`` ``DATABASE_URL``; it is Django's ``django.db.backends.postgresql`` but for
``commit_awaited_later``. Inside that block (a view that writes, then builds its answer
from what the write left in memory) the ``COMMIT`` ending the outermost transaction is sent
and not waited for: the server makes it durable (its WAL flush, about 0.6 ms of a
decision's 18 on the 2-core box) while the process renders the answer. The block's end
waits for the server's reply; only then do the transaction's on-commit hooks run (the
tasks it queued, what the process keeps of the write) and the answer leave, so a player is
never answered for a move that is not stored.

Before anything else reaches the connection while the reply is awaited -- a cursor (every
query takes one), a new transaction, an on-commit hook outside one, a rollback, a health
check, closing it -- the reply is awaited first: nothing sees the connection busy or the
write uncommitted. A ``COMMIT`` the server refuses (a deferred constraint, a lost
connection) raises Django's ``DatabaseError`` there, as ``commit()`` would have, and drops
the transaction's hooks; and the block's end raises it again if whatever awaited it let it
pass (a health check, a ``close``, an ``except DatabaseError``), so the answer built
meanwhile is never sent. Outside the block every commit is Django's.
"""
from __future__ import annotations

import selectors
from contextlib import contextmanager

import psycopg
from psycopg import pq

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.backends.postgresql import base
from django.db.backends.utils import debug_transaction


class DatabaseWrapper(base.DatabaseWrapper):
    """Django's PostgreSQL connection, which can send a transaction's ``COMMIT`` and await
    its reply later (``commit_later``, set by ``commit_awaited_later``; ``await_commit``)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        #: True inside ``commit_awaited_later``: the next commit is sent, not awaited.
        self.commit_later = False
        self._commit_sent = False
        # what Django asked for while the COMMIT was on its way, done once it is awaited:
        # autocommit back on (the transaction block's end), then the on-commit hooks
        self._autocommit_after = self._hooks_after = False
        #: The refusal of the last ``COMMIT`` sent in the block, for its end to raise again.
        self.commit_error: BaseException | None = None

    @property
    def commit_pending(self) -> bool:
        """True while a sent ``COMMIT`` awaits its reply (``await_commit``)."""
        return self._commit_sent

    def _commit(self):
        self.await_commit()
        if (not self.commit_later or self.connection is None
                or self.connection.pgconn.transaction_status == pq.TransactionStatus.IDLE):
            return super()._commit()  # (psycopg sends nothing for a transaction that ran nothing)
        with debug_transaction(self, "COMMIT"), self.wrap_database_errors:
            _send(self.connection.pgconn, b"COMMIT")
        self._commit_sent = True

    def _cursor(self, name=None):
        # every query takes a cursor first: it waits for the COMMIT on its way (and a
        # server-side cursor then sees autocommit as it is after it)
        self.await_commit()
        return super()._cursor(name)

    def _set_autocommit(self, autocommit):
        if self._commit_sent and autocommit and not self._autocommit_after:
            self._autocommit_after = True  # the block's end, right after its COMMIT
            return
        self.await_commit()
        super()._set_autocommit(autocommit)

    def run_and_clear_commit_hooks(self):
        if self._commit_sent:
            self._hooks_after = True  # they run once the COMMIT is known to be done
            return
        super().run_and_clear_commit_hooks()

    def on_commit(self, func, robust=False):
        if not self.in_atomic_block:  # outside a transaction a hook runs now: after the one awaited
            self.await_commit()
        super().on_commit(func, robust)

    def _rollback(self):
        self.await_commit()
        return super()._rollback()

    def is_usable(self):
        try:
            self.await_commit()
        except DatabaseError:
            pass  # kept for the block's end (commit_error); the connection may serve still
        return super().is_usable()

    def close(self):
        try:
            self.await_commit()
        except DatabaseError:
            pass  # kept for the block's end (commit_error); the connection closes regardless
        finally:
            super().close()

    def await_commit(self) -> None:
        """Wait for the reply to the ``COMMIT`` sent (nothing if none is on its way), then do
        what Django asked for meanwhile: autocommit back on, the on-commit hooks (a hook's
        own commit is Django's). Raises Django's ``DatabaseError`` (its subclass for the
        server's error) if the server refused it or the connection failed, dropping the
        transaction's hooks and keeping the error as ``commit_error``; raises what a hook
        raises."""
        if not self._commit_sent:
            return
        self._commit_sent = False
        autocommit, hooks = self._autocommit_after, self._hooks_after
        self._autocommit_after = self._hooks_after = False
        try:
            with self.wrap_database_errors:
                _await_reply(self.connection.pgconn, self.connection.info.encoding)
        except BaseException as refused:
            self.run_on_commit = []  # not committed: its hooks never run
            self.run_commit_hooks_on_set_autocommit_on = False
            self.errors_occurred = True  # the request's end checks the connection
            self.commit_error = refused
            if self.connection.pgconn.transaction_status == pq.TransactionStatus.IDLE:
                if autocommit:
                    super()._set_autocommit(True)
            else:  # its reply unread (an interrupted wait) or the connection lost: not usable
                super().close()
            raise
        if autocommit:
            super()._set_autocommit(True)
        if hooks:
            later, self.commit_later = self.commit_later, False
            try:
                super().run_and_clear_commit_hooks()
            finally:
                self.commit_later = later


def _send(pgconn, command: bytes) -> None:
    # the command on its way (a non-blocking connection may need more than one flush)
    pgconn.send_query(command)
    if pgconn.flush():
        with selectors.DefaultSelector() as selector:
            selector.register(pgconn.socket, selectors.EVENT_WRITE)
            while pgconn.flush():
                selector.select()


def _await_reply(pgconn, encoding: str) -> None:
    # the command's results read to the end; the first one that is not a success raises
    # psycopg's error for it (its SQLSTATE's class, its diagnostics; Django's wrapper turns
    # it into its own)
    pgconn.consume_input()
    if pgconn.is_busy():
        with selectors.DefaultSelector() as selector:
            selector.register(pgconn.socket, selectors.EVENT_READ)
            while pgconn.is_busy():
                selector.select()
                pgconn.consume_input()
    error = None
    while (result := pgconn.get_result()) is not None:
        if error is None and result.status != pq.ExecStatus.COMMAND_OK:
            error = psycopg.errors.error_from_result(result, encoding=encoding)
    if error is not None:
        raise error


@contextmanager
def commit_awaited_later(using: str = DEFAULT_DB_ALIAS):
    """Inside: a transaction that ends in the block has its ``COMMIT`` sent and awaited at
    the block's end (or before the connection's next use), with its on-commit hooks after
    it. On another backend, or inside a transaction already, the block changes nothing.
    At the block's end raises what a ``COMMIT`` sent in it raised (Django's
    ``DatabaseError``), whoever awaited it, over anything the block raised."""
    db = connections[using]
    if not isinstance(db, DatabaseWrapper) or db.in_atomic_block or db.commit_later:
        yield
        return
    db.commit_later, db.commit_error = True, None
    try:
        yield
    finally:
        db.commit_later = False
        try:
            db.await_commit()
        finally:
            refused, db.commit_error = db.commit_error, None
        if refused is not None:
            raise refused
