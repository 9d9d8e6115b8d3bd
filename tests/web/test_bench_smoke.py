"""bench/load.py still runs: two tables for two seconds on SQLite behind one gunicorn worker.

Only that it works end to end (gunicorn, set-up, polls, hand entry, report) — its figures are
for docs/performance.md, measured on a quiet machine, never asserted here.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_load_benchmark_runs_without_errors() -> None:
    done = subprocess.run(
        [sys.executable, "bench/load.py", "--tables", "2", "--duration", "2", "--poll", "0.5",
         "--hand-every", "1", "--start-hands", "2", "--workers", "1", "--databases", "sqlite"],
        cwd=ROOT, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "== sqlite:" in done.stdout and "errors 0," in done.stdout, done.stdout
    assert "add hand" in done.stdout and "healthz" in done.stdout
