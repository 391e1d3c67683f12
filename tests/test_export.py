"""The row: recorded sessions (written with the real `SessionLog`) export exactly as
the cards define them; `datasets` loads a folder of mixed rows through the card."""

from __future__ import annotations

import hashlib
import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from typer.testing import CliRunner

from factory import card, export, messages, session
from factory.cli import app
from factory.model import Reply, ToolCall
from factory.secretscan import SecretFound

MACHINE = {
    "slug": "brine-pump",
    "name": "Brine Pump",
    "kind": "pump",
    "domain": "marine",
    "era": "1970s",
    "design": "a green enamel cabinet with round gauges",
    "interaction": "levers",
    "palette": ["#224433", "#ddaa22", "#eeeeee"],
    "controls": ["pump", "valve", "speed", "vent"],
    "faults": ["clog", "leak"],
    "tagline": "salt in, salt out",
    "created": "2026-01-02",
}
SIDE = {
    "machine": MACHINE,
    "files": {"index.html": "<!doctype html>", "machine.css": "body{}"},
    "outcome": "settled",
    "catalogue_check": "success",
    "probe": "success",
    "committed": True,
    "commit": "0123abcd",
    "run": "shift-1",
}
TOOLS = [{"type": "function", "function": {"name": "view", "parameters": {"type": "object"}}}]


def png(color: str) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (16, 10), color).save(buffer, "PNG")
    return buffer.getvalue()


def record(
    workspace: Path,
    sid: str,
    *,
    line: str = "machines",
    finished: bool = True,
    compact: bool = False,
    continues: str | None = None,
    chain: list[str] | None = None,
    side: dict[str, Any] | None = SIDE,
    colors: tuple[str, ...] = ("red", "blue"),
    text: str = "looks balanced",
) -> session.SessionLog:
    """A scripted run as the harness logs it: a view round per colour, events,
    optionally a compaction, the outcome and the shift's line record."""
    log = session.SessionLog.create(workspace, sid)
    order = "new-machine" if line == "machines" else "new-game"
    log.append(
        "meta", id=sid, order=order, task=f"Build one new product ({sid})", model="scripted-1",
        provider="scripted", driver="scripted", workspace=str(workspace), system="You build.",
        tools=TOOLS, continues=continues, chain=chain or [sid], started=session.now(),
        line=line, seed=sid,
    )  # fmt: skip
    inherited: list[dict[str, Any]] = []
    if continues:
        inherited = session.load(log.path.with_name(f"{continues}.jsonl")).messages
        inherited = [*inherited, messages.instructions("Resume where you stopped.")]
        log.append("inherit", messages=inherited)
    else:
        log.message(messages.user("Begin working on your task."))
    for n, color in enumerate(colors):
        call = ToolCall(
            f"{sid}-{n}", "view", json.dumps({"path": f"shots/brine-pump-{n}-desktop.png"})
        )
        log.message(messages.bot(Reply(reasoning="check it", tool_calls=[call])))
        log.event("iteration")
        log.message(messages.activity(call.id, "view", "attached"))
        log.event("tool", name="view", seconds=0.01, ok=True)
        log.message(messages.attachment([(f"screenshot {color}", log.store_image(png(color)))]))
        log.message(messages.bot(Reply(content=f"{text} ({color})")))
        log.event("iteration")
    log.event("nudge", why="talked without acting")
    log.event("usage", input=100, output=20, cost=0.0)
    if compact:
        log.append("compaction", checkpoint=messages.checkpoint("so far: two views"), keep=2)
        log.event("compaction")
        log.message(messages.bot(Reply(content="after the checkpoint")))
    if finished:
        log.append(
            "outcome", reason="settled", iterations=2 * len(colors), calls=len(colors),
            tokens={"input": 100, "output": 20}, cost=0.0, summary="built it", ended=session.now(),
        )  # fmt: skip
        if side is not None:
            log.append("line", side=side)
    log.close()
    return log


def load_row(path: Path) -> dict[str, Any]:
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1
    return json.loads(lines[0])


def test_a_recorded_session_exports_a_row_the_cards_accept(tmp_path: Path) -> None:
    record(tmp_path, "s1", compact=True)
    path = export.export_row(tmp_path, "s1", tmp_path / "out")
    assert path == tmp_path / "out" / "s1" / "s1.jsonl"
    row = load_row(path)
    export.Row.model_validate(row)
    assert list(row) == [
        "id", "chain", "task", "model", "provider", "driver", "started", "ended", "outcome",
        "complete", "messages", "snapshots", "images", "events", "machinery", "tools",
    ]  # fmt: skip
    assert row["id"] == "s1" and row["chain"] == ["s1"] and row["complete"] is True
    assert row["outcome"]["reason"] == "success" and row["outcome"]["tokens"]["output"] == 20
    assert row["messages"][0] == {
        "role": "system",
        "type": "checkpoint",
        "content": "so far: two views",
    }
    assert len(row["snapshots"]) == 1 and row["snapshots"][0][0]["content"].startswith("Begin")
    assert row["events"] == {
        "iterations": 4,
        "nudges": 1,
        "retries": 0,
        "calls": 2,
        "compactions": 1,
    }
    assert row["machinery"]["machine"]["slug"] == "brine-pump"
    assert row["machinery"]["probe"] == "success" and row["tools"] == TOOLS
    assert "workspace" not in json.dumps(row)  # no absolute path of this machine in a row
    call = row["snapshots"][0][1]["tool_calls"][0]
    assert call["function"]["arguments"] == '{"path": "shots/brine-pump-0-desktop.png"}'


def test_images_are_copied_named_by_the_sha256_of_their_bytes(tmp_path: Path) -> None:
    record(tmp_path, "s1", colors=("red", "blue", "red"))
    path = export.export_row(tmp_path, "last", tmp_path / "out")
    row = load_row(path)
    assert len(row["images"]) == 2  # red shown twice, listed once, in order first shown
    for image in row["images"]:
        data = (path.parent / image).read_bytes()
        assert image == f"images/{hashlib.sha256(data).hexdigest()}.png"
    assert row["images"][0] == f"images/{hashlib.sha256(png('red')).hexdigest()}.png"
    assert sorted(p.name for p in (path.parent / "images").iterdir()) == sorted(
        i.split("/")[1] for i in row["images"]
    )


def test_exporting_twice_gives_byte_identical_output(tmp_path: Path) -> None:
    record(tmp_path, "s1", compact=True)
    first = export.export_row(tmp_path, "s1", tmp_path / "a").read_bytes()
    second = export.export_row(tmp_path, "s1", tmp_path / "b").read_bytes()
    again = export.export_row(tmp_path, "s1", tmp_path / "a").read_bytes()
    assert first == second == again
    assert (tmp_path / "a" / "README.md").read_bytes() == (
        tmp_path / "b" / "README.md"
    ).read_bytes()
    assert not list((tmp_path / "a").rglob("*.tmp"))


def test_a_resumed_chain_exports_as_one_row_under_the_newest_id(tmp_path: Path) -> None:
    record(tmp_path, "s1", finished=False, compact=True, colors=("red",))
    record(tmp_path, "s2", continues="s1", chain=["s1", "s2"], colors=("blue",))
    row = load_row(export.export_row(tmp_path, "s2", tmp_path / "out"))
    first = session.load(tmp_path / ".factory/sessions/s1.jsonl")
    assert row["id"] == "s2" and row["chain"] == ["s1", "s2"]
    assert row["started"] == first.started
    # s1's compaction is a snapshot; s1's final state lives on verbatim inside s2.
    assert row["snapshots"] == first.snapshots
    assert row["messages"][: len(first.messages)] == first.messages
    assert row["events"]["iterations"] == 4 and row["events"]["compactions"] == 1
    red, blue = (f"images/{hashlib.sha256(png(c)).hexdigest()}.png" for c in ("red", "blue"))
    assert row["images"] == [red, blue]
    assert (tmp_path / "out" / "s2" / red).is_file()  # found in s1's blob folder


def test_a_resume_that_starts_over_keeps_the_old_state_as_a_snapshot(tmp_path: Path) -> None:
    record(tmp_path, "s1", finished=False, colors=("red",))
    log = session.SessionLog.create(tmp_path, "s2")
    log.append("meta", id="s2", continues="s1", line="machines", started=session.now())
    log.append("inherit", messages=[messages.user("start clean")])
    log.close()
    row = export.build_row(session.load(log.path))
    assert row["chain"] == ["s1", "s2"]  # from `continues` alone
    assert row["snapshots"] == [session.load(tmp_path / ".factory/sessions/s1.jsonl").messages]


@pytest.mark.parametrize(
    ("reason", "expected"), [("settled", "settled"), ("failed", "failed"), ("time", "error")]
)
def test_without_a_line_record_the_side_holds_what_the_log_knows(
    tmp_path: Path, reason: str, expected: str
) -> None:
    log = record(tmp_path, "s1", finished=False, line="games")
    with open(log.path, "a") as f:
        f.write(
            json.dumps({"kind": "outcome", "t": "2026-01-01T00:00:00Z", "reason": reason}) + "\n"
        )
    row = export.build_row(session.load(log.path))
    assert "machinery" not in row
    assert row["arcade"] == {
        "game": {}, "files": {}, "outcome": expected, "catalogue_check": "", "probe": "",
        "committed": False, "commit": "", "run": "",
    }  # fmt: skip


def test_a_cut_short_run_has_no_outcome_key(tmp_path: Path) -> None:
    record(tmp_path, "s1", finished=False)
    row = load_row(export.export_row(tmp_path, "s1", tmp_path / "out"))
    assert "outcome" not in row and row["complete"] is False
    assert row["machinery"]["outcome"] == "error"


def test_the_last_line_record_wins_and_keeps_the_judge(tmp_path: Path) -> None:
    log = record(tmp_path, "s1")
    with open(log.path, "a") as f:
        later = {
            **SIDE,
            "probe": False,
            "judge": {"verdict": "reject", "reasons": ["no fault shown"]},
        }
        f.write(json.dumps({"kind": "line", "t": "x", "side": later}) + "\n")
    row = export.build_row(session.load(log.path))
    assert row["machinery"]["probe"] == "failure"
    assert row["machinery"]["judge"]["verdict"] == "reject"
    assert export.rejections(row) == ["probe failed", "judge rejected: no fault shown"]


def test_rejects_go_beside_the_rows_with_their_reasons(tmp_path: Path) -> None:
    record(tmp_path, "good")
    record(tmp_path, "bad", side={**SIDE, "catalogue_check": "failure"})
    out = tmp_path / "trajectories"
    paths = export.export_all(tmp_path, out, rejects=True)
    assert paths == [tmp_path / "rejects/bad/bad.jsonl", out / "good/good.jsonl"]
    assert load_row(paths[0])["reasons"] == ["catalogue_check failed"]
    assert "reasons" not in load_row(paths[1])


def test_export_all_writes_only_chain_tips(tmp_path: Path) -> None:
    record(tmp_path, "s1", finished=False)
    record(tmp_path, "s2", continues="s1", chain=["s1", "s2"])
    record(tmp_path, "s3", line="games", side=None)
    paths = export.export_all(tmp_path, tmp_path / "out")
    assert [p.stem for p in paths] == ["s2", "s3"]


def test_a_planted_secret_refuses_the_export_and_writes_nothing(tmp_path: Path) -> None:
    key = "sk-or-v1-" + "a1b2c3d4" * 6
    record(tmp_path, "s1", text=f"my key is {key}")
    with pytest.raises(SecretFound) as caught:
        export.export_row(tmp_path, "s1", tmp_path / "out")
    assert "openrouter key at messages[4].content" in str(caught.value)
    assert key not in str(caught.value)
    assert not (tmp_path / "out").exists()


def test_sft_rows_follow_the_zenyx_shape(tmp_path: Path) -> None:
    record(tmp_path, "s1", colors=("red",))
    row = load_row(export.export_row(tmp_path, "s1", tmp_path / "out", fmt="sft"))
    assert list(row) == ["messages", "tools", "domain", "provider", "seed", "task_info"]
    roles = [m["role"] for m in row["messages"]]
    assert roles == ["system", "user", "assistant", "tool", "user", "assistant"]
    assert all(set(m) == {"role", "content"} for m in row["messages"])
    system = row["messages"][0]["content"]
    assert system.startswith("You build.") and json.dumps(TOOLS) in system
    call = row["messages"][2]["content"]
    assert call.startswith("<tool_call>") and call.endswith("</tool_call>")
    assert json.loads(call[len("<tool_call>") : -len("</tool_call>")]) == [
        {"name": "view", "arguments": {"path": "shots/brine-pump-0-desktop.png"}}
    ]
    assert row["domain"] == "factory_machines" and row["provider"] == "scripted:scripted-1"
    info = json.loads(row["task_info"])
    assert info["slug"] == "brine-pump" and info["task"] == "Build one new product (s1)"
    assert not (tmp_path / "out" / "s1" / "images").exists()


def test_sft_of_a_real_loop_run_carries_the_order_and_bare_tool_calls(tmp_path: Path) -> None:
    """The harness's first user turn only says "begin": the order must reach the SFT row
    through its system turn, and a tool-calling turn is only the block (the zenyx card)."""
    from factory import loop
    from factory.drivers.scripted import Scripted, call, calls
    from factory.order import Order

    model = Scripted(
        [
            calls(call("list", path="."), content="First I look around."),
            calls(call("success", summary="done")),
        ]
    )
    order = Order(objective="Build one tide-mill governor.", acceptance=["it works"])
    assert loop.run(model, order, tmp_path).reason == "settled"
    row = load_row(export.export_row(tmp_path, "last", tmp_path / "out", fmt="sft"))
    system, first = row["messages"][0]["content"], row["messages"][1]
    assert "Build one tide-mill governor." in system and '"name": "list"' in system
    assert first["role"] == "user"
    turns = [m["content"] for m in row["messages"] if m["role"] == "assistant"]
    assert turns[0] == '<tool_call>[{"name": "list", "arguments": {"path": "."}}]</tool_call>'


def test_sft_and_rows_never_share_a_file(tmp_path: Path) -> None:
    record(tmp_path, "s1")
    rows_path = export.export_row(tmp_path, "s1", tmp_path / "trajectories")
    kept = rows_path.read_bytes()
    with pytest.raises(export.ExportError, match=r"s1\.jsonl: holds a row row; write sft rows"):
        export.export_row(tmp_path, "s1", tmp_path / "trajectories", fmt="sft")
    assert rows_path.read_bytes() == kept
    # The command's default for sft is a folder of its own, beside its rejects.
    result = runner.invoke(app, ["export", "s1", "--format", "sft", "--workspace", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "sft" / "data" / "s1" / "s1.jsonl").is_file()
    assert rows_path.read_bytes() == kept


def test_datasets_loads_mixed_rows_through_the_card_and_not_without_it(tmp_path: Path) -> None:
    datasets = pytest.importorskip("datasets")
    record(tmp_path, "finished")
    record(tmp_path, "cut", finished=False)
    record(tmp_path, "compacted", compact=True)
    record(tmp_path, "game", line="games", side=None)
    out = tmp_path / "trajectories"
    export.export_all(tmp_path, out)
    loaded = datasets.load_dataset(str(out), split="train", cache_dir=str(tmp_path / "cache"))
    by_id = {r["id"]: r for r in loaded}
    assert set(by_id) == {"finished", "cut", "compacted", "game"}
    assert by_id["cut"]["outcome"] is None and by_id["finished"]["outcome"]["reason"] == "success"
    assert len(by_id["compacted"]["snapshots"]) == 1 and by_id["finished"]["snapshots"] == []
    assert by_id["game"]["arcade"]["outcome"] == "settled" and by_id["game"]["machinery"] is None
    assert by_id["finished"]["messages"][2]["type"] == "activity"

    # Without the card's features, inference across these shapes fails.
    with pytest.raises(datasets.exceptions.DatasetGenerationError):
        datasets.load_dataset(
            "json", data_files=str(out / "*/*.jsonl"), cache_dir=str(tmp_path / "cache2")
        )


def test_the_card_declares_every_row_field(tmp_path: Path) -> None:
    record(tmp_path, "s1")
    row = export.build_row(session.load(tmp_path / ".factory/sessions/s1.jsonl"))
    declared = [f["name"] for f in card.features()]
    assert set(row) <= set(declared)
    assert {"machinery", "arcade"} <= set(declared)
    text = card.card_text()
    assert "trajectories/*/*.jsonl" in text and 'machinery.probe == "success"' in text


runner = CliRunner()


def test_the_export_command_writes_and_reports(tmp_path: Path) -> None:
    record(tmp_path, "s1")
    result = runner.invoke(app, ["export", "last", "--workspace", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "trajectories/s1/s1.jsonl").is_file()


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["export", "nope"], "no session match 'nope'"),
        (["export", "last", "--format", "xml"], "unknown format 'xml'"),
        (["export"], "name a session"),
    ],
)
def test_bad_export_requests_get_one_line(tmp_path: Path, args: list[str], problem: str) -> None:
    record(tmp_path, "s1")
    result = runner.invoke(app, [*args, "--workspace", str(tmp_path)])
    assert result.exit_code != 0
    assert problem in result.output and "Traceback" not in result.output


def test_a_run_of_the_real_loop_with_a_scripted_model_exports_a_valid_row(tmp_path: Path) -> None:
    """The log the harness writes, not one written by hand, is what the export reads."""
    from factory import loop
    from factory.drivers.scripted import Scripted, call, calls
    from factory.order import Order

    shot = tmp_path / ".factory/shots/demo-desktop.png"
    shot.parent.mkdir(parents=True)
    shot.write_bytes(png("orange"))
    model = Scripted(
        [
            calls(call("view", path=".factory/shots/demo-desktop.png")),
            calls(call("success", summary="widened the gauges")),
        ]
    )
    order = Order(objective="Build one machine.", acceptance=["it works"], constraints=["small"])
    result = loop.run(model, order, tmp_path)
    assert result.reason == "settled"
    path = export.export_row(tmp_path, "last", tmp_path / "out")
    row = load_row(path)
    export.Row.model_validate(row)
    assert len(row["images"]) == 1
    data = (path.parent / row["images"][0]).read_bytes()
    assert row["images"] == [f"images/{hashlib.sha256(data).hexdigest()}.png"]
    assert row["outcome"]["reason"] == "success" and row["events"]["calls"] == 2
    assert [m["type"] for m in row["messages"]][-2:] == ["bot", "activity"]
