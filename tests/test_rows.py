"""The cards' filters over a rows folder made by real exports of recorded sessions."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_export import SIDE, record
from typer.testing import CliRunner

from factory import export, rows
from factory.cli import app


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """finished machine, cut-short s1 continued by s2, a compacted run, a game without probe."""
    out = tmp_path / "trajectories"
    record(tmp_path, "done")
    record(tmp_path, "s1", finished=False)
    export.export_row(tmp_path, "s1", out)  # the partial row ships before its continuation
    record(tmp_path, "s2", continues="s1", chain=["s1", "s2"], side={**SIDE, "probe": "failure"})
    record(tmp_path, "compacted", compact=True)
    game = {"game": {"name": "Hop"}, "outcome": "settled", "catalogue_check": "success"}
    record(tmp_path, "game", line="games", side=game)
    export.export_all(tmp_path, out)
    return out


def ids(selected: list[dict]) -> list[str]:
    return sorted(row["id"] for row in selected)


def test_finished_needs_complete_settled_check_and_probe(folder: Path) -> None:
    loaded = rows.load_rows(folder)
    assert ids(loaded) == ["compacted", "done", "game", "s1", "s2"]
    # s1 is cut short, s2's probe failed; the game's probe never ran, and the arcade
    # card's filter asks only for the check (SPEC: "machines: probe success too").
    assert ids(rows.select(loaded, only_finished=True)) == ["compacted", "done", "game"]


def test_tips_drop_rows_a_later_chain_contains(folder: Path) -> None:
    assert ids(rows.select(rows.load_rows(folder), only_tips=True)) == [
        "compacted", "done", "game", "s2",
    ]  # fmt: skip


def test_a_parent_folder_with_trajectories_is_read_too(folder: Path) -> None:
    assert len(rows.load_rows(folder.parent)) == 5


def test_critique_rounds_pair_each_view_with_its_images_and_reply(folder: Path) -> None:
    row = next(r for r in rows.load_rows(folder) if r["id"] == "done")
    rounds = rows.critique_rounds(row)
    assert [r["path"] for r in rounds] == [
        "shots/brine-pump-0-desktop.png",
        "shots/brine-pump-1-desktop.png",
    ]
    assert rounds[0]["images"] == row["images"][:1]
    assert rounds[0]["reply"] == "looks balanced (red)"


def test_a_critique_round_keeps_what_the_model_did_after_looking() -> None:
    # The turn after a view is often a tool call (the fix itself), with no text at all.
    view = {"id": "c1", "function": {"name": "view", "arguments": '{"path": "m-phone.png"}'}}
    fix = {"id": "c2", "function": {"name": "write", "arguments": '{"path": "m/machine.css"}'}}
    row = {
        "id": "s1",
        "messages": [
            {"role": "assistant", "type": "bot", "content": "", "tool_calls": [view]},
            {"role": "tool", "type": "activity", "tool_call_id": "c1", "content": "attached"},
            {"role": "user", "type": "attachment",
             "content": [{"type": "image", "image": "images/a.png"}]},
            {"role": "assistant", "type": "bot", "content": "", "tool_calls": [fix]},
        ],
    }  # fmt: skip
    [round_] = rows.critique_rounds(row)
    assert round_["images"] == ["images/a.png"] and round_["reply"] == ""
    assert round_["calls"] == [{"name": "write", "arguments": '{"path": "m/machine.css"}'}]


def test_critique_rounds_are_found_in_snapshots_once(folder: Path) -> None:
    row = next(r for r in rows.load_rows(folder) if r["id"] == "compacted")
    assert len(row["snapshots"]) == 1
    assert [r["call"] for r in rows.critique_rounds(row)] == ["compacted-0", "compacted-1"]


def test_views_of_other_files_are_not_critique(tmp_path: Path) -> None:
    call = {"id": "c", "function": {"name": "view", "arguments": '{"path": "notes.png"}'}}
    row = {
        "id": "x",
        "messages": [
            {"role": "assistant", "type": "bot", "content": "", "tool_calls": [call]},
            {"role": "assistant", "type": "bot", "content": "hm"},
        ],
    }
    assert rows.critique_rounds(row) == []


runner = CliRunner()


def test_the_rows_command_prints_jsonl_and_a_table(folder: Path) -> None:
    result = runner.invoke(app, ["rows", str(folder), "--finished", "--json"])
    assert result.exit_code == 0, result.output
    printed = [json.loads(line) for line in result.output.splitlines()]
    assert sorted(p["id"] for p in printed) == ["compacted", "done", "game"]
    assert all(p["finished"] for p in printed)
    result = runner.invoke(app, ["rows", str(folder), "--tips", "--critique"])
    assert (
        result.exit_code == 0 and "10 round(s)" in result.output
    )  # two views a session, s2 holds s1


@pytest.mark.parametrize(
    ("content", "problem"),
    [("{not json", "line 1 is not JSON"), ('{"no": "id"}', "line 1 is not a row")],
)
def test_a_broken_row_file_is_one_line(tmp_path: Path, content: str, problem: str) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x/x.jsonl").write_text(content)
    result = runner.invoke(app, ["rows", str(tmp_path)])
    assert result.exit_code != 0 and problem in result.output and "x.jsonl" in result.output
    assert "Traceback" not in result.output
