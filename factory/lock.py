"""One shift per workspace: `.factory/shift.lock`.

The operating system's lock (fcntl.flock) is the truth: it is released by the
kernel when the holding process dies, however it dies, so a lock left by a
dead shift can always be taken over. The pid + host + start written inside is
only information, for the message a waiting shift prints and for saying that
a stale lock was taken over. This module must never delete a lock another
live process holds, and never block forever.
"""

from __future__ import annotations

import fcntl
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path

from factory.session import now

LOCK_FILE = Path(".factory") / "shift.lock"


@dataclass
class Holder:
    """Who holds (or held) the lock, as its record says."""

    pid: int
    host: str
    started: str

    def alive(self) -> bool:
        if self.host != socket.gethostname():
            return True  # another machine's process: we cannot tell, assume alive
        try:
            os.kill(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def describe(self) -> str:
        return f"pid {self.pid} on {self.host}, started {self.started}"


def read_holder(path: Path) -> Holder | None:
    try:
        record = json.loads(path.read_text(encoding="utf-8") or "null")
        return Holder(int(record["pid"]), str(record["host"]), str(record["started"]))
    except (OSError, ValueError, TypeError, KeyError):
        return None


class ShiftLock:
    """`acquire(wait)` then `release()`, or use as a context manager after acquiring."""

    def __init__(self, workspace: Path):
        self.path = workspace / LOCK_FILE
        self._fd: int | None = None
        self.holder: Holder | None = None
        """When acquiring failed: who holds the lock."""
        self.stale: Holder | None = None
        """When acquired over the record of a dead process: that process."""

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self, wait: float = 0.0, poll: float = 0.2) -> bool:
        """True when this process now holds the lock; False after `wait` seconds of trying."""
        self.path.parent.mkdir(parents=True, exist_ok=True)
        deadline = time.monotonic() + max(wait, 0.0)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    self.holder = read_holder(self.path)
                    os.close(fd)
                    return False
                time.sleep(min(poll, max(deadline - time.monotonic(), 0.0)))
        previous = read_holder(self.path)
        if previous and previous.pid != os.getpid():
            self.stale = previous  # we hold the flock, so its holder is gone
        record = {"pid": os.getpid(), "host": socket.gethostname(), "started": now()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, json.dumps(record).encode() + b"\n", 0)
        os.fsync(fd)
        self._fd = fd
        self.holder = None
        return True

    def release(self) -> None:
        if self._fd is None:
            return
        # Empty the record first: a reader must never see our pid on a free lock.
        os.ftruncate(self._fd, 0)
        fcntl.flock(self._fd, fcntl.LOCK_UN)
        os.close(self._fd)
        self._fd = None

    def __enter__(self) -> ShiftLock:
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()
