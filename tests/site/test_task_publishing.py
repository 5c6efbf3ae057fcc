"""orleans_site.tasks: a write's tasks are published once it commits, behind the answer on
the process's publisher thread, in order; inline when tasks run eagerly, inside a worker's
task or with TASK_PUBLISH_BEHIND off; a broker that refuses is logged and the next task
still goes."""
import threading
from types import SimpleNamespace

import pytest
from kombu.exceptions import OperationalError

from orleans_site import tasks

pytestmark = pytest.mark.django_db


class FakeTask:
    """A task whose ``delay`` records its arguments and the thread it ran on; ``refuse``:
    the broker refuses it."""

    name = "fake"

    def __init__(self, *, eager: bool, refuse: bool = False):
        self.app = SimpleNamespace(conf=SimpleNamespace(task_always_eager=eager))
        self.refuse, self.sent = refuse, []

    def delay(self, *args):
        if self.refuse:
            raise OperationalError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")
        self.sent.append((args, threading.current_thread()))


def commit_with(django_capture_on_commit_callbacks, *queued):
    # each (task, args) queued in one transaction, then its commit hooks run
    with django_capture_on_commit_callbacks(execute=True):
        for task, args in queued:
            tasks.enqueue_on_commit(task, *args)


def test_tasks_are_published_after_commit_on_the_publisher_thread_in_order(django_capture_on_commit_callbacks):
    task = FakeTask(eager=False)
    with django_capture_on_commit_callbacks(execute=False) as hooks:
        tasks.enqueue_on_commit(task, "game", 7)
    assert task.sent == [] and len(hooks) == 1  # nothing before the commit
    commit_with(django_capture_on_commit_callbacks, *[(task, ("game", n)) for n in (8, 9, 10)])
    tasks.flush_publishes()
    assert [args for args, _thread in task.sent] == [("game", 8), ("game", 9), ("game", 10)]
    assert all(thread is not threading.current_thread() for _args, thread in task.sent)


def test_eager_tasks_and_publishing_behind_turned_off_are_published_by_the_request(
        django_capture_on_commit_callbacks, settings):
    eager = FakeTask(eager=True)
    commit_with(django_capture_on_commit_callbacks, (eager, ("game", 1)))
    settings.TASK_PUBLISH_BEHIND = False
    inline = FakeTask(eager=False)
    commit_with(django_capture_on_commit_callbacks, (inline, ("game", 2)))
    assert [(args, thread) for task in (eager, inline) for args, thread in task.sent] == [
        (("game", 1), threading.current_thread()), (("game", 2), threading.current_thread())]


def test_a_workers_task_publishes_what_it_queued_itself(django_capture_on_commit_callbacks, monkeypatch):
    # before it is acknowledged: a worker's child process ends without running what waits behind
    monkeypatch.setattr(tasks, "get_current_task", lambda: object())
    task = FakeTask(eager=False)
    commit_with(django_capture_on_commit_callbacks, (task, ("game", 6)))
    assert task.sent == [(("game", 6), threading.current_thread())]


def test_a_refused_publish_is_logged_and_the_next_task_is_still_published(django_capture_on_commit_callbacks, caplog):
    refused, next_one = FakeTask(eager=False, refuse=True), FakeTask(eager=False)
    commit_with(django_capture_on_commit_callbacks, (refused, ("game", 3)), (next_one, ("game", 4)))
    tasks.flush_publishes()
    assert [args for args, _thread in next_one.sent] == [("game", 4)]
    assert "broker unreachable, fake('game', 3) left to the beat sweeps" in caplog.text


def test_a_full_publisher_leaves_the_request_to_publish_itself(django_capture_on_commit_callbacks, monkeypatch):
    full = SimpleNamespace(submit=lambda write: False)
    monkeypatch.setattr(tasks, "write_behind", lambda *name: full)
    task = FakeTask(eager=False)
    commit_with(django_capture_on_commit_callbacks, (task, ("game", 5)))
    assert task.sent == [(("game", 5), threading.current_thread())]
