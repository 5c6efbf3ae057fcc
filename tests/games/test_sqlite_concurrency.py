"""The embedded default (SQLite) serves several players at once (issue 8): three games
played from threads on a SQLite file, with the site's own settings, meet no "database is
locked". Runs in a child process: the test session's database is in memory."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_three_games_played_at_once_on_sqlite_meet_no_locked_database(tmp_path):
    result = tmp_path / "result.json"
    env = {key: value for key, value in os.environ.items()
           if key not in {"REDIS_URL", "CACHE_URL", "EMAIL_HOST"}}  # eager tasks, console mail
    env.update(DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}", DJANGO_DEBUG="1",
               DJANGO_SETTINGS_MODULE="orleans_site.settings")  # the site's own, not the suite's
    done = subprocess.run([sys.executable, "-m", "tests.games.sqlite_players", str(result)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    outcome = json.loads(result.read_text())
    assert outcome["errors"] == []
    assert outcome["moves"] >= 3 * 20  # every game made progress
