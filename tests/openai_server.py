"""A small OpenAI-compatible chat server on 127.0.0.1 that answers from a script.

It stands in for the LLM endpoint, which cannot exist here: everything else
(the openai package, HTTP, streaming, the loop, the tools) is real. Tests queue
items; each POST to `/v1/chat/completions` takes the next one:

    server.script(reply(tool_calls=[tool("list", {"path": "."})]),
                  fault(429, headers={"Retry-After": "2"}),
                  reply("done", cut_after=2))

Every request body (and its headers) is recorded in `server.bodies` /
`server.headers`. A reply is streamed when the request asks for it. When the
script runs out the server answers 400 "script ran out". It serves only
127.0.0.1 and stops with the test (daemon thread; `stop()` in the fixture).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Item = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]


def tool(name: str, arguments: dict[str, Any] | str, id: str | None = "auto") -> dict[str, Any]:
    """One tool call. `arguments` as a str is sent verbatim (it may be broken JSON);
    `id=None` sends no id at all."""
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    return {"id": id, "name": name, "arguments": text}


def reply(
    content: str = "",
    *,
    tool_calls: list[dict[str, Any]] | tuple[dict[str, Any], ...] = (),
    reasoning: str | None = None,
    reasoning_field: str = "reasoning",
    finish: str | None = None,
    usage: tuple[int, int] = (100, 20),
    cut_after: int | None = None,
    delay: float = 0.0,
) -> dict[str, Any]:
    """An assistant reply. `cut_after=N` streams N chunks then drops the connection;
    `delay` waits before answering."""
    return {
        "kind": "reply",
        "content": content,
        "tool_calls": list(tool_calls),
        "reasoning": reasoning,
        "reasoning_field": reasoning_field,
        "finish": finish or ("tool_calls" if tool_calls else "stop"),
        "usage": usage,
        "cut_after": cut_after,
        "delay": delay,
    }


def fault(
    status: int,
    message: str = "injected fault",
    *,
    headers: dict[str, str] | None = None,
    code: str | None = None,
) -> dict[str, Any]:
    """An error response with an OpenAI-shaped error body."""
    return {
        "kind": "fault",
        "status": status,
        "message": message,
        "headers": headers or {},
        "code": code,
    }


class OpenAIServer:
    def __init__(self) -> None:
        self.items: list[Item] = []
        self.bodies: list[dict[str, Any]] = []
        self.headers: list[dict[str, str]] = []
        self._lock = threading.Lock()
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def url(self) -> str:
        """The base URL to give the client (ends in /v1)."""
        host, port = self._server.server_address[:2]
        return f"http://{host}:{port}/v1"

    def script(self, *items: Item) -> None:
        with self._lock:
            self.items.extend(items)

    def next_item(self, body: dict[str, Any], headers: dict[str, str]) -> Item | None:
        with self._lock:
            self.bodies.append(body)
            self.headers.append(headers)
            item = self.items.pop(0) if self.items else None
            number = len(self.bodies)
        item = item(body) if callable(item) else item
        if item and item["kind"] == "reply":  # unique ids, like a real endpoint's
            calls = [
                {**call, "id": f"call_{number}_{i}" if call["id"] == "auto" else call["id"]}
                for i, call in enumerate(item["tool_calls"])
            ]
            item = {**item, "tool_calls": calls}
        return item

    def start(self) -> OpenAIServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _handler(server: OpenAIServer) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet test output
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = json.loads(self.rfile.read(length) or b"{}")
            item = server.next_item(body, {k.lower(): v for k, v in self.headers.items()})
            if not self.path.rstrip("/").endswith("/chat/completions"):
                return self._error(404, f"no route {self.path}", {})
            if item is None:
                return self._error(400, "openai_server: the script ran out", {})
            if item["kind"] == "fault":
                return self._error(item["status"], item["message"], item["headers"], item["code"])
            time.sleep(item["delay"])
            if body.get("stream"):
                return self._stream(body, item)
            self._json(200, _completion(body, item))

        def _error(
            self, status: int, message: str, headers: dict[str, str], code: str | None = None
        ) -> None:
            error = {"message": message, "type": "invalid_request_error", "code": code}
            self._json(status, {"error": error}, headers)

        def _json(self, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            for name, value in (headers or {}).items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(data)

        def _stream(self, body: dict[str, Any], item: dict[str, Any]) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            events = [json.dumps(chunk) for chunk in _chunks(body, item)] + ["[DONE]"]
            for number, event in enumerate(events):
                if item["cut_after"] is not None and number >= item["cut_after"]:
                    self.wfile.flush()
                    self.close_connection = True
                    return  # no terminating chunk: the client sees a cut stream
                data = f"data: {event}\n\n".encode()
                self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
                self.wfile.flush()
            self.wfile.write(b"0\r\n\r\n")

    return Handler


def _usage(item: dict[str, Any]) -> dict[str, int]:
    prompt, completion = item["usage"]
    return {
        "prompt_tokens": prompt,
        "completion_tokens": completion,
        "total_tokens": prompt + completion,
    }


def _completion(body: dict[str, Any], item: dict[str, Any]) -> dict[str, Any]:
    message: dict[str, Any] = {"role": "assistant", "content": item["content"] or None}
    if item["reasoning"]:
        message[item["reasoning_field"]] = item["reasoning"]
    if item["tool_calls"]:
        message["tool_calls"] = [
            {
                **({"id": call["id"]} if call["id"] else {}),
                "type": "function",
                "function": {"name": call["name"], "arguments": call["arguments"]},
            }
            for call in item["tool_calls"]
        ]
    return {
        "id": "chatcmpl-test",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": body.get("model", ""),
        "choices": [{"index": 0, "message": message, "finish_reason": item["finish"]}],
        "usage": _usage(item),
    }


def _chunks(body: dict[str, Any], item: dict[str, Any]) -> list[dict[str, Any]]:
    def chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
        return {
            "id": "chatcmpl-test",
            "object": "chat.completion.chunk",
            "created": int(time.time()),
            "model": body.get("model", ""),
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        }

    chunks = [chunk({"role": "assistant", "content": ""})]
    if item["reasoning"]:
        chunks.append(chunk({item["reasoning_field"]: item["reasoning"]}))
    content = item["content"]
    half = len(content) // 2
    for piece in (content[:half], content[half:]):
        if piece:
            chunks.append(chunk({"content": piece}))
    for i, call in enumerate(item["tool_calls"]):
        head: dict[str, Any] = {
            "index": i,
            "type": "function",
            "function": {"name": call["name"], "arguments": ""},
        }
        if call["id"]:
            head["id"] = call["id"]
        chunks.append(chunk({"tool_calls": [head]}))
        half = len(call["arguments"]) // 2
        for piece in (call["arguments"][:half], call["arguments"][half:]):
            if piece:
                chunks.append(
                    chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
                )
    chunks.append(chunk({}, item["finish"]))
    if (body.get("stream_options") or {}).get("include_usage"):
        chunks.append({**chunk({}), "choices": [], "usage": _usage(item)})
    return chunks
