"""The loop against scripted models: every stop reason, the error policy, compaction, resume."""

import json
import threading
import time
from pathlib import Path

import pytest

from factory import loop, session
from factory.config import Settings
from factory.drivers.scripted import Scripted, call, calls
from factory.model import (
    ContextTooLong,
    Exhausted,
    Fatal,
    RateLimited,
    Reply,
    Request,
    ToolCall,
    Transient,
    Usage,
)
from factory.order import Order

ORDER = Order(
    objective="Write hello.txt.", acceptance=["it exists"], constraints=["be brief"], name="tiny"
)


def go(tmp_path: Path, script, settings: Settings | None = None, **kwargs):
    waits: list[float] = []
    model = script if isinstance(script, Scripted) else Scripted(script)
    result = loop.run(
        model, ORDER, tmp_path, settings or Settings(), sleep=waits.append, secrets=[], **kwargs
    )
    return result, session.load(result.log_path), waits, model


def test_a_settled_run_records_meta_messages_events_and_outcome(tmp_path: Path) -> None:
    result, log, _, _ = go(
        tmp_path,
        [
            calls(call("write", path="hello.txt", content="hi\n"), usage=(50, 5)),
            calls(call("success", summary="wrote it"), usage=(60, 6)),
        ],
    )
    assert (result.reason, result.iterations, result.calls, result.summary) == (
        "settled",
        2,
        2,
        "wrote it",
    )
    assert result.tokens == {"input": 110, "output": 11}
    meta = log.meta
    assert (
        meta["order"] == "tiny"
        and meta["task"] == ORDER.render()
        and meta["chain"] == [result.session_id]
    )
    assert "Write hello.txt." in meta["system"] and {
        t["function"]["name"] for t in meta["tools"]
    } >= {"read", "view"}
    assert meta["driver"] == "scripted" and meta["continues"] is None and meta["line"] is None
    assert [m["type"] for m in log.messages] == ["user", "bot", "activity", "bot", "activity"]
    assert log.events == {"iteration": 2, "usage": 2, "tool": 2}
    assert log.outcome["reason"] == "settled" and log.outcome["summary"] == "wrote it"
    assert (tmp_path / "hello.txt").read_text() == "hi\n"


REPEAT = calls(call("read", path="missing.txt"))


@pytest.mark.parametrize(
    ("script", "settings", "reason"),
    [
        ([calls(call("failure", reason="cannot"))], {}, "failed"),
        ([calls(call("list"))] * 5, {"max_iterations": 2}, "iterations"),
        ([calls(call("list"), call("list"), call("list"))] * 3, {"max_calls": 4}, "calls"),
        (["just talking"] * 5, {}, "unsettled"),
        ([""] * 5, {}, "empty"),
        ([Reply(content="a very long", finish_reason="length")] * 5, {}, "continuations"),
        ([REPEAT] * 10, {}, "cycle"),
        ([Fatal("401: bad key")], {}, "error"),
        ([], {}, "error"),
    ],
)
def test_every_stop_reason(tmp_path: Path, script: list, settings: dict, reason: str) -> None:
    result, log, _, _ = go(tmp_path, script, Settings(**settings))
    assert result.reason == reason and log.outcome["reason"] == reason


def test_nudges_are_bounded_and_counted(tmp_path: Path) -> None:
    result, log, _, _ = go(
        tmp_path, ["hm", "", "still talking", calls(call("success", summary="ok"))]
    )
    assert result.reason == "settled"
    assert log.events["nudge"] == 3
    assert [m["type"] for m in log.messages].count("instructions") == 3


def test_cycle_needs_the_same_result_three_times(tmp_path: Path) -> None:
    counter = {"n": 0}

    def changing(request):
        counter["n"] += 1
        if counter["n"] > 6:
            return calls(call("success", summary="done"))
        return calls(call("shell", command="date +%N"))  # same call, different results

    result, log, _, _ = go(tmp_path, Scripted(changing))
    assert result.reason == "settled" and "nudge" not in log.events


def test_time_and_abort_are_checked_before_each_call(tmp_path: Path) -> None:
    ticks = iter([0.0] + [10_000.0] * 50)
    result, _, _, _ = go(
        tmp_path, [calls(call("list"))] * 3, Settings(max_minutes=1), clock=lambda: next(ticks)
    )
    assert result.reason == "time" and result.iterations == 0
    stop = threading.Event()
    stop.set()
    assert go(tmp_path, [calls(call("list"))], abort=stop)[0].reason == "aborted"


def test_the_cost_limit_stops_the_run(tmp_path: Path) -> None:
    expensive = Reply(
        tool_calls=[ToolCall("", "list", "{}")], finish_reason="tool_calls", usage=Usage(cost=2.0)
    )
    result, log, _, _ = go(tmp_path, [expensive] * 3, Settings(max_cost=1.5))
    assert result.reason == "aborted" and result.iterations == 1 and "cost" in log.outcome["detail"]


def test_provider_errors_follow_the_policy(tmp_path: Path) -> None:
    script = [
        Transient("500"),
        Transient("502"),
        RateLimited("429", retry_after=7),
        RateLimited("429", retry_after=9999),
        calls(call("success", summary="ok")),
    ]
    result, log, waits, _ = go(tmp_path, script)
    assert result.reason == "settled"
    assert waits == [1.0, 2.0, 7, 300.0]
    assert log.events["retry"] == 4


def test_transient_errors_give_up_after_bounded_backoff(tmp_path: Path) -> None:
    result, _, waits, _ = go(tmp_path, [Transient("503")] * 20)
    assert result.reason == "error" and waits == [1, 2, 4, 8, 16, 30, 30, 30]


def test_a_script_that_runs_out_is_an_error_saying_so(tmp_path: Path) -> None:
    result, _, _, _ = go(tmp_path, [Exhausted("no more turns")])
    assert result.reason == "error" and "ran out" in result.summary


def test_tool_call_blocks_in_text_and_missing_ids_are_accepted(tmp_path: Path) -> None:
    block = Reply(
        content='Let me look.\n<tool_call>{"name": "list", "arguments": {"path": "."}}</tool_call>',
        finish_reason="stop",
    )
    bad = Reply(content="<tool_call>{oops</tool_call>", finish_reason="stop")
    two = Reply(
        tool_calls=[ToolCall("", "list", "{}"), ToolCall("", "list", "{}")],
        finish_reason="tool_calls",
    )
    result, log, _, _ = go(tmp_path, [block, bad, two, calls(call("success", summary="ok"))])
    assert result.reason == "settled"
    bots = [m for m in log.messages if m["type"] == "bot"]
    assert (
        bots[0]["content"] == "Let me look."
        and bots[0]["tool_calls"][0]["function"]["name"] == "list"
    )
    ids = [c["id"] for m in bots for c in m["tool_calls"]]
    assert all(ids) and len(set(ids)) == len(ids)
    errors = [
        m["content"]
        for m in log.messages
        if m["type"] == "activity" and m["content"].startswith("error")
    ]
    assert errors == [
        'error: could not read a tool call in your reply; use {"name": ..., "arguments": {...}}'
    ]


def test_views_go_in_one_attachment_after_all_tool_results(tmp_path: Path) -> None:
    from PIL import Image

    for name in ("a.png", "b.png"):
        Image.new("RGB", (40, 30), "#123456").save(tmp_path / name)
    turn = calls(call("view", path="a.png"), call("list"), call("view", path="b.png"))
    result, log, _, model = go(tmp_path, [turn, calls(call("success", summary="ok"))])
    types = [m["type"] for m in log.messages]
    assert types == [
        "user",
        "bot",
        "activity",
        "activity",
        "activity",
        "attachment",
        "bot",
        "activity",
    ]
    attachment = log.messages[5]
    images = [p["image"] for p in attachment["content"] if p["type"] == "image"]
    assert len(images) == 2 and images[0] == images[1]  # same pixels, stored once
    assert model.requests[1].image(images[0]).startswith(b"\x89PNG")


def test_compaction_near_the_budget_keeps_the_newest_quarter(tmp_path: Path) -> None:
    big = "x" * 4000
    script = [calls(call("write", path=f"f{i}.txt", content=big)) for i in range(12)]
    script += ["summary of the work so far", calls(call("success", summary="ok"))]
    settings = Settings(context_tokens=6000, max_output_tokens=1000)
    result, log, _, model = go(tmp_path, script, settings)
    assert result.reason == "settled" and log.events["compaction"] >= 1
    assert log.snapshots and log.messages[0]["type"] == "checkpoint"
    assert "summary of the work so far" in log.messages[0]["content"]
    assert model.requests[-1].system == model.requests[0].system  # the order is never compacted
    first = next(r for r in log.records if r["kind"] == "compaction")
    kept = log.snapshots[0][-first["keep"] :]
    assert kept[0]["role"] != "tool"  # a call is never split from its results


def test_context_too_long_compacts_with_a_digest_and_retries(tmp_path: Path) -> None:
    script = [calls(call("write", path=f"f{i}.txt", content="data")) for i in range(6)]
    script += [
        ContextTooLong("400: maximum context length"),
        Transient("summary fails"),
        calls(call("success", summary="ok")),
    ]
    result, log, _, _ = go(tmp_path, script)
    assert result.reason == "settled"
    checkpoint = log.messages[0]
    assert (
        checkpoint["type"] == "checkpoint"
        and "digest" in checkpoint["content"]
        and "f0.txt" in checkpoint["content"]
    )


def test_a_resume_is_a_new_session_naming_the_one_it_continues(tmp_path: Path) -> None:
    first, _, _, _ = go(
        tmp_path,
        [calls(call("write", path="a.txt", content="1"), call("list"))],
        Settings(max_iterations=1),
    )
    # Cut the first session's log after the bot turn, as a killed shift would leave it.
    records = session.read_records(first.log_path)
    cut = next(i for i, r in enumerate(records) if r.get("message", {}).get("type") == "bot")
    first.log_path.write_text("".join(json.dumps(r) + "\n" for r in records[: cut + 2]))
    second, log, _, model = go(
        tmp_path, [calls(call("success", summary="ok"))], continues=first.session_id
    )
    assert second.reason == "settled"
    assert log.meta["continues"] == first.session_id and log.meta["chain"] == [
        first.session_id,
        second.session_id,
    ]
    inherited = next(r for r in log.records if r["kind"] == "inherit")["messages"]
    assert [m["type"] for m in inherited] == ["user", "bot", "activity", "activity"]
    assert inherited[-1]["content"].startswith("interrupted")
    sent = model.requests[0].messages
    assert sent[-1]["type"] == "instructions" and "cut short" in sent[-1]["content"]


def test_replayable_answers_unanswered_calls(tmp_path: Path) -> None:
    bot = {"role": "assistant", "type": "bot", "content": "", "tool_calls": [
        {"id": "a", "type": "function", "function": {"name": "list", "arguments": "{}"}},
        {"id": "b", "type": "function", "function": {"name": "read", "arguments": "{}"}},
    ]}  # fmt: skip
    answered = {
        "role": "tool",
        "type": "activity",
        "tool_call_id": "a",
        "name": "list",
        "content": "x",
    }
    fixed = loop.replayable([bot, answered])
    assert [m.get("tool_call_id") for m in fixed[1:]] == ["a", "b"]


def _hanging(request: Request) -> Reply:
    time.sleep(30)  # a provider that never answers
    raise AssertionError("never reached")


def test_a_hung_model_call_is_abandoned_on_abort(tmp_path: Path) -> None:
    abort = threading.Event()
    threading.Timer(0.3, abort.set).start()
    began = time.monotonic()
    result = loop.run(Scripted([_hanging]), ORDER, tmp_path, Settings(), secrets=[], abort=abort)
    assert result.reason == "aborted" and time.monotonic() - began < 5
    assert session.load(result.log_path).outcome["reason"] == "aborted"


def test_a_hung_model_call_is_abandoned_at_the_time_limit(tmp_path: Path) -> None:
    began = time.monotonic()
    settings = Settings(max_minutes=0.01)  # 0.6 s
    result = loop.run(Scripted([_hanging]), ORDER, tmp_path, settings, secrets=[])
    assert result.reason == "time" and time.monotonic() - began < 5


def test_a_hung_summary_is_abandoned_on_abort(tmp_path: Path) -> None:
    abort = threading.Event()
    threading.Timer(0.5, abort.set).start()
    script = [calls(call("list"))] * 3 + [ContextTooLong("400: maximum context length"), _hanging]
    began = time.monotonic()
    result = loop.run(Scripted(script), ORDER, tmp_path, Settings(), secrets=[], abort=abort)
    assert result.reason == "aborted" and time.monotonic() - began < 5


def test_the_limits_are_checked_again_after_compacting(tmp_path: Path) -> None:
    costly = Reply(content="the summary", finish_reason="stop", usage=Usage(10, 10, cost=5.0))
    script = [calls(call("list"))] * 3 + [ContextTooLong("400: maximum context length"), costly]
    script.append(calls(call("success", summary="one turn too many")))
    result, log, _, model = go(tmp_path, script, Settings(max_cost=1.0))
    assert result.reason == "aborted" and "cost limit" in result.summary
    assert log.events["compaction"] == 1 and len(model.requests) == 5


def test_a_relative_workspace_keeps_the_scratch_folder_the_prompt_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    relative = Path("some/relative/ws")
    relative.mkdir(parents=True)
    script = [
        calls(call("write", path=".factory/scratch/s1/brief.md", content="the brief")),
        calls(call("success", summary="ok")),
    ]
    result, log, _, model = go(relative, script, session_id="s1")
    absolute = (tmp_path / relative).resolve()
    assert result.reason == "settled"
    assert "scratch folder: .factory/scratch/s1" in model.requests[0].system
    assert (absolute / ".factory/scratch/s1/brief.md").read_text() == "the brief"
    assert not (absolute / "some").exists()
    assert log.meta["workspace"] == str(absolute) and result.log_path.is_absolute()
