"""Scheduling on one machine: a crontab line that runs a shift every half hour.

The line changes into the workspace and runs `factory shift --quiet`, whose own
lock makes an overlapping tick exit 0 at once; its output goes to a log file
under `.factory/`. Install and remove edit the user's crontab only through
`crontab -l` / `crontab -`, touching nothing but the line marked with this
workspace, so any other entries survive untouched.
"""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

MARK = "# factory shift:"
LOG = Path(".factory") / "cron.log"


class CronError(RuntimeError):
    """A one-line problem with the crontab."""


def factory_command() -> str:
    """The installed `factory` script beside this Python, else the module."""
    script = Path(sys.executable).parent / "factory"
    if script.is_file():
        return shlex.quote(str(script))
    return f"{shlex.quote(sys.executable)} -m factory.cli"


def cron_line(workspace: Path, order: str = "new-machine", every: int = 30) -> str:
    """One crontab line: every `every` minutes, one shift, appended to the log file."""
    root = workspace.resolve()
    where = shlex.quote(str(root))
    log = shlex.quote(str(root / LOG))
    return (
        f"*/{every} * * * * cd {where} && mkdir -p .factory && "
        f"{factory_command()} shift --order {shlex.quote(order)} --quiet >> {log} 2>&1 "
        f"{MARK} {root}"
    )


def _run(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    if shutil.which("crontab") is None:
        raise CronError("crontab: not found on PATH (install cron, or use `factory cron print`)")
    return subprocess.run(["crontab", *args], input=stdin, capture_output=True, text=True)


def current() -> str:
    """The user's crontab; empty when there is none yet."""
    done = _run(["-l"])
    if done.returncode != 0:
        if "no crontab" in (done.stderr or "").lower():
            return ""
        raise CronError(f"crontab -l: {(done.stderr or '').strip() or 'failed'}")
    return done.stdout


def _without(text: str, workspace: Path) -> list[str]:
    mark = f"{MARK} {workspace.resolve()}"
    return [line for line in text.splitlines() if not line.rstrip().endswith(mark)]


def _write(lines: list[str]) -> None:
    done = _run(["-"], "\n".join(lines) + "\n" if lines else "")
    if done.returncode != 0:
        raise CronError(f"crontab -: {(done.stderr or '').strip() or 'failed'}")


def install(workspace: Path, order: str = "new-machine") -> str:
    """Adds (or replaces) this workspace's line; returns it."""
    line = cron_line(workspace, order)
    _write([*_without(current(), workspace), line])
    return line


def remove(workspace: Path) -> bool:
    """Removes this workspace's line; False when there was none."""
    text = current()
    kept = _without(text, workspace)
    if len(kept) == len(text.splitlines()):
        return False
    _write(kept)
    return True
