"""The OpenAI-compatible driver: OpenRouter, OpenAI, vLLM, llama.cpp server, Ollama.

It turns a `Request` into one chat-completions call (streamed, assembled
tolerantly, since local servers differ), and the provider's failures into the
closed set of `factory.model` errors. It never retries (the SDK's retries are
off: the loop owns the policy) and never holds the key anywhere but in the
client it builds from the environment variable the settings name.
"""

from __future__ import annotations

import base64
import email.utils
import os
import time
from typing import Any

import httpx2
import openai

from factory.config import Settings
from factory.model import (
    ContextTooLong,
    Fatal,
    ProviderError,
    RateLimited,
    Reply,
    Request,
    ToolCall,
    Transient,
    Usage,
)

ATTRIBUTION = {"HTTP-Referer": "https://github.com/openzot/factory", "X-Title": "factory"}
CONTEXT_WORDS = (
    "context length",
    "context_length",
    "context window",
    "maximum context",
    "too many tokens",
    "prompt is too long",
    "reduce the length",
    "exceeds the context",
)
RETRYABLE = (408, 409, 425)
# Local servers (llama.cpp, vLLM, Ollama) need no key, but the openai client will not
# build or send a request without one: this harmless word stands in for it.
PLACEHOLDER_KEY = "no-key"


class OpenAIModel:
    driver = "openai"

    def __init__(self, settings: Settings, stream: bool = True):
        self.name = settings.model
        self.vision = settings.vision
        self.stream = stream
        self.base_url = settings.base_url.rstrip("/")
        self.provider = httpx2.URL(self.base_url).host or self.base_url
        self.prices = settings.prices.get(settings.model)
        self.token_field = "max_tokens"
        key = os.environ.get(settings.api_key_env, "") or PLACEHOLDER_KEY
        self.client = openai.OpenAI(
            api_key=key,
            base_url=self.base_url,
            max_retries=0,
            timeout=httpx2.Timeout(settings.request_timeout, connect=30.0),
            default_headers=ATTRIBUTION if "openrouter" in self.base_url else None,
        )

    def query(self, request: Request) -> Reply:
        body = self.body(request)
        try:
            return self._call(body)
        except Fatal as error:
            # Newer OpenAI models refuse `max_tokens`; ask once with the newer name.
            if self.token_field == "max_tokens" and "max_completion_tokens" in str(error):
                self.token_field = "max_completion_tokens"
                return self._call(self.body(request))
            raise

    def body(self, request: Request) -> dict[str, Any]:
        body: dict[str, Any] = {
            "model": self.name,
            "messages": [{"role": "system", "content": request.system}]
            + [wire(message, request) for message in request.messages],
        }
        if request.tools:
            body["tools"] = request.tools
        if request.max_output_tokens:
            body[self.token_field] = request.max_output_tokens
        return body

    def _call(self, body: dict[str, Any]) -> Reply:
        try:
            if self.stream:
                chunks = self.client.chat.completions.create(
                    **body, stream=True, stream_options={"include_usage": True}
                )
                reply = assemble(chunks)
            else:
                reply = whole(self.client.chat.completions.create(**body))
        except openai.APIStatusError as error:
            raise classify(error) from None
        except (openai.APIConnectionError, httpx2.HTTPError) as error:
            raise Transient(f"connection to {self.base_url} failed: {error}") from None
        except openai.APIError as error:  # an error event inside the stream
            raise Transient(f"the provider reported: {error.message}") from None
        if self.prices:
            per_in, per_out = self.prices
            usage = reply.usage
            usage.cost = (usage.input_tokens * per_in + usage.output_tokens * per_out) / 1e6
        return reply


def wire(message: dict[str, Any], request: Request) -> dict[str, Any]:
    """A row-form message as the endpoint wants it: no `type`, images as data URLs."""
    role, kind = message.get("role"), message.get("type")
    if kind == "checkpoint" or role == "system":
        # Many chat templates reject a system message after the first: send it as user text.
        return {"role": "user", "content": str(message.get("content", ""))}
    if role == "tool":
        return {
            "role": "tool",
            "tool_call_id": message["tool_call_id"],
            "content": str(message.get("content", "")),
        }
    if role == "assistant":
        out: dict[str, Any] = {"role": "assistant", "content": message.get("content") or ""}
        if message.get("tool_calls"):
            out["tool_calls"] = [
                {
                    "id": call["id"],
                    "type": "function",
                    "function": {
                        "name": call["function"]["name"],
                        "arguments": call["function"]["arguments"],
                    },
                }
                for call in message["tool_calls"]
            ]
            out["content"] = message.get("content") or None
        return out
    content = message.get("content")
    if isinstance(content, list):
        parts: list[dict[str, Any]] = []
        for part in content:
            if part.get("type") == "image":
                data = base64.b64encode(request.image(part["image"])).decode()
                url = f"data:image/png;base64,{data}"
                parts.append({"type": "image_url", "image_url": {"url": url}})
            else:
                parts.append({"type": "text", "text": str(part.get("text", ""))})
        return {"role": "user", "content": parts}
    return {"role": "user", "content": str(content or "")}


def _extra(obj: Any, *names: str) -> str | None:
    """A field the SDK does not model (reasoning), wherever the server put it."""
    extra = getattr(obj, "model_extra", None) or {}
    for name in names:
        value = getattr(obj, name, None) if name not in extra else extra[name]
        if isinstance(value, str) and value:
            return value
    return None


def assemble(chunks: Any) -> Reply:
    """A streamed reply put together; a stream that ends without a finish is a cut stream."""
    content: list[str] = []
    reasoning: list[str] = []
    calls: dict[int, dict[str, str]] = {}
    finish: str | None = None
    usage = Usage()
    for chunk in chunks:
        if getattr(chunk, "usage", None):
            usage = Usage(chunk.usage.prompt_tokens or 0, chunk.usage.completion_tokens or 0)
        for choice in chunk.choices or []:
            delta = choice.delta
            if delta is not None:
                if delta.content:
                    content.append(delta.content)
                thought = _extra(delta, "reasoning", "reasoning_content")
                if thought:
                    reasoning.append(thought)
                for position, part in enumerate(delta.tool_calls or []):
                    index = part.index if part.index is not None else position
                    slot = calls.setdefault(index, {"id": "", "name": "", "arguments": ""})
                    if part.id:
                        slot["id"] = part.id
                    if part.function is not None:
                        if part.function.name:
                            slot["name"] += part.function.name
                        if part.function.arguments:
                            slot["arguments"] += part.function.arguments
            if choice.finish_reason:
                finish = choice.finish_reason
    if finish is None:
        raise Transient("the stream ended before the reply was finished")
    return Reply(
        content="".join(content),
        reasoning="".join(reasoning) or None,
        tool_calls=[
            ToolCall(id=slot["id"], name=slot["name"], arguments=slot["arguments"])
            for _, slot in sorted(calls.items())
        ],
        finish_reason=finish,
        usage=usage,
    )


def whole(completion: Any) -> Reply:
    if not completion.choices:
        raise Transient("the provider returned no choices")
    choice = completion.choices[0]
    message = choice.message
    usage = completion.usage
    return Reply(
        content=message.content or "",
        reasoning=_extra(message, "reasoning", "reasoning_content"),
        tool_calls=[
            ToolCall(id=call.id or "", name=call.function.name, arguments=call.function.arguments)
            for call in message.tool_calls or []
        ],
        finish_reason=choice.finish_reason,
        usage=Usage(usage.prompt_tokens or 0, usage.completion_tokens or 0) if usage else Usage(),
    )


def classify(error: openai.APIStatusError) -> ProviderError:
    status = error.status_code
    message = _message(error)
    text = f"{status}: {message}"
    if status == 429:
        return RateLimited(text, retry_after(error.response.headers))
    if status >= 500 or status in RETRYABLE:
        return Transient(text)
    lowered = message.lower()
    if status == 413 or any(word in lowered for word in CONTEXT_WORDS):
        return ContextTooLong(text)
    return Fatal(text)


def _message(error: openai.APIStatusError) -> str:
    body = error.body
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict) and inner.get("message"):
            return str(inner["message"])
        if body.get("message"):
            return str(body["message"])
    return str(error.message)


def retry_after(headers: Any) -> float | None:
    """Seconds from `retry-after-ms`, `retry-after` (seconds or an HTTP date)."""
    millis = headers.get("retry-after-ms")
    if millis:
        try:
            return float(millis) / 1000
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        moment = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, moment.timestamp() - time.time())
