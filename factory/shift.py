"""The shift: the factory's main job, stringing the other rooms together.

lock -> preflight -> staffing -> branch (fold stranded shifts) -> resume ->
the loop (snapshotted) -> gates -> transcript judge -> land -> row -> summary.

This room decides the order of things and what happens when one of them
fails; each step's substance lives in its own module. It must never lose
work: whatever breaks (the model, a gate, the export), the working tree is
committed to the shift branch before anything else is tried, and only the
landing ever touches the base branch.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import tempfile
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import git

from factory import check as gate_check
from factory import config, export, landing, loop, session
from factory import ship as shipping
from factory.config import Settings
from factory.drivers import DriverError, make_model, resolve_provider
from factory.judge import Verdict, judge
from factory.lines import Line, line_for_order, line_named
from factory.lock import ShiftLock
from factory.model import Model
from factory.order import Order, OrderError, load_order, order_path

OnEvent = Callable[[str, dict[str, Any]], None]
WORKSPACE_DIRS = ("orders", "catalogue", "shelf")
GATE = {True: "success", False: "failure", None: ""}
DRY_RUN_FOLDER = "factory-dry-run-"
DRY_RUNS_KEPT = 3
"""Dry runs left to look at: each new one removes the older ones and their branches."""
BUILTIN_LINES = ("machines",)
"""The lines the built-in designer (`factory.designer`) can make."""


class ShiftError(RuntimeError):
    """A one-line reason the shift could not start (exit 2); nothing was changed."""


@dataclass
class ShiftResult:
    """Everything the end-of-shift summary, `--json` and the exit code need."""

    workspace: Path
    order: str
    running: str = ""
    """When another shift held the lock: who. Nothing else was done."""
    idle: str = ""
    """Why nobody could take this order's shift (no model, and the built-in designer
    makes another line). Nothing else was done; an idle shift is not a failure."""
    session_id: str = ""
    session_path: Path | None = None
    chain: list[str] = field(default_factory=list)
    line: str = ""
    staffed: str = ""
    product: dict[str, Any] | None = None
    reason: str = ""
    summary: str = ""
    catalogue_check: bool | None = None
    probe: bool | None = None
    probe_details: dict[str, Any] = field(default_factory=dict)
    gate_problems: list[str] = field(default_factory=list)
    verdict: Verdict | None = None
    iterations: int = 0
    calls: int = 0
    tokens: dict[str, int] = field(default_factory=lambda: {"input": 0, "output": 0})
    cost: float = 0.0
    seconds: float = 0.0
    base: str = ""
    branch: str = ""
    committed: bool = False
    commit: str = ""
    pushed: bool = False
    row: Path | None = None
    shipped: str = ""
    dry_run: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def settled(self) -> bool:
        return self.reason == "settled"

    @property
    def exit_code(self) -> int:
        if self.running or self.idle:
            return 0
        return 0 if self.settled and self.catalogue_check and self.probe else 1

    def as_dict(self) -> dict[str, Any]:
        return {
            "workspace": str(self.workspace),
            "order": self.order,
            "running": self.running,
            "idle": self.idle,
            "session": self.session_id,
            "session_path": str(self.session_path or ""),
            "chain": self.chain,
            "line": self.line,
            "staffed": self.staffed,
            "product": self.product,
            "outcome": self.reason,
            "summary": self.summary,
            "catalogue_check": GATE[self.catalogue_check],
            "probe": GATE[self.probe],
            "gate_problems": self.gate_problems,
            "judge": self.verdict.as_row() if self.verdict else None,
            "iterations": self.iterations,
            "calls": self.calls,
            "tokens": self.tokens,
            "cost": self.cost,
            "seconds": round(self.seconds, 1),
            "base": self.base,
            "branch": self.branch,
            "committed": self.committed,
            "commit": self.commit,
            "pushed": self.pushed,
            "row": str(self.row or ""),
            "shipped": self.shipped,
            "dry_run": self.dry_run,
            "notes": self.notes,
            "exit": self.exit_code,
        }


def run_shift(
    workspace: Path,
    settings: Settings,
    *,
    order: str,
    dry_run: bool = False,
    fresh: bool = False,
    land: bool = True,
    ship: bool = True,
    wait: float = 0.0,
    on_event: OnEvent | None = None,
    model: Model | None = None,
) -> ShiftResult:
    """One whole shift. `model` replaces staffing (tests hand in a scripted one)."""
    workspace = Path(workspace).resolve()
    if dry_run:
        origin = workspace
        workspace = _dry_run_worktree(workspace)
        land = ship = False
        try:
            result = _locked(
                workspace, settings, order, True, fresh, land, ship, wait, on_event, model
            )
        except ShiftError:
            # Nothing happened in it yet: a worktree left behind would only confuse.
            landing.open_repo(origin).git.worktree("remove", "--force", str(workspace))
            raise
        if result.idle:
            landing.open_repo(origin).git.worktree("remove", "--force", str(workspace))
        return result
    return _locked(workspace, settings, order, False, fresh, land, ship, wait, on_event, model)


def _locked(
    workspace: Path,
    settings: Settings,
    order: str,
    dry_run: bool,
    fresh: bool,
    land: bool,
    ship: bool,
    wait: float,
    on_event: OnEvent | None,
    model: Model | None,
) -> ShiftResult:
    result = ShiftResult(workspace=workspace, order=order, dry_run=dry_run)
    lock = ShiftLock(workspace)
    if not lock.acquire(wait):
        holder = lock.holder.describe() if lock.holder else "another process"
        result.running = holder
        result.notes.append(f"a shift is running ({holder}); not starting another")
        return result
    shift = Shift(workspace, settings, result, on_event, fresh, land, ship, model)
    previous = _on_sigterm(shift)
    try:
        if lock.stale:
            _note(result, on_event, f"took over the lock of a dead shift ({lock.stale.describe()})")
        shift.run()
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        lock.release()
    return result


def _on_sigterm(shift: Shift) -> Any:
    """A SIGTERM (cron's or CI's timeout) ends the model's work, not the shift: the
    loop stops with `aborted`, then the shift still gates, lands the work in
    progress and ships the row. Only in the main thread, where signals arrive."""
    if threading.current_thread() is not threading.main_thread():
        return None

    def terminate(signum: int, frame: object) -> None:
        if not shift.abort.is_set():
            shift.abort.set()
            shift.note("SIGTERM: stopping the model; landing what is there")

    return signal.signal(signal.SIGTERM, terminate)


def _dry_run_worktree(workspace: Path) -> Path:
    try:
        repo = landing.open_repo(workspace)
    except landing.LandingError as error:
        raise ShiftError(str(error)) from None
    if not repo.head.is_valid():
        raise ShiftError(f"{workspace}: the repository has no commit yet")
    # An old dry run that cannot be removed costs disk, not this run.
    with contextlib.suppress(git.GitCommandError):
        landing.prune_dry_runs(repo, DRY_RUN_FOLDER, keep=DRY_RUNS_KEPT - 1)
    folder = Path(tempfile.mkdtemp(prefix=DRY_RUN_FOLDER))
    try:
        return landing.add_worktree(repo, folder)
    except git.GitCommandError as error:
        shutil.rmtree(folder, ignore_errors=True)
        raise ShiftError(
            f"{workspace}: could not add a worktree for the dry run: {error}"
        ) from None


def _note(result: ShiftResult, on_event: OnEvent | None, text: str) -> None:
    result.notes.append(text)
    if on_event is not None:
        on_event("shift", {"note": text, "kind": "shift"})


class Shift:
    """One shift's steps, sharing what they learn through `result`."""

    def __init__(
        self,
        workspace: Path,
        settings: Settings,
        result: ShiftResult,
        on_event: OnEvent | None,
        fresh: bool,
        land: bool,
        ship: bool,
        model: Model | None,
    ):
        self.workspace = workspace
        self.settings = settings
        self.result = result
        self.on_event = on_event
        self.fresh = fresh
        self.land_it = land
        self.ship_it = ship
        self.model = model
        self.began = time.monotonic()
        self.abort = threading.Event()
        self.repairs: list[str] = []
        """What failed the check before the work began: the gate lets the shift change it."""

    def note(self, text: str) -> None:
        _note(self.result, self.on_event, text)

    # --- before the loop -------------------------------------------------------------

    def preflight(self) -> tuple[Order, Line]:
        missing = [d for d in WORKSPACE_DIRS if not (self.workspace / d).is_dir()]
        if missing:
            raise ShiftError(
                f"{self.workspace}: not a factory workspace (no {', '.join(missing)}/)"
            )
        try:
            order = load_order(self.workspace, self.result.order)
        except OrderError as error:
            raise ShiftError(str(error)) from None
        line = line_for_order(order.name or order_path(self.workspace, self.result.order).stem)
        if line is None:
            raise ShiftError(f"order {order.name!r}: no product line makes it (known orders: "
                             "new-machine, new-game)")  # fmt: skip
        return order, line

    def staff(self, session_id: str) -> Model:
        if self.model is not None:
            self.result.staffed = f"{self.model.driver} ({self.model.name})"
            return self.model
        provider = resolve_provider(self.settings)
        settings = self.settings.model_copy(update={"provider": provider})
        if self.settings.provider == "auto" and provider == "builtin":
            wanted = f" (the model {self.settings.model} needs one)" if self.settings.model else ""
            self.note(
                f"no key in ${self.settings.api_key_env}{wanted}: the built-in designer is on shift"
            )
        try:
            model = make_model(settings, self.workspace, session_id)
        except DriverError as error:
            raise ShiftError(str(error)) from None
        self.result.staffed = f"{model.driver} ({model.name or model.provider})"
        return model

    def staffable(self, line: Line) -> bool:
        """Whether anyone can take this line's order: a model, or the built-in designer,
        which makes machines only. Without either the shift idles (SPEC: idle, successfully,
        when no provider key is configured) and says why."""
        if resolve_provider(self.settings) != "builtin" or line.name in BUILTIN_LINES:
            return True
        nobody = f"no key in ${self.settings.api_key_env}, no base URL of our own"
        makes = ", ".join(BUILTIN_LINES)
        self.result.idle = (
            f"no model configured ({nobody}) and the built-in designer makes {makes} only: "
            f"the {self.result.order} order waits for a model"
        )
        return False

    def resume(self, order: Order) -> str | None:
        """The newest unfinished session of this order, unless the chain is too long."""
        if self.fresh:
            return None
        newest: session.Session | None = None
        for path in reversed(session.list_sessions(self.workspace)):
            try:
                earlier = session.load(path)
            except (ValueError, OSError):
                continue
            if earlier.meta.get("order") == order.name:
                newest = earlier
                break
        if newest is None or not newest.cut_short:
            return None
        # Its chain, not every cut-short session before it: a clean start resets the count.
        unfinished = len(newest.chain)
        if unfinished >= self.settings.resume_limit:
            self.note(f"{unfinished} unfinished sessions in a row: starting clean")
            return None
        why = (newest.outcome or {}).get("reason") or "no outcome"
        self.note(f"resuming session {newest.id}, which was cut short ({why})")
        return newest.id

    def repair_brief(self) -> str | None:
        """A failing catalogue before we begin: the shift's first instruction is to repair it."""
        try:
            report = gate_check.check(self.workspace)
        except gate_check.CheckError as error:
            problems = [str(error)]
        else:
            problems = [str(p) for p in report.problems]
            self.repairs = sorted({_repairable(p) for p in report.problems})
        if not problems:
            return None
        self.note(f"`factory check` fails before the shift ({len(problems)} problem(s))")
        listed = "\n".join(f"  {p}" for p in problems[:20])
        return (
            "Before anything else: `factory check` already fails on this workspace. Repair the "
            "catalogue first; that repair is the only change allowed besides your new product.\n"
            + listed
        )

    # --- the shift -------------------------------------------------------------------

    def run(self) -> None:
        result = self.result
        order, line = self.preflight()
        result.line = line.name
        if self.model is None and not self.staffable(line):
            return
        session_id = session.new_id()
        result.session_id = session_id
        model = self.staff(session_id)
        remote = self.settings.remote if not result.dry_run else None
        try:
            repo = landing.open_repo(self.workspace)
            start = landing.begin(
                repo,
                self.settings.branch,
                session_id,
                remote=remote,
                dry_run=result.dry_run,
                rows=self.settings.trajectories,
            )
        except (landing.LandingError, git.GitCommandError) as error:
            raise ShiftError(str(error).splitlines()[0]) from None
        result.base, result.branch = start.base, start.branch
        for text in start.notes:
            self.note(text)
        base_catalogue = _catalogue_at(repo, start.base, line, self.workspace)
        continues = self.resume(order)
        brief = self.repair_brief()

        snapshots = landing.Snapshotter(
            self.workspace, start.branch, self.settings.snapshot_minutes
        ).start()
        try:
            self.work(model, order, session_id, continues, brief)
        finally:
            snapshots.stop()
            # A signal to the whole process group (timeout, systemd, Ctrl-C) also kills
            # git's long-lived helper processes: the rest of the shift uses fresh ones.
            repo.close()
            repo = self.safe(lambda: landing.open_repo(self.workspace), "reopening git") or repo
            self.safe(lambda: landing.snapshot(repo, start.branch, "snapshot: end of the loop"),
                      "the end-of-loop snapshot")  # fmt: skip

        entry = _new_entry(self.workspace, line, base_catalogue)
        result.product = entry
        slug = entry.get("slug") if entry else None
        self.gates(line, slug, start.base)
        self.judge(line, slug, base_catalogue)
        if self.land_it:
            self.land(repo, start, entry)
        self.row(line, entry, slug, start)
        result.seconds = time.monotonic() - self.began
        if result.dry_run:
            self.note(f"dry run: worktree {self.workspace} (branch {start.branch}); nothing landed")

    def work(
        self, model: Model, order: Order, session_id: str, continues: str | None, brief: str | None
    ) -> None:
        result = self.result
        try:
            ran = loop.run(
                model,
                order,
                self.workspace,
                self.settings,
                session_id=session_id,
                continues=continues,
                brief=brief,
                abort=self.abort,
                on_event=self.on_event,
                secrets=config.secret_values(self.settings),
            )
        except Exception as error:  # the loop writes its own outcome; this is a harness bug
            result.reason, result.summary = "error", f"{type(error).__name__}: {error}"
            self.note(f"the loop crashed: {result.summary}")
            result.session_path = session.sessions_dir(self.workspace) / f"{session_id}.jsonl"
            return
        result.reason, result.summary = ran.reason, ran.summary
        result.iterations, result.calls = ran.iterations, ran.calls
        result.tokens, result.cost = ran.tokens, ran.cost
        result.session_path = ran.log_path

    def safe(self, step: Callable[[], Any], what: str) -> Any:
        """Runs one after-the-loop step; a crash becomes a note, never lost work."""
        try:
            return step()
        except Exception as error:
            first = (str(error).strip().splitlines() or [type(error).__name__])[0]
            self.note(f"{what} failed: {first}")
            if os.environ.get("FACTORY_DEBUG"):
                traceback.print_exc()
            return None

    def gates(self, line: Line, slug: str | None, base: str) -> None:
        result = self.result

        def static() -> bool:
            report = gate_check.check(
                self.workspace, [line.name], changed_since=base, repairs=self.repairs
            )
            problems = [str(p) for p in report.problems]
            result.gate_problems.extend(problems)
            return not problems

        result.catalogue_check = self.safe(static, "factory check")
        if result.catalogue_check is None:
            result.catalogue_check = False
        if slug is None:
            self.note("no new catalogue entry: the probe was not run")
            return

        def dynamic() -> bool:
            from factory import probe

            report = probe.probe(self.workspace, [slug], line=line.name)
            for product in report.results:
                result.gate_problems.extend(product.failures())
                result.probe_details = {
                    **product.details,
                    "findings": {f.name: f.ok for f in product.findings},
                    "seconds": round(product.seconds, 2),
                }
            return report.ok

        result.probe = bool(self.safe(dynamic, "factory probe"))

    def judge(self, line: Line, slug: str | None, base_catalogue: list) -> None:
        path = self.result.session_path
        if path is None or not path.is_file():
            return
        # Read once: the log does not change again until the row's line record.
        loaded = self.safe(lambda: session.load(path), "reading the session")
        if loaded is None:
            return
        self.result.chain = loaded.chain

        def verdict() -> Verdict:
            return judge(loaded, self.workspace, line, slug, base_catalogue)

        self.result.verdict = self.safe(verdict, "the transcript judge")

    def land(self, repo: git.Repo, start: landing.Start, entry: dict | None) -> None:
        result = self.result
        message = landing.commit_message(entry, result.settled, result.reason or "error")
        message += "\n\n" + self.body()

        def go() -> landing.Landed:
            return landing.land(repo, start, message, remote=self.settings.remote)

        landed = self.safe(go, "landing")
        if landed is None:
            self.note(f"the work stays on {start.branch} for the next shift")
            return
        result.committed, result.commit, result.pushed = (
            landed.committed,
            landed.commit,
            landed.pushed,
        )
        for text in landed.notes:
            self.note(text)

    def body(self) -> str:
        r = self.result
        verdict = r.verdict
        judged = (
            "not run" if verdict is None else ("ok" if verdict.ok else "; ".join(verdict.reasons))
        )
        lines = [
            f"Session: {r.session_id}" + (f" (chain {', '.join(r.chain)})" if r.chain else ""),
            f"Order: {r.order}; staffed by {r.staffed}",
            f"Outcome: {r.reason}" + (f": {r.summary}" if r.summary else ""),
            f"Gates: check {GATE[r.catalogue_check] or 'not run'}, probe {GATE[r.probe] or 'not run'}",
            f"Judge: {judged}",
            f"Iterations: {r.iterations}; tool calls: {r.calls}; tokens: "
            f"{r.tokens.get('input', 0)} in, {r.tokens.get('output', 0)} out; cost: ${r.cost:.4f}",
            f"Duration: {_duration(time.monotonic() - self.began)}",
        ]
        return "\n".join(lines) + "\n"

    def row(self, line: Line, entry: dict | None, slug: str | None, start: landing.Start) -> None:
        result = self.result
        path = result.session_path
        if path is None or not path.is_file():
            self.note("no session log: no row")
            return
        side = {
            line.noun: entry or {},
            "files": _files(line, self.workspace, slug),
            "outcome": export.side_outcome({"reason": result.reason}),
            "catalogue_check": GATE[result.catalogue_check],
            "probe": GATE[result.probe],
            "committed": result.committed,
            "commit": result.commit,
            "run": {
                "shift": result.session_id,
                "order": result.order,
                "base": start.base,
                "branch": start.branch,
                "seconds": round(time.monotonic() - self.began, 1),
                "pushed": result.pushed,
                "dry_run": result.dry_run,
            },
            "judge": result.verdict.as_row() if result.verdict else None,
            # Additive, for consumers who ask why: the gates' own words and the
            # probe's measurements (per-fault alarm times, reset, manual, overflow).
            "gate_problems": list(result.gate_problems),
            "probe_details": result.probe_details,
        }

        def record() -> None:
            log = session.SessionLog(path)
            try:
                log.append("line", side=side)
            finally:
                log.close()

        self.safe(record, "recording the line side")
        out = self.workspace / self.settings.trajectories
        if self.ship_it:
            report = self.safe(
                lambda: shipping.ship(
                    self.workspace, result.session_id, None, settings=self.settings
                ),
                "shipping the row",
            )
            if report is not None:
                result.shipped = report.target
                if report.note:
                    self.note(report.note)
                if report.target.startswith("hf://"):
                    result.row = out / result.session_id / f"{result.session_id}.jsonl"
                else:
                    result.row = (
                        Path(report.target) / result.session_id / f"{result.session_id}.jsonl"
                    )
            return

        def export_only() -> Path:
            secrets = config.secret_values(self.settings)
            return export.export_row(self.workspace, result.session_id, out, secrets=secrets)

        result.row = self.safe(export_only, "exporting the row")


def _repairable(problem: gate_check.Problem) -> str:
    """What a repair of `problem` may change: the product's folder, else the file named."""
    if problem.line and gate_check.SLUG.fullmatch(problem.slug):
        try:
            folder = line_named(problem.line).product_dir(Path(), problem.slug)
        except KeyError:
            return problem.file
        return folder.as_posix()
    return problem.file


def _catalogue_at(repo: git.Repo, base: str, line: Line, workspace: Path) -> list:
    relative = line.catalogue_path(workspace).relative_to(workspace).as_posix()
    try:
        loaded = json.loads(repo.git.show(f"{base}:{relative}"))
    except (git.GitCommandError, json.JSONDecodeError):
        return []
    return loaded if isinstance(loaded, list) else []


def _new_entry(workspace: Path, line: Line, before: list) -> dict[str, Any] | None:
    """The entry appended since base (the last one, when the model appended several)."""
    try:
        now = json.loads(line.catalogue_path(workspace).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None
    if not isinstance(now, list):
        return None
    known = {e.get("slug") for e in before if isinstance(e, dict)}
    appended = [
        e
        for e in now
        if isinstance(e, dict) and isinstance(e.get("slug"), str) and e["slug"] not in known
    ]
    return appended[-1] if appended else None


def _files(line: Line, workspace: Path, slug: str | None) -> dict[str, str]:
    if not slug:
        return {}
    folder = line.product_dir(workspace, slug)
    if not folder.is_dir():
        return {}
    return {
        p.relative_to(folder).as_posix(): p.read_text(encoding="utf-8", errors="replace")
        for p in sorted(folder.rglob("*"))
        if p.is_file()
    }


def _duration(seconds: float) -> str:
    minutes, rest = divmod(int(round(seconds)), 60)
    return f"{minutes}m{rest:02d}s"
