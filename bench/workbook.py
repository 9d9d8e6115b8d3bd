"""Benchmark: the sheet of a 200-hand match as a workbook (.xlsx), XlsxWriter (what the app
uses, services/matches/workbook.py) against openpyxl writing the same rows, CPU per workbook.

Run:  .venv/bin/python bench/workbook.py     (--repeats N; openpyxl comes with the test extra)
"""

from __future__ import annotations

import argparse
import io
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.replay import build_match  # noqa: E402
from scoresheet.rules import replay  # noqa: E402
from scoresheet.services.matches.export import sheet_rows  # noqa: E402
from scoresheet.services.matches.workbook import sheet_xlsx  # noqa: E402


def _openpyxl(rows: list[list[str | int]]) -> bytes:
    """The same rows written by openpyxl, its header frozen."""
    from openpyxl import Workbook

    book = Workbook()
    sheet = book.active
    for row in rows:
        sheet.append(row)
    sheet.freeze_panes = "A2"
    out = io.BytesIO()
    book.save(out)
    return out.getvalue()


def _cpu_ms(make: Callable[[], bytes], repeats: int) -> tuple[float, int]:
    """Median CPU milliseconds of `make()` and the size of what it made."""
    times = []
    for _ in range(repeats):
        start = time.process_time()
        made = make()
        times.append(time.process_time() - start)
    return statistics.median(times) * 1000, len(made)


def main() -> None:
    """Print both writers' CPU and size, interleaved so that load falls on both alike."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    setup, hands = build_match(200, seats=4)
    sheet = replay(setup, hands)
    rows = sheet_rows(sheet)
    for _ in range(2):
        xw, xw_size = _cpu_ms(lambda: sheet_xlsx(sheet), args.repeats)
        op, op_size = _cpu_ms(lambda: _openpyxl(rows), args.repeats)
        print(f"XlsxWriter {xw:.1f} ms ({xw_size} bytes), openpyxl {op:.1f} ms ({op_size} bytes): {op / xw:.1f}×")


if __name__ == "__main__":
    main()
