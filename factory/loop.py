"""The loop: ask the model, run the tools it calls, record everything, until a stop reason.

One turn: build the request (the system prompt holds the order, so it is never
compacted away), call the model under the provider-error policy, run the
tools, record each message and event as it happens (a run killed mid-way
leaves a readable log). The loop ends by raising `Stop`; the `finally` writes
the outcome. It never asks which driver it has, never touches git, gates or
rows: those belong to the shift and the export.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from factory import compaction, messages, prompt, session
from factory.config import Settings, secret_values
from factory.lines import line_for_order
from factory.model import (
    ContextTooLong,
    Exhausted,
    Fatal,
    Model,
    ProviderError,
    RateLimited,
    Reply,
    Request,
    ToolCall,
    Transient,
)
from factory.order import Order
from factory.tools import ToolBox

# Bounded patience. A nudge is an `instructions` message; once a kind is spent
# (consecutive turns of it), the run stops with that kind's reason.
NUDGE_LIMITS = {"talk": 3, "empty": 3, "length": 3, "cycle": 2}
EXHAUSTED_REASON = {
    "talk": "unsettled",
    "empty": "empty",
    "length": "continuations",
    "cycle": "cycle",
}
NUDGES = {
    "talk": "You replied without calling a tool. Nothing changes unless you call one. Keep "
    "working with the tools; the run ends only through success(summary) or failure(reason).",
    "empty": "Your reply was empty. Continue the order with a tool call.",
    "length": "Your reply was cut at the output limit, so its tool calls were not run. Send "
    "smaller pieces: write big files in parts (write with start_line), one call at a time.",
    "cycle": "You have made the same call with the same result three times. It will not "
    "change by repeating it: step back, read the result, and try something different.",
}
REPEATS = 3
"""The same call with the same result this many times in a row is a cycle."""

BACKOFF_FIRST, BACKOFF_MAX = 1.0, 30.0
RETRY_AFTER_MAX = 300.0
TRANSIENT_ATTEMPTS = 8
RATE_LIMIT_ATTEMPTS = 10
CONTEXT_COMPACTIONS = 3

TOOL_CALL_BLOCK = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)


class Stop(Exception):
    """Ends the run with one of `session.STOP_REASONS`."""

    def __init__(self, reason: str, detail: str = ""):
        assert reason in session.STOP_REASONS, reason
        super().__init__(f"{reason}: {detail}" if detail else reason)
        self.reason = reason
        self.detail = detail


@dataclass
class RunResult:
    session_id: str
    reason: str
    iterations: int
    calls: int
    tokens: dict[str, int]
    cost: float
    log_path: Path
    summary: str = ""
    """The success summary, the failure reason, or what stopped the run."""

    @property
    def settled(self) -> bool:
        return self.reason == "settled"


Abort = threading.Event | Callable[[], bool] | None
OnEvent = Callable[[str, dict[str, Any]], None]


def run(
    model: Model,
    order: Order,
    workspace: Path,
    settings: Settings | None = None,
    *,
    session_id: str | None = None,
    continues: str | Path | None = None,
    brief: str | None = None,
    abort: Abort = None,
    on_event: OnEvent | None = None,
    secrets: list[str] | None = None,
    sleep: Callable[[float], None] | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> RunResult:
    """Run the order once with this model; `continues` resumes an earlier session (id or log).

    `brief` is this shift's word to the model beyond the order (a catalogue to repair
    first): an `instructions` turn, so the order itself stays the same every shift."""
    runner = _Run(
        model=model,
        order=order,
        # Absolute from here on: the scratch folder, the prompt and the tools must all
        # name the same place whatever the caller's working directory.
        workspace=Path(workspace).resolve(),
        settings=settings or Settings(),
        session_id=session_id or session.new_id(),
        brief=brief,
        abort=abort,
        on_event=on_event,
        secrets=secrets,
        sleep=sleep,
        clock=clock,
    )
    return runner.go(continues)


@dataclass
class _Run:
    model: Model
    order: Order
    workspace: Path
    settings: Settings
    session_id: str
    brief: str | None
    abort: Abort
    on_event: OnEvent | None
    secrets: list[str] | None
    sleep: Callable[[float], None] | None
    clock: Callable[[], float]
    conversation: list[dict[str, Any]] = field(default_factory=list)
    chain: list[str] = field(default_factory=list)
    iterations: int = 0
    calls: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost: float = 0.0
    nudged: dict[str, int] = field(default_factory=dict)
    last_signature: str = ""
    streak: int = 0
    call_ids: set[str] = field(default_factory=set)
    last_input: int = 0
    measured_at: int = 0

    # --- start and finish ------------------------------------------------------------

    def go(self, continues: str | Path | None) -> RunResult:
        self.started = self.clock()
        self.log = session.SessionLog.create(self.workspace, self.session_id)
        scratch = self.workspace / ".factory" / "scratch" / self.session_id
        self.tools = ToolBox(
            workspace=self.workspace,
            scratch=scratch,
            secrets=self.secrets if self.secrets is not None else secret_values(self.settings),
            vision=self.model.vision,
            browser=self.settings.browser,
            log=self.log,
            abort=self.aborted,
        )
        self.system = prompt.system_prompt(
            self.workspace, self.order, str(scratch.relative_to(self.workspace))
        )
        reason, detail = "error", ""
        try:
            self.begin(continues)
            while True:
                self.step()
        except Stop as stop:
            reason, detail = stop.reason, stop.detail
        except KeyboardInterrupt:
            reason, detail = "aborted", "interrupted"
        except Exception as error:  # a driver or tool bug must still leave an outcome
            reason, detail = "error", f"{type(error).__name__}: {error}"
        finally:
            self.tools.close()
        self.finish(reason, detail)
        return RunResult(
            session_id=self.session_id,
            reason=reason,
            iterations=self.iterations,
            calls=self.calls,
            tokens={"input": self.input_tokens, "output": self.output_tokens},
            cost=round(self.cost, 6),
            log_path=self.log.path,
            summary=detail,
        )

    def begin(self, continues: str | Path | None) -> None:
        previous = _previous(self.workspace, continues) if continues else None
        self.chain = [*(previous.chain if previous else []), self.session_id]
        line = line_for_order(self.order.name)
        self.log.append(
            "meta",
            id=self.session_id,
            order=self.order.name,
            task=self.order.render(),
            model=self.model.name,
            provider=self.model.provider,
            driver=self.model.driver,
            workspace=str(self.workspace),
            system=self.system,
            tools=self.tools.schemas(),
            continues=previous.id if previous else None,
            chain=self.chain,
            started=session.now(),
            line=line.name if line else None,
            seed=getattr(self.model, "seed", None) or self.settings.seed,
        )
        if previous is None:
            self.add(messages.user(prompt.BEGIN))
        else:
            self.conversation = replayable(previous.messages)
            self.call_ids = {c["id"] for m in self.conversation for c in messages.tool_calls(m)}
            self.log.append("inherit", messages=self.conversation, session=previous.id)
            reason = (previous.outcome or {}).get("reason")
            self.add(messages.instructions(prompt.resume_note(previous.id, reason)))
        if self.brief:
            self.add(messages.instructions(self.brief))

    def finish(self, reason: str, detail: str) -> None:
        self.report(reason, {"detail": detail}, kind="outcome")
        text_field = "summary" if reason in ("settled", "failed") else "detail"
        self.log.append(
            "outcome",
            reason=reason,
            iterations=self.iterations,
            calls=self.calls,
            tokens={"input": self.input_tokens, "output": self.output_tokens},
            cost=round(self.cost, 6),
            **{text_field: detail},
            ended=session.now(),
        )
        self.log.close()

    # --- one turn --------------------------------------------------------------------

    def step(self) -> None:
        self.check_limits()
        self.maybe_compact()
        reply = self.query()
        with self.log.batch():
            self.record(reply)

    def record(self, reply: Reply) -> None:
        self.iterations += 1
        self.event("iteration", n=self.iterations, finish=reply.finish_reason)
        self.account(reply)
        reply = self.normalise(reply)
        calls = reply.tool_calls
        if reply.finish_reason == "length":
            self.cut_short(reply, calls)
        elif not calls and not reply.content.strip():
            self.nudge("empty")
        elif not calls:
            self.add(messages.bot(reply))
            self.nudge("talk")
        else:
            for kind in ("talk", "empty", "length"):
                self.nudged.pop(kind, None)
            self.add(messages.bot(reply))
            self.act(calls)

    def act(self, calls: list[ToolCall]) -> None:
        self.tools.begin_turn()
        images: list[tuple[str, str]] = []
        ending: tuple[str, str] | None = None
        cycled = False
        for call in calls:
            if ending is not None:
                self.answer(call, "not run: the run ended with the call before this one")
                continue
            if self.calls >= self.settings.max_calls:
                self.answer(call, "not run: the tool-call limit of this run is reached")
                continue
            self.calls += 1
            began = time.perf_counter()
            if call.name:
                result = self.tools.run(call.name, call.arguments)
                text, ok = result.text, result.ok
            else:
                result = None
                text, ok = (
                    'error: could not read a tool call in your reply; use {"name": ..., '
                    '"arguments": {...}}',
                    False,
                )
            seconds = round(time.perf_counter() - began, 4)
            self.add(messages.activity(call.id, call.name, text))
            self.event("tool", name=call.name, seconds=seconds, ok=ok, display=_preview(call))
            if result and result.image:
                images.append(result.image)
            if result and result.terminal:
                ending = result.terminal
            cycled = self.repeated(call, text) or cycled
        if images:
            self.add(messages.attachment(images))
        if ending is not None:
            raise Stop(*ending)
        if cycled:
            self.nudge("cycle")

    def answer(self, call: ToolCall, text: str) -> None:
        self.add(messages.activity(call.id, call.name, text))

    def cut_short(self, reply: Reply, calls: list[ToolCall]) -> None:
        if reply.content.strip() or calls:
            self.add(messages.bot(reply))
        for call in calls:
            self.answer(call, "not run: your reply was cut at the output limit")
        self.nudge("length")

    def nudge(self, kind: str) -> None:
        count = self.nudged.get(kind, 0) + 1
        if count > NUDGE_LIMITS[kind]:
            raise Stop(
                EXHAUSTED_REASON[kind], f"{NUDGE_LIMITS[kind]} nudges ({kind}) went unheeded"
            )
        self.nudged[kind] = count
        self.event("nudge", why=kind, n=count)
        self.add(messages.instructions(NUDGES[kind]))

    def repeated(self, call: ToolCall, result: str) -> bool:
        """True on every third identical call-and-result in a row; anything new resets it."""
        signature = json.dumps([call.name, _canonical(call.arguments), result])
        if signature != self.last_signature:
            self.last_signature, self.streak = signature, 0
            self.nudged.pop("cycle", None)
        self.streak += 1
        if self.streak < REPEATS:
            return False
        self.streak = 0
        return True

    # --- the model, under the error policy -------------------------------------------

    def request(self) -> Request:
        return Request(
            system=self.system,
            messages=list(self.conversation),
            tools=self.tools.schemas(),
            image=self.image,
            max_output_tokens=self.settings.max_output_tokens,
        )

    def query(self) -> Reply:
        transient = rate_limited = compactions = 0
        while True:
            self.measured_at = len(self.conversation)
            try:
                return self.ask(self.request())
            except Transient as error:
                transient += 1
                if transient > TRANSIENT_ATTEMPTS:
                    raise Stop("error", f"the provider kept failing: {error}") from None
                wait = min(BACKOFF_FIRST * 2 ** (transient - 1), BACKOFF_MAX)
                self.retry(str(error), wait, "transient")
            except RateLimited as error:
                rate_limited += 1
                if rate_limited > RATE_LIMIT_ATTEMPTS:
                    raise Stop("error", f"still rate limited: {error}") from None
                fallback = min(BACKOFF_FIRST * 2 ** (rate_limited - 1), BACKOFF_MAX)
                wait = min(error.retry_after if error.retry_after else fallback, RETRY_AFTER_MAX)
                self.retry(str(error), wait, "rate-limited")
            except ContextTooLong as error:
                compactions += 1
                if compactions > CONTEXT_COMPACTIONS or not self.compact(forced=True):
                    raise Stop(
                        "error", f"context too long and nothing left to compact: {error}"
                    ) from None
            except Exhausted as error:
                raise Stop("error", f"the model ran out of turns: {error}") from None
            except (Fatal, ProviderError) as error:
                raise Stop("error", str(error) or type(error).__name__) from None

    def ask(self, request: Request) -> Reply:
        """The model call, abandoned when the run is aborted or out of time: a request
        that hangs must not hold a shift past its limits or past a SIGTERM. The call
        runs on a daemon thread and is left behind, never interrupted mid-record."""
        answer: dict[str, Any] = {}
        done = threading.Event()

        def call() -> None:
            try:
                answer["reply"] = self.model.query(request)
            except BaseException as error:  # handed to the loop's thread as it was
                answer["error"] = error
            finally:
                done.set()

        threading.Thread(target=call, name="model-query", daemon=True).start()
        while not done.wait(0.2):
            if self.aborted():
                raise Stop("aborted", "asked to stop while the model was answering")
            deadline = self.deadline()
            if deadline is not None and self.clock() > deadline:
                raise Stop("time", "the time limit passed while the model was answering")
        if "error" in answer:
            raise answer["error"]
        return answer["reply"]

    def retry(self, why: str, wait: float, status: str) -> None:
        if self.deadline() is not None and self.clock() + wait > self.deadline():
            raise Stop("time", f"no time left to wait {wait:.0f} s after: {why}")
        self.event("retry", status=status, wait=wait, why=why[:300])
        self.wait(wait)
        self.check_limits()

    def wait(self, seconds: float) -> None:
        if self.sleep is not None:
            self.sleep(seconds)
            return
        end = time.monotonic() + seconds
        while (left := end - time.monotonic()) > 0 and not self.aborted():
            time.sleep(min(left, 0.25))

    def account(self, reply: Reply) -> None:
        usage = reply.usage
        self.input_tokens += usage.input_tokens
        self.output_tokens += usage.output_tokens
        self.cost += usage.cost
        if usage.input_tokens:
            self.last_input = usage.input_tokens
        if usage.input_tokens or usage.output_tokens or usage.cost:  # nothing to count: no record
            self.event(
                "usage", input=usage.input_tokens, output=usage.output_tokens, cost=usage.cost
            )

    # --- limits and compaction -------------------------------------------------------

    def aborted(self) -> bool:
        if self.abort is None:
            return False
        if isinstance(self.abort, threading.Event):
            return self.abort.is_set()
        return bool(self.abort())

    def deadline(self) -> float | None:
        minutes = self.settings.max_minutes
        return self.started + minutes * 60 if minutes and minutes > 0 else None

    def check_limits(self) -> None:
        settings = self.settings
        if self.aborted():
            raise Stop("aborted", "asked to stop")
        if self.iterations >= settings.max_iterations:
            raise Stop("iterations", f"{settings.max_iterations} model calls")
        if self.calls >= settings.max_calls:
            raise Stop("calls", f"{settings.max_calls} tool calls")
        deadline = self.deadline()
        if deadline is not None and self.clock() >= deadline:
            raise Stop("time", f"{settings.max_minutes:g} minutes")
        if settings.max_cost > 0 and self.cost >= settings.max_cost:
            raise Stop("aborted", f"the cost limit ${settings.max_cost:g} is reached")

    def budget(self) -> int:
        settings = self.settings
        return max(
            settings.context_tokens - settings.max_output_tokens, settings.context_tokens // 2
        )

    def maybe_compact(self) -> None:
        if self.last_input:
            added = self.conversation[self.measured_at :]
            tokens = self.last_input + compaction.estimate("", added)
        else:
            tokens = compaction.estimate(self.system, self.conversation)
        if compaction.needed(tokens, self.budget()):
            self.compact()

    def compact(self, forced: bool = False) -> bool:
        start = compaction.cut(self.conversation)
        if start == 0:
            return False
        older, kept = self.conversation[:start], self.conversation[start:]
        # The summary is a model call like any other: abandoned at abort or the deadline.
        summary, how, usage = compaction.summarise(self.ask, self.system, older, self.image)
        if usage is not None:
            self.input_tokens += usage.input_tokens
            self.output_tokens += usage.output_tokens
            self.cost += usage.cost
        checkpoint = messages.checkpoint(compaction.checkpoint_text(summary, how))
        self.log.append("compaction", checkpoint=checkpoint, keep=len(kept))
        self.event("compaction", how=how, dropped=len(older), kept=len(kept), forced=forced)
        self.conversation = [checkpoint, *kept]
        self.last_input = 0
        self.check_limits()  # the summary took time and money of its own
        return True

    # --- records ---------------------------------------------------------------------

    def add(self, message: dict[str, Any]) -> None:
        self.conversation.append(message)
        self.log.message(message)
        self.report("message", message)

    def event(self, event: str, /, display: str | None = None, **fields: Any) -> None:
        self.log.event(event, **fields)
        self.report(event, {**fields, "display": display} if display else fields)

    def report(self, event: str, fields: dict[str, Any], kind: str = "event") -> None:
        if self.on_event is not None:
            self.on_event(event, {**fields, "session": self.session_id, "kind": kind})

    def image(self, ref: str) -> bytes:
        """`images/<sha>.png` from this session's blobs or any earlier one of the chain."""
        folder = session.sessions_dir(self.workspace)
        return session.image_path(folder, self.chain or [self.session_id], ref).read_bytes()

    def normalise(self, reply: Reply) -> Reply:
        """A copy with unique ids on every call, taken from `<tool_call>` blocks when the
        server left them in the text. The driver's reply object is never changed."""
        content, found = reply.content, list(reply.tool_calls)
        if not found and "<tool_call>" in content:
            found = parse_tool_call_blocks(content)
            content = TOOL_CALL_BLOCK.sub("", content).strip()
        calls: list[ToolCall] = []
        for index, call in enumerate(found, 1):
            call_id = call.id
            if not call_id or call_id in self.call_ids:
                call_id = f"call_{self.session_id[-6:]}_{self.iterations}_{index}"
            self.call_ids.add(call_id)
            calls.append(ToolCall(id=call_id, name=call.name, arguments=call.arguments or ""))
        return replace(reply, content=content, tool_calls=calls)


def parse_tool_call_blocks(content: str) -> list[ToolCall]:
    """`<tool_call>{"name": ..., "arguments": {...}}</tool_call>` blocks (or a JSON list in one).

    An unreadable block becomes a call with no name, which the loop answers with an error.
    """
    calls: list[ToolCall] = []
    for raw in TOOL_CALL_BLOCK.findall(content):
        try:
            parsed = json.loads(raw)
        except json.JSONDecodeError:
            calls.append(ToolCall(id="", name="", arguments=raw))
            continue
        for item in parsed if isinstance(parsed, list) else [parsed]:
            if not isinstance(item, dict) or not isinstance(item.get("name"), str):
                calls.append(ToolCall(id="", name="", arguments=json.dumps(item)))
                continue
            arguments = item.get("arguments", item.get("parameters", {}))
            text = arguments if isinstance(arguments, str) else json.dumps(arguments)
            calls.append(ToolCall(id=str(item.get("id") or ""), name=item["name"], arguments=text))
    return calls


def replayable(conversation: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A copy where every tool call has a result: unanswered ones read `interrupted`."""
    out: list[dict[str, Any]] = []
    pending: list[dict[str, Any]] = []

    def settle() -> None:
        for call in pending:
            name = call["function"]["name"]
            text = "interrupted: the previous shift ended before this call returned"
            out.append(messages.activity(call["id"], name, text))
        pending.clear()

    for message in conversation:
        if message.get("role") == "tool":
            pending[:] = [c for c in pending if c["id"] != message.get("tool_call_id")]
            out.append(message)
            continue
        settle()
        out.append(message)
        pending.extend(messages.tool_calls(message))
    settle()
    return out


def _previous(workspace: Path, ref: str | Path) -> session.Session:
    path = Path(ref)
    if not (path.suffix == ".jsonl" and path.is_file()):
        path = session.find(workspace, str(ref))
    return session.load(path)


def _canonical(arguments: str) -> str:
    try:
        return json.dumps(json.loads(arguments), sort_keys=True)
    except (json.JSONDecodeError, TypeError):
        return arguments


def _preview(call: ToolCall) -> str:
    """A short line for the live display: the call's most telling argument."""
    try:
        args = json.loads(call.arguments)
    except (json.JSONDecodeError, TypeError):
        return call.arguments[:80]
    if not isinstance(args, dict):
        return str(args)[:80]
    for key in ("path", "command", "target", "summary", "reason", "note"):
        if key in args:
            return str(args[key]).splitlines()[0][:80] if str(args[key]) else ""
    return ""
