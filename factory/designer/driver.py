"""The built-in designer as a Model: a state machine that acts only through tool calls.

Each `query` reads the conversation so far (its own earlier calls and the
results they got) and answers with the next step of the order: read the
catalogue, look at the newest machines, choose, write the brief and the four
files, probe, look, measure, revise, probe and look again, append the entry,
check, succeed. It never touches the workspace itself except to *look* at
screenshot files and the catalogue it was shown, and it gives up with
`failure` after a bounded number of failed repairs. It builds machines only:
an order of any other line ends at once through `failure`, touching nothing.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from factory.designer import VERSION
from factory.designer.choose import Design, design_for, entry
from factory.designer.measure import measure, revise
from factory.designer.render import article, physics_text, procedure, render
from factory.lines import all_lines
from factory.lines.machines import LINE as MACHINES
from factory.model import Reply, Request, ToolCall, Usage

CATALOGUE = "catalogue/machines.json"
SHELF = "shelf/machines"
ORDER_HEADING = "# The standing order"
"""How `prompt.system_prompt` heads the order: what follows it is the order itself."""
SHOTS = ".factory/shots"
MAX_PROBE_FAILURES = 3
PLAN = [
    "Read the catalogue and look at the three newest machines",
    "Choose the machine least like the shelf and write the brief",
    "Write index.html, machine.css, machine.js and manual.html; add the catalogue entry",
    "Probe, view the screenshots, measure them and revise the design",
    "Probe and look again",
    "Run the check and report",
]


@dataclass
class Step:
    index: int
    name: str
    args: dict[str, Any]
    result: str


def _lines_text(result: str) -> str:
    """The file text back from `read`'s numbered lines."""
    out = []
    for line in result.splitlines():
        match = re.match(r"^\s*\d+  ?(.*)$", line)
        if match:
            out.append(match.group(1))
    return "\n".join(out)


def not_mine(system: str) -> str | None:
    """Why the order in this system prompt is not a machine order, or None when it is.

    The driver is never told the order's name, so it reads the order the way a
    model would: the line whose catalogue the order names is the line it makes
    (AGENTS.md, above the order, names every catalogue, so only the order counts)."""
    order = system.rsplit(ORDER_HEADING, 1)[-1]
    named = [
        line
        for line in all_lines().values()
        if f"catalogue/{line.name}.json" in order or f"shelf/{line.name}/" in order
    ]
    if any(line.name == MACHINES.name for line in named):
        return None
    which = f"the {named[0].order} order" if named else "this order"
    return f"the built-in designer builds machines only; {which} needs a model (set a provider key)"


def _failed(result: str) -> bool:
    match = re.search(r"\[exit status (\S+?)\]", result)
    return match is None or match.group(1) != "0"


class Designer:
    """Model protocol: name, provider, driver, vision, query(request) -> Reply."""

    provider = "builtin"
    driver = "builtin"
    vision = True

    def __init__(self, workspace: Path, seed: str):
        self.name = f"factory-designer-{VERSION}"
        self.workspace = Path(workspace)
        self.seed = seed
        self._disk_catalogue: list[dict[str, Any]] | None = None

    # --- reading the conversation ----------------------------------------------------

    def _steps(self, messages: list[dict[str, Any]]) -> list[Step]:
        results = {
            m.get("tool_call_id"): str(m.get("content", ""))
            for m in messages
            if m.get("role") == "tool"
        }
        steps = []
        for message in messages:
            if message.get("role") != "assistant":
                continue
            for call in message.get("tool_calls") or []:
                function = call.get("function", {})
                try:
                    args = json.loads(function.get("arguments") or "{}")
                except json.JSONDecodeError:
                    args = {}
                steps.append(
                    Step(
                        len(steps), function.get("name", ""), args, results.get(call.get("id"), "")
                    )
                )
        return steps

    def _catalogue(self, steps: list[Step]) -> list[dict[str, Any]]:
        for step in steps:
            if step.name == "read" and step.args.get("path") == CATALOGUE:
                try:
                    catalogue = json.loads(_lines_text(step.result) or "[]")
                    if isinstance(catalogue, list):
                        return catalogue
                except json.JSONDecodeError:
                    break
        # The read was cut or unreadable: look at the same file directly, once.
        if self._disk_catalogue is None:
            try:
                loaded = json.loads((self.workspace / CATALOGUE).read_text(encoding="utf-8"))
            except (OSError, json.JSONDecodeError):
                loaded = []
            self._disk_catalogue = loaded if isinstance(loaded, list) else []
        return self._disk_catalogue

    @staticmethod
    def _scratch(request: Request) -> str:
        texts = [request.system] + [
            str(m.get("content")) for m in request.messages if m.get("role") in ("user", "system")
        ]
        for text in texts:
            match = re.search(r"\.factory/scratch/[A-Za-z0-9_.:-]+", text or "")
            if match:
                return match.group(0).rstrip(".:")
        return ""

    # --- the protocol ------------------------------------------------------------------

    def query(self, request: Request) -> Reply:
        steps = self._steps(request.messages)
        turn = sum(1 for m in request.messages if m.get("role") == "assistant")
        text, calls = self._next(request, steps)
        tool_calls = [
            ToolCall(id=f"call_{turn}_{i}", name=name, arguments=json.dumps(args))
            for i, (name, args) in enumerate(calls)
        ]
        # The designer reads and writes no tokens: zero usage keeps the row's counts
        # honest (the loop estimates the context from characters when usage is absent).
        return Reply(content=text, tool_calls=tool_calls, finish_reason="tool_calls", usage=Usage())

    def _next(self, request: Request, steps: list[Step]) -> tuple[str, list[tuple[str, dict]]]:
        refusal = not_mine(request.system)
        if refusal:
            return "This order is not for machines.", [("failure", {"reason": refusal})]
        if not any(s.name == "read" and s.args.get("path") == CATALOGUE for s in steps):
            return "First the catalogue: what is already on the shelf.", [
                ("plan", {"steps": PLAN}),
                ("read", {"path": CATALOGUE}),
            ]
        catalogue = self._catalogue(steps)
        try:
            design = design_for(catalogue, self.seed)
        except ValueError as error:
            return "Nothing new is left to choose.", [("failure", {"reason": str(error)})]
        scratch = self._scratch(request) or f".factory/scratch/{self.seed}"
        folder = f"{SHELF}/{design.slug}"
        newest = [str(e.get("slug")) for e in catalogue[-3:] if e.get("slug")]

        def did(name: str, test=lambda s: True) -> list[Step]:
            return [s for s in steps if s.name == name and test(s)]

        def wrote(file: str) -> list[Step]:
            return did("write", lambda s: s.args.get("path") == f"{folder}/{file}")

        if newest and not did("shell", lambda s: "--shots-only" in s.args.get("command", "")):
            return (
                f"{len(catalogue)} machines on the shelf. Shots of the newest: {', '.join(newest)}.",
                [
                    (
                        "shell",
                        {
                            "command": f"factory probe {' '.join(newest)} --shots-only",
                            "timeout": 300,
                        },
                    )
                ],
            )
        if newest and not did("view", lambda s: design.slug not in s.args.get("path", "")):
            shots = [f"{SHOTS}/{slug}-desktop.png" for slug in newest]
            shots = [s for s in shots if (self.workspace / s).exists()] or shots[:1]
            return "Looking at the newest panels before choosing.", [
                ("view", {"path": shot}) for shot in shots
            ]
        if not did("write", lambda s: s.args.get("path", "").endswith("brief.md")):
            return (
                f"Chosen: {design.name} ({design.domain}, {design.era}).",
                [
                    ("progress", {"note": f"Chose {design.name}: {design.design}."}),
                    ("write", {"path": f"{scratch}/brief.md", "content": brief(design, catalogue)}),
                ],
            )
        files = render(design)
        for file in ("index.html", "machine.css", "machine.js", "manual.html"):
            if not wrote(file):
                return WHY[file], [("write", {"path": f"{folder}/{file}", "content": files[file]})]

        # The probe finds a machine through its catalogue entry, so the entry goes in first.
        if not did("write", lambda s: s.args.get("path") == CATALOGUE):
            new = [*catalogue, entry(design)]
            return (
                "All four files written. Adding the entry to the catalogue so the probe can find it.",
                [
                    (
                        "write",
                        {
                            "path": CATALOGUE,
                            "content": json.dumps(new, indent=2, ensure_ascii=False) + "\n",
                        },
                    )
                ],
            )
        probes = did(
            "shell",
            lambda s: (
                s.args.get("command", "").startswith(f"factory probe {design.slug}")
                and "--shots-only" not in s.args.get("command", "")
            ),
        )
        probe_cmd = ("shell", {"command": f"factory probe {design.slug}", "timeout": 300})
        if not probes:
            return "Probing the panel.", [probe_cmd]
        failures = [p for p in probes if _failed(p.result)]
        looks = [s for s in did("view", lambda s: design.slug in s.args.get("path", ""))]
        css_writes = wrote("machine.css")
        # Only a style written after looking at the shots is the measured revision; a
        # rewrite that repaired a failing probe came before any look and does not count.
        revised = bool(looks) and any(w.index > looks[0].index for w in css_writes)
        if _failed(probes[-1].result):
            if len(failures) >= MAX_PROBE_FAILURES:
                tail = probes[-1].result.strip().splitlines()[-3:]
                return "The probe keeps failing.", [
                    (
                        "failure",
                        {
                            "reason": f"factory probe {design.slug} failed {len(failures)} times: {' / '.join(tail)}"
                        },
                    )
                ]
            # A revision that broke the probe is rolled back; otherwise draw smaller and plainer.
            safer = replace(
                design, tuning={"scale": 0.9 - 0.05 * len(failures), "gap": 1.0, "ink": 0.0}
            )
            files = render(safer if not revised else design)
            return "The probe failed; rewriting the files more conservatively and probing again.", [
                *[("write", {"path": f"{folder}/{f}", "content": files[f]}) for f in files],
                probe_cmd,
            ]
        shots = {
            kind: f"{SHOTS}/{design.slug}-{kind}.png" for kind in ("desktop", "phone", "manual")
        }
        if not looks:
            return "The probe passes. Looking at the desktop, phone and manual shots.", [
                ("view", {"path": shots["desktop"]}),
                ("view", {"path": shots["phone"]}),
                ("view", {"path": shots["manual"]}),
            ]
        if not revised:
            measured = measure(*(self.workspace / shots[k] for k in ("desktop", "phone", "manual")))
            tuning, reasons = revise(design.tuning, measured)
            better = replace(design, tuning=tuning)
            note = (
                f"Measured the desktop and manual shots: {measured.describe()}. "
                + "; ".join(reasons)
                + "."
            )
            return note, [
                ("progress", {"note": note}),
                (
                    "write",
                    {"path": f"{folder}/machine.css", "content": render(better)["machine.css"]},
                ),
            ]
        last_css = css_writes[-1]
        last_probe_index = probes[-1].index
        if last_css.index > last_probe_index:
            return "Revision written. Probing again.", [probe_cmd]
        looks_after = [s for s in looks if s.index > last_probe_index]
        if len(looks) <= 3 and not looks_after:
            return "The revised panel passes. Looking again.", [
                ("view", {"path": shots["desktop"]}),
                ("view", {"path": shots["phone"]}),
            ]
        checks = did("shell", lambda s: s.args.get("command", "").startswith("factory check"))
        if not checks:
            return "Running the static check.", [
                ("shell", {"command": "factory check", "timeout": 300})
            ]
        if _failed(checks[-1].result):
            tail = " / ".join(checks[-1].result.strip().splitlines()[-4:])
            return "The check fails.", [("failure", {"reason": f"factory check failed: {tail}"})]
        return "Done.", [("success", {"summary": summary(design)})]


def summary(design: Design) -> str:
    """What the shift made, for success(): the era as a sentence says it ("in the 1950s",
    "in an imagined future"), never "in the speculative"."""
    return (
        f"{design.name}: {article(design.kind)} {design.kind} for {design.domain} service "
        f"{design.era_style.when}. {design.design}. {len(design.controls)} controls, faults: "
        f"{', '.join(f.name for f in design.faults)}. Probe and check pass."
    )


WHY = {
    "index.html": "Markup first: the chassis, nameplate, instruments, annunciator, controls and test strip.",
    "machine.css": "Now the style: material, legend plates, lamps, instruments and controls.",
    "machine.js": "The behaviour: the simulation, the controls and the animation loop.",
    "manual.html": "The manual, in the panel's own design language, with the start-up procedure.",
}


def brief(design: Design, catalogue: list[dict[str, Any]]) -> str:
    recent = catalogue[-3:]
    shelf = "\n".join(
        f"- {e.get('name')} ({e.get('domain')}, {e.get('era')}): {e.get('design')}" for e in recent
    )
    controls = "\n".join(
        f"- {c.name}: {c.kind} ({', '.join(c.positions[:4])}{'...' if len(c.positions) > 4 else ''})"
        for c in design.controls
    )
    faults = "\n".join(f"- {f.name} -> alarm {f.alarm}" for f in design.faults)
    steps = "\n".join(f"{i}. {text}" for i, (_, _, text) in enumerate(procedure(design), 1))
    return f"""# Brief: {design.name}

Kind: {design.kind}. Domain: {design.domain}. Era: {design.era}.

## Why this one
The newest machines on the shelf:
{shelf or "- (the shelf is empty)"}

This one takes a (domain, era) pair nobody has, a {design.material.phrase} chassis,
a {design.layout.phrase} and a palette kept at distance from every entry.

## Look
{design.design}.
Palette: chassis {design.palette[0]}, accent {design.palette[1]} ({design.accent}), legends {design.palette[2]}, plates {design.palette[3]}, dial faces {design.palette[4]}.
Type: {design.era_style.label_font}.

## Interaction
{design.interaction}.
{controls}

## Simulation
Engine: {design.words.engine}. {physics_text(design)}
An alarm left standing trips the machine after {design.params["grace"]:.0f} s.

## Faults
{faults}

## Procedure (cold to nominal)
{steps}
5. Wait 120 s for the NOMINAL lamp.
"""
