"""N consecutive real shifts by the built-in designer in a fresh clone, then both gates.

A tmp factory repo is seeded from this project's orders/ and AGENTS.md with empty
catalogues, pushed to a bare origin and cloned; each shift runs through
`factory.shift.run_shift` with no API key (so the built-in designer is on shift)
and lands into that clone. Afterwards `factory check` and `factory probe --all`
run over the clone, every shift's judge verdict is read from its result, no
two entries may share domain+era, kind, design, interaction or name, and every
kind must be one its era could have built.

Prints per-shift seconds (min/median/max), the verdicts, and each machine's kind,
controls, faults, tagline and what its auxiliary does, to read by eye; exits 1
when any verdict fails. Run: .venv/bin/python benchmarks/bench_shifts.py [--shifts N] [--keep]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from factory import card
from factory.designer import parts

REPO = Path(__file__).resolve().parent.parent
BIN = REPO / ".venv" / "bin"
UNIQUE = (("domain", "era"), ("kind",), ("design",), ("interaction",), ("name",))


def git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True)


def fresh_clone(root: Path) -> Path:
    seed = root / "seed"
    (seed / "catalogue").mkdir(parents=True)
    shutil.copytree(REPO / "orders", seed / "orders")
    shutil.copy(REPO / "AGENTS.md", seed / "AGENTS.md")
    shutil.copy(REPO / ".gitignore", seed / ".gitignore")
    for name in ("machines.json", "games.json"):
        (seed / "catalogue" / name).write_text("[]\n")
    # The rows folder's card is tracked (.gitignore says so): a clone that lacks it gets it
    # from the first export, and every later shift's check would call it a stray change.
    (seed / "trajectories").mkdir()
    (seed / "trajectories" / ".gitkeep").write_text("")
    (seed / "trajectories" / "README.md").write_text(card.card_text(), encoding="utf-8")
    for shelf in ("machines", "games"):
        (seed / "shelf" / shelf).mkdir(parents=True)
        (seed / "shelf" / shelf / ".gitkeep").write_text("")
    git(seed, "init", "-q", "-b", "main")
    git(seed, "add", "-A")
    git(seed, "-c", "user.name=bench", "-c", "user.email=bench@localhost",
        "commit", "-q", "-m", "seed")  # fmt: skip
    git(root, "clone", "-q", "--bare", str(seed), "origin.git")
    git(root, "clone", "-q", "origin.git", "clone")
    clone = root / "clone"
    git(clone, "config", "user.name", "bench")
    git(clone, "config", "user.email", "bench@localhost")
    return clone


def gate(command: list[str], clone: Path) -> tuple[bool, float, str]:
    start = time.perf_counter()
    done = subprocess.run(command + ["-w", str(clone)], capture_output=True, text=True)
    tail = (done.stdout + done.stderr).strip().splitlines()[-1:] or [""]
    return done.returncode == 0, time.perf_counter() - start, tail[0]


def duplicates(entries: list[dict]) -> list[str]:
    out = []
    for fields in UNIQUE:
        seen: dict[tuple, str] = {}
        for entry in entries:
            key = tuple(" ".join(str(entry.get(f, "")).lower().split()) for f in fields)
            if key in seen:
                out.append(f"{'+'.join(fields)} shared by {seen[key]} and {entry.get('slug')}")
            seen[key] = str(entry.get("slug"))
    return out


def words_of(kind: str) -> parts.Kind | None:
    """The kind's table row (a qualified kind, "twin-circuit grain drier", is its base's)."""
    folded = " ".join(kind.lower().split())
    rows = [k for kinds in parts.KINDS.values() for k in kinds if folded.endswith(k.name)]
    return max(rows, key=lambda k: len(k.name), default=None)


def out_of_era(entries: list[dict]) -> list[str]:
    out = []
    for entry in entries:
        words = words_of(str(entry.get("kind", "")))
        if words is None or entry.get("era") not in words.eras:
            out.append(
                f"{entry.get('slug')}: no {entry.get('kind')} was built in the {entry.get('era')}"
            )
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shifts", type=int, default=20)
    parser.add_argument("--keep", action="store_true", help="leave the tmp clone on disk")
    args = parser.parse_args()

    from factory.config import Settings
    from factory.shift import run_shift

    for name in ("OPENROUTER_API_KEY", "HF_TOKEN"):
        os.environ.pop(name, None)
    os.environ["PATH"] = f"{BIN}{os.pathsep}{os.environ['PATH']}"
    root = Path(tempfile.mkdtemp(prefix="bench-shifts-"))
    failures: list[str] = []
    try:
        clone = fresh_clone(root)
        settings = Settings(provider="builtin")
        seconds = []
        for i in range(args.shifts):
            start = time.perf_counter()
            result = run_shift(clone, settings, order="new-machine")
            seconds.append(time.perf_counter() - start)
            verdict = result.verdict
            slug = (result.product or {}).get("slug", "-")
            judged = "ok" if verdict and verdict.ok else "FAIL"
            print(
                f"shift {i + 1:2d}: {seconds[-1]:5.1f} s  {result.reason:8s} "
                f"check={result.catalogue_check} probe={result.probe} judge={judged} "
                f"committed={result.committed}  {slug}",
                flush=True,
            )
            if not (result.settled and result.catalogue_check and result.probe):
                failures.append(f"shift {i + 1}: {result.reason} {result.gate_problems[:3]}")
            if not (verdict and verdict.ok):
                reasons = verdict.reasons if verdict else ["not run"]
                failures.append(f"shift {i + 1}: judge {reasons}")
            if not result.committed:
                failures.append(f"shift {i + 1}: not committed {result.notes[-2:]}")

        entries = json.loads((clone / "catalogue" / "machines.json").read_text())
        if len(entries) != args.shifts:
            failures.append(f"the catalogue holds {len(entries)} entries, not {args.shifts}")
        failures += duplicates(entries)
        failures += out_of_era(entries)
        check_ok, check_s, check_tail = gate([str(BIN / "factory"), "check"], clone)
        probe_ok, probe_s, probe_tail = gate([str(BIN / "factory"), "probe", "--all"], clone)
        if not check_ok:
            failures.append(f"factory check: {check_tail}")
        if not probe_ok:
            failures.append(f"factory probe --all: {probe_tail}")

        print()
        for entry in entries:  # to read by eye: do the words fit the kind?
            print(f"{entry.get('era')} {entry.get('kind')}: {entry.get('tagline')}")
            print(f"    controls: {', '.join(entry.get('controls', []))}")
            print(f"    faults:   {', '.join(entry.get('faults', []))}")
            words = words_of(str(entry.get("kind", "")))
            print(f"    duty:     {words.duty if words else '?'}")
        print()
        print(
            f"per-shift seconds over {len(seconds)}: min {min(seconds):.1f}, "
            f"median {statistics.median(seconds):.1f}, max {max(seconds):.1f}, "
            f"over 60 s: {sum(s > 60 for s in seconds)}"
        )
        print(f"factory check: {'pass' if check_ok else 'FAIL'} ({check_s:.1f} s)")
        print(f"factory probe --all: {'pass' if probe_ok else 'FAIL'} ({probe_s:.1f} s)")
        print(f"distinct domain+era, kind, design, interaction, name: {not duplicates(entries)}")
        print(f"every kind of its era: {not out_of_era(entries)}")
        for line in failures:
            print("FAIL", line)
        print("verdict:", "all pass" if not failures else f"{len(failures)} failure(s)")
        if args.keep:
            print("clone kept at", clone)
        return 1 if failures else 0
    finally:
        if not args.keep:
            shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
