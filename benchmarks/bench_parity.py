"""How fast both gates are on a real shelf: a workspace given by path, never in git.

The parity workspace (reference products laid out as `catalogue/` and `shelf/`)
is public data we keep aside, so this script takes its path instead of building
a shelf. Prints measured numbers; asserts nothing, and judges nothing either:
a product that fails still counts its seconds.

    .venv/bin/python benchmarks/bench_parity.py /tmp/parity [--jobs 2] [--rounds 3]

It times: `probe --all` (one browser, `--jobs` pages at once) over the
machines, per machine; one probe of the newest machine alone, its browser
launch included; and `factory check` over the whole workspace, in process and
as the command. Reference figures on this 2-core machine: about 4.5 s per
machine for its probe (a browser per machine, about 3.4 s of fixed waits).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

from factory.check import check
from factory.probe import probe


def seconds(call) -> tuple[float, object]:
    started = time.perf_counter()
    result = call()
    return time.perf_counter() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workspace", type=Path)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--parity", action="store_true", help="the reference's rules only")
    args = parser.parse_args()
    workspace = args.workspace.resolve()
    if not (workspace / "catalogue").is_dir():
        sys.exit(f"{workspace}: no catalogue folder; is this a workspace?")

    alls, singles, checks = [], [], []
    machines = failed = 0
    for _ in range(args.rounds):
        took, report = seconds(
            lambda: probe(workspace, all=True, jobs=args.jobs, line="machines", parity=args.parity)
        )
        alls.append(took)
        machines = len(report.results)
        failed = sum(not r.ok for r in report.results)
        took, _ = seconds(lambda: probe(workspace, line="machines", parity=args.parity))
        singles.append(took)
        took, _ = seconds(lambda: check(workspace))
        checks.append(took)
    took, _ = seconds(
        lambda: subprocess.run(
            [sys.executable, "-m", "factory.cli", "check", "-w", str(workspace)],
            capture_output=True,
            check=False,
        )
    )

    best, worst = min(alls), max(alls)
    print(f"workspace: {machines} machines ({failed} failing), --jobs {args.jobs}")
    print(f"probe --all: best {best:.2f} s, worst {worst:.2f} s")
    print(
        f"  per machine: best {best / machines:.2f} s, worst {worst / machines:.2f} s"
        " (target <= 1.10; the reference about 4.5)"
    )
    print(
        f"probe, newest machine alone (browser launch included): best {min(singles):.2f} s,"
        f" worst {max(singles):.2f} s (target <= 4.50)"
    )
    print(
        f"check, in process: best {min(checks) * 1000:.0f} ms,"
        f" median {statistics.median(checks) * 1000:.0f} ms"
    )
    print(f"check, the whole command (interpreter start included): {took:.2f} s")


if __name__ == "__main__":
    main()
