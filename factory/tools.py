"""The tools the model gets: its only hands in the workspace.

Every tool returns the exact text the model sees, and that text is what the
session records. A tool never raises into the loop: bad arguments, refused
paths, failing commands all come back as text the model can act on. Writes
are confined to the workspace and the shift's scratch folder; secrets never
reach a shell the model runs, nor a result it reads.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from factory import imaging
from factory.session import SessionLog

READ_WINDOW = 400
READ_LINE_CHARS = 2000
LIST_LIMIT = 500
SHELL_DEFAULT = 120
SHELL_MAX = 600
PR_SET_DUMPABLE = 4
"""prctl option (linux/prctl.h): 0 makes /proc/<pid>/environ unreadable to our own user."""
OUTPUT_HEAD = 12_000
OUTPUT_TAIL = 12_000
SCREEN_WIDTH, SCREEN_HEIGHT = 1440, 900
SCREEN_TIMEOUT_MS = 30_000

# Folders inside the workspace the model must not write: git's own state and
# the harness's records (the model could otherwise rewrite its own session).
PROTECTED = (".git", ".factory")

Param = tuple[str, str, bool]  # (JSON type, description, required)


@dataclass(frozen=True)
class Spec:
    name: str
    description: str
    params: dict[str, Param]
    items: str | None = None
    """The item type of the one array parameter (plan's steps)."""


SPECS: tuple[Spec, ...] = (
    Spec(
        "read",
        "Read a text file with numbered lines. Without a range you get the first "
        f"{READ_WINDOW} lines and a hint how to read on. Paths are relative to the workspace.",
        {
            "path": ("string", "File to read.", True),
            "start_line": ("integer", "First line to show (1-based).", False),
            "end_line": ("integer", "Last line to show (inclusive).", False),
        },
    ),
    Spec(
        "write",
        "Write a file (folders are created). Without a range the content replaces the whole "
        "file. With start_line and end_line the content replaces those lines; with start_line "
        "alone it is inserted before that line. Only the workspace and the scratch folder are "
        "writable.",
        {
            "path": ("string", "File to write.", True),
            "content": ("string", "The text to write.", True),
            "start_line": ("integer", "First line of the range (1-based).", False),
            "end_line": ("integer", "Last line of the range to replace (inclusive).", False),
        },
    ),
    Spec(
        "list",
        "List a folder: sub-folders end with '/', files show their size in bytes.",
        {"path": ("string", "Folder to list (default: the workspace).", False)},
    ),
    Spec(
        "shell",
        "Run a command with `sh -c` in the workspace. stdout and stderr are combined and the "
        f"exit status is appended. Default timeout {SHELL_DEFAULT} s, at most {SHELL_MAX} s; "
        "on timeout the whole process group is killed. Long output keeps its head and tail.",
        {
            "command": ("string", "The shell command.", True),
            "timeout": ("integer", f"Seconds before it is killed (max {SHELL_MAX}).", False),
        },
    ),
    Spec(
        "screenshot",
        "Render a file of the workspace or a URL in headless Chromium and save a PNG (in the "
        "scratch folder unless `out` is given). Returns the path, the size and any page "
        "errors. Use `view` to look at it.",
        {
            "target": ("string", "A file path (relative to the workspace) or a URL.", True),
            "width": ("integer", f"Viewport width in px (default {SCREEN_WIDTH}).", False),
            "height": ("integer", f"Viewport height in px (default {SCREEN_HEIGHT}).", False),
            "full_page": ("boolean", "Capture the whole scrollable page.", False),
            "out": ("string", "Where to save the PNG.", False),
        },
    ),
    Spec(
        "view",
        "Look at an image file (PNG, JPEG, GIF or WebP). The image is shown to you right "
        f"after this turn's tool results. At most {imaging.MAX_PER_TURN} images a turn.",
        {"path": ("string", "The image file.", True)},
    ),
    Spec(
        "plan",
        "Record your plan as a list of steps. Call it again when the plan changes.",
        {"steps": ("array", "The steps, in order.", True)},
        items="string",
    ),
    Spec(
        "progress",
        "Record a short note on what you just achieved or learned.",
        {"note": ("string", "The note.", True)},
    ),
    Spec(
        "success",
        "End the run: the order is fulfilled. Nothing after this call runs.",
        {"summary": ("string", "What was made and how it was checked.", True)},
    ),
    Spec(
        "failure",
        "End the run: the order cannot be fulfilled. Nothing after this call runs.",
        {"reason": ("string", "Why, precisely.", True)},
    ),
)
SPEC_BY_NAME = {spec.name: spec for spec in SPECS}


def schema(spec: Spec) -> dict[str, Any]:
    """The OpenAI function-tool schema of one tool."""
    properties: dict[str, Any] = {}
    for name, (kind, description, _) in spec.params.items():
        properties[name] = {"type": kind, "description": description}
        if kind == "array":
            properties[name]["items"] = {"type": spec.items or "string"}
    required = [name for name, (_, _, needed) in spec.params.items() if needed]
    return {
        "type": "function",
        "function": {
            "name": spec.name,
            "description": spec.description,
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


class ToolError(Exception):
    """A problem the model caused and must read about; never a crash."""


@dataclass
class ToolResult:
    text: str
    """Exactly what the model sees (and the session records)."""
    ok: bool = True
    image: tuple[str, str] | None = None
    """For `view`: (caption, `images/<sha>.png`), sent after the turn's tool results."""
    terminal: tuple[str, str] | None = None
    """For `success`/`failure`: (stop reason, summary or reason)."""


def seal_environment() -> None:
    """Make this process's own environment unreadable to the model's shell.

    The shell's environment has no secret, but it runs as our user, and
    `/proc/<our pid>/environ` still holds the key we were started with. A
    process that is not dumpable has its /proc files owned by root, so the same
    user cannot read them (root, or a holder of CAP_SYS_PTRACE, still can).
    Linux only; elsewhere, or if refused, nothing changes. Costs core dumps
    and attaching a debugger to the factory, which an unattended shift never needs.
    """
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_DUMPABLE, 0, 0, 0, 0)


@dataclass
class ToolBox:
    """The tools of one run, bound to its workspace, scratch folder and session log."""

    workspace: Path
    scratch: Path
    secrets: list[str] = field(default_factory=list)
    vision: bool = True
    browser: str | None = None
    log: SessionLog | None = None
    abort: Callable[[], bool] | None = None
    """Polled while a shell command runs: the run is being stopped."""
    images_this_turn: int = 0
    _playwright: Any = field(default=None, repr=False)
    _browser: Any = field(default=None, repr=False)

    def __post_init__(self) -> None:
        self.workspace = Path(self.workspace).resolve()
        self.scratch = Path(self.scratch)
        if not self.scratch.is_absolute():
            self.scratch = self.workspace / self.scratch
        self.scratch.mkdir(parents=True, exist_ok=True)
        self.scratch = self.scratch.resolve()
        self.secrets = [s for s in self.secrets if s]

    # --- the surface the loop uses ---------------------------------------------------

    def names(self) -> list[str]:
        return [spec.name for spec in SPECS if self.vision or spec.name != "view"]

    def schemas(self) -> list[dict[str, Any]]:
        return [schema(SPEC_BY_NAME[name]) for name in self.names()]

    def begin_turn(self) -> None:
        self.images_this_turn = 0

    def run(self, name: str, arguments: str) -> ToolResult:
        """Parse, check and run one call; every failure comes back as text."""
        if name not in self.names():
            return ToolResult(
                f"error: unknown tool {name!r}; the tools are: {', '.join(self.names())}", ok=False
            )
        try:
            args = self._arguments(SPEC_BY_NAME[name], arguments)
            result = getattr(self, f"_{name}")(**args)
        except ToolError as error:
            result = ToolResult(f"error: {error}", ok=False)
        except OSError as error:
            result = ToolResult(f"error: {error.strerror or error}", ok=False)
        result.text = self.redact(result.text)
        return result

    def close(self) -> None:
        """Stop the browser, if a screenshot started one."""
        try:
            if self._browser is not None:
                self._browser.close()
            if self._playwright is not None:
                self._playwright.stop()
        finally:
            self._browser = self._playwright = None

    def redact(self, text: str) -> str:
        for secret in self.secrets:
            text = text.replace(secret, "[secret removed]")
        return text

    # --- arguments and paths ---------------------------------------------------------

    def _arguments(self, spec: Spec, arguments: str) -> dict[str, Any]:
        try:
            raw = json.loads(arguments) if arguments and arguments.strip() else {}
        except json.JSONDecodeError as error:
            raise ToolError(
                f"the arguments are not valid JSON ({error.msg} at character {error.pos}); "
                f"send one JSON object with: {', '.join(spec.params)}"
            ) from None
        if not isinstance(raw, dict):
            raise ToolError("the arguments must be one JSON object")
        args: dict[str, Any] = {}
        for key, (kind, _, required) in spec.params.items():
            value = raw.get(key)
            if value is None:
                if required:
                    raise ToolError(f"{spec.name} needs the argument {key!r}")
                continue
            args[key] = _coerce(spec.name, key, kind, value)
        return args

    def resolve(self, path: str, writing: bool = False) -> Path:
        """A path inside the workspace or the scratch folder, symlinks followed; else refused."""
        if not isinstance(path, str) or not path.strip():
            raise ToolError("the path is empty")
        candidate = Path(path).expanduser()
        if not candidate.is_absolute():
            candidate = self.workspace / candidate
        real = candidate.resolve()
        in_scratch = real.is_relative_to(self.scratch)
        if not (in_scratch or real.is_relative_to(self.workspace)):
            raise ToolError(
                f"{path} is outside the workspace and the scratch folder "
                f"({self.show(self.scratch)}); only those are {'writable' if writing else 'readable'}"
            )
        if writing and not in_scratch:
            first = real.relative_to(self.workspace).parts[:1]
            if first and first[0] in PROTECTED:
                raise ToolError(f"{path} is inside {first[0]}/, which only the harness writes")
        return real

    def show(self, path: Path) -> str:
        """How a path is named to the model: relative to the workspace when inside it."""
        return (
            str(path.relative_to(self.workspace))
            if path.is_relative_to(self.workspace)
            else str(path)
        )

    # --- the tools -------------------------------------------------------------------

    def _read(
        self, path: str, start_line: int | None = None, end_line: int | None = None
    ) -> ToolResult:
        target = self.resolve(path)
        if target.is_dir():
            raise ToolError(f"{path} is a folder; use list")
        if not target.exists():
            raise ToolError(f"{path} does not exist")
        data = target.read_bytes()
        if imaging.sniff(data[:16]) is not None:
            hint = "; use view to look at it" if self.vision else ""
            return ToolResult(f"{path} is {imaging.describe(data)}{hint}")
        if b"\0" in data[:8192]:
            return ToolResult(f"{path} is a binary file of {len(data)} bytes")
        lines = data.decode("utf-8", errors="replace").splitlines()
        total = len(lines)
        if total == 0:
            return ToolResult(f"{path} is empty")
        start = max(1, start_line or 1)
        end = min(total, end_line if end_line is not None else start + READ_WINDOW - 1)
        if start > total:
            raise ToolError(f"{path} has {total} lines; start_line {start} is past the end")
        if end < start:
            raise ToolError(f"end_line {end} is before start_line {start}")
        shown = []
        for number in range(start, end + 1):
            line = lines[number - 1]
            if len(line) > READ_LINE_CHARS:
                line = line[:READ_LINE_CHARS] + f" [... {len(line) - READ_LINE_CHARS} more chars]"
            shown.append(f"{number:>6}  {line}")
        text = "\n".join(shown)
        if start > 1 or end < total:
            text += f"\n[lines {start}-{end} of {total}"
            text += f"; read on with start_line={end + 1}]" if end < total else "]"
        return ToolResult(text)

    def _write(
        self,
        path: str,
        content: str,
        start_line: int | None = None,
        end_line: int | None = None,
    ) -> ToolResult:
        target = self.resolve(path, writing=True)
        if target.is_dir():
            raise ToolError(f"{path} is a folder")
        if start_line is None and end_line is not None:
            raise ToolError("end_line needs start_line")
        if start_line is None:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(content, encoding="utf-8")
            count = len(content.splitlines())
            return ToolResult(f"wrote {path} ({count} lines, {len(content.encode())} bytes)")
        if not target.exists():
            raise ToolError(f"{path} does not exist; write it whole first (no start_line)")
        old = target.read_text(encoding="utf-8", errors="replace")
        lines = old.splitlines(keepends=True)
        if lines and not lines[-1].endswith("\n"):
            lines[-1] += "\n"
        new = content.splitlines(keepends=True)
        if new and not new[-1].endswith("\n"):
            new[-1] += "\n"
        if start_line < 1 or start_line > len(lines) + 1:
            raise ToolError(
                f"{path} has {len(lines)} lines; start_line must be 1..{len(lines) + 1}"
            )
        if end_line is None:
            lines[start_line - 1 : start_line - 1] = new
            done = f"inserted {len(new)} lines before line {start_line} of {path}"
        else:
            if end_line < start_line or end_line > len(lines):
                raise ToolError(
                    f"{path} has {len(lines)} lines; end_line must be {start_line}..{len(lines)}"
                )
            lines[start_line - 1 : end_line] = new
            done = f"replaced lines {start_line}-{end_line} of {path} with {len(new)} lines"
        target.write_text("".join(lines), encoding="utf-8")
        return ToolResult(f"{done} (now {len(lines)} lines)")

    def _list(self, path: str = ".") -> ToolResult:
        target = self.resolve(path)
        if not target.is_dir():
            raise ToolError(f"{path} is not a folder")
        entries = sorted(target.iterdir(), key=lambda p: (not p.is_dir(), p.name))
        shown = []
        for entry in entries[:LIST_LIMIT]:
            if entry.is_dir():
                shown.append(f"{entry.name}/")
            else:
                size = entry.stat().st_size if entry.exists() else 0
                shown.append(f"{entry.name}  {size}")
        if len(entries) > LIST_LIMIT:
            shown.append(f"[... {len(entries) - LIST_LIMIT} more entries]")
        return ToolResult("\n".join(shown) if shown else f"{path} is empty")

    def shell_env(self) -> dict[str, str]:
        """The environment of a model's shell: no secret anywhere, our bin folder first."""
        env = {
            name: value
            for name, value in os.environ.items()
            if not any(secret in value for secret in self.secrets)
        }
        bin_dir = str(Path(sys.executable).parent)
        env["PATH"] = bin_dir + os.pathsep + env.get("PATH", os.defpath)
        env.setdefault("PAGER", "cat")
        env.setdefault("GIT_PAGER", "cat")
        return env

    def _shell(self, command: str, timeout: int | None = None) -> ToolResult:
        limit = min(max(1, timeout or SHELL_DEFAULT), SHELL_MAX)
        seal_environment()
        process = subprocess.Popen(
            ["sh", "-c", command],
            cwd=self.workspace,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            env=self.shell_env(),
            start_new_session=True,  # its own process group, so a timeout kills it all
        )
        output = _Capture(process.stdout)
        output.start()
        try:
            status = self._wait(process, limit)
        except BaseException:
            _killpg(process.pid)  # interrupted: never leave the model's processes behind
            raise
        if status is None:
            _killpg(process.pid)
            process.wait()
            ending = f"[timed out after {limit} s; the process group was killed]"
        elif status == "aborted":
            _killpg(process.pid)
            process.wait()
            ending = "[stopped: the run is ending; the process group was killed]"
        else:
            ending = f"[exit status {status}]"
            output.join(timeout=2)
        if output.is_alive():
            # A background child still holds the pipe open: it would block us forever.
            _killpg(process.pid)
            output.join(timeout=5)
        text = output.text()
        joined = (text + ("\n" if text and not text.endswith("\n") else "") + ending).lstrip("\n")
        return ToolResult(joined, ok=ending == "[exit status 0]")

    def _wait(self, process: subprocess.Popen[bytes], limit: float) -> int | str | None:
        """The exit status; None on timeout; `aborted` when the run is being stopped."""
        deadline = time.monotonic() + limit
        while (left := deadline - time.monotonic()) > 0:
            try:
                return process.wait(timeout=min(left, 0.2))
            except subprocess.TimeoutExpired:
                if self.abort is not None and self.abort():
                    return "aborted"
        return None

    def _screenshot(
        self,
        target: str,
        width: int | None = None,
        height: int | None = None,
        full_page: bool | None = None,
        out: str | None = None,
    ) -> ToolResult:
        if re.match(r"^(https?|file|data):", target):
            url = target
        else:
            page_file = self.resolve(target)
            if not page_file.exists():
                raise ToolError(f"{target} does not exist")
            url = page_file.as_uri()
        width = min(max(width or SCREEN_WIDTH, 200), 4000)
        height = min(max(height or SCREEN_HEIGHT, 200), 4000)
        if out:
            destination = self.resolve(out, writing=True)
        else:
            stem = re.sub(r"[^a-z0-9]+", "-", target.lower()).strip("-")[-60:] or "page"
            destination = self.scratch / f"{stem}-{width}x{height}.png"
        destination.parent.mkdir(parents=True, exist_ok=True)
        problems: list[str] = []
        context = self._chromium().new_context(
            viewport={"width": width, "height": height}, device_scale_factor=1
        )
        try:
            page = context.new_page()
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on(
                "console",
                lambda message: (
                    problems.append(f"console {message.type}: {message.text}")
                    if message.type == "error"
                    else None
                ),
            )
            try:
                page.goto(url, wait_until="load", timeout=SCREEN_TIMEOUT_MS)
                page.wait_for_timeout(250)  # let a first animation frame paint
                page.screenshot(path=str(destination), full_page=bool(full_page))
            except Exception as error:  # Playwright's errors are the model's information
                raise ToolError(
                    f"could not render {target}: {str(error).splitlines()[0]}"
                ) from None
        finally:
            context.close()
        size = imaging.describe(destination.read_bytes())
        text = f"saved {self.show(destination)}: {size}"
        if problems:
            text += "\n" + "\n".join(problems[:10])
            if len(problems) > 10:
                text += f"\n[... {len(problems) - 10} more]"
        return ToolResult(text)

    def _chromium(self) -> Any:
        if self._browser is None:
            from playwright.sync_api import sync_playwright

            from factory.browser import launch_options

            self._playwright = sync_playwright().start()
            try:
                self._browser = self._playwright.chromium.launch(**launch_options(self.browser))
            except Exception as error:
                self._playwright.stop()
                self._playwright = None
                raise ToolError(
                    f"the browser did not start: {str(error).splitlines()[0]}"
                ) from None
        return self._browser

    def _view(self, path: str) -> ToolResult:
        source = self.resolve(path)
        if not source.is_file():
            raise ToolError(f"{path} does not exist")
        if self.images_this_turn >= imaging.MAX_PER_TURN:
            raise ToolError(f"at most {imaging.MAX_PER_TURN} images a turn; view it next turn")
        if self.log is None:
            raise ToolError("no session log to keep the image in")
        try:
            png, original, final = imaging.to_png(source.read_bytes())
        except imaging.NotAnImage as error:
            raise ToolError(f"{path}: {error}") from None
        image = self.log.store_image(png)
        self.images_this_turn += 1
        scaled = f", scaled from {original[0]}x{original[1]}" if original != final else ""
        text = f"attached {path} ({final[0]}x{final[1]} px{scaled}); it follows the tool results"
        return ToolResult(text, image=(f"{path} ({final[0]}x{final[1]} px)", image))

    def _plan(self, steps: list[str]) -> ToolResult:
        return ToolResult(f"plan recorded ({len(steps)} steps)")

    def _progress(self, note: str) -> ToolResult:
        return ToolResult("noted")

    def _success(self, summary: str) -> ToolResult:
        return ToolResult("run settled", terminal=("settled", summary))

    def _failure(self, reason: str) -> ToolResult:
        return ToolResult("run ended as failed", terminal=("failed", reason))


def _coerce(tool: str, key: str, kind: str, value: Any) -> Any:
    """Lenient on the shapes local models send (\"10\" for 10, "true" for true)."""
    if kind == "string":
        if isinstance(value, str):
            return value
        if isinstance(value, int | float | bool):
            return str(value)
    elif kind == "integer":
        whole = isinstance(value, float) and value.is_integer()
        digits = isinstance(value, str) and value.strip().lstrip("-").isdigit()
        if (isinstance(value, int) and not isinstance(value, bool)) or whole or digits:
            return int(value)
    elif kind == "boolean":
        if isinstance(value, bool):
            return value
        if isinstance(value, str) and value.lower() in ("true", "false"):
            return value.lower() == "true"
    elif kind == "array":
        if isinstance(value, list):
            return [str(item) for item in value]
        if isinstance(value, str):
            return [line for line in value.splitlines() if line.strip()]
    raise ToolError(f"{tool}: argument {key!r} must be a {kind}, not {type(value).__name__}")


def _killpg(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


class _Capture(threading.Thread):
    """Reads a pipe to its end keeping only the head and the tail (bounded memory)."""

    def __init__(self, pipe: Any):
        super().__init__(daemon=True)
        self.pipe = pipe
        self.head = bytearray()
        self.tail = bytearray()
        self.total = 0

    def run(self) -> None:
        while chunk := self.pipe.read1(65536):
            self.total += len(chunk)
            room = OUTPUT_HEAD - len(self.head)
            if room > 0:
                self.head += chunk[:room]
                chunk = chunk[room:]
            if chunk:
                self.tail += chunk
                if len(self.tail) > OUTPUT_TAIL:
                    del self.tail[: len(self.tail) - OUTPUT_TAIL]
        self.pipe.close()

    def text(self) -> str:
        cut = self.total - len(self.head) - len(self.tail)
        head = self.head.decode("utf-8", errors="replace")
        tail = self.tail.decode("utf-8", errors="replace")
        if cut <= 0:
            return head + tail
        return f"{head}\n[... {cut} bytes of output cut ...]\n{tail}"
