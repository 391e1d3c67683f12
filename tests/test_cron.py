"""The crontab line, and install/remove through `crontab -l` / `crontab -`.

The user's real crontab must not be touched by tests, so a fake `crontab`
executable (a shell script keeping the table in a file) is put first on PATH.
That is the only stand-in here; the commands run as real subprocesses.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from factory import cron

FAKE = """#!/bin/sh
table="$FAKE_CRONTAB"
case "$1" in
  -l) [ -f "$table" ] || { echo "no crontab for $(id -un)" >&2; exit 1; }; cat "$table" ;;
  -) cat > "$table" ;;
  *) echo "fake crontab: unexpected $*" >&2; exit 2 ;;
esac
"""


@pytest.fixture
def table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake = bin_dir / "crontab"
    fake.write_text(FAKE)
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    path = tmp_path / "table"
    monkeypatch.setenv("FAKE_CRONTAB", str(path))
    return path


def test_the_line_runs_a_quiet_shift_every_half_hour_into_a_log(tmp_path: Path) -> None:
    line = cron.cron_line(tmp_path, "new-game")
    assert line.startswith("*/30 * * * * ")
    assert f"cd {tmp_path.resolve()} && " in line
    assert "shift --order new-game --quiet" in line
    assert f">> {tmp_path.resolve() / '.factory' / 'cron.log'} 2>&1" in line
    assert line.endswith(f"{cron.MARK} {tmp_path.resolve()}")


def test_the_command_part_of_the_line_really_runs(tmp_path: Path) -> None:
    """The line's command, run by sh as cron would, reaches `factory shift` (its --help)."""
    command = cron.cron_line(tmp_path).split(" ", 5)[5].split(" >> ")[0] + " --help"
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "--order" in done.stdout


def test_install_keeps_other_entries_and_does_not_duplicate(tmp_path: Path, table: Path) -> None:
    table.write_text("MAILTO=someone\n0 3 * * * backup\n")
    first = cron.install(tmp_path)
    second = cron.install(tmp_path)
    lines = table.read_text().splitlines()
    assert first == second
    assert lines == ["MAILTO=someone", "0 3 * * * backup", first]


def test_install_on_an_empty_crontab_then_remove(tmp_path: Path, table: Path) -> None:
    line = cron.install(tmp_path)
    assert table.read_text() == line + "\n"
    other = tmp_path / "other"
    other.mkdir()
    other_line = cron.install(other)
    assert cron.remove(tmp_path) is True
    assert table.read_text().splitlines() == [other_line]
    assert cron.remove(tmp_path) is False


def test_a_missing_crontab_is_one_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(cron.CronError, match="crontab: not found"):
        cron.install(tmp_path)
