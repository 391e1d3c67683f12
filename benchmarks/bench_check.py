"""How long `factory check` takes over a shelf of 100 machines (target: under 0.5 s).

Builds the shelf in a temp dir from the corpus machine, each copy with its own
slug, names and a palette far from every other, then times `check()` in
process (best and median of several runs) and the whole command once.

    .venv/bin/python benchmarks/bench_check.py [--machines 100] [--runs 5]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from factory.check import check
from factory.lines.machines import DOMAINS, ERAS

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"


def palette(i: int) -> list[str]:
    # A 5x5x4 grid of chassis colours 60 apart; the accent is the chassis
    # shifted half the range, so every pair of entries differs in both.
    chassis = ((i % 5) * 60, (i // 5 % 5) * 60, (i // 25 % 4) * 60 + 15)
    accent = tuple((c + 128) % 256 for c in chassis)
    return ["#" + bytes(chassis).hex(), "#" + bytes(accent).hex(), "#c0392b"]


def build_shelf(root: Path, count: int) -> Path:
    workspace = root / "ws"
    (workspace / "catalogue").mkdir(parents=True)
    (workspace / "catalogue" / "games.json").write_text("[]")
    source = CORPUS / "shelf" / "machines" / "saltmarsh-evaporator"
    template = json.loads((CORPUS / "catalogue" / "machines.json").read_text())[0]
    pairs = [(d, e) for e in ERAS for d in DOMAINS]
    entries = []
    for i in range(count):
        slug = f"machine-{i:03d}"
        domain, era = pairs[i]
        entry = dict(
            template,
            slug=slug,
            name=f"Machine {i}",
            kind=f"kind {i}",
            domain=domain,
            era=era,
            design=f"design language number {i} with many words",
            interaction=f"interaction {i}",
            palette=palette(i),
        )
        entries.append(entry)
        shutil.copytree(source, workspace / "shelf" / "machines" / slug)
    (workspace / "catalogue" / "machines.json").write_text(json.dumps(entries, indent=1))
    return workspace


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--machines", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workspace = build_shelf(Path(tmp), args.machines)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            report = check(workspace)
            times.append(time.perf_counter() - start)
        if not report.ok:
            sys.exit(f"the generated shelf should pass: {report.problems[0]}")
        start = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "factory.cli", "check", "-w", str(workspace)],
            capture_output=True,
            text=True,
        )
        command = time.perf_counter() - start
        print(f"machines: {args.machines}")
        print(f"check() best: {min(times):.3f} s, median: {statistics.median(times):.3f} s")
        print(f"factory check (new process, exit {done.returncode}): {command:.3f} s")
        print(f"per machine (best): {min(times) / args.machines * 1000:.2f} ms")


if __name__ == "__main__":
    main()
