"""The transcript judge over hand-built sessions, written with the real session log."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from factory import messages, session
from factory.judge import calls, judge
from factory.lines import line_named
from factory.model import Reply, ToolCall

Step = tuple[str, dict, str]


def machine_steps(root: Path) -> list[Step]:
    """A model that does everything the machine order asks, in order."""
    product = "shelf/machines/new"
    return [
        ("read", {"path": "catalogue/machines.json"}, "1\t[...]"),
        ("shell", {"command": "factory probe b c d --shots-only"}, "3 screenshots\n[exit 0]"),
        ("view", {"path": ".factory/shots/b-desktop.png"}, "attached"),
        ("view", {"path": ".factory/shots/c-desktop.png"}, "attached"),
        ("view", {"path": ".factory/shots/d-desktop.png"}, "attached"),
        ("write", {"path": ".factory/scratch/s1/brief.md", "content": "brief"}, "wrote"),
        ("write", {"path": f"{product}/index.html", "content": "x"}, "wrote"),
        ("write", {"path": f"{product}/machine.css", "content": "x"}, "wrote"),
        ("write", {"path": f"{product}/machine.js", "content": "x"}, "wrote"),
        ("write", {"path": f"{product}/manual.html", "content": "x"}, "wrote"),
        ("write", {"path": "catalogue/machines.json", "content": "[...]"}, "wrote"),
        ("shell", {"command": "factory probe new"}, "ok\n[exit 0]"),
        ("view", {"path": ".factory/shots/new-desktop.png"}, "attached"),
        ("view", {"path": ".factory/shots/new-phone.png"}, "attached"),
        ("view", {"path": ".factory/shots/new-manual.png"}, "attached"),
        ("write", {"path": f"{product}/machine.css", "content": "better"}, "wrote"),
        ("shell", {"command": "factory probe new"}, "ok\n[exit 0]"),
        ("view", {"path": str(root / ".factory/shots/new-desktop.png")}, "attached"),
        ("success", {"summary": "built new"}, "settled"),
    ]


def game_steps(root: Path) -> list[Step]:
    product = "shelf/games/new"
    return [
        ("shell", {"command": "cat catalogue/games.json"}, "[]\n[exit 0]"),
        ("write", {"path": ".factory/scratch/s1/Brief.txt", "content": "brief"}, "wrote"),
        ("write", {"path": f"{product}/index.html", "content": "x"}, "wrote"),
        ("write", {"path": f"{product}/game.css", "content": "x"}, "wrote"),
        ("write", {"path": f"{product}/game.js", "content": "x"}, "wrote"),
        ("write", {"path": "catalogue/games.json", "content": "[...]"}, "wrote"),
        ("shell", {"command": "factory probe --line games new"}, "ok\n[exit 0]"),
        ("view", {"path": ".factory/shots/new-desktop.png"}, "attached"),
        ("view", {"path": ".factory/shots/new-phone.png"}, "attached"),
        ("write", {"path": f"{product}/game.js", "content": "better"}, "wrote"),
        ("success", {"summary": "built new"}, "settled"),
    ]


def record(root: Path, steps: list[Step]) -> session.Session:
    """Writes a session log in the real record shapes: meta, messages, events, outcome."""
    log = session.SessionLog.create(root, "s1")
    log.append("meta", id="s1", order="new-machine", chain=["s1"], started=session.now())
    log.message(messages.user("the order"))
    for number, (name, args, result) in enumerate(steps):
        call = ToolCall(id=f"call-{number}", name=name, arguments=json.dumps(args))
        log.message(messages.bot(Reply(tool_calls=[call])))
        log.message(messages.activity(call.id, name, result))
        log.event("tool", name=name, seconds=0.01, ok=not result.startswith("error"))
        if name == "view" and not result.startswith("error"):
            image = log.store_image(f"png {number}".encode())
            log.message(messages.attachment([(args["path"], image)]))
    log.append("outcome", reason="settled", iterations=len(steps), calls=len(steps))
    log.close()
    return session.load(log.path)


def catalogue(root: Path, line: str, slugs: list[str]) -> list[dict]:
    entries = [{"slug": slug, "name": slug.upper()} for slug in slugs]
    path = root / "catalogue" / f"{line}.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(entries))
    return entries


def drop(*names: str) -> Callable[[list[Step]], list[Step]]:
    """Removes the steps whose path/command ends with one of `names`."""

    def keep(step: Step) -> bool:
        target = step[1].get("path") or step[1].get("command") or step[0]
        return not any(str(target).endswith(name) for name in names)

    return lambda steps: [s for s in steps if keep(s)]


def move(name: str, after: str) -> Callable[[list[Step]], list[Step]]:
    """Moves the first step whose path/command ends with `name` behind the one ending with `after`."""

    def target(step: Step) -> str:
        return str(step[1].get("path") or step[1].get("command") or step[0])

    def apply(steps: list[Step]) -> list[Step]:
        moved = next(s for s in steps if target(s).endswith(name))
        rest = [s for s in steps if s is not moved]
        at = next(i for i, s in enumerate(rest) if target(s).endswith(after))
        return [*rest[: at + 1], moved, *rest[at + 1 :]]

    return apply


def replace(name: str, new: Step) -> Callable[[list[Step]], list[Step]]:
    """Replaces the first step whose path/command (or tool name) is `name`."""

    def apply(steps: list[Step]) -> list[Step]:
        at = next(
            i
            for i, s in enumerate(steps)
            if (s[1].get("path") or s[1].get("command") or s[0]) == name
        )
        return [*steps[:at], new, *steps[at + 1 :]]

    return apply


def same(steps: list[Step]) -> list[Step]:
    return steps


def views_of_new_once(steps: list[Step]) -> list[Step]:
    seen = False
    kept = []
    for step in steps:
        if step[0] == "view" and "new-" in step[1]["path"]:
            if seen:
                continue
            seen = True
        kept.append(step)
    return kept


def fail_view(name: str) -> Callable[[list[Step]], list[Step]]:
    def apply(steps: list[Step]) -> list[Step]:
        return [
            (s[0], s[1], "error: no such file")
            if s[0] == "view" and s[1]["path"].endswith(name)
            else s
            for s in steps
        ]

    return apply


MACHINE_CASES = [
    ("everything done", same, set()),
    ("catalogue never read", replace("catalogue/machines.json", ("list", {"path": "shelf"}, "")),
     {"catalogue_read"}),
    ("a shell cat of the catalogue counts",
     replace("catalogue/machines.json", ("shell", {"command": "cat catalogue/machines.json"}, "[]")),
     set()),
    ("one newest machine not viewed", drop("b-desktop.png"), {"newest_viewed"}),
    ("a newest machine viewed only after building", move("d-desktop.png", "index.html"),
     {"newest_viewed"}),
    ("the shelf never screenshotted", drop("--shots-only"), {"newest_viewed"}),
    ("brief after the markup", move("brief.md", "index.html"), {"brief_before_markup"}),
    ("brief outside the scratch folder",
     replace(".factory/scratch/s1/brief.md", ("write", {"path": "brief.md", "content": "b"}, "wrote")),
     {"brief_before_markup"}),
    ("never probed", drop("factory probe new"), {"probe_run"}),
    ("phone shot never viewed", drop("new-phone.png"), {"shots_viewed"}),
    ("a view that failed does not count", fail_view("new-manual.png"), {"shots_viewed"}),
    ("no change after looking",
     lambda steps: [s for s in steps if s[1].get("content") != "better"], {"critique_round"}),
    ("the new machine viewed once", views_of_new_once, {"shots_viewed", "two_views"}),
    ("never views anything", lambda steps: [s for s in steps if s[0] != "view"],
     {"newest_viewed", "shots_viewed", "critique_round", "two_views"}),
    ("failure instead of success",
     replace("success", ("failure", {"reason": "gave up"}, "failed")), {"success_called"}),
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "mutate", "failing"), MACHINE_CASES, ids=[c[0] for c in MACHINE_CASES]
)
def test_machine_transcripts(tmp_path: Path, case, mutate, failing) -> None:
    base = catalogue(tmp_path, "machines", ["a", "b", "c", "d"])
    steps = mutate(machine_steps(tmp_path))
    wrote_catalogue = any(
        s[0] == "write" and s[1].get("path") == "catalogue/machines.json" for s in steps
    )
    catalogue(tmp_path, "machines", ["a", "b", "c", "d"] + (["new"] if wrote_catalogue else []))
    verdict = judge(record(tmp_path, steps), tmp_path, line_named("machines"), "new", base)
    assert {name for name, passed in verdict.checks.items() if not passed} == failing
    assert verdict.ok == (not failing)
    assert len(verdict.reasons) == len(failing)


def test_fewer_than_three_on_the_shelf_and_an_empty_one(tmp_path: Path) -> None:
    base = catalogue(tmp_path, "machines", ["d"])
    steps = drop("b-desktop.png", "c-desktop.png")(machine_steps(tmp_path))
    catalogue(tmp_path, "machines", ["d", "new"])
    verdict = judge(record(tmp_path, steps), tmp_path, line_named("machines"), "new", base)
    assert verdict.ok, verdict.reasons

    empty = tmp_path / "empty"
    catalogue(empty, "machines", ["new"])
    steps = drop("--shots-only", "b-desktop.png", "c-desktop.png", "d-desktop.png")(
        machine_steps(empty)
    )
    verdict = judge(record(empty, steps), empty, line_named("machines"), "new", [])
    assert verdict.ok, verdict.reasons


def test_no_new_product_fails_with_reasons_naming_it(tmp_path: Path) -> None:
    base = catalogue(tmp_path, "machines", ["a", "b", "c", "d"])
    steps = machine_steps(tmp_path)[:6]  # looked at the shelf, wrote the brief, then stopped
    verdict = judge(record(tmp_path, steps), tmp_path, line_named("machines"), None, base)
    assert not verdict.ok
    assert verdict.checks["catalogue_read"] and verdict.checks["newest_viewed"]
    assert not verdict.checks["entry_appended"] and not verdict.checks["probe_run"]
    assert any("no new entry was appended to catalogue/machines.json" in r for r in verdict.reasons)


GAME_CASES = [
    ("everything done", same, set()),
    ("phone shot never viewed", drop("new-phone.png"), {"shots_viewed", "two_views"}),
    ("never probed", drop("--line games new"), {"probe_run"}),
]


@pytest.mark.parametrize(("case", "mutate", "failing"), GAME_CASES, ids=[c[0] for c in GAME_CASES])
def test_game_transcripts(tmp_path: Path, case, mutate, failing) -> None:
    catalogue(tmp_path, "games", ["new"])
    verdict = judge(
        record(tmp_path, mutate(game_steps(tmp_path))), tmp_path, line_named("games"), "new", []
    )
    assert {name for name, passed in verdict.checks.items() if not passed} == failing
    assert "newest_viewed" not in verdict.checks  # the games order does not ask for it


def test_calls_pair_results_and_tolerate_arguments_that_are_not_json() -> None:
    bad = ToolCall(id="x", name="write", arguments="{not json")
    found = calls(
        [messages.bot(Reply(tool_calls=[bad])), messages.activity("x", "write", "error: bad")]
    )
    assert found[0].args == {} and found[0].failed
