"""The engine is pure Python: importing it loads no Django and nothing outside the stdlib."""

import json
import subprocess
import sys


def test_importing_engine_loads_no_django_or_third_party_module():
    code = (
        "import sys, json; before = set(sys.modules); import engine, engine.simulate; "
        "print(json.dumps(sorted(set(sys.modules) - before)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=".")
    loaded = json.loads(out.stdout)
    assert not [m for m in loaded if m.split(".")[0] in ("django", "celery", "games", "orleans_site")]
    stdlib = set(sys.stdlib_module_names)
    third_party = [m for m in loaded if m.split(".")[0] not in stdlib and m.split(".")[0] != "engine"]
    assert third_party == []
