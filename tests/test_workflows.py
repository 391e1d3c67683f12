"""The shift workflow's own shell steps, run against real git repositories: work that
could not land travels between runners on shift/* branches, and nothing else does."""

from __future__ import annotations

import subprocess
from pathlib import Path

import git
import pytest
import yaml

from factory.landing import IDENTITY

ROOT = Path(__file__).resolve().parents[1]


def step(name: str) -> str:
    workflow = yaml.safe_load((ROOT / ".github/workflows/shift.yaml").read_text())
    [found] = [s for s in workflow["jobs"]["shift"]["steps"] if s.get("name") == name]
    return found["run"]


@pytest.fixture
def runner(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> git.Repo:
    """A runner's fresh clone of an origin holding main and one stranded shift branch."""
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    for name, value in IDENTITY.items():
        monkeypatch.setenv(name, value)
    seed = git.Repo.init(tmp_path / "seed", initial_branch="main")
    (tmp_path / "seed" / "a.txt").write_text("a\n")
    seed.git.add("-A")
    seed.git.commit("-q", "-m", "start")
    seed.git.checkout("-q", "-b", "shift/20260101T000000Z-old")
    (tmp_path / "seed" / "b.txt").write_text("stranded\n")
    seed.git.add("-A")
    seed.git.commit("-q", "-m", "snapshot")
    seed.git.checkout("-q", "main")
    git.Repo.clone_from(tmp_path / "seed", tmp_path / "origin.git", bare=True)
    return git.Repo.clone_from(tmp_path / "origin.git", tmp_path / "runner")


def run(repo: git.Repo, script: str) -> None:
    subprocess.run(["bash", "-e", "-c", script], cwd=repo.working_dir, check=True)


def remote_shifts(repo: git.Repo) -> list[str]:
    out = repo.git.ls_remote("--heads", "origin", "shift/*")
    return sorted(line.split("refs/heads/")[1] for line in out.splitlines())


def test_a_stranded_branch_comes_back_for_the_shift_to_fold(runner: git.Repo) -> None:
    assert "shift/20260101T000000Z-old" not in [h.name for h in runner.heads]
    run(runner, step("Bring back stranded shift branches"))
    branch = runner.heads["shift/20260101T000000Z-old"]
    assert branch.commit.tree["b.txt"].data_stream.read() == b"stranded\n"
    assert runner.active_branch.name == "main"


def test_after_the_shift_folded_branches_go_and_new_ones_stay(runner: git.Repo) -> None:
    run(runner, step("Bring back stranded shift branches"))
    # What a shift does: fold (delete) the old branch, leave a new one that conflicted.
    runner.git.branch("-D", "shift/20260101T000000Z-old")
    runner.git.branch("shift/20260102T000000Z-new")
    run(runner, step("Keep what did not land"))
    assert remote_shifts(runner) == ["shift/20260102T000000Z-new"]
    run(runner, step("Keep what did not land"))  # again: nothing to do, nothing fails
    assert remote_shifts(runner) == ["shift/20260102T000000Z-new"]
