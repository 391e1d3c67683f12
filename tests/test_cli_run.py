"""`factory run` and `factory sessions` as a user runs them: a real process, a real HTTP endpoint."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from openai_server import OpenAIServer, reply, tool

from factory import loop, session
from factory.drivers.scripted import Scripted, call, calls
from factory.order import load_order

ORDER = "objective: Write hello.txt.\nacceptance: [hello.txt exists]\nconstraints: [none]\n"


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    (tmp_path / "orders").mkdir()
    (tmp_path / "orders" / "hello.yaml").write_text(ORDER)
    (tmp_path / "orders" / "bad.yaml").write_text(ORDER + "colour: red\n")
    return tmp_path


def factory(workspace: Path, *args: str, env: dict | None = None, **popen) -> subprocess.Popen:
    environ = {**os.environ, "TEST_KEY": "sk-cli-test-secret", **(env or {})}
    return subprocess.Popen(
        [sys.executable, "-m", "factory.cli", *args, "--workspace", str(workspace)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=environ,
        **popen,
    )


def flags(server: OpenAIServer) -> list[str]:
    return [
        "--provider",
        "openai",
        "--base-url",
        server.url,
        "--model",
        "m",
        "--api-key-env",
        "TEST_KEY",
    ]


def test_run_prints_a_json_summary_and_exits_0_when_settled(
    openai_server: OpenAIServer, workspace: Path
) -> None:
    openai_server.script(
        reply(tool_calls=[tool("write", {"path": "hello.txt", "content": "hi"})]),
        reply(tool_calls=[tool("success", {"summary": "said hi"})]),
    )
    process = factory(
        workspace, "run", "--order", "hello", *flags(openai_server), "--no-vision", "--json"
    )
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, (out, err)
    summary = json.loads(out)
    assert summary["reason"] == "settled" and summary["iterations"] == 2 and summary["calls"] == 2
    assert summary["tokens"] == {"input": 200, "output": 40}
    assert (workspace / "hello.txt").read_text() == "hi"
    assert "view" not in [t["function"]["name"] for t in openai_server.bodies[0]["tools"]]

    listing = factory(workspace, "sessions", "list")
    table, _ = listing.communicate(timeout=30)
    assert summary["session"][:10] in table and "settled" in table
    shown = factory(workspace, "sessions", "show", "last")
    text, _ = shown.communicate(timeout=30)
    assert "said hi" in text and "hello.txt" in text


def test_the_live_display_shows_tool_lines_and_quiet_only_the_end(
    openai_server: OpenAIServer, workspace: Path
) -> None:
    for quiet in (False, True):
        openai_server.script(
            reply(tool_calls=[tool("list", {})]),
            reply("no tool"),
            reply(tool_calls=[tool("failure", {"reason": "cannot"})]),
        )
        process = factory(
            workspace,
            "run",
            "--order",
            "hello",
            *flags(openai_server),
            *(["--quiet"] if quiet else []),
        )
        out, _ = process.communicate(timeout=60)
        assert process.returncode == 1
        assert ("ok list" in out) != quiet and ("nudge talk" in out) != quiet
        assert out.strip().splitlines()[-1] == "cannot" and "failed" in out


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--order", "nope"], "orders/nope.yaml: no such order"),
        (["--order", "hello", "--provider", "psychic"], "unknown provider 'psychic'"),
        (["--order", "orders/bad.yaml"], "orders/bad.yaml: unknown key 'colour'"),
        (["--order", "hello", "--base-url", "http://127.0.0.1:9/v1"], "provider needs a model"),
        (["--order", "hello", "--max-iterations", "-1"], "--max-iterations: Input should be"),
        (["--order", "hello", "--max-calls", "0"], "--max-calls: Input should be greater than 0"),
        (["--order", "hello", "--max-minutes", "0"], "--max-minutes: Input should be greater"),
        (["--order", "hello", "--max-cost", "-1"], "--max-cost: Input should be greater than or"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(workspace: Path, args: list[str], problem: str) -> None:
    process = factory(workspace, "run", *args)
    _, err = process.communicate(timeout=30)
    assert process.returncode == 2 and problem in err and "Traceback" not in err


def test_a_run_killed_mid_way_leaves_a_readable_log(
    openai_server: OpenAIServer, workspace: Path
) -> None:
    openai_server.script(
        reply(tool_calls=[tool("write", {"path": "a.txt", "content": "1"})]),
        reply(tool_calls=[tool("shell", {"command": "sleep 60"})]),
    )
    process = factory(workspace, "run", "--order", "hello", *flags(openai_server), "--quiet")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and len(openai_server.bodies) < 2:
        time.sleep(0.1)
    time.sleep(0.5)  # inside the shell call now
    process.send_signal(signal.SIGKILL)
    process.communicate(timeout=30)
    [path] = session.list_sessions(workspace)
    recorded = session.load(path)
    assert recorded.outcome is None and recorded.meta["order"] == "hello"
    assert [m["type"] for m in recorded.messages] == ["user", "bot", "activity", "bot"]
    assert recorded.events["tool"] == 1


def test_sigterm_aborts_with_an_outcome(openai_server: OpenAIServer, workspace: Path) -> None:
    openai_server.script(reply(tool_calls=[tool("shell", {"command": "sleep 60"})]))
    process = factory(workspace, "run", "--order", "hello", *flags(openai_server), "--json")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and not openai_server.bodies:
        time.sleep(0.1)
    time.sleep(0.5)
    process.send_signal(signal.SIGTERM)
    out, _ = process.communicate(timeout=30)
    assert process.returncode == 1 and json.loads(out)["reason"] == "aborted"


@pytest.mark.parametrize("where", ["flags", "environment", "factory.yaml"])
def test_auto_with_an_endpoint_and_no_key_asks_that_endpoint(
    openai_server: OpenAIServer, workspace: Path, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    monkeypatch.delenv("OPENROUTER_API_KEY", raising=False)  # the default key variable
    openai_server.script(
        reply(tool_calls=[tool("write", {"path": "hello.txt", "content": "hi"})]),
        reply(tool_calls=[tool("success", {"summary": "done locally"})]),
    )
    args, env = [], {}
    if where == "flags":
        args = ["--base-url", openai_server.url, "--model", "m"]
    elif where == "environment":
        env = {"FACTORY_BASE_URL": openai_server.url, "FACTORY_MODEL": "m"}
    else:
        (workspace / "factory.yaml").write_text(f"base_url: {openai_server.url}\nmodel: m\n")
    process = factory(workspace, "run", "--order", "hello", *args, "--json", env=env)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 0, (out, err)
    assert json.loads(out)["reason"] == "settled" and len(openai_server.bodies) == 2
    assert {h["authorization"] for h in openai_server.headers} == {"Bearer no-key"}
    assert session.load(session.find(workspace, "last")).meta["driver"] == "openai"


def test_sessions_list_never_cuts_the_id_in_a_narrow_pipe(workspace: Path) -> None:
    model = Scripted([calls(call("failure", reason="x" * 200))], name="vendor/" + "m" * 60)
    result = loop.run(model, load_order(workspace, "hello"), workspace, secrets=[])
    process = factory(workspace, "sessions", "list", env={"COLUMNS": "50"})
    out, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert result.session_id in out and max(len(line) for line in out.splitlines()) <= 50
