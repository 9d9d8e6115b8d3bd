"""`.ci/run` runs on other machines too: what depends on one (the PostgreSQL server and the
database it connects to, the names of the databases it makes, Redis) comes from environment
variables whose defaults are this project's machines, and README documents each. It ends with
the README's test command, word for word."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RUN = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
COMMAND = "python3 -m venv .venv && .venv/bin/pip install -q -e '.[test]' && .venv/bin/python -m pytest"
MACHINE = re.compile(r"127\.0\.0\.1|localhost|:5432|:6379|/test\b|\bci_|bench_load|redis://|postgres(ql)?://")
"""What names one machine: hosts, ports, the database `test`, database names, URLs."""
DEFAULT = re.compile(r"\$\{([A-Z_]+):-([^}]*)\}")


def commands() -> list[str]:
    """`.ci/run`'s lines without its comments."""
    return [line.split(" #")[0] for line in RUN.splitlines() if line.strip() and not line.lstrip().startswith("#")]


def test_ci_names_no_machine_except_as_the_default_of_a_variable() -> None:
    found = [line for line in commands() if MACHINE.search(DEFAULT.sub("", line))]
    assert not found, f"hard-coded in .ci/run, not from the environment: {found}"
    variables = dict(DEFAULT.findall("\n".join(commands())))
    assert {"CI_POSTGRES_URL", "CI_DATABASE_PREFIX", "BENCH_DATABASE_PREFIX", "TEST_REDIS_URL"} <= set(variables)


def test_every_variable_ci_reads_is_documented() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name, default in DEFAULT.findall("\n".join(commands())):
        if not default:
            continue  # passed on as it is (PYTEST_ADDOPTS)
        assert f"`{name}`" in readme, f"README does not document {name}"
        assert default in readme, f"README does not give {name}'s default {default}"


def test_ci_ends_with_the_readmes_test_command() -> None:
    assert commands()[-1] == COMMAND
    assert f"\n    {COMMAND}\n" in (ROOT / "README.md").read_text(encoding="utf-8")
