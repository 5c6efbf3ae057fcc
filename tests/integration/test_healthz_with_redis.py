"""``/healthz`` against the real Redis (issue 8): the heartbeats beat and the worker write are
read back, and a worker that has not run the heartbeat for too long fails the check."""
import time

from orleans_site import health
from tests.conftest import SERVICES_MARKS

pytestmark = SERVICES_MARKS


def test_heartbeats_written_to_redis_make_the_site_healthy_until_they_age(client, settings):
    health._beat_stamp(sender=health.HEARTBEAT_TASK)  # as beat's publish does
    health.heartbeat_task.apply()  # as the worker runs it
    response = client.get("/healthz")
    assert response.status_code == 200, response.json()
    assert response.json()["checks"]["broker"] == {"ok": True, "detail": "reachable"}
    health.redis_client().set(health.WORKER_KEY, f"{time.time() - 1000:.3f}")
    stale = client.get("/healthz")
    assert stale.status_code == 503 and not stale.json()["checks"]["worker"]["ok"]
