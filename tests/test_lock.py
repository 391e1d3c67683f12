"""The shift lock, held by real other processes."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from factory.lock import LOCK_FILE, ShiftLock, read_holder

HOLD = """
import sys, time
from pathlib import Path
from factory.lock import ShiftLock
lock = ShiftLock(Path(sys.argv[1]))
assert lock.acquire()
print("held", flush=True)
time.sleep(float(sys.argv[2]))
lock.release()
"""


@pytest.fixture
def holder(tmp_path: Path):
    """Starts another process holding the workspace's lock for `seconds`."""
    started: list[subprocess.Popen] = []

    def start(seconds: float) -> subprocess.Popen:
        process = subprocess.Popen(
            [sys.executable, "-c", HOLD, str(tmp_path), str(seconds)],
            stdout=subprocess.PIPE,
            text=True,
        )
        assert process.stdout.readline().strip() == "held"
        started.append(process)
        return process

    yield start
    for process in started:
        if process.poll() is None:
            process.kill()
        process.wait()


def test_acquire_writes_the_record_and_release_empties_it(tmp_path: Path) -> None:
    lock = ShiftLock(tmp_path)
    assert lock.acquire()
    record = read_holder(tmp_path / LOCK_FILE)
    assert record is not None and record.pid == os.getpid()
    lock.release()
    assert read_holder(tmp_path / LOCK_FILE) is None
    assert ShiftLock(tmp_path).acquire()


def test_a_second_shift_gives_up_after_wait_and_names_the_holder(tmp_path: Path, holder) -> None:
    process = holder(30)
    lock = ShiftLock(tmp_path)
    began = time.monotonic()
    assert not lock.acquire(wait=0.5)
    assert time.monotonic() - began >= 0.45
    assert lock.holder is not None and lock.holder.pid == process.pid
    assert lock.holder.alive()


def test_a_waiting_shift_gets_the_lock_when_the_holder_ends(tmp_path: Path, holder) -> None:
    process = holder(0.5)
    lock = ShiftLock(tmp_path)
    assert lock.acquire(wait=20)
    assert lock.stale is None  # released cleanly, so nothing stale
    process.wait()


def test_the_lock_of_a_killed_shift_is_taken_over(tmp_path: Path, holder) -> None:
    process = holder(30)
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    stale = read_holder(tmp_path / LOCK_FILE)
    assert stale is not None and not stale.alive()
    lock = ShiftLock(tmp_path)
    assert lock.acquire()
    assert lock.stale is not None and lock.stale.pid == process.pid
