"""The shift end to end: a real git workspace in a temp dir, the real loop, tools, gates
(headless Chromium), judge, landing and export. Only the model is scripted
(`factory.drivers.scripted`): an LLM endpoint cannot exist here.
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import git
import pytest
from rich.console import Console

from factory import check as gate_check
from factory import cli, session
from factory.config import Settings
from factory.drivers.scripted import Scripted, call, calls
from factory.landing import IDENTITY
from factory.lock import ShiftLock
from factory.model import Request
from factory.shift import ShiftError, ShiftResult, run_shift

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "corpus"
OLD = "saltmarsh-evaporator"
NEW = "tidewater-still"
ENTRY = {
    "slug": NEW,
    "name": "Tidewater Mark II Solar Still",
    "kind": "tidal solar still",
    "domain": "marine",
    "era": "1970s",
    "design": "charcoal cast housing with brass bezels, orange legends and a long slide rule scale",
    "interaction": "trim the mirrors to the sun and bleed the condenser before the tide turns",
    "palette": ["#20242a", "#e0a030", "#7fb069"],
    "controls": ["Steam Valve", "Feed Pump", "Vacuum Selector", "Bleed Valve"],
    "faults": ["Scale Buildup", "Feed Pump Seizure"],
    "tagline": "Makes fresh water from the tide with nothing but sunlight.",
    "created": "2025-02-01",
}
PRODUCT = f"shelf/machines/{NEW}"


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """No Hub, no provider key, no git identity: a fresh machine."""
    for name in ("HF_TOKEN", "HF_DATASET", "OPENROUTER_API_KEY", *IDENTITY):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(tmp_path / "no-gitconfig"))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A factory workspace with one machine on the shelf, committed on main."""
    root = tmp_path / "ws"
    root.mkdir()
    shutil.copytree(ROOT / "orders", root / "orders")
    shutil.copy(ROOT / "AGENTS.md", root / "AGENTS.md")
    shutil.copytree(CORPUS / "catalogue", root / "catalogue")
    (root / "catalogue" / "games.json").write_text("[]\n")
    shutil.copytree(CORPUS / "shelf" / "machines", root / "shelf" / "machines")
    (root / "shelf" / "games").mkdir()
    (root / "shelf" / "games" / ".gitkeep").write_text("")
    (root / ".gitignore").write_text(".factory/\n")
    repo = git.Repo.init(root, initial_branch="main")
    repo.git.update_environment(**IDENTITY)
    repo.git.add("-A")
    repo.git.commit("-q", "-m", "start")
    return root


def settings(**changes) -> Settings:
    return Settings(max_minutes=5, **changes)


def scratch(request: Request) -> str:
    return re.search(r"\.factory/scratch/[\w-]+", request.system).group(0)


def product_writes() -> list:
    files = CORPUS / "shelf" / "machines" / OLD
    return [
        calls(call("write", path=f"{PRODUCT}/{name}", content=(files / name).read_text()))
        for name in ("index.html", "machine.css", "machine.js", "manual.html")
    ]


def appended_catalogue() -> str:
    entries = json.loads((CORPUS / "catalogue" / "machines.json").read_text())
    return json.dumps([*entries, ENTRY], indent=2) + "\n"


def good_script() -> list:
    """Everything the order asks, in order, building a small valid machine."""
    css = (CORPUS / "shelf" / "machines" / OLD / "machine.css").read_text()
    return [
        calls(call("read", path="catalogue/machines.json")),
        calls(call("shell", command=f"factory probe {OLD} --shots-only")),
        calls(call("view", path=f".factory/shots/{OLD}-desktop.png")),
        lambda r: calls(call("write", path=f"{scratch(r)}/brief.md", content="A still, in tar.")),
        *product_writes(),
        calls(call("write", path="catalogue/machines.json", content=appended_catalogue())),
        calls(call("shell", command=f"factory probe {NEW}")),
        calls(*(call("view", path=f".factory/shots/{NEW}-{s}.png") for s in ("desktop", "phone", "manual"))),
        calls(call("write", path=f"{PRODUCT}/machine.css", content=css + "\n/* darker */\n")),
        calls(call("view", path=f".factory/shots/{NEW}-desktop.png")),
        calls(call("success", summary="built the Tidewater still")),
    ]  # fmt: skip


def row_of(result) -> dict:
    return json.loads(result.row.read_text().splitlines()[0])


def test_a_shift_lands_one_gated_product_and_ships_its_row(workspace: Path) -> None:
    base = git.Repo(workspace).head.commit.hexsha
    result = run_shift(workspace, settings(), order="new-machine", model=Scripted(good_script()))
    assert result.reason == "settled", result.notes
    assert result.catalogue_check and result.probe, result.gate_problems
    assert result.verdict is not None and result.verdict.ok, result.verdict.reasons
    assert result.exit_code == 0

    repo = git.Repo(workspace)
    head = repo.head.commit
    assert repo.active_branch.name == "main" and [h.name for h in repo.heads] == ["main"]
    assert head.parents[0].hexsha == base and head.hexsha == result.commit
    assert head.summary == f"shift: {ENTRY['name']} - {ENTRY['tagline']}"
    assert "Judge: ok" in head.message and f"Session: {result.session_id}" in head.message
    assert head.author.email == "factory@localhost"
    changed = {d.b_path for d in head.parents[0].diff(head)}
    assert changed == {"catalogue/machines.json"} | {
        f"{PRODUCT}/{n}" for n in ("index.html", "machine.css", "machine.js", "manual.html")
    }

    row = row_of(result)
    side = row["machinery"]
    assert side["machine"]["slug"] == NEW and set(side["files"]) == {
        "index.html", "machine.css", "machine.js", "manual.html"
    }  # fmt: skip
    assert side["files"]["machine.css"].endswith("/* darker */\n")
    assert (side["outcome"], side["catalogue_check"], side["probe"]) == (
        "settled",
        "success",
        "success",
    )
    assert side["committed"] is True and side["commit"] == result.commit
    assert side["judge"]["ok"] is True and side["run"]["base"] == base
    assert side["gate_problems"] == []
    details = side["probe_details"]
    assert details["reset_clears"] and set(details["alarms"]) == set(ENTRY["faults"])
    assert all(details["findings"].values()) and set(details["findings"]) == {
        "quantities", "keyboard", "fault-controls"
    }  # fmt: skip
    # Stored once by content: the copy looks exactly like the old machine on screen.
    assert row["complete"] and len(row["images"]) == 3
    assert all((result.row.parent / image).is_file() for image in row["images"])
    # The shipped row and its card are the factory's output: the next shift's gate
    # must not see them as a change outside the product.
    assert (workspace / "trajectories" / "README.md").is_file()
    assert gate_check.check(workspace, ["machines"], changed_since=result.commit).ok


def test_a_run_that_never_looks_fails_the_judge_with_reasons(workspace: Path) -> None:
    script = [
        *product_writes(),
        calls(call("write", path="catalogue/machines.json", content=appended_catalogue())),
        calls(call("success", summary="done without looking")),
    ]
    result = run_shift(
        workspace, settings(), order="new-machine", model=Scripted(script), ship=False
    )
    assert result.reason == "settled" and result.catalogue_check and result.probe
    verdict = result.verdict
    assert verdict is not None and not verdict.ok
    failed = {name for name, ok in verdict.checks.items() if not ok}
    assert failed == {
        "catalogue_read", "newest_viewed", "brief_before_markup", "probe_run",
        "shots_viewed", "critique_round", "two_views",
    }  # fmt: skip
    assert any(f"{OLD}" in reason for reason in verdict.reasons)
    head = git.Repo(workspace).head.commit
    assert "Judge: the catalogue catalogue/machines.json was never read" in head.message
    assert row_of(result)["machinery"]["judge"]["ok"] is False


KILLED = """
import sys, time
from pathlib import Path
from factory.config import Settings
from factory.drivers.scripted import Scripted, call, calls
from factory.shift import run_shift

workspace = Path(sys.argv[1])
def hang(request):
    (workspace / ".factory" / "about-to-hang").write_text("1")
    time.sleep(600)
script = [
    calls(call("read", path="catalogue/machines.json")),
    calls(call("write", path="shelf/machines/tidewater-still/index.html", content="first")),
    calls(call("write", path="notes-from-session-one.txt", content="kept")),
    hang,
]
run_shift(workspace, Settings(max_minutes=5, snapshot_minutes=0.005), order="new-machine",
          model=Scripted(script))
"""


def test_a_killed_shift_is_resumed_and_nothing_is_lost(workspace: Path) -> None:
    marker = workspace / ".factory" / "about-to-hang"
    process = subprocess.Popen([sys.executable, "-c", KILLED, str(workspace)])
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
        assert marker.exists(), "the first shift never reached its hanging turn"
        os.kill(process.pid, signal.SIGKILL)
    finally:
        process.kill()
        process.wait()
    [first] = session.list_sessions(workspace)
    assert not session.load(first).complete

    script = [
        calls(call("read", path=f"{PRODUCT}/index.html")),
        calls(call("failure", reason="stopping after checking the resume")),
    ]
    result = run_shift(workspace, settings(), order="new-machine", model=Scripted(script))
    assert result.chain == [first.stem, result.session_id]
    assert any("resuming session" in n for n in result.notes)
    assert any("took over the lock" in n for n in result.notes)
    head = git.Repo(workspace).head.commit
    assert head.summary == "shift: work in progress (failed)"
    assert head.tree[f"{PRODUCT}/index.html"].data_stream.read() == b"first"
    assert head.tree["notes-from-session-one.txt"].data_stream.read() == b"kept"
    row = row_of(result)
    assert row["chain"] == [first.stem, result.session_id]
    written = [
        json.loads(c["function"]["arguments"]).get("path")
        for m in row["messages"]
        for c in m.get("tool_calls") or []
    ]
    assert written[:3] == [
        "catalogue/machines.json",
        f"{PRODUCT}/index.html",
        "notes-from-session-one.txt",
    ]
    assert [h.name for h in git.Repo(workspace).heads] == ["main"]


TERMINATED = (
    KILLED.replace("time.sleep(600)", "time.sleep(600)  # until SIGTERM").replace(
        "run_shift(", "result = run_shift("
    )
    + "print(result.reason, result.committed)\n"
)


@pytest.mark.parametrize("group", [False, True], ids=["process", "process-group"])
def test_a_sigterm_stops_the_model_and_still_lands_and_ships(workspace: Path, group: bool) -> None:
    # `timeout`, systemd, Ctrl-C and CI runners signal the whole process group: git's
    # helper processes die with it, and the landing must still happen.
    marker = workspace / ".factory" / "about-to-hang"
    process = subprocess.Popen(
        [sys.executable, "-c", TERMINATED, str(workspace)],
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=group,
    )
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and time.monotonic() < deadline and process.poll() is None:
            time.sleep(0.1)
        assert marker.exists(), "the shift never reached its hanging turn"
        if group:
            os.killpg(process.pid, signal.SIGTERM)
        else:
            process.send_signal(signal.SIGTERM)
        out, _ = process.communicate(timeout=60)
    finally:
        process.kill()
    assert out.split() == ["aborted", "True"]
    head = git.Repo(workspace).head.commit
    assert head.summary == "shift: work in progress (aborted)"
    assert head.tree[f"{PRODUCT}/index.html"].data_stream.read() == b"first"
    [log] = session.list_sessions(workspace)
    [row] = (workspace / "trajectories").glob(f"{log.stem}/{log.stem}.jsonl")
    assert json.loads(row.read_text())["outcome"]["reason"] == "aborted"

    # Cut short from outside, so the next shift carries the same conversation on.
    script = [calls(call("failure", reason="checked the resume"))]
    again = run_shift(workspace, settings(), order="new-machine", model=Scripted(script))
    assert again.chain == [log.stem, again.session_id]
    assert any("cut short (aborted)" in note for note in again.notes)
    settled_or_failed = run_shift(
        workspace, settings(), order="new-machine", model=Scripted(script)
    )
    assert settled_or_failed.chain == [settled_or_failed.session_id]  # a failure is final


def cut_short_chain(workspace: Path, length: int) -> list[str]:
    """Sessions of one chain, each resuming the last, none with an outcome."""
    chain: list[str] = []
    for n in range(length):
        log = session.SessionLog.create(workspace, f"2020010{n}T000000Z-aaaaa{n}")
        chain.append(log.id)
        log.append("meta", id=log.id, order="new-machine", chain=list(chain))
        log.close()
    return chain


def test_after_too_many_unfinished_sessions_a_shift_starts_clean(workspace: Path) -> None:
    cut_short_chain(workspace, 3)
    script = [calls(call("failure", reason="nothing to do"))]
    result = run_shift(workspace, settings(), order="new-machine", model=Scripted(script))
    assert result.chain == [result.session_id]
    assert any("3 unfinished sessions in a row" in n for n in result.notes)
    assert not result.committed and git.Repo(workspace).head.commit.summary == "start"


def test_a_clean_start_that_is_cut_short_is_resumed_again(workspace: Path) -> None:
    # Three cut short in one chain, then a clean start, also cut short: the count is
    # the newest chain's, so the clean start is continued, not abandoned.
    cut_short_chain(workspace, 3)
    clean = session.SessionLog.create(workspace, "20200105T000000Z-bbbbb0")
    clean.append("meta", id=clean.id, order="new-machine", chain=[clean.id])
    clean.close()
    script = [calls(call("failure", reason="nothing to do"))]
    result = run_shift(workspace, settings(), order="new-machine", model=Scripted(script))
    assert result.chain == [clean.id, result.session_id], result.notes
    assert any(f"resuming session {clean.id}" in n for n in result.notes)


def test_a_failing_catalogue_puts_the_repair_first(workspace: Path) -> None:
    path = workspace / "catalogue" / "machines.json"
    path.write_text(path.read_text().replace('"1950s"', '"1850s"'))
    repo = git.Repo(workspace)
    repo.git.update_environment(**IDENTITY)
    repo.git.commit("-q", "-am", "a bad era")
    model = Scripted([calls(call("failure", reason="looked"))])
    result = run_shift(workspace, settings(), order="new-machine", model=model, ship=False)
    first = model.requests[0]
    assert "already fails" not in first.system  # the order stays the same every shift
    said = [m for m in first.messages if m["type"] == "instructions"]
    assert len(said) == 1 and "Repair the catalogue first" in said[0]["content"]
    assert "1850s" in said[0]["content"]
    assert any("fails before the shift" in n for n in result.notes)
    assert result.exit_code == 1


def test_repairing_what_failed_before_the_shift_passes_the_gate(workspace: Path) -> None:
    # The brief asks for the repair; the changed-since rule must then let it through,
    # or once one product broke no shift could ever pass again.
    manual = workspace / "shelf" / "machines" / OLD / "manual.html"
    text = manual.read_text()
    manual.unlink()
    repo = git.Repo(workspace)
    repo.git.update_environment(**IDENTITY)
    repo.git.commit("-q", "-am", "a manual went missing")
    restore = calls(call("write", path=f"shelf/machines/{OLD}/manual.html", content=text))
    touch = calls(call("write", path="AGENTS.md", content="rewritten\n"))
    model = Scripted([restore, *good_script()])
    result = run_shift(workspace, settings(), order="new-machine", model=model, ship=False)
    assert result.catalogue_check and result.probe, result.gate_problems
    assert result.committed and (workspace / f"shelf/machines/{OLD}/manual.html").is_file()
    # Only what failed may change: the next shift's edit elsewhere is still refused.
    result = run_shift(
        workspace, settings(), order="new-machine", model=Scripted([touch]), ship=False
    )
    assert not result.catalogue_check
    assert any(p.startswith("AGENTS.md: changed since") for p in result.gate_problems)


def test_a_second_shift_exits_zero_while_one_runs(workspace: Path) -> None:
    held = ShiftLock(workspace)
    assert held.acquire()
    try:
        result = run_shift(workspace, settings(), order="new-machine", model=Scripted([]), wait=0.3)
        assert result.running and result.exit_code == 0 and not result.session_id
        done = subprocess.run(
            [sys.executable, "-m", "factory.cli", "shift", "--order", "new-machine",
             "-w", str(workspace), "--quiet"],
            capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        assert "a shift is running" in done.stdout
    finally:
        held.release()
    assert session.list_sessions(workspace) == []


def test_a_dry_run_lands_and_ships_nothing(workspace: Path) -> None:
    before = git.Repo(workspace).head.commit.hexsha
    script = [
        calls(call("write", path="notes.txt", content="dry")),
        calls(call("success", summary="dry")),
    ]
    result = run_shift(
        workspace, settings(), order="new-machine", dry_run=True, model=Scripted(script)
    )
    try:
        assert result.dry_run and result.workspace != workspace
        assert result.reason == "settled" and not result.committed
        assert git.Repo(workspace).head.commit.hexsha == before
        assert not (workspace / "notes.txt").exists() and (result.workspace / "notes.txt").exists()
        assert result.row is not None and result.row.is_relative_to(result.workspace)
        assert result.session_path.is_relative_to(result.workspace)
        assert not (workspace / "trajectories").exists()
    finally:
        git.Repo(workspace).git.worktree("remove", "--force", str(result.workspace))


def test_dry_runs_keep_the_newest_three_to_look_at(workspace: Path) -> None:
    # From cron or CI, dry runs would pile up worktrees and dry-run/ branches for good.
    def dry() -> Path:
        script = [calls(call("success", summary="dry"))]
        result = run_shift(
            workspace, settings(), order="new-machine", dry_run=True, model=Scripted(script)
        )
        return result.workspace

    made = [dry() for _ in range(4)]
    repo = git.Repo(workspace)
    try:
        listed = repo.git.worktree("list", "--porcelain")
        assert str(made[0]) not in listed and not made[0].exists()
        assert all(str(path) in listed for path in made[1:])
        branches = sorted(h.name for h in repo.heads if h.name.startswith("dry-run/"))
        assert len(branches) == 3
        assert [h.name for h in repo.heads if not h.name.startswith("dry-run/")] == ["main"]
    finally:
        for path in made[1:]:
            repo.git.worktree("remove", "--force", str(path))


@pytest.mark.parametrize(
    ("case", "order", "problem"),
    [
        ("unknown order", "no-such-order", "no such order"),
        ("not a workspace", "new-machine", "not a factory workspace"),
        ("not a repository", "new-machine", "not a git repository"),
        ("dry run outside a repository", "new-machine", "not a git repository"),
        ("dry run of an unknown order", "no-such-order", "no such order"),
    ],
)
def test_preflight_problems_are_one_line(
    tmp_path: Path, workspace: Path, case, order, problem
) -> None:
    where = workspace
    if case == "not a workspace":
        where = tmp_path / "empty"
        where.mkdir()
    elif "repository" in case:
        where = tmp_path / "plain"
        shutil.copytree(workspace, where, ignore=shutil.ignore_patterns(".git"))
    with pytest.raises(ShiftError, match=problem):
        run_shift(where, settings(), order=order, model=Scripted([]), dry_run="dry" in case)
    # A dry run that could not start leaves no worktree behind.
    assert "factory-dry-run" not in git.Repo(workspace).git.worktree("list")


def test_the_command_over_http_with_a_scripted_endpoint(workspace: Path, openai_server) -> None:
    """As a new user would: `factory shift` against an OpenAI-compatible server (scripted,
    on 127.0.0.1, since no LLM can exist here), with the key in a named variable."""
    from openai_server import reply, tool

    openai_server.script(
        reply(tool_calls=[tool("read", {"path": "catalogue/machines.json"})]),
        reply(tool_calls=[tool("write", {"path": "notes.txt", "content": "over http"})]),
        reply(tool_calls=[tool("failure", {"reason": "only a note this time"})]),
    )
    env = {**os.environ, "SHIFT_TEST_KEY": "sk-test-not-a-real-key-123456"}
    done = subprocess.run(
        [sys.executable, "-m", "factory.cli", "shift", "--order", "new-machine",
         "-w", str(workspace), "--provider", "openai", "--base-url", openai_server.url,
         "--model", "scripted-model", "--api-key-env", "SHIFT_TEST_KEY", "--json"],
        capture_output=True, text=True, timeout=120, env=env,
    )  # fmt: skip
    assert done.returncode == 1, done.stderr  # failed: not a finished product
    summary = json.loads(done.stdout)
    assert summary["outcome"] == "failed" and summary["staffed"].startswith("openai")
    assert summary["committed"] and summary["commit"]
    head = git.Repo(workspace).head.commit
    assert head.summary == "shift: work in progress (failed)"
    assert head.tree["notes.txt"].data_stream.read() == b"over http"
    row = json.loads(Path(summary["row"]).read_text())
    assert row["model"] == "scripted-model" and row["machinery"]["outcome"] == "failed"
    assert "sk-test-not-a-real-key" not in Path(summary["row"]).read_text()


def test_the_summary_never_cuts_a_path_at_80_columns(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Cron logs and CI are 80 columns and not a terminal; the paths are copied from there.
    deep = tmp_path / "a-long-folder-name-for-the-factory" / ".factory" / "sessions"
    log = deep / "20261130T063817220Z-f8f8a1.jsonl"
    row = (
        tmp_path
        / "trajectories"
        / "20261130T063817220Z-f8f8a1"
        / "20261130T063817220Z-f8f8a1.jsonl"
    )
    out = io.StringIO()
    monkeypatch.setattr(cli, "console", Console(file=out, width=80))
    cli._shift_summary(
        ShiftResult(workspace=tmp_path, order="new-machine", session_path=log, row=row)
    )
    joined = "".join(line.strip() for line in out.getvalue().splitlines())
    assert str(log) in joined and str(row) in joined


def test_without_a_model_the_game_order_idles_and_says_why(workspace: Path) -> None:
    # The built-in designer makes machines only; it must not put a machine on a game shift.
    before = git.Repo(workspace).head.commit.hexsha
    result = run_shift(workspace, settings(), order="new-game")
    assert result.idle and "the new-game order waits for a model" in result.idle
    assert result.exit_code == 0 and not result.session_id and not result.committed
    assert git.Repo(workspace).head.commit.hexsha == before
    assert not session.sessions_dir(workspace).exists() or not session.list_sessions(workspace)
    done = subprocess.run(
        [sys.executable, "-m", "factory.cli", "shift", "--order", "new-game", "-w", str(workspace)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("shift: idle: no model configured")
