"""Shipping rows: to a local Hub stand-in on 127.0.0.1 (the real Hub cannot be
reached from tests; `hub_server.FakeHub` speaks its routes), and to folders."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from hub_server import FakeHub
from test_export import SIDE, record
from typer.testing import CliRunner

from factory import ship as shipping
from factory.cli import app
from factory.config import Settings
from factory.secretscan import SecretFound

REPO = "factory/sessions"
TARGET = f"hf://datasets/{REPO}"


@pytest.fixture
def hub() -> Iterator[FakeHub]:
    with FakeHub() as server:
        yield server


def run(workspace: Path, hub: FakeHub, ref: str, *, token: bool = True, **env: str):
    """Ship with settings pointing at the stand-in, waits recorded instead of slept."""
    waits: list[float] = []
    environ = {"HF_TOKEN": hub.token} if token else {}
    environ.update(env)
    settings = Settings(hf_dataset=REPO, hf_endpoint=hub.endpoint)
    report = shipping.ship(
        workspace, ref, None, settings=settings, environ=environ, sleep=waits.append
    )
    return report, waits


def test_first_ship_creates_the_repo_and_publishes_one_commit(tmp_path: Path, hub: FakeHub) -> None:
    record(tmp_path, "s1")
    report, waits = run(tmp_path, hub, "s1")
    assert report.target == TARGET and report.shipped == ["s1"] and not waits
    repo = hub.repos[REPO]
    assert len(repo.commits) == 1
    commit = repo.commits[0]
    assert commit["summary"] == "shift s1: Brine Pump"
    assert commit["parent"] is None  # never pinned: a concurrent shift must not fail ours
    row = json.loads(repo.files["trajectories/s1/s1.jsonl"])
    assert row["id"] == "s1"
    assert sorted(commit["files"]) == sorted(
        ["README.md", "trajectories/s1/s1.jsonl", *(f"trajectories/s1/{i}" for i in row["images"])]
    )
    local = tmp_path / "trajectories"
    assert repo.files["README.md"] == (local / "README.md").read_bytes()
    assert repo.files["trajectories/s1/s1.jsonl"] == (local / "s1/s1.jsonl").read_bytes()
    assert shipping.read_outbox(tmp_path) == {TARGET: {"s1": "shipped"}}


def test_a_row_already_there_is_skipped_and_the_card_is_written_once(
    tmp_path: Path, hub: FakeHub
) -> None:
    record(tmp_path, "s1")
    record(tmp_path, "s2", finished=False)
    run(tmp_path, hub, "s1")
    report, _ = run(tmp_path, hub, "s1")
    assert report.skipped == ["s1"] and report.shipped == []
    report, _ = run(tmp_path, hub, "s2")
    commits = hub.repos[REPO].commits
    assert [c["summary"] for c in commits] == [
        "shift s1: Brine Pump",
        "shift s2: work in progress (cut short)",
    ]
    assert "README.md" not in commits[1]["files"]


def test_a_500_is_retried_with_backoff_then_succeeds(tmp_path: Path, hub: FakeHub) -> None:
    record(tmp_path, "s1")
    hub.fail("commit", 500, 503)
    report, waits = run(tmp_path, hub, "s1")
    assert report.shipped == ["s1"] and waits == [1.0, 2.0]
    assert len(hub.repos[REPO].commits) == 1


def test_a_commit_whose_answer_was_lost_is_not_published_twice(
    tmp_path: Path, hub: FakeHub
) -> None:
    record(tmp_path, "s1")
    hub.lose_answer("commit")
    report, waits = run(tmp_path, hub, "s1")
    assert report.shipped == ["s1"] and waits == [1.0]
    assert len(hub.repos[REPO].commits) == 1 and hub.count("commit") == 1


def test_a_hub_that_keeps_failing_leaves_the_row_pending(tmp_path: Path, hub: FakeHub) -> None:
    record(tmp_path, "s1")
    hub.fail("commit", *[500] * shipping.ATTEMPTS)
    with pytest.raises(shipping.ShipError, match="gave up after 5 tries"):
        run(tmp_path, hub, "s1")
    assert shipping.read_outbox(tmp_path) == {TARGET: {"s1": "pending"}}
    report, _ = run(tmp_path, hub, shipping.PENDING)
    assert report.shipped == ["s1"]


@pytest.mark.parametrize(
    ("where", "env"),
    [
        ("configured secret", {"OPENROUTER_API_KEY": "plain-secret-value-42"}),
        ("hub token", {}),
    ],
)
def test_a_planted_secret_is_refused_and_nothing_is_published(
    tmp_path: Path, hub: FakeHub, where: str, env: dict[str, str]
) -> None:
    planted = env.get("OPENROUTER_API_KEY") or "hf_" + "Zq9" * 12
    record(tmp_path, "s1", side={**SIDE, "files": {"machine.js": f"const k = '{planted}';"}})
    with pytest.raises(SecretFound) as caught:
        run(tmp_path, hub, "s1", **env)
    assert f"{where} at machinery.files.machine.js" in str(caught.value)
    assert planted not in str(caught.value)
    assert REPO not in hub.repos or not hub.repos[REPO].commits


def test_a_row_edited_after_export_is_scanned_again_before_it_leaves(
    tmp_path: Path, hub: FakeHub
) -> None:
    record(tmp_path, "s1")
    run(tmp_path, hub, "s1", token=False)
    path = tmp_path / "trajectories/s1/s1.jsonl"
    path.write_text(path.read_text().replace("Brine Pump", "AKIAABCDEFGHIJKLMNOP"))
    with pytest.raises(SecretFound, match="aws access key"):
        run(tmp_path, hub, shipping.PENDING)
    assert REPO not in hub.repos or not hub.repos[REPO].commits


def test_a_pending_file_that_is_not_its_row_is_one_line_and_nothing_leaves(
    tmp_path: Path, hub: FakeHub
) -> None:
    # e.g. an sft line put where the row was: ship names the file, it does not crash.
    record(tmp_path, "s1")
    run(tmp_path, hub, "s1", token=False)
    path = tmp_path / "trajectories/s1/s1.jsonl"
    path.write_text(json.dumps({"messages": [], "task_info": "{}"}) + "\n")
    with pytest.raises(shipping.ShipError, match=r"s1\.jsonl: not a row of session s1"):
        run(tmp_path, hub, shipping.PENDING)
    assert REPO not in hub.repos or not hub.repos[REPO].commits
    assert shipping.read_outbox(tmp_path)[TARGET] == {"s1": "pending"}


def test_without_a_token_it_ships_locally_then_pending_publishes(
    tmp_path: Path, hub: FakeHub
) -> None:
    record(tmp_path, "s1")
    report, _ = run(tmp_path, hub, "s1", token=False)
    assert "no HF_TOKEN" in report.note and report.pending == ["s1"]
    assert (tmp_path / "trajectories/s1/s1.jsonl").is_file() and REPO not in hub.repos
    report, _ = run(tmp_path, hub, shipping.PENDING)
    assert report.shipped == ["s1"]
    report, _ = run(tmp_path, hub, shipping.PENDING)
    assert report.shipped == [] and report.note == "nothing pending"
    assert len(hub.repos[REPO].commits) == 1


def test_without_any_target_it_ships_to_the_local_folder_and_says_so(tmp_path: Path) -> None:
    record(tmp_path, "s1")
    report = shipping.ship(tmp_path, "s1", None, settings=Settings(), environ={})
    assert report.note.startswith("no Hub target") and report.shipped == ["s1"]
    assert (tmp_path / "trajectories/README.md").is_file()
    assert not (tmp_path / shipping.OUTBOX).exists()


def test_a_folder_target_gets_the_row_and_the_card(tmp_path: Path) -> None:
    record(tmp_path, "s1")
    out = tmp_path / "elsewhere"
    report = shipping.ship(tmp_path, "last", str(out), settings=Settings(), environ={})
    assert report.target == str(out) and (out / "s1/s1.jsonl").is_file()
    assert (out / "README.md").is_file()


@pytest.mark.parametrize("to", ["hf://models/a/b", "hf://datasets/only-owner"])
def test_a_bad_hub_target_is_one_line(tmp_path: Path, to: str) -> None:
    record(tmp_path, "s1")
    with pytest.raises(shipping.ShipError, match="hf://datasets/OWNER/NAME"):
        shipping.ship(tmp_path, "s1", to, settings=Settings(), environ={})


def test_the_ship_command_reports_and_refuses_in_one_line(tmp_path: Path, hub: FakeHub) -> None:
    runner = CliRunner()
    record(tmp_path, "s1")
    env = {"HF_TOKEN": hub.token, "FACTORY_HF_ENDPOINT": hub.endpoint}
    result = runner.invoke(app, ["ship", "s1", "--to", TARGET, "-w", str(tmp_path)], env=env)
    assert result.exit_code == 0, result.output
    assert f"s1 -> {TARGET}" in result.output
    record(tmp_path, "s2", text="Authorization: Bearer abcdefghijklmnopqrstuvwxyz012345")
    result = runner.invoke(app, ["ship", "s2", "--to", TARGET, "-w", str(tmp_path)], env=env)
    assert result.exit_code != 0 and "Traceback" not in result.output
    assert "bearer token at messages[4].content" in result.output
    result = runner.invoke(app, ["ship", "-w", str(tmp_path)])
    assert result.exit_code != 0 and "--pending" in result.output
