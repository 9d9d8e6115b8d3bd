"""The app as gunicorn serves it, its database pool timed: `bench/load.py --pool-probe`.

Each worker writes a line per pool checkout to `<folder>/pool.<pid>`: how long the request
waited for its connection (ms) and how many of the worker's connections were out once it had
one. A wait that opens a new connection counts as a wait too. `summary` adds the files up.
"""

from __future__ import annotations

import os
import time
from collections import Counter
from pathlib import Path
from typing import Any

from flask import Flask

from scoresheet import create_app
from scoresheet.storage.extensions import db


def app(config: dict[str, Any], folder: str) -> Flask:
    """`create_app(config)` with its pool's checkouts timed (the pool's own `_do_get`, wrapped:
    its events tell when a connection is handed out, not how long it was waited for)."""
    served = create_app(config)
    with served.app_context():
        pool: Any = db.engine.pool  # a QueuePool: its checkouts counted, its `_do_get` wrapped
    get = pool._do_get

    def timed() -> Any:
        started = time.perf_counter()
        connection = get()
        waited = time.perf_counter() - started
        with open(Path(folder) / f"pool.{os.getpid()}", "a") as log:
            log.write(f"{1000 * waited:.2f} {pool.checkedout()}\n")
        return connection

    pool._do_get = timed
    return served


def summary(folder: Path) -> str:
    """The checkouts of every worker: how many, the most out at once and how often, the waits
    over 10 ms."""
    waits, out = [], Counter[int]()
    for log in folder.glob("pool.*"):
        for line in log.read_text().splitlines():
            waited, checked_out = line.split()
            waits.append(float(waited))
            out[int(checked_out)] += 1
    if not waits:
        return "pool: no checkout"
    share = ", ".join(f"{n}: {100 * c / len(waits):.0f} %" for n, c in sorted(out.items()))
    slow = sum(w > 10 for w in waits)
    return f"pool: {len(waits)} checkouts; connections out at once ({share}); {slow} waits over 10 ms"
