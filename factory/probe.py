"""The dynamic gate: open each product from disk in headless Chromium, drive it, photograph it.

A line names how its products are driven (`Line.probe`). Machines get every
probe rule of the reference (numbered 1-8 in SPEC.md), plus our own order's
findings (quantities, keyboard, fault-controls) unless `parity` asks for the
reference's rules alone. Pages (games) get the page probe: loads clean, no
external request, the screen answers keyboard and pointer, screenshots.

One browser serves a whole call; `jobs` workers each hold a context and tab
that product after product reuses while healthy (a renderer's start-up is the
biggest fixed cost), and a product that hangs or breaks the tab gets it
replaced. The page's clock is faked and paused, so
nothing waits on wall time: the simulation moves only through
`window.machine.tick()` and the page's own loop only through `clock.run_for`.

This room must never hang on a hostile product (every step is bounded and a
wedged browser is replaced), never let a request leave the machine, and never
edit the product it judges.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import time
import weakref
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar
from urllib.parse import urldefrag

from playwright.async_api import Browser, BrowserContext, JSHandle, Locator, Page, async_playwright
from playwright.async_api import Error as PlaywrightError
from pydantic import BaseModel, computed_field

from factory.browser import BrowserNotFound, launch_options
from factory.config import ConfigError, load_settings
from factory.lines import Line, all_lines, line_named

DESKTOP = {"width": 1440, "height": 900}
PHONE = {"width": 390, "height": 844}
NOT_LOCAL = re.compile(r"^(?!(?:file|data|blob):)")
"""Every URL a product may not load: anything but file:, data: and blob:."""
ANY = re.compile(".*")
CLOCK_START = 1_750_000_000
"""Seconds since the epoch the paused page clock starts at."""

LOAD_SECONDS = 5.0
"""How long a page may take to fire `load` from disk."""
STEP_SECONDS = 5.0
"""How long one step (an evaluate, a click, a screenshot) may take."""
SIMULATION_SECONDS = 12.0
"""Rules 5 and 6 together tick a few hundred times: a heavy product on a busy machine is not hung."""
PRODUCT_SECONDS = 40.0
"""The whole probe of one product, a last line of defence."""
CLOSE_SECONDS = 4.0
"""Closing a context; longer means the browser is wedged and is replaced."""
QUIT_SECONDS = 10.0
"""Closing a wedged browser before giving up on it (the driver kills it at the end)."""

WARMUP_SECONDS = 2000
"""Simulated milliseconds of the page's own loop after load, before the desktop shot."""
RUN_SECONDS = 600
FAULT_SECONDS = 60
SETTLE_SECONDS = 30
OPEN_MS, CLOSE_MS, RESIZE_MS = 500, 300, 600
"""Simulated time the page gets after opening the manual (when not open at once), closing
it (when not closed at once), and resizing: the reference's waits, so a dialog that opens
on a timer or a layout fitted on `resize` is judged after it acted, as there."""
RESIZE_POLLS = 30
"""Checks, 10 ms apart, for the page's resize event before its clock is run anyway."""
OVERFLOW_SLACK = 1
"""Pixels of sideways scroll forgiven for rounding, as in the reference."""
GONE_POLLS, GONE_POLL_SECONDS = 20, 0.05
"""How long a failed browser step waits for the page's own navigation or crash to be reported."""
MIN_QUANTITIES = 3
MAX_LISTED = 3
"""Console errors and requests listed per product before `and N more`."""

PAGE_JS = resources.files("factory").joinpath("probe_page.js").read_text(encoding="utf-8")

T = TypeVar("T")


class ProbeError(Exception):
    """The probe cannot run at all (no catalogue, no such slug, no browser)."""


class Finding(BaseModel):
    """One of our order's demands beyond the reference, judged on its own."""

    name: str
    ok: bool
    detail: str


class ProductProbe(BaseModel):
    """The verdict on one product."""

    slug: str
    line: str
    ok: bool = False
    problems: list[str] = []
    """One line each; reference rules start `rule N:`."""
    findings: list[Finding] = []
    """Beyond the reference; empty under --parity."""
    shots: list[str] = []
    """Screenshot paths, relative to the workspace when inside it."""
    details: dict[str, Any] = {}
    """What the row records: loaded, api, alarms, reset_clears, manual_opens, overflow, console_errors."""
    seconds: float = 0.0

    def failures(self) -> list[str]:
        """Every reason this product fails, one line each: the problems, then failed findings."""
        return self.problems + [f"{f.name}: {f.detail}" for f in self.findings if not f.ok]


class ProbeReport(BaseModel):
    results: list[ProductProbe]
    launches: int = 1
    """Browsers this call started; more than one means a wedged one was replaced."""

    @computed_field  # type: ignore[prop-decorator]
    @property
    def ok(self) -> bool:
        return bool(self.results) and all(result.ok for result in self.results)


class Stop(Exception):
    """Ends one product's probe early with a problem (a hang, a navigation)."""


@dataclass
class Target:
    slug: str
    line: Line
    entry: dict[str, Any]
    folder: Path


@dataclass
class Watch:
    """Everything a page does on its own: errors, requests, dialogs, navigation."""

    entry_url: str
    exceptions: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    windows: int = 0
    navigated: list[str] = field(default_factory=list)
    crashed: bool = False
    where: str = "the page"

    async def attach(self, page: Page, *, main: bool = True) -> None:
        page.on("pageerror", lambda e: self.exceptions.append(one_line(f"{e.name}: {e.message}")))
        page.on("console", self._console)
        page.on("requestfailed", self._failed)
        page.on("dialog", self._dialog)
        page.on("popup", self._popup)
        page.on("framenavigated", self._navigated)
        page.on("crash", self._crash)
        page.on("websocket", lambda ws: self.external.append(ws.url))
        # Only non-local requests come back to Python; file: loads stay inside the browser.
        await page.route(NOT_LOCAL, self._route)
        await page.route_web_socket(ANY, self._socket)
        if main:
            # A window the product opens has no page route of its own: its requests land here.
            await page.context.route(NOT_LOCAL, self._route)

    async def _route(self, route: Any) -> None:
        self.external.append(route.request.url)
        await route.abort("blockedbyclient")

    async def _socket(self, socket: Any) -> None:
        self.external.append(socket.url)
        await socket.close()

    def restart(self, entry_url: str, where: str) -> None:
        """Watch the same page afresh for a new document (the manual after the panel)."""
        self.entry_url, self.where = entry_url, where
        for seen in (self.exceptions, self.console, self.failed, self.external, self.dialogs):
            seen.clear()
        self.windows = 0
        self.navigated.clear()
        self.crashed = False

    def _console(self, message: Any) -> None:
        if message.type != "error":
            return
        # A blocked or missing file is reported once, as a request, not again as its console echo.
        if message.text.startswith("Failed to load resource"):
            return
        self.console.append(one_line(message.text))

    def _failed(self, request: Any) -> None:
        if request.url not in self.external:
            self.failed.append(f"{request.url} ({request.failure})")

    async def _dialog(self, dialog: Any) -> None:
        if dialog.type == "beforeunload":
            # Only our own navigation to the manual can raise it; leaving must win.
            with contextlib.suppress(PlaywrightError):
                await dialog.accept()
            return
        self.dialogs.append(f"{dialog.type}({json.dumps(dialog.message[:80])})")
        with contextlib.suppress(PlaywrightError):
            await dialog.dismiss()

    async def _popup(self, popup: Page) -> None:
        self.windows += 1
        with contextlib.suppress(PlaywrightError):
            await popup.close()

    def _navigated(self, frame: Any) -> None:
        if frame.parent_frame is None and urldefrag(frame.url)[0] != self.entry_url:
            self.navigated.append(frame.url)

    def _crash(self, page: Any) -> None:
        self.crashed = True

    def halt(self, where: str) -> None:
        """Stop the product's probe if the page left or died: later rules would only echo it."""
        if gone := self.gone(where):
            raise Stop(gone)

    def gone(self, where: str | None = None) -> str | None:
        """Why the page is no longer the product's, if it left or died."""
        where = where or self.where
        if self.navigated:
            return f"{where} navigated away to {self.navigated[0]} (a product page must stay put)"
        if self.crashed:
            return f"{where} crashed the browser tab"
        return None

    async def cause(self, error: PlaywrightError) -> str:
        """The product's own doing behind a browser error, if any, else the error itself.

        A page that navigates mid-step fails the step (a screenshot of a document being
        replaced) a moment before the navigation is reported: give the report that moment.
        """
        for _ in range(GONE_POLLS):
            if gone := self.gone():
                return gone
            await asyncio.sleep(GONE_POLL_SECONDS)
        return f"the browser failed while probing: {one_line(error.message)}"

    def problems(self, rule: str, where: str, parity: bool = False) -> list[str]:
        """What the page did wrong; under `parity`, only what the reference's probe sees.

        The reference lets Playwright dismiss alert() unseen and never looks at windows a
        page opens (their requests still count here: they leave the machine all the same).
        """
        out: list[str] = []
        out += listed(f"{rule}{where} threw an uncaught exception", self.exceptions)
        out += listed(f"{rule}{where} logged a console error", self.console)
        out += listed(f"{rule}{where} made a request that failed", self.failed)
        out += listed(
            f"{rule}{where} made an external request (blocked; only file:, data:, blob: are allowed)",
            self.external,
        )
        if parity:
            return out
        out += listed(f"{rule}{where} opened a dialog (dismissed)", self.dialogs)
        if self.windows:
            out.append(f"{rule}{where} opened {self.windows} window(s) with window.open (closed)")
        return out


def rule_number(problem: str) -> int:
    """Where a problem sorts: by its reference rule, unnumbered ones (a hang, a page gone) last."""
    found = re.match(r"rule (\d+):", problem)
    return int(found.group(1)) if found else 99


def one_line(text: str, limit: int = 200) -> str:
    first = text.strip().splitlines()[0] if text.strip() else "(empty)"
    return first[:limit]


def listed(what: str, items: list[str]) -> list[str]:
    unique = list(dict.fromkeys(items))
    lines = [f"{what}: {item}" for item in unique[:MAX_LISTED]]
    if len(unique) > MAX_LISTED:
        lines.append(f"{what}: and {len(unique) - MAX_LISTED} more")
    return lines


# --- choosing what to probe -------------------------------------------------------------


def catalogue(workspace: Path, line: Line) -> list[dict[str, Any]]:
    path = line.catalogue_path(workspace)
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ProbeError(f"{path}: no catalogue (is {workspace} a factory workspace?)") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ProbeError(f"{path}: not readable JSON ({one_line(str(error))})") from None
    if not isinstance(entries, list):
        raise ProbeError(f"{path}: not a JSON array")
    return [e for e in entries if isinstance(e, dict) and isinstance(e.get("slug"), str)]


def catalogues(workspace: Path, lines: list[Line]) -> list[tuple[Line, list[dict[str, Any]]]]:
    """Each line's entries; when every line is asked, one with no catalogue yet has none."""
    if len(lines) > 1:
        lines = [line for line in lines if line.catalogue_path(workspace).exists()]
        if not lines:
            raise ProbeError(
                f"{workspace / 'catalogue'}: no catalogue (is {workspace} a factory workspace?)"
            )
    return [(line, catalogue(workspace, line)) for line in lines]


def targets(workspace: Path, slugs: list[str] | None, all: bool, lines: list[Line]) -> list[Target]:
    """The products named (every line's that carries the slug), every product, or each line's newest."""
    shelves = catalogues(workspace, lines)
    where = ", ".join(str(line.catalogue_path(workspace)) for line, _ in shelves)
    if all:
        chosen = [(line, entry) for line, entries in shelves for entry in entries]
    elif slugs:
        # A slug listed twice in one catalogue means its last entry, as everywhere else.
        by_slug = [(line, {e["slug"]: e for e in entries}) for line, entries in shelves]
        unknown = [s for s in slugs if not any(s in listed for _, listed in by_slug)]
        if unknown:
            raise ProbeError(f"{where}: no entry with slug {', '.join(unknown)}")
        chosen = [(line, listed[s]) for s in slugs for line, listed in by_slug if s in listed]
    else:
        chosen = [(line, entries[-1]) for line, entries in shelves if entries]
    if not chosen:
        empty = "the catalogue is empty" if len(shelves) == 1 else "the catalogues are empty"
        raise ProbeError(f"{where}: {empty}, nothing to probe")
    return [
        Target(e["slug"], line, e, line.product_dir(workspace, e["slug"])) for line, e in chosen
    ]


# --- the browser ------------------------------------------------------------------------


class Chromium:
    """One browser for the whole call, replaced only when a wedged renderer will not let go."""

    def __init__(self, playwright: Any, configured: str | None) -> None:
        self.playwright = playwright
        self.configured = configured
        self.browser: Browser | None = None
        self.launches = 0
        self.lock = asyncio.Lock()

    async def get(self) -> Browser:
        async with self.lock:
            if self.browser is None or not self.browser.is_connected():
                try:
                    self.browser = await self.playwright.chromium.launch(
                        **launch_options(self.configured)
                    )
                except BrowserNotFound as error:
                    raise ProbeError(f"no browser: {error}") from None
                except PlaywrightError as error:
                    raise ProbeError(f"no browser: {one_line(error.message)}") from None
                self.launches += 1
            return self.browser

    async def discard(self, browser: Browser) -> None:
        async with self.lock:
            if self.browser is browser:
                self.browser = None
        with contextlib.suppress(TimeoutError, PlaywrightError):
            await asyncio.wait_for(browser.close(), QUIT_SECONDS)

    async def close(self) -> None:
        if self.browser is not None:
            await self.discard(self.browser)


async def within(step: Awaitable[T], what: str, seconds: float = STEP_SECONDS) -> T:
    """Await one step, or stop the product: a step this slow means the page's thread is stuck."""
    try:
        return await asyncio.wait_for(step, seconds)
    except TimeoutError:
        raise Stop(
            f"{what} did not finish within {seconds:g} s (an endless loop in the page?)"
        ) from None


HANDLES: weakref.WeakKeyDictionary[Page, JSHandle] = weakref.WeakKeyDictionary()
"""The in-page function, compiled once per page document rather than sent with every step."""


async def in_page(
    page: Page, step: str, what: str, *, limit: float = STEP_SECONDS, **args: Any
) -> Any:
    if page not in HANDLES:
        HANDLES[page] = await within(page.evaluate_handle(f"() => ({PAGE_JS}\n)"), what)
    call = HANDLES[page].evaluate("(fn, request) => fn(request)", {"step": step, "args": args})
    return await within(call, what, limit)


async def advance(context: BrowserContext, ms: int, what: str, watch: Watch) -> None:
    """Run every page of the context for `ms` simulated milliseconds."""
    try:
        await within(context.clock.run_for(ms), what)
    except PlaywrightError as error:
        # The paused clock runs the page's timers inside run_for, so their throws land here
        # instead of as page errors; they are the page's uncaught exceptions all the same.
        watch.exceptions.append(one_line(error.message.removeprefix("Clock.run_for: ")))


# Math.random from a fixed seed (mulberry32): with the paused clock, two pages of
# one product given the same time see the same frames, so a difference between
# them is the input's doing and not chance.
SEEDED_RANDOM = """
(() => {
  let seed = 0x9e3779b9;
  Math.random = () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
})();
"""


async def new_context(browser: Browser) -> BrowserContext:
    """A fresh context: its own renderer, a paused clock all its pages share, seeded chance."""
    context = await browser.new_context(viewport=DESKTOP, device_scale_factor=1)
    await context.add_init_script(SEEDED_RANDOM)
    # A fixed, realistic start: deterministic runs, and no product sees the year 1970.
    await context.clock.install(time=CLOCK_START)
    await context.clock.pause_at(CLOCK_START + 1)
    return context


async def open_page(context: BrowserContext, watch: Watch, *, main: bool = True) -> Page:
    """A 1440x900 tab, watched; `main` also catches what windows it opens do."""
    page = await context.new_page()
    await watch.attach(page, main=main)
    return page


@dataclass
class Slot:
    """One job's context and tabs, reused product after product while they stay healthy.

    A fresh context costs its renderer's start-up, about half a CPU-second here;
    a healthy product leaves the tab to the next. A product that hangs, leaves
    or breaks the tab takes the slot with it, and the next product gets a new one.
    """

    browser: Browser
    context: BrowserContext
    page: Page
    watch: Watch
    twin: Page | None = None
    """A second tab for the games' lockstep comparison, opened when first needed."""

    @classmethod
    async def open(cls, browser: Browser) -> Slot:
        context = await new_context(browser)
        watch = Watch("about:blank")
        return cls(browser, context, await open_page(context, watch), watch)

    async def twin_page(self) -> Page:
        if self.twin is None:
            self.twin = await open_page(self.context, Watch("about:blank"), main=False)
        return self.twin

    async def tidy(self) -> None:
        """Leave nothing for the next product: storage emptied, desktop size.

        The tab stays where it is (its clock is paused, nothing runs): the next
        product's page replaces it in the same renderer, where a stop at
        about:blank would cost a new one.
        """
        for page in (self.page, self.twin):
            if page is None:
                continue
            await within(page.evaluate(FORGET), "clearing the product's storage")
            await page.set_viewport_size(DESKTOP)


FORGET = "() => { try { localStorage.clear(); sessionStorage.clear(); } catch (e) {} }"
"""file: pages share one origin's storage; a product must not find the last one's keys."""


async def click(target: Locator) -> None:
    """A real mouse click at the element's centre, without Playwright's wait for stillness.

    The page clock is paused, so "stable across two animation frames" only costs
    time; an element covered by another still loses the click, as for a user.
    """
    await target.click(force=True, timeout=STEP_SECONDS * 1000)


async def load(page: Page, path: Path, what: str) -> None:
    HANDLES.pop(page, None)  # a new document: the old in-page function is gone with it
    if not path.is_file():
        raise Stop(f"{what}: {path.name} is missing")
    try:
        await page.goto(path.as_uri(), wait_until="load", timeout=LOAD_SECONDS * 1000)
    except PlaywrightError as error:
        if "Timeout" in error.message:
            raise Stop(
                f"{what} did not finish loading within {LOAD_SECONDS:g} s (an endless loop or a file that never ends?)"
            ) from None
        raise Stop(f"{what} could not be opened: {one_line(error.message)}") from None


async def shoot(page: Page, out: Path, name: str, result: ProductProbe, workspace: Path) -> None:
    path = out / name
    await within(
        page.screenshot(path=str(path), timeout=STEP_SECONDS * 1000), f"the screenshot {name}"
    )
    shown = path.resolve()
    with contextlib.suppress(ValueError):
        shown = shown.relative_to(workspace)
    result.shots.append(str(shown))


def merge(ranges: dict[str, list[float]], more: dict[str, list[float]] | None) -> None:
    for key, (low, high) in (more or {}).items():
        if key in ranges:
            ranges[key] = [min(ranges[key][0], low), max(ranges[key][1], high)]
        else:
            ranges[key] = [low, high]


def names(value: Any) -> list[str]:
    """A catalogue list field as strings; a malformed one is the check's to report, not ours."""
    return [str(v) for v in value] if isinstance(value, list) else []


# --- machines: the reference's eight rules and our three findings -----------------------


@dataclass
class Run:
    """What one product's probe needs as it goes."""

    target: Target
    result: ProductProbe
    out: Path
    workspace: Path
    shots_only: bool
    parity: bool
    ranges: dict[str, list[float]] = field(default_factory=dict)

    def problem(self, rule: int, text: str) -> None:
        if not self.shots_only:
            self.result.problems.append(f"rule {rule}: {text}")

    def finding(self, name: str, ok: bool, detail: str) -> None:
        self.result.findings.append(Finding(name=name, ok=ok, detail=detail))


async def probe_machine(slot: Slot, run: Run) -> None:
    entry, details = run.target.entry, run.result.details
    controls, faults = names(entry.get("controls")), names(entry.get("faults"))
    index = run.target.folder / "index.html"
    context, page, watch = slot.context, slot.page, slot.watch
    watch.restart(index.as_uri(), "the panel")
    details["loaded"] = False
    await load(page, index, "the panel")
    details["loaded"] = True
    await advance(context, WARMUP_SECONDS, "the panel's own loop (2 simulated seconds)", watch)
    watch.halt("the panel")
    await shoot(page, run.out, f"{run.target.slug}-desktop.png", run.result, run.workspace)

    api = await in_page(page, "api", "rule 2: reading window.machine", faults=faults)
    details["api"] = not api["problems"]
    for text in api["problems"]:
        run.problem(2, text)

    seen = await in_page(page, "controls", "rule 3: finding the controls", names=controls)
    for name in seen["missing"]:
        run.problem(3, f'control "{name}" has no element with data-control="{name}" on the panel')
    for name in seen["hidden"]:
        run.problem(3, f'control "{name}" is not visible in the 1440x900 viewport')

    await manual(page, run, watch)
    watch.halt("the panel")
    await overflow(page, run, watch)

    if api["usable"] and not run.shots_only:
        await simulate(page, run, faults)
        if not run.parity:
            await keyboard(page, run, controls)
            await fault_controls(page, run, faults)
            # A history array is one quantity however long it is: fold its indices.
            changed = sorted(
                {
                    re.sub(r"\.\d+(?=\.|$)", "[]", k)
                    for k, (lo, hi) in run.ranges.items()
                    if hi != lo
                }
            )
            run.finding(
                "quantities",
                len(changed) >= MIN_QUANTITIES,
                f"{len(changed)} numeric quantities in state() changed ({', '.join(changed[:8]) or 'none'}); the order asks for at least {MIN_QUANTITIES}",
            )
    watch.halt("the panel")
    details["console_errors"] = (watch.exceptions + watch.console)[:MAX_LISTED]
    details["external_requests"] = watch.external[:MAX_LISTED]
    for text in watch.problems("", "the panel", run.parity):
        run.problem(1, text)
    if run.shots_only:
        return

    # The same tab, sent to the manual: cheaper than a second page, and the panel's loop stops.
    alone = run.target.folder / "manual.html"
    watch.restart(alone.as_uri(), "rule 8: the manual")
    try:
        await load(page, alone, "rule 8: the manual")
        await advance(context, WARMUP_SECONDS, "rule 8: manual.html's own scripts", watch)
        watch.halt("rule 8: the manual")
    except Stop as stop:
        run.problem(8, str(stop).removeprefix("rule 8: "))
    for text in watch.problems("", "manual.html", run.parity):
        run.problem(8, text)


async def manual(page: Page, run: Run, watch: Watch) -> None:
    """Rule 4: the dialog's parts, closed on load, opened and closed by its controls."""
    parts = await in_page(page, "manualParts", "rule 4: finding the manual")
    for text in parts["problems"]:
        run.problem(4, text)
    run.result.details["manual_opens"] = False
    if parts["problems"] and not run.shots_only:
        return
    try:
        await click(page.locator('[data-action="manual"]').first)
    except PlaywrightError as error:
        run.problem(
            4, f'clicking the data-action="manual" control failed: {one_line(error.message)}'
        )
        return
    opened = await in_page(page, "manualOpen", "rule 4: reading the manual dialog")
    if not opened:  # perhaps on a timer: the reference looks after 500 ms
        await advance(page.context, OPEN_MS, "rule 4: the page after opening the manual", watch)
        opened = await in_page(page, "manualOpen", "rule 4: reading the manual dialog")
    run.result.details["manual_opens"] = opened
    if not opened:
        run.problem(4, 'clicking the data-action="manual" control did not open the manual dialog')
        return
    await shoot(page, run.out, f"{run.target.slug}-manual.png", run.result, run.workspace)
    try:
        await click(page.locator('[data-action="close-manual"]').first)
    except PlaywrightError as error:
        run.problem(
            4, f'clicking the data-action="close-manual" control failed: {one_line(error.message)}'
        )
        await page.keyboard.press("Escape")
        return
    if await in_page(page, "manualOpen", "rule 4: reading the manual dialog"):
        await advance(page.context, CLOSE_MS, "rule 4: the page after closing the manual", watch)
    if await in_page(page, "manualOpen", "rule 4: reading the manual dialog"):
        run.problem(
            4, 'clicking the data-action="close-manual" control did not close the manual dialog'
        )
        await page.keyboard.press("Escape")


async def overflow(page: Page, run: Run, watch: Watch) -> None:
    """Rule 7: no sideways scroll at either width, the opener visible on a phone; the phone shot."""
    sides: dict[str, bool] = {}
    for name, viewport in (("desktop", DESKTOP), ("phone", PHONE)):
        if viewport != DESKTOP:  # the panel is already at 1440: nothing to re-lay out
            await resize(page, viewport, watch)
        size = await in_page(page, "overflow", f"rule 7: measuring the page at {viewport['width']}")
        sides[name] = size["wide"] - size["width"] > OVERFLOW_SLACK
        if sides[name]:
            run.problem(
                7,
                f"the panel scrolls sideways at {viewport['width']}x{viewport['height']} ({size['wide']} px wide in {size['width']})",
            )
    if not await in_page(page, "openerVisible", "rule 7: finding the opener at 390"):
        run.problem(7, 'the data-action="manual" opener is not visible at 390x844')
    await shoot(page, run.out, f"{run.target.slug}-phone.png", run.result, run.workspace)
    await page.set_viewport_size(DESKTOP)
    run.result.details["overflow"] = sides


async def resize(page: Page, viewport: dict[str, int], watch: Watch) -> None:
    """Resize, then give the page its resize event and the reference's 600 ms to re-lay out.

    The event comes with a real frame, so wait (briefly, in wall time) until the page has
    heard it; then run the page's clock, which its own timers and frames follow.
    """
    await in_page(page, "resizeWatch", "rule 7: listening for the resize")
    await page.set_viewport_size(viewport)
    for _ in range(RESIZE_POLLS):
        if await in_page(page, "resized", "rule 7: waiting for the resize event"):
            break
        await asyncio.sleep(0.01)
    await advance(page.context, RESIZE_MS, f"rule 7: the page at {viewport['width']}", watch)


async def simulate(page: Page, run: Run, faults: list[str]) -> None:
    """Rules 5 and 6, each in one evaluate so the page's own loop cannot interleave.

    Under `parity` they read what the reference reads: rule 5 only the alarms, rule 6
    every number once, at the end; the numbers on the way are for the quantities finding.
    """
    sampled = not run.parity
    alarms = await in_page(
        page,
        "alarms",
        "rule 5: driving the faults through tick()",
        faults=faults,
        sampled=sampled,
        limit=SIMULATION_SECONDS,
    )
    merge(run.ranges, alarms["ranges"])
    run.result.details["alarms"] = alarms["seconds"]
    run.result.details["reset_clears"] = bool(alarms["cleared"]) and all(alarms["cleared"].values())
    for text in alarms["problems"]:
        run.problem(5, text)
    finite = await in_page(
        page,
        "run",
        "rule 6: 600 x tick(1)",
        seconds=RUN_SECONDS,
        sampled=sampled,
        limit=SIMULATION_SECONDS,
    )
    merge(run.ranges, finite["ranges"])
    for text in finite["problems"]:
        run.problem(6, text)


KEYS_BY_KIND = {
    "range": ("ArrowRight", "ArrowUp", "ArrowLeft"),
    "number": ("ArrowUp", "ArrowDown"),
    "select": ("ArrowDown", "ArrowUp"),
}
KEYS_OTHERWISE = ("Space", "Enter", "ArrowRight", "ArrowUp")


async def keyboard(page: Page, run: Run, controls: list[str]) -> None:
    """The keyboard finding: Tab reaches every control, and a key operates it.

    Operated: the control or state() changed, or the page consumed the key; a native
    control (button, input, select) counts as operated by the platform. Seen on the
    reference's machines: a bell plunger, an interlocked fire key and a valve whose
    setpoint is hidden until the flow follows all change nothing at once.
    """
    count = await in_page(page, "focusStart", "keyboard: counting focusable elements")
    for _ in range(min(count + 2, 200)):
        await within(page.keyboard.press("Tab"), "keyboard: pressing Tab")
    reached = await in_page(page, "focusReached", "keyboard: reading focus", names=controls)
    unreached = [c for c in controls if c not in reached]
    inert = []
    for name, where in reached.items():
        operated = False
        for key in KEYS_BY_KIND.get(where["kind"], KEYS_OTHERWISE):
            before = await in_page(
                page, "focusOn", "keyboard: focusing a control", index=where["index"]
            )
            await within(page.keyboard.press(key), f"keyboard: pressing {key}")
            after = await in_page(
                page, "fingerprint", "keyboard: reading a control", index=where["index"]
            )
            if after != before or await in_page(page, "consumed", "keyboard: reading the key"):
                operated = True
                break
        if not operated and not where["native"]:
            inert.append(name)
    # Whatever the keys switched on, let it run so the quantities finding sees it move.
    settled = await in_page(
        page, "settle", "keyboard: running after the key presses", seconds=SETTLE_SECONDS
    )
    merge(run.ranges, settled.get("ranges"))
    detail = []
    if unreached:
        detail.append(f"Tab never reaches {', '.join(map(json.dumps, unreached))}")
    if inert:
        detail.append(f"no key press changes {', '.join(map(json.dumps, inert))}")
    run.finding(
        "keyboard",
        not detail,
        "; ".join(detail) or f"all {len(controls)} controls reached by Tab and operated by keys",
    )


async def fault_controls(page: Page, run: Run, faults: list[str]) -> None:
    """The fault-controls finding: a visible data-fault control per fault raises an alarm."""
    broken = []
    for fault in faults:
        found = await in_page(
            page, "faultControl", "fault-controls: finding a control", fault=fault
        )
        if "error" in found:
            broken.append(found["error"])
            continue
        try:
            await click(page.locator("[data-fault]").nth(found["index"]))
        except PlaywrightError as error:
            broken.append(
                f"clicking data-fault={json.dumps(fault)} failed: {one_line(error.message)}"
            )
            continue
        alarm = await in_page(page, "faultAlarm", "fault-controls: ticking after a click")
        merge(run.ranges, alarm.get("ranges"))
        if "error" in alarm:
            broken.append(alarm["error"])
        elif alarm["seconds"] is None:
            broken.append(
                f"clicking data-fault={json.dumps(fault)} raised no alarm within {FAULT_SECONDS} s"
            )
    run.finding(
        "fault-controls",
        not broken,
        "; ".join(broken) or f"all {len(faults)} faults raise an alarm from their panel control",
    )


# --- any other line: the page probe -----------------------------------------------------

INPUT_KEYS = (
    "Enter",
    "Space",
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "KeyW",
    "KeyA",
    "KeyS",
    "KeyD",
)
HOLD_MS = 100
"""Simulated time a key is held, so games that poll key state in their loop see it."""


async def probe_page(slot: Slot, run: Run) -> None:
    """Loads clean, no external request, input changes the screen; desktop and phone shots.

    Two pages of the product run in lockstep on the context's shared clock; only
    one gets the input. A game that animates on its own still shows the same
    frame in both, so only a difference the input made counts.
    """
    index = run.target.folder / "index.html"
    context, page, watch = slot.context, slot.page, slot.watch
    watch.restart(index.as_uri(), "the game")
    # The twin is loaded at the same simulated moment, or the two would not be in step.
    still = None if run.shots_only else await slot.twin_page()
    run.result.details["loaded"] = False
    await load(page, index, "the game")
    run.result.details["loaded"] = True
    if still:
        await load(still, index, "the game")
    await advance(context, WARMUP_SECONDS // 2, "the game's own loop (1 simulated second)", watch)
    watch.halt("the game")
    await shoot(page, run.out, f"{run.target.slug}-desktop.png", run.result, run.workspace)
    if still:
        await answers_input(context, page, still, watch, run)

    await page.set_viewport_size(PHONE)
    await advance(context, WARMUP_SECONDS // 4, "the game's own loop at 390x844", watch)
    await shoot(page, run.out, f"{run.target.slug}-phone.png", run.result, run.workspace)
    watch.halt("the game")
    run.result.details["console_errors"] = (watch.exceptions + watch.console)[:MAX_LISTED]
    run.result.details["external_requests"] = watch.external[:MAX_LISTED]
    run.result.problems[:0] = [f"load: {text}" for text in watch.problems("", "the game")]


async def answers_input(
    context: BrowserContext, page: Page, still: Page, watch: Watch, run: Run
) -> None:
    """Click and press keys on one page, hold the same time on both, compare the two screens."""
    await within(page.mouse.click(DESKTOP["width"] / 2, DESKTOP["height"] / 2), "clicking the game")
    for key in INPUT_KEYS:
        await within(page.keyboard.down(key), f"pressing {key}")
        await advance(context, HOLD_MS, f"the game's loop while {key} is held", watch)
        await within(page.keyboard.up(key), f"releasing {key}")
    await advance(context, WARMUP_SECONDS // 4, "the game's own loop after input", watch)
    watch.halt("the game")
    played = await within(page.screenshot(timeout=STEP_SECONDS * 1000), "a screenshot after input")
    idle = await within(still.screenshot(timeout=STEP_SECONDS * 1000), "a screenshot without input")
    run.result.details["input_changes_screen"] = played != idle
    if played == idle:
        run.result.problems.append(
            "input: nothing on screen changed after keyboard and pointer input (compared with the same game left alone)"
        )


ROUTINES: dict[str, Callable[[Slot, Run], Awaitable[None]]] = {
    "machine": probe_machine,
    "page": probe_page,
}
"""How a line's products are driven, by the name the line gives (`Line.probe`)."""


# --- running it -------------------------------------------------------------------------


async def probe_one(chromium: Chromium, slot: Slot | None, run: Run) -> Slot | None:
    """Probe one product in `slot` (or a new one); return the slot if the next may reuse it."""
    started = time.monotonic()
    target, result = run.target, run.result
    # Last run's pictures would pass for this run's where this run takes none (no manual opens).
    for name in target.line.shot_names(target.slug):
        (run.out / name).unlink(missing_ok=True)
    browser = await chromium.get()
    if slot is None or slot.browser is not browser:
        try:
            slot = await within(Slot.open(browser), "opening a browser context")
        except (Stop, PlaywrightError):
            # The browser died under an earlier product: one fresh launch, then carry on.
            await chromium.discard(browser)
            slot = await Slot.open(await chromium.get())
    healthy = False
    try:
        body = ROUTINES[target.line.probe]
        await asyncio.wait_for(body(slot, run), PRODUCT_SECONDS)
        await slot.tidy()
        healthy = True
    except TimeoutError:
        result.problems.append(f"the probe did not finish within {PRODUCT_SECONDS:g} s")
    except Stop as stop:
        # A step that timed out because the page was leaving is the leaving's fault.
        result.problems.append(slot.watch.gone() or str(stop))
    except PlaywrightError as error:
        result.problems.append(await slot.watch.cause(error))
    except Exception as error:  # a product must not take the whole call down with a traceback
        result.problems.append(
            f"the probe failed on this product: {type(error).__name__}: {one_line(str(error))}"
        )
    if not healthy:
        await close_slot(chromium, slot)
    if run.shots_only:
        # Only a page that could not be opened at all fails a shots-only run.
        result.ok = bool(result.details.get("loaded"))
        result.problems = [] if result.ok else result.problems
    else:
        result.problems.sort(key=rule_number)
        result.ok = not result.problems and all(f.ok for f in result.findings)
    result.seconds = round(time.monotonic() - started, 3)
    return slot if healthy else None


async def close_slot(chromium: Chromium, slot: Slot) -> None:
    try:
        await asyncio.wait_for(slot.context.close(), CLOSE_SECONDS)
    except (TimeoutError, PlaywrightError):
        await chromium.discard(slot.browser)


async def probe_async(
    workspace: Path,
    chosen: list[Target],
    *,
    out: Path,
    shots_only: bool,
    jobs: int,
    parity: bool,
    browser: str | None = None,
) -> ProbeReport:
    runs = [
        Run(t, ProductProbe(slug=t.slug, line=t.line.name), out, workspace, shots_only, parity)
        for t in chosen
    ]
    queue: asyncio.Queue[Run] = asyncio.Queue()
    for run in runs:
        queue.put_nowait(run)
    async with async_playwright() as playwright:
        chromium = Chromium(playwright, browser)
        await chromium.get()  # a missing browser is one error, not one per product

        async def worker() -> None:
            slot = None
            try:
                while not queue.empty():
                    slot = await probe_one(chromium, slot, queue.get_nowait())
            finally:
                if slot is not None:
                    await close_slot(chromium, slot)

        try:
            await asyncio.gather(*(worker() for _ in range(max(1, min(jobs, len(runs))))))
        finally:
            await chromium.close()
    return ProbeReport(results=[run.result for run in runs], launches=chromium.launches)


def probe(
    workspace: Path,
    slugs: list[str] | None = None,
    *,
    all: bool = False,
    line: str | None = None,
    out: Path | None = None,
    shots_only: bool = False,
    jobs: int | None = None,
    parity: bool = False,
    browser: str | None = None,
) -> ProbeReport:
    """Probe the named products and write their screenshots.

    Slugs are looked up in every line's catalogue, or in `line`'s alone; without
    slugs, `all` probes every product and otherwise each line's newest is probed.
    `browser` is a Chromium binary; default: the workspace's `browser` setting, then
    the system's Chromium. Raises ProbeError when it cannot run at all: no
    catalogue, no such slug, no browser, unreadable settings.
    """
    workspace = workspace.resolve()
    try:
        browser = browser or load_settings(workspace).browser
    except ConfigError as error:
        raise ProbeError(str(error)) from None
    try:
        lines = list(all_lines().values()) if line is None else [line_named(line)]
    except KeyError as error:
        raise ProbeError(str(error.args[0])) from None
    chosen = targets(workspace, slugs, all, lines)
    out = out if out is not None else workspace / ".factory" / "shots"
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ProbeError(f"{out}: cannot create the screenshot folder ({error.strerror})") from None
    return asyncio.run(
        probe_async(
            workspace,
            chosen,
            out=out,
            shots_only=shots_only,
            jobs=jobs or 2,
            parity=parity,
            browser=browser,
        )
    )
