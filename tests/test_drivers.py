"""The drivers over real HTTP against tests/openai_server.py (the LLM endpoint cannot exist
here; the openai package, HTTP, streaming, the loop, the tools and Chromium are all real)."""

import base64
import json
import time
from pathlib import Path

import pytest
from openai_server import OpenAIServer, fault, reply, tool

from factory import loop, session
from factory.config import Settings
from factory.drivers import DriverError, make_model, resolve_provider
from factory.drivers.openai import OpenAIModel
from factory.drivers.replay import Replay
from factory.order import Order

ORDER = Order(objective="Make a page and look at it.", name="look")
KEY = "sk-test-very-secret-0042"


def settings_for(server: OpenAIServer, **extra) -> Settings:
    return Settings(
        provider="openai",
        base_url=server.url,
        model="test-model",
        api_key_env="TEST_PROVIDER_KEY",
        **extra,
    )


def run(server: OpenAIServer, workspace: Path, stream: bool = True, **extra):
    model = OpenAIModel(settings_for(server, **extra), stream=stream)
    waits: list[float] = []
    result = loop.run(model, ORDER, workspace, settings_for(server, **extra), sleep=waits.append)
    return result, session.load(result.log_path), waits


def test_a_full_run_over_http_lists_reads_writes_shells_screenshots_views_and_settles(
    openai_server: OpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TEST_PROVIDER_KEY", KEY)
    page = "<html><body style='background:#c33'><h1>Panel</h1></body></html>"
    openai_server.script(
        reply(reasoning="first look around", tool_calls=[tool("list", {"path": "."})]),
        reply(tool_calls=[tool("write", {"path": "site/index.html", "content": page})]),
        reply(
            tool_calls=[
                tool("read", {"path": "site/index.html"}),
                tool("shell", {"command": "env"}),
            ]
        ),
        reply(
            tool_calls=[
                tool(
                    "screenshot",
                    {"target": "site/index.html", "width": 800, "height": 600, "out": "shot.png"},
                )
            ]
        ),
        reply(tool_calls=[tool("view", {"path": "shot.png"})]),
        reply("It is red, as intended.", tool_calls=[tool("success", {"summary": "page made"})]),
    )
    result, log, _ = run(openai_server, tmp_path)
    assert result.reason == "settled", result.summary
    assert result.tokens == {"input": 600, "output": 120}
    activities = {m["name"]: m["content"] for m in log.messages if m["type"] == "activity"}
    assert activities["read"].startswith("     1  <html>")
    assert KEY not in activities["shell"] and "TEST_PROVIDER_KEY" not in activities["shell"]
    assert activities["screenshot"].startswith("saved shot.png: a PNG image, 800x600 px")
    bots = [m for m in log.messages if m["type"] == "bot"]
    assert bots[0]["reasoning"] == "first look around"

    # The image reaches the endpoint as a data URL, in a user message after the tool results.
    wire = openai_server.bodies[5]["messages"]
    assert [m["role"] for m in wire[-3:]] == ["assistant", "tool", "user"]
    image_part = wire[-1]["content"][1]
    assert image_part["type"] == "image_url"
    url = image_part["image_url"]["url"]
    assert url.startswith("data:image/png;base64,")
    assert base64.b64decode(url.split(",", 1)[1]).startswith(b"\x89PNG")
    assert not any("type" in m for m in wire)  # zot's own field never goes on the wire
    assert openai_server.headers[0]["authorization"] == f"Bearer {KEY}"
    assert KEY not in log.path.read_text()


def test_429_waits_for_retry_after_and_500_retries(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.script(
        fault(429, "slow down", headers={"Retry-After": "7"}),
        fault(500, "boom"),
        reply(tool_calls=[tool("success", {"summary": "ok"})]),
    )
    result, log, waits = run(openai_server, tmp_path)
    assert result.reason == "settled" and waits == [7.0, 1.0] and log.events["retry"] == 2


def test_a_stream_cut_short_is_retried(openai_server: OpenAIServer, tmp_path: Path) -> None:
    openai_server.script(
        reply("this reply will be cut", tool_calls=[tool("list", {})], cut_after=3),
        reply(tool_calls=[tool("success", {"summary": "ok"})]),
    )
    result, _, waits = run(openai_server, tmp_path)
    assert result.reason == "settled" and waits == [1.0]


@pytest.mark.parametrize("stream", [True, False])
def test_bad_json_arguments_and_missing_ids_are_tolerated(
    openai_server: OpenAIServer, tmp_path: Path, stream: bool
) -> None:
    openai_server.script(
        reply(tool_calls=[tool("read", '{"path": "x.txt"', id=None), tool("list", {}, id=None)]),
        reply(tool_calls=[tool("success", {"summary": "ok"}, id=None)]),
    )
    result, log, _ = run(openai_server, tmp_path, stream=stream)
    assert result.reason == "settled"
    first = [m for m in log.messages if m["type"] == "activity"][:2]
    assert first[0]["content"].startswith("error: the arguments are not valid JSON")
    ids = [m["tool_call_id"] for m in log.messages if m["type"] == "activity"]
    assert all(ids) and len(set(ids)) == 3
    resent = openai_server.bodies[1]["messages"]
    assert [c["id"] for c in resent[-3]["tool_calls"]] == ids[:2]


def test_a_rejected_request_stops_with_the_providers_message(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.script(fault(401, "invalid api key"))
    result, log, _ = run(openai_server, tmp_path)
    assert result.reason == "error" and "invalid api key" in log.outcome["detail"]


def test_openrouter_gets_attribution_headers_and_prices_give_cost(
    openai_server: OpenAIServer,
) -> None:
    model = OpenAIModel(Settings(base_url="https://openrouter.ai/api/v1", model="m"))
    assert model.client.default_headers["X-Title"] == "factory"
    assert "HTTP-Referer" not in OpenAIModel(settings_for(openai_server)).client.default_headers
    priced = OpenAIModel(settings_for(openai_server, prices={"test-model": (1.0, 10.0)}))
    openai_server.script(reply("hi", usage=(1_000_000, 100_000)))
    from factory.model import Request

    answer = priced.query(Request(system="s", messages=[], tools=[], image=lambda r: b""))
    assert answer.usage.cost == pytest.approx(2.0)


def test_make_model_chooses_by_provider(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_KEY_VAR", "x" * 10)
    assert (
        make_model(
            Settings(provider="auto", api_key_env="SOME_KEY_VAR", model="m"), tmp_path, "s"
        ).driver
        == "openai"
    )
    with pytest.raises(DriverError, match="replay provider needs a recording"):
        make_model(Settings(provider="replay"), tmp_path, "s")
    with pytest.raises(DriverError, match="unknown provider"):
        make_model(Settings(provider="psychic"), tmp_path, "s")
    with pytest.raises(DriverError, match="the openai provider needs a model"):
        make_model(Settings(provider="auto", api_key_env="SOME_KEY_VAR"), tmp_path, "s")


@pytest.mark.parametrize(
    ("changes", "environ", "expected"),
    [
        ({}, {}, "builtin"),  # the shift's offline default
        ({}, {"SOME_KEY_VAR": "k"}, "openai"),
        # A model on the default endpoint (OpenRouter) cannot answer without a key.
        ({"model": "m"}, {}, "builtin"),
        ({"base_url": "http://127.0.0.1:8080/v1"}, {}, "openai"),
        ({"base_url": Settings().base_url}, {}, "builtin"),  # the default, written out
        ({"provider": "builtin", "model": "m"}, {"SOME_KEY_VAR": "k"}, "builtin"),
        ({"provider": "replay"}, {"SOME_KEY_VAR": "k"}, "replay"),
    ],
)
def test_auto_is_openai_when_a_key_or_an_endpoint_of_our_own_is_named(
    changes: dict, environ: dict, expected: str
) -> None:
    settings = Settings(api_key_env="SOME_KEY_VAR", **changes)
    assert resolve_provider(settings, environ) == expected


def test_a_named_endpoint_without_a_key_is_asked_over_http(
    openai_server: OpenAIServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SOME_KEY_VAR", raising=False)
    openai_server.script(reply(tool_calls=[tool("success", {"summary": "local"})]))
    settings = Settings(base_url=openai_server.url, model="m", api_key_env="SOME_KEY_VAR")
    model = make_model(settings, tmp_path, "s1")
    result = loop.run(model, ORDER, tmp_path, settings, secrets=[])
    assert result.reason == "settled" and model.driver == "openai"
    assert len(openai_server.bodies) == 1
    # The openai client will not send without a credential: a placeholder, never a real key.
    assert openai_server.headers[0]["authorization"] == "Bearer no-key"


def test_a_summary_that_outlasts_the_time_limit_stops_the_run_in_time(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.script(
        *[reply(tool_calls=[tool("list", {})]) for _ in range(3)],
        fault(400, "This model's maximum context length is 8192 tokens"),
        reply("a summary, too late", delay=15),
    )
    began = time.monotonic()
    result, log, _ = run(openai_server, tmp_path, max_minutes=0.05)  # 3 s
    assert result.reason == "time" and time.monotonic() - began < 10
    assert "summary" in openai_server.bodies[-1]["messages"][-1]["content"]
    assert log.outcome["reason"] == "time"


def test_no_key_staffs_the_builtin_designer_seeded_by_the_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("SOME_KEY_VAR", raising=False)
    model = make_model(Settings(provider="auto", api_key_env="SOME_KEY_VAR"), tmp_path, "s1")
    assert (model.driver, model.provider) == ("builtin", "builtin")
    assert model.seed == "s1"


def test_replay_reissues_a_session_and_a_row_and_fails_loudly_at_the_end(
    openai_server: OpenAIServer, tmp_path: Path
) -> None:
    openai_server.script(
        reply(tool_calls=[tool("write", {"path": "a.txt", "content": "one"})]),
        reply(tool_calls=[tool("success", {"summary": "ok"})]),
    )
    original, log, _ = run(openai_server, tmp_path / "first")
    assert original.reason == "settled"

    again = tmp_path / "again"
    replayed = loop.run(Replay.load(again, str(original.log_path)), ORDER, again, Settings())
    assert replayed.reason == "settled" and (again / "a.txt").read_text() == "one"

    row = tmp_path / "row.jsonl"
    row.write_text(
        json.dumps({"id": "r", "model": "m", "messages": log.messages[:3], "snapshots": []}) + "\n"
    )
    short = loop.run(
        Replay.load(tmp_path / "third", str(row)), ORDER, tmp_path / "third", Settings()
    )
    assert short.reason == "error" and "no more turns" in short.summary
