"""The landing, on real git repositories in temporary folders (and a bare one as the remote)."""

from __future__ import annotations

import time
from pathlib import Path

import git
import pytest

from factory import landing
from factory.landing import IDENTITY, Snapshotter, begin, commit_message, land, open_repo


@pytest.fixture(autouse=True)
def no_identity(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A fresh machine: no global git config, so no user identity of its own."""
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(home / "gitconfig"))
    for name in IDENTITY:
        monkeypatch.delenv(name, raising=False)


def make_repo(path: Path) -> git.Repo:
    path.mkdir(parents=True, exist_ok=True)
    repo = git.Repo.init(path, initial_branch="main")
    repo.git.update_environment(**IDENTITY)
    (path / "catalogue").mkdir()
    (path / "catalogue" / "machines.json").write_text("[]\n")
    (path / "README.md").write_text("factory\n")
    repo.git.add("-A")
    repo.git.commit("-q", "-m", "start")
    return open_repo(path)


def write(root: Path, name: str, text: str) -> None:
    (root / name).parent.mkdir(parents=True, exist_ok=True)
    (root / name).write_text(text)


def branches(repo: git.Repo) -> set[str]:
    return {h.name for h in repo.heads}


@pytest.fixture
def repo(tmp_path: Path) -> git.Repo:
    return make_repo(tmp_path / "work")


@pytest.mark.parametrize(
    ("entry", "settled", "reason", "expected"),
    [
        ({"name": "Tide Mill", "tagline": "grinds by the moon"}, True, "settled",
         "shift: Tide Mill - grinds by the moon"),
        ({"name": "Tide Mill", "tagline": "x"}, False, "time", "shift: work in progress (time)"),
        (None, True, "settled", "shift: work in progress (settled)"),
        (None, False, "error", "shift: work in progress (error)"),
    ],
)  # fmt: skip
def test_commit_message(entry, settled, reason, expected) -> None:
    assert commit_message(entry, settled, reason) == expected


def test_a_shift_lands_as_one_commit_by_factory(repo: git.Repo) -> None:
    root = Path(repo.working_dir)
    start = begin(repo, "main", "s1")
    assert repo.active_branch.name == "shift/s1"
    write(root, "shelf/machines/a/index.html", "<p>one</p>")
    assert landing.snapshot(repo, start.branch) is not None
    write(root, "shelf/machines/a/index.html", "<p>two</p>")
    write(root, ".factory/sessions/s1.jsonl", "{}\n")  # state: never committed
    write(root, "trajectories/s0/s0.jsonl", "{}\n")  # a row: shipped, never committed
    write(root, "trajectories/README.md", "the card\n")  # untracked card: the export's, not ours
    write(root, "rejects/s0/s0.jsonl", "{}\n")  # a rejected row (export --rejects)
    write(root, "sft/data/s0/s0.jsonl", "{}\n")  # an sft export
    result = land(repo, start, "shift: A - b\n\nbody line")
    assert result.committed and not result.conflict
    assert repo.active_branch.name == "main"
    head = repo.head.commit
    assert head.hexsha == result.commit
    assert head.message.startswith("shift: A - b\n\nbody line")
    assert head.parents[0].hexsha == start.base
    assert (head.author.name, head.author.email) == ("factory", "factory@localhost")
    assert (head.committer.name, head.committer.email) == ("factory", "factory@localhost")
    assert head.tree["shelf/machines/a/index.html"].data_stream.read() == b"<p>two</p>"
    assert ".factory" not in [t.name for t in head.tree.trees]
    assert not {"trajectories", "rejects", "sft"} & {t.name for t in head.tree.trees}
    assert "shift/s1" not in branches(repo)


def test_nothing_to_land_makes_no_commit(repo: git.Repo) -> None:
    before = repo.head.commit.hexsha
    start = begin(repo, "main", "s1")
    result = land(repo, start, "shift: work in progress (empty)")
    assert not result.committed and result.notes == ["nothing to land"]
    assert repo.head.commit.hexsha == before
    assert branches(repo) == {"main"}


def test_a_stranded_branch_and_its_uncommitted_tree_are_folded_in(repo: git.Repo) -> None:
    root = Path(repo.working_dir)
    dead = begin(repo, "main", "dead")
    write(root, "shelf/machines/a/index.html", "snapshotted")
    landing.snapshot(repo, dead.branch)
    write(root, "shelf/machines/a/machine.css", "never snapshotted")  # the shift died here
    start = begin(repo, "main", "next")
    assert start.folded == ["shift/dead"] and start.left == []
    assert branches(repo) == {"main", "shift/next"}
    assert (root / "shelf/machines/a/machine.css").read_text() == "never snapshotted"
    result = land(repo, start, "shift: work in progress (time)")
    files = {b.path for b in repo.head.commit.tree.traverse() if b.type == "blob"}
    assert {"shelf/machines/a/index.html", "shelf/machines/a/machine.css"} <= files
    assert result.committed and len(repo.head.commit.parents) == 1


def test_a_stranded_branch_that_no_longer_merges_is_left_and_reported(repo: git.Repo) -> None:
    root = Path(repo.working_dir)
    dead = begin(repo, "main", "dead")
    write(root, "README.md", "the dead shift's words\n")
    landing.snapshot(repo, dead.branch)
    repo.git.checkout("-q", "main")
    write(root, "README.md", "someone else's words\n")
    repo.git.commit("-q", "-am", "edit")
    start = begin(repo, "main", "next")
    assert start.left == ["shift/dead"] and start.folded == []
    assert any("shift/dead" in note and "no longer merges" in note for note in start.notes)
    assert "shift/dead" in branches(repo)
    assert not repo.is_dirty(untracked_files=True)


def test_an_already_landed_stranded_branch_is_just_deleted(repo: git.Repo) -> None:
    root = Path(repo.working_dir)
    old = begin(repo, "main", "old")
    write(root, "a.txt", "x")
    landing.snapshot(repo, old.branch)
    repo.git.checkout("-q", "main")
    repo.git.merge("--squash", old.branch)
    repo.git.commit("-q", "-m", "landed by hand")
    start = begin(repo, "main", "new")
    assert start.folded == [] and "shift/old" not in branches(repo)


def test_uncommitted_changes_on_another_branch_stop_the_shift(repo: git.Repo) -> None:
    repo.git.checkout("-q", "-b", "feature")
    write(Path(repo.working_dir), "README.md", "wip\n")
    with pytest.raises(landing.LandingError, match="uncommitted changes on feature"):
        begin(repo, "main", "s1")


def test_not_a_repository(tmp_path: Path) -> None:
    with pytest.raises(landing.LandingError, match="not a git repository"):
        open_repo(tmp_path)


def test_the_snapshotter_commits_while_the_model_works(repo: git.Repo) -> None:
    root = Path(repo.working_dir)
    start = begin(repo, "main", "s1")
    seen: list[str] = []
    snapshots = Snapshotter(root, start.branch, minutes=0.05 / 60, on_snapshot=seen.append).start()
    try:
        write(root, "one.txt", "1")
        deadline = time.monotonic() + 10
        while not seen and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        snapshots.stop()
    assert seen and repo.commit(start.branch).hexsha == seen[-1]
    assert repo.commit(start.branch).tree["one.txt"]


def clone(remote: Path, path: Path) -> git.Repo:
    cloned = git.Repo.clone_from(str(remote), str(path))
    cloned.git.update_environment(**IDENTITY)
    return cloned


@pytest.fixture
def remote(repo: git.Repo, tmp_path: Path) -> Path:
    bare = tmp_path / "remote.git"
    git.Repo.init(bare, bare=True, initial_branch="main")
    repo.create_remote("origin", str(bare))
    repo.git.push("-q", "origin", "main:main")
    return bare


def test_the_commit_is_pushed(repo: git.Repo, remote: Path) -> None:
    start = begin(repo, "main", "s1", remote="origin")
    write(Path(repo.working_dir), "a.txt", "x")
    result = land(repo, start, "shift: A - b", remote="origin")
    assert result.pushed and git.Repo(remote).commit("main").hexsha == result.commit


def test_a_remote_that_moved_under_us_gets_the_push_after_a_rebase(
    repo: git.Repo, remote: Path, tmp_path: Path
) -> None:
    start = begin(repo, "main", "s1", remote="origin")
    write(Path(repo.working_dir), "ours.txt", "ours")
    other = clone(remote, tmp_path / "other")
    write(Path(other.working_dir), "theirs.txt", "theirs")
    other.git.add("-A")
    other.git.commit("-q", "-m", "someone else landed")
    other.git.push("-q", "origin", "main")
    theirs = other.head.commit.hexsha

    result = land(repo, start, "shift: A - b", remote="origin")
    assert result.committed and result.pushed, result.notes
    assert any("rejected" in note for note in result.notes)
    tip = git.Repo(remote).commit("main")
    assert tip.hexsha == result.commit and tip.message.startswith("shift: A - b")
    assert tip.parents[0].hexsha == theirs
    assert {"ours.txt", "theirs.txt"} <= {b.path for b in tip.tree.traverse()}


def test_a_refused_push_is_not_retried_and_the_commit_stays(tmp_path: Path) -> None:
    upstream = make_repo(tmp_path / "upstream")  # not bare, main checked out: git refuses
    repo = clone(Path(upstream.working_dir), tmp_path / "work")
    start = begin(repo, "main", "s1", remote="origin")
    write(Path(repo.working_dir), "a.txt", "x")
    result = land(repo, start, "shift: A - b", remote="origin")
    assert result.committed and not result.pushed
    assert not any("rejected" in note for note in result.notes)
    (refusal,) = [note for note in result.notes if note.startswith("not pushed")]
    assert "refusing to update checked out branch" in refusal
    assert repo.head.commit.hexsha == result.commit


def test_a_remote_that_conflicts_keeps_the_shift_branch(
    repo: git.Repo, remote: Path, tmp_path: Path
) -> None:
    before = repo.head.commit.hexsha
    start = begin(repo, "main", "s1", remote="origin")
    write(Path(repo.working_dir), "README.md", "ours\n")
    other = clone(remote, tmp_path / "other")
    write(Path(other.working_dir), "README.md", "theirs\n")
    other.git.commit("-q", "-am", "someone else")
    other.git.push("-q", "origin", "main")

    result = land(repo, start, "shift: A - b", remote="origin")
    assert result.conflict and not result.committed and not result.pushed
    assert result.kept == "shift/s1" and "shift/s1" in branches(repo)
    assert repo.commit("main").hexsha == before
    assert repo.commit("shift/s1").tree["README.md"].data_stream.read() == b"ours\n"


def test_a_dry_run_worktree_takes_nothing_from_real_shifts(repo: git.Repo, tmp_path: Path) -> None:
    root = Path(repo.working_dir)
    dead = begin(repo, "main", "dead")
    write(root, "a.txt", "stranded work")
    landing.snapshot(repo, dead.branch)
    repo.git.checkout("-q", "main")
    tree = landing.add_worktree(repo, tmp_path / "dry")
    dry = open_repo(tree)
    start = begin(dry, "main", "d1", dry_run=True)
    assert start.branch == "dry-run/d1" and start.folded == []
    assert "shift/dead" in branches(repo)
    assert not (tree / "a.txt").exists()
    # ...and the next real shift does not fold the dry run's branch.
    real = begin(repo, "main", "s2")
    assert real.folded == ["shift/dead"] and "dry-run/d1" in branches(repo)
