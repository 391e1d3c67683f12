"""The landing: everything the shift does with git.

A shift works on its own branch `shift/<session-id>`, snapshotted from a
background thread every few minutes and at the end, so a shift that dies
loses at most those minutes; the next shift folds such stranded branches back
(squash) before it starts. Landing squashes the branch onto the base branch as
ONE commit and pushes it when a remote exists, retrying a rejected push after
re-fetching and rebasing that commit.

This room must never lose work and never rewrite shared history: no force
push, no hard reset of anything but a tree it has just committed, a branch
deleted only once its content is safely in another commit. Every commit is
authored as `factory <factory@localhost>` explicitly, so a fresh machine with
no git identity works.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import git

SHIFT_PREFIX = "shift/"
DRY_RUN_PREFIX = "dry-run/"
PUSH_RETRIES = 3

IDENTITY = {
    "GIT_AUTHOR_NAME": "factory",
    "GIT_AUTHOR_EMAIL": "factory@localhost",
    "GIT_COMMITTER_NAME": "factory",
    "GIT_COMMITTER_EMAIL": "factory@localhost",
}
# Commits must not stop on a hook, a signing key or an editor of this machine.
COMMIT_FLAGS = ("--no-verify", "--no-gpg-sign", "--quiet")


class LandingError(RuntimeError):
    """A one-line problem with the repository that stops the shift before it starts."""


def open_repo(workspace: Path) -> git.Repo:
    try:
        repo = git.Repo(workspace)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise LandingError(f"{workspace}: not a git repository") from None
    repo.git.update_environment(**IDENTITY, GIT_EDITOR="true", GIT_TERMINAL_PROMPT="0")
    return repo


def exclude_state(repo: git.Repo, rows: str = "trajectories") -> None:
    """Keeps `.factory/` (sessions, scratch, lock) and the exported rows (rejected ones
    and the sft shape too) out of every commit, even without a .gitignore: rows ship to the Hub or stay in the local
    outbox folder; in git their screenshots would bloat every clone. The whole
    rows folder is excluded, so the dataset card the export writes there is no
    change of the model's either; a card the repository already tracks stays
    tracked (excludes never untrack)."""
    common = Path(repo.git.rev_parse("--git-common-dir"))
    if not common.is_absolute():
        common = Path(repo.working_dir) / common
    exclude = common / "info" / "exclude"
    text = exclude.read_text(encoding="utf-8") if exclude.is_file() else ""
    wanted = [".factory/", "/" + rows.strip("/") + "/", "/rejects/", "/sft/"]
    missing = [pattern for pattern in wanted if pattern not in text.split()]
    if missing:
        exclude.parent.mkdir(parents=True, exist_ok=True)
        lead = "" if text.endswith("\n") or not text else "\n"
        exclude.write_text(text + lead + "".join(p + "\n" for p in missing))


def commit_message(entry: dict | None, settled: bool, reason: str) -> str:
    """The landed commit's subject line, as the reference factory writes it."""
    if settled and entry:
        return f"shift: {entry.get('name', entry.get('slug', '?'))} - {entry.get('tagline', '')}"
    return f"shift: work in progress ({reason})"


def _dirty(repo: git.Repo) -> bool:
    return repo.is_dirty(index=True, working_tree=True, untracked_files=True)


def _branch(repo: git.Repo) -> str | None:
    return None if repo.head.is_detached else repo.active_branch.name


def _commit_all(repo: git.Repo, message: str) -> str | None:
    """Commits the whole working tree (ignored files excepted); None when nothing changed."""
    repo.git.add("-A")
    if not repo.is_dirty(index=True, working_tree=False, untracked_files=False):
        return None
    repo.git.commit(*COMMIT_FLAGS, "-m", message)
    return repo.head.commit.hexsha


def snapshot(repo: git.Repo, branch: str, message: str = "snapshot") -> str | None:
    """Commits the working tree to the shift branch; nothing when HEAD is elsewhere."""
    if _branch(repo) != branch:
        return None
    return _commit_all(repo, message)


def _remote(repo: git.Repo, name: str | None) -> git.Remote | None:
    if not name:
        return None
    return next((r for r in repo.remotes if r.name == name), None)


@dataclass
class Start:
    """Where a shift started: its base commit and its branch, and what it folded."""

    base_branch: str
    base: str
    branch: str
    folded: list[str] = field(default_factory=list)
    left: list[str] = field(default_factory=list)
    """Stranded branches that no longer merge: left alone, reported."""
    notes: list[str] = field(default_factory=list)


def begin(
    repo: git.Repo,
    base_branch: str,
    session_id: str,
    *,
    remote: str | None = None,
    dry_run: bool = False,
    rows: str = "trajectories",
) -> Start:
    """Checks out the tip of the base branch, branches off, folds stranded shifts.

    A dry run (in a throwaway worktree, detached at the base) branches off HEAD
    under `dry-run/` and folds nothing: it must not take real shifts' work.
    """
    notes: list[str] = []
    if not repo.head.is_valid():
        raise LandingError(f"{repo.working_dir}: the repository has no commit yet")
    exclude_state(repo, rows)
    if dry_run:
        base = repo.head.commit.hexsha
        branch = DRY_RUN_PREFIX + session_id
        repo.git.checkout("-q", "-b", branch)
        _commit_all(repo, "snapshot: working tree at start")
        return Start(base_branch, base, branch, notes=notes)

    if base_branch not in [h.name for h in repo.heads]:
        raise LandingError(f"{repo.working_dir}: no branch {base_branch!r} to land on")
    current = _branch(repo)
    if current != base_branch:
        if _dirty(repo):
            if not (current or "").startswith(SHIFT_PREFIX):
                where = current or "a detached HEAD"
                raise LandingError(
                    f"{repo.working_dir}: uncommitted changes on {where}; commit or stash them"
                )
            # A shift died between snapshots: its last minutes go to its own branch.
            _commit_all(repo, "snapshot: stranded working tree")
            notes.append(f"committed the stranded working tree to {current}")
        repo.git.checkout("-q", base_branch)

    origin = _remote(repo, remote)
    if origin is not None:
        try:
            origin.fetch()
            tracking = f"{origin.name}/{base_branch}"
            if tracking in [r.name for r in origin.refs]:
                repo.git.merge("--ff-only", "-q", tracking)
        except git.GitCommandError as error:
            notes.append(f"could not update {base_branch} from {origin.name}: {_first(error)}")

    base = repo.head.commit.hexsha
    branch = SHIFT_PREFIX + session_id
    # Checking out a new branch keeps a dirty tree: work left on the base is carried.
    repo.git.checkout("-q", "-b", branch)
    if _commit_all(repo, "snapshot: working tree found at start"):
        notes.append(f"carried uncommitted changes on {base_branch} into {branch}")
    start = Start(base_branch, base, branch, notes=notes)
    for stranded in sorted(h.name for h in repo.heads):
        if stranded.startswith(SHIFT_PREFIX) and stranded != branch:
            _fold(repo, start, stranded)
    return start


def _fold(repo: git.Repo, start: Start, stranded: str) -> None:
    try:
        repo.git.merge("--squash", stranded)
    except git.GitCommandError:
        # The tree was clean before the merge, so this only undoes the merge.
        repo.git.reset("-q", "--hard", "HEAD")
        start.left.append(stranded)
        start.notes.append(f"left {stranded}: it no longer merges into {start.base_branch}")
        return
    if _commit_all(repo, f"fold {stranded}") is None:
        start.notes.append(f"deleted {stranded}: nothing in it that {start.base_branch} lacks")
    else:
        start.folded.append(stranded)
        start.notes.append(f"folded {stranded} into {start.branch}")
    repo.git.branch("-D", stranded)


def _push_problem(error: git.GitCommandError) -> tuple[str, bool]:
    """What stopped a push, and whether it was a rejection a re-fetch can cure
    (the remote moved) rather than a refusal (access, a checked-out branch)."""
    text = str(error.stderr or error)
    rejected = any(word in text for word in ("[rejected]", "non-fast-forward", "fetch first"))
    lines = [line.strip().removeprefix("stderr: ").strip("'") for line in text.splitlines()]
    telling = [
        line.removeprefix("remote: ").removeprefix("error: ")
        for line in lines
        if "[rejected]" in line or line.startswith(("fatal:", "remote: error:"))
    ]
    return (telling[0] if telling else _first(error)), rejected


def _first(error: git.GitCommandError) -> str:
    text = str(error.stderr or error).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return (lines[-1] if lines else str(error.status)).removeprefix("stderr: ").strip("'")


class Snapshotter:
    """Commits the working tree to the shift branch every `minutes` until stopped."""

    def __init__(
        self,
        workspace: Path,
        branch: str,
        minutes: float,
        on_snapshot: Callable[[str], None] | None = None,
    ):
        self.workspace = workspace
        self.branch = branch
        self.interval = max(minutes * 60.0, 0.05)
        self.on_snapshot = on_snapshot
        self.count = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="snapshots", daemon=True)

    def start(self) -> Snapshotter:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()

    def _run(self) -> None:
        repo = open_repo(self.workspace)  # its own Repo: gitpython objects are not shared
        while not self._stop.wait(self.interval):
            try:
                sha = snapshot(repo, self.branch, "snapshot")
            except git.GitCommandError:
                continue  # e.g. the model's own git holds the index lock: next time
            if sha:
                self.count += 1
                if self.on_snapshot:
                    self.on_snapshot(sha)


@dataclass
class Landed:
    """What landing did."""

    committed: bool = False
    commit: str = ""
    pushed: bool = False
    conflict: bool = False
    kept: str = ""
    """The shift branch left for the next shift (on a conflict), else empty."""
    notes: list[str] = field(default_factory=list)


def land(
    repo: git.Repo,
    start: Start,
    message: str,
    *,
    remote: str | None = None,
    retries: int = PUSH_RETRIES,
) -> Landed:
    """Squashes the shift branch onto the base branch as one commit and pushes it."""
    landed = Landed()
    snapshot(repo, start.branch, "snapshot: end of shift")
    repo.git.checkout("-q", start.base_branch)
    before = repo.head.commit.hexsha
    try:
        repo.git.merge("--squash", start.branch)
    except git.GitCommandError:
        repo.git.reset("-q", "--hard", "HEAD")
        return _keep(landed, start, "it does not merge into")
    if not repo.is_dirty(index=True, working_tree=False, untracked_files=False):
        repo.git.branch("-D", start.branch)
        landed.notes.append("nothing to land")
        return landed
    repo.git.commit(*COMMIT_FLAGS, "-m", message)
    landed.committed = True
    landed.commit = repo.head.commit.hexsha

    origin = _remote(repo, remote)
    if origin is not None:
        _push(repo, origin, start, landed, before, retries)
        if landed.conflict:
            return landed
    repo.git.branch("-D", start.branch)
    return landed


def _keep(landed: Landed, start: Start, why: str) -> Landed:
    landed.conflict = True
    landed.kept = start.branch
    landed.notes.append(
        f"conflict: {why} {start.base_branch}; {start.branch} is kept for the next shift"
    )
    return landed


def _push(
    repo: git.Repo,
    origin: git.Remote,
    start: Start,
    landed: Landed,
    before: str,
    retries: int,
) -> None:
    refspec = f"{start.base_branch}:{start.base_branch}"
    for attempt in range(retries + 1):
        try:
            repo.git.push("--quiet", origin.name, refspec)
            landed.pushed = True
            if attempt:
                landed.notes.append(f"pushed after {attempt} retr{'y' if attempt == 1 else 'ies'}")
            return
        except git.GitCommandError as error:
            problem, rejected = _push_problem(error)
        if not rejected:
            break  # refused for good (no access, a checked-out branch, no network): no retry
        if attempt == retries:
            break
        landed.notes.append(f"push rejected ({problem}); re-fetching")
        try:
            origin.fetch()
        except git.GitCommandError as error:
            landed.notes.append(f"fetch failed: {_first(error)}")
            break
        try:
            repo.git.rebase("--quiet", f"{origin.name}/{start.base_branch}")
        except git.GitCommandError:
            repo.git.rebase("--abort")
            # Take our squash off the base again; the shift branch still holds it all.
            repo.git.reset("-q", "--hard", before)
            landed.committed = False
            landed.commit = ""
            _keep(landed, start, f"the remote's {start.base_branch} moved and conflicts with")
            return
        landed.commit = repo.head.commit.hexsha
    landed.notes.append(f"not pushed: {problem}; the commit stays on the local {start.base_branch}")


def add_worktree(repo: git.Repo, path: Path) -> Path:
    """A throwaway checkout of HEAD for a dry run (detached, so it takes no branch)."""
    repo.git.worktree("add", "--detach", "--quiet", str(path), "HEAD")
    return path


def prune_dry_runs(repo: git.Repo, prefix: str, keep: int) -> list[str]:
    """Remove all but the newest `keep` dry-run worktrees (folders named `prefix*`) and
    every `dry-run/` branch no remaining worktree has checked out; returns what went.

    A dry run is left for a person to look at; run from cron or CI they would pile up."""
    worktrees: list[tuple[Path, str]] = []
    path: Path | None = None
    for line in repo.git.worktree("list", "--porcelain").splitlines():
        if line.startswith("worktree "):
            path = Path(line.removeprefix("worktree "))
            if path.name.startswith(prefix):
                worktrees.append((path, ""))
        elif line.startswith("branch ") and worktrees and worktrees[-1][0] == path:
            worktrees[-1] = (path, line.removeprefix("branch refs/heads/"))
    worktrees.sort(key=lambda item: _mtime(item[0]), reverse=True)
    gone: list[str] = []
    for old, _ in worktrees[keep:]:
        repo.git.worktree("remove", "--force", str(old))
        gone.append(str(old))
    repo.git.worktree("prune")
    kept = {branch for _, branch in worktrees[:keep]}
    for head in list(repo.heads):
        if head.name.startswith(DRY_RUN_PREFIX) and head.name not in kept:
            repo.git.branch("-D", head.name)
            gone.append(head.name)
    return gone


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
