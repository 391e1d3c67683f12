"""The static gate against the corpus: the valid products pass, and each
mutation breaks exactly one rule and yields exactly that one problem."""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable
from pathlib import Path

import git
import pytest
from typer.testing import CliRunner

from factory.check import CheckError, check
from factory.cli import app

CORPUS = Path(__file__).parent / "corpus"
MACHINE = "shelf/machines/saltmarsh-evaporator"
GAME = "shelf/games/lantern-drift"
MACHINES = "catalogue/machines.json"
GAMES = "catalogue/games.json"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    workspace = tmp_path / "ws"
    shutil.copytree(CORPUS, workspace)
    return workspace


# --- mutation helpers ------------------------------------------------------------------


def edit(rel: str, old: str, new: str, count: int = 1) -> Callable[[Path], None]:
    """Replace text in a file; the text must be there, so a stale mutation fails loudly."""

    def mutate(ws: Path) -> None:
        path = ws / rel
        text = path.read_text()
        assert old in text, f"{old!r} not in {rel}"
        path.write_text(text.replace(old, new, count if count else -1))

    return mutate


def set_entry(catalogue: str, index: int = 0, **changes: object) -> Callable[[Path], None]:
    """Change fields of an entry; a value of ... deletes the field."""

    def mutate(ws: Path) -> None:
        path = ws / catalogue
        entries = json.loads(path.read_text())
        for key, value in changes.items():
            if value is ...:
                del entries[index][key]
            else:
                entries[index][key] = value
        path.write_text(json.dumps(entries, indent=2))

    return mutate


def second_machine(**overrides: object) -> Callable[[Path], None]:
    """Append a second machine, a copy of the first that shares nothing but what is overridden."""

    def mutate(ws: Path) -> None:
        entries = json.loads((ws / MACHINES).read_text())
        entry = dict(entries[0])
        entry.update(
            slug="tidewater-evaporator",
            name="Tidewater Brine Evaporator",
            kind="multiple effect evaporator",
            domain="marine",
            era="1970s",
            design="grey hammertone steel with black engraved traffolyte labels and neon lamps",
            interaction="balance the effects one by one from the first to the last",
            palette=["#202830", "#e0c040", "#ff2020"],
        )
        entry.update(overrides)
        entries.append(entry)
        (ws / MACHINES).write_text(json.dumps(entries, indent=2))
        if entry["slug"] != entries[0]["slug"]:
            shutil.copytree(ws / MACHINE, ws / "shelf/machines" / entry["slug"])

    return mutate


def second_game(**overrides: object) -> Callable[[Path], None]:
    def mutate(ws: Path) -> None:
        entries = json.loads((ws / GAMES).read_text())
        entry = dict(entries[0])
        entry.update(
            slug="ember-run", name="Ember Run", genre="puzzle", mechanic="push", theme="forge"
        )
        entry.update(overrides)
        entries.append(entry)
        (ws / GAMES).write_text(json.dumps(entries, indent=2))
        if entry["slug"] != entries[0]["slug"]:
            shutil.copytree(ws / GAME, ws / "shelf/games" / entry["slug"])

    return mutate


def write(rel: str, text: str) -> Callable[[Path], None]:
    def mutate(ws: Path) -> None:
        (ws / rel).write_text(text)

    return mutate


def append(rel: str, text: str) -> Callable[[Path], None]:
    def mutate(ws: Path) -> None:
        with (ws / rel).open("a") as handle:
            handle.write(text)

    return mutate


def remove(rel: str) -> Callable[[Path], None]:
    def mutate(ws: Path) -> None:
        target = ws / rel
        shutil.rmtree(target) if target.is_dir() else target.unlink()

    return mutate


def append_raw(catalogue: str, value: object) -> Callable[[Path], None]:
    def mutate(ws: Path) -> None:
        entries = json.loads((ws / catalogue).read_text())
        entries.append(value)
        (ws / catalogue).write_text(json.dumps(entries))

    return mutate


# --- the corpus is valid ---------------------------------------------------------------


def test_corpus_passes() -> None:
    report = check(CORPUS)
    assert report.problems == []
    assert report.ok
    assert report.counts == {"machines": 1, "games": 1}
    assert report.notes == []


# --- one mutation per rule: (mutation, file the problem names, what it says) --------------

MI = f"{MACHINE}/index.html"
MM = f"{MACHINE}/manual.html"
MJ = f"{MACHINE}/machine.js"
MC = f"{MACHINE}/machine.css"
GI = f"{GAME}/index.html"

MUTATIONS = {
    # catalogue entry: fields
    "field missing": (set_entry(MACHINES, name=...), MACHINES, "missing or empty field 'name'"),
    "field blank": (set_entry(MACHINES, tagline="  "), MACHINES, "field 'tagline'"),
    "field not a string": (set_entry(MACHINES, kind=7), MACHINES, "field 'kind'"),
    "slug not a string": (set_entry(MACHINES, slug=["a"]), MACHINES, "field 'slug'"),
    "controls too few": (
        set_entry(MACHINES, controls=["Steam Valve", "Feed Pump", "Bleed Valve"]),
        MACHINES,
        "'controls' must be a list of at least 4",
    ),
    "faults empty name": (
        set_entry(MACHINES, faults=["Scale Buildup", " "]),
        MACHINES,
        "'faults' must be a list of at least 2",
    ),
    "palette too short": (
        set_entry(MACHINES, palette=["#d8d2c0", "#1f5f5b"]),
        MACHINES,
        "'palette' must be a list of at least 3",
    ),
    "slug form": (
        set_entry(MACHINES, slug="Saltmarsh_Evaporator"),
        MACHINES,
        "slug 'Saltmarsh_Evaporator' must be lowercase",
    ),
    "domain vocabulary": (
        set_entry(MACHINES, domain="forestry"),
        MACHINES,
        "domain 'forestry' is not one of",
    ),
    "era vocabulary": (set_entry(MACHINES, era="1930s"), MACHINES, "era '1930s' is not one of"),
    "design too short": (
        set_entry(MACHINES, design="cream enamel with teal trim"),
        MACHINES,
        "at least 6",
    ),
    "palette not hex": (
        set_entry(MACHINES, palette=["#d8d2c0", "teal", "#c0392b"]),
        MACHINES,
        "must be #rrggbb",
    ),
    "palette short hex": (
        set_entry(MACHINES, palette=["#d8d2c0", "#1f5f5b", "#c03"]),
        MACHINES,
        "fix '#c03'",
    ),
    "chassis near accent": (
        set_entry(MACHINES, palette=["#d8d2c0", "#c8c2b0", "#c0392b"]),
        MACHINES,
        "to read as a palette",
    ),
    "created form": (set_entry(MACHINES, created="15/01/2025"), MACHINES, "YYYY-MM-DD"),
    "entry not an object": (append_raw(MACHINES, 42), MACHINES, "is not a JSON object"),
    # catalogue entry: against earlier entries
    "duplicate slug": (
        second_machine(slug="saltmarsh-evaporator"),
        MACHINES,
        "same slug as entry 0",
    ),
    "duplicate name, folded": (
        second_machine(name="  saltmarsh no. 3   BRINE evaporator"),
        MACHINES,
        "same name as entry 0",
    ),
    "duplicate kind": (second_machine(kind="Vacuum Brine Evaporator"), MACHINES, "same kind"),
    "duplicate design": (
        second_machine(
            design="cream enamel steel cabinet with riveted teal trim, stencilled legends and amber pilot lamps"
        ),
        MACHINES,
        "same design",
    ),
    "duplicate interaction": (
        second_machine(
            interaction="set the vacuum first, then feed brine and open steam while watching the boiling point fall"
        ),
        MACHINES,
        "same interaction",
    ),
    "duplicate domain and era": (
        second_machine(domain="Chemical", era="1950s"),
        MACHINES,
        "same domain + era as entry 0",
    ),
    "palette near an earlier entry": (
        second_machine(palette=["#e0d8c8", "#2a6a60", "#000000"]),
        MACHINES,
        "from entry 0 (saltmarsh-evaporator)",
    ),
    # the product folder
    "folder missing": (remove(MACHINE), MACHINE, "does not exist"),
    "file missing": (remove(MC), MACHINE, "is missing machine.css"),
    "extra file": (write(f"{MACHINE}/notes.txt", "x"), MACHINE, "extra files notes.txt"),
    "extra folder": (lambda ws: (ws / MACHINE / "img").mkdir(), MACHINE, "extra files img"),
    "too big": (append(MC, "/*" + "x" * 200 * 1024 + "*/\n"), MACHINE, "limit 200 KB"),
    "external attribute": (
        edit(MI, "<main", '<img src="//example.com/a.png" alt=""><main'),
        MI,
        "external request 'src=\"//'",
    ),
    "external unquoted attribute": (
        edit(MI, "</head>", "<link rel=stylesheet href=https://x.test/a.css></head>"),
        MI,
        "external request 'href=https://'",
    ),
    "external css url": (
        append(MC, 'a { background: url("https://x.test/a.png"); }\n'),
        MC,
        "url(",
    ),
    "external css import": (append(MC, '@import "http://x.test/a.css";\n'), MC, "@import"),
    "external fetch": (append(MJ, 'fetch("https://x.test/state");\n'), MJ, "fetch("),
    "external constructor": (append(MJ, "new Worker('//x.test/w.js');\n"), MJ, "new Worker"),
    "external in a comment": (
        append(MJ, "// see http://x.test\nnew Audio('//x.test/a.ogg');\n"),
        MJ,
        "new Audio",
    ),
    "not an html document": (
        edit(MM, '<html lang="en">', "<body-wrapper>"),
        MM,
        "does not look like an HTML document",
    ),
    "manual stylesheet": (
        edit(MM, 'href="machine.css"', 'href="manual.css"'),
        MM,
        "does not link the stylesheet",
    ),
    "inline style": (
        edit(MI, "</head>", "<style>body { color: red; }</style></head>"),
        MI,
        "inline <style>",
    ),
    "inline script": (
        edit(MM, "</body>", "<script>var x = 1;</script></body>"),
        MM,
        "inline <script>",
    ),
    "empty inline script": (edit(MI, "</body>", "<script></script></body>"), MI, "inline <script>"),
    "catalogue back-link": (edit(MI, 'href="../../"', 'href="../"'), MI, "back to the catalogue"),
    "script not loaded": (
        edit(MI, 'src="machine.js"', 'src="panel.js"'),
        MI,
        "does not load its script",
    ),
    # the machine's own parts
    "manual dialog": (edit(MI, "<dialog data-manual>", "<dialog>"), MI, "<dialog data-manual>"),
    "manual iframe": (edit(MI, 'src="manual.html"', 'src="manual.htm"'), MI, "<iframe"),
    "manual opener": (
        edit(MI, 'data-action="manual"', 'data-action="open-manual"'),
        MI,
        'data-action="manual"',
    ),
    "manual closer": (
        edit(MI, 'data-action="close-manual"', 'data-action="close"'),
        MI,
        'data-action="close-manual"',
    ),
    "control not on the panel": (
        edit(MI, 'data-control="Bleed Valve"', 'data-control="Bleed Cock"'),
        MI,
        "control 'Bleed Valve' is in the catalogue but no element",
    ),
    "sections out of order": (
        edit(MM, "<h2>Normal operation</h2>", "<h2>Alarms first</h2>"),
        MM,
        "section(s) in order: Normal operation, Alarms, Faults and recovery, Specifications",
    ),
    "section missing": (
        edit(MM, "<h2>Specifications</h2>", "<h3>Specifications</h3>"),
        MM,
        "section(s) in order: Specifications (",
    ),
    "no procedure": (
        lambda ws: (edit(MM, "<ol>", "<ul>")(ws), edit(MM, "</ol>", "</ul>")(ws)),
        MM,
        "numbered procedure",
    ),
    "control not in the manual": (
        edit(MM, "Bleed Valve", "bleed cock", count=0),
        MM,
        "control 'Bleed Valve' is not mentioned",
    ),
    "fault not in the manual": (
        edit(MM, "<b>Feed Pump Seizure</b>", "<b>Pump seizure</b>"),
        MM,
        "fault 'Feed Pump Seizure' is not written up",
    ),
    "fault named only inside a script block": (
        edit(MM, "<b>Feed Pump Seizure</b>", '<script src="x.js">Feed Pump Seizure</script>'),
        MM,
        "fault 'Feed Pump Seizure'",
    ),
    "manual back to the panel": (
        edit(MM, 'href="./"', 'href="panel.html"'),
        MM,
        "no link back to the panel",
    ),
    "api not assigned": (
        edit(MJ, "window.machine = {", "window.machina = {"),
        MJ,
        "window.machine",
    ),
    "es module": (
        edit(MJ, "(function () {", "export const x = 1;\n(function () {"),
        MJ,
        "ES module",
    ),
    # games
    "game field missing": (set_entry(GAMES, genre=...), GAMES, "field 'genre'"),
    "game controls not a string": (
        set_entry(GAMES, controls=["arrows"]),
        GAMES,
        "field 'controls'",
    ),
    "game created": (set_entry(GAMES, created="2025-1-5"), GAMES, "YYYY-MM-DD"),
    "game slug": (set_entry(GAMES, slug="lantern--drift"), GAMES, "single dashes"),
    "game duplicate name": (second_game(name=" LANTERN DRIFT "), GAMES, "same name as entry 0"),
    "game duplicate triple": (
        second_game(
            genre="Arcade", mechanic="steer to collect", theme="paper lanterns over a night river"
        ),
        GAMES,
        "same genre + mechanic + theme",
    ),
    "game extra file": (write(f"{GAME}/sprite.png", "x"), GAME, "a game is exactly"),
    "game file missing": (remove(f"{GAME}/game.js"), GAME, "is missing game.js"),
    "game too big": (
        append(f"{GAME}/game.js", "//" + "x" * 150 * 1024 + "\n"),
        GAME,
        "limit 150 KB",
    ),
    "game external": (
        append(f"{GAME}/game.js", 'new Image("https://x.test/a.png");\n'),
        f"{GAME}/game.js",
        "new Image",
    ),
    # A deliberate difference: the arcade's gate has no @import pattern (its machines gate
    # has); SPEC counts @import as an external request on both lines, so we do.
    "game css @import": (
        append(f"{GAME}/game.css", '@import "https://x.test/a.css";\n'),
        f"{GAME}/game.css",
        "@import",
    ),
    "game stylesheet": (edit(GI, 'href="game.css"', 'href="style.css"'), GI, 'href="game.css"'),
    "game script": (edit(GI, 'src="game.js"', 'src="main.js"'), GI, "does not load its script"),
    "game inline style": (edit(GI, "</head>", "<style>p{}</style></head>"), GI, "inline <style>"),
    "game inline script": (
        edit(GI, "</body>", "<script>go()</script></body>"),
        GI,
        "inline <script>",
    ),
    "game back-link": (edit(GI, 'href="../../"', 'href="/"'), GI, "back to the catalogue"),
    "game not html": (edit(GI, '<html lang="en">', ""), GI, "HTML document"),
}


@pytest.mark.parametrize("name", list(MUTATIONS))
def test_each_mutation_breaks_exactly_its_rule(ws: Path, name: str) -> None:
    mutate, file, expected = MUTATIONS[name]
    mutate(ws)
    report = check(ws)
    assert [str(p) for p in report.problems] and len(report.problems) == 1, report.problems
    problem = report.problems[0]
    assert problem.file == file
    assert expected in problem.message
    assert not report.ok


# --- what the reference accepts, we accept ---------------------------------------------

HARMLESS = {
    "empty style block": edit(MI, "</head>", "<style> </style></head>"),
    "dot-slash stylesheet and script": lambda ws: (
        edit(MI, 'href="machine.css"', 'href="./machine.css"')(ws),
        edit(MI, 'src="machine.js"', 'src="./machine.js"')(ws),
    ),
    "upper-case palette": set_entry(MACHINES, palette=["#D8D2C0", "#1F5F5B", "#C0392B"]),
    "domain and era folded": set_entry(MACHINES, domain=" Chemical ", era="1950S"),
    "control named in other case": edit(
        MI, 'data-control="Bleed Valve"', "data-control='bleed  VALVE'"
    ),
    "headings with extra words": edit(MM, "<h2>Alarms</h2>", "<h2>Alarms and lamps</h2>"),
    "extra headings between": edit(MM, "<h2>Alarms</h2>", "<h2>Pipework</h2><h2>Alarms</h2>"),
    "relative url": append(MC, 'a { background: url("data:image/png;base64,AAAA"); }\n'),
    "plain link text": edit(MM, "<p>Vapour drum", "<p>See example.com/spec. Vapour drum"),
    "url in a js comment": append(MJ, "// after http://example.com/notes\n"),
    "secure websocket (the reference looks for http only; the probe sees it)": append(
        MJ, "var socket = null && new WebSocket('wss://x.test');\n"
    ),
    "game name differing in inner spaces": second_game(name="Lantern  Drift"),
    "palette at exactly 60": set_entry(MACHINES, palette=["#000000", "#3c0000", "#ff0000"]),
    "new product folder not listed": lambda ws: shutil.copytree(
        ws / MACHINE, ws / "shelf/machines/half-built"
    ),
}


@pytest.mark.parametrize("name", list(HARMLESS))
def test_what_the_reference_accepts_passes(ws: Path, name: str) -> None:
    HARMLESS[name](ws)
    report = check(ws)
    assert report.problems == []


def test_unlisted_folder_is_a_note(ws: Path) -> None:
    shutil.copytree(ws / MACHINE, ws / "shelf/machines/half-built")
    report = check(ws)
    assert report.ok
    assert report.notes == ["shelf/machines/half-built is not in the catalogue yet"]


def test_beyond_the_reference_is_a_note_only(ws: Path) -> None:
    edit(MI, 'data-fault="Scale Buildup"', 'data-test="Scale Buildup"')(ws)
    set_entry(MACHINES, created="2025-02-30")(ws)
    report = check(ws)
    assert report.ok
    assert any('data-fault="Scale Buildup"' in note for note in report.notes)
    assert any("not a calendar date" in note for note in report.notes)


def test_problem_names_entry_file_and_remedy(ws: Path) -> None:
    edit(MI, 'data-action="close-manual"', 'data-action="close"')(ws)
    (problem,) = check(ws).problems
    assert str(problem) == (
        "machines entry 0 (saltmarsh-evaporator): "
        f'{MI}: no control with data-action="close-manual" to close the manual'
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("[{", "is not valid JSON: Expecting property name"),
        ('{"slug": "x"}', "must be a JSON array"),
        ("", "is not valid JSON"),
    ],
)
def test_catalogue_that_is_not_an_array(ws: Path, text: str, expected: str) -> None:
    (ws / MACHINES).write_text(text)
    report = check(ws)
    (problem,) = report.problems
    assert problem.file == MACHINES and problem.index is None
    assert expected in problem.message
    assert "machines" not in report.counts and report.counts["games"] == 1


def test_line_choice(ws: Path) -> None:
    (ws / MACHINES).write_text("[")
    assert check(ws, ["games"]).ok
    assert not check(ws, ["machines"]).ok


def test_missing_catalogue_file(ws: Path) -> None:
    (ws / GAMES).unlink()
    report = check(ws)
    assert report.ok and report.counts == {"machines": 1}
    assert "catalogue/games.json does not exist" in report.notes[0]
    assert not check(ws, ["games"]).ok


@pytest.mark.parametrize(
    "prepare",
    [lambda ws: shutil.rmtree(ws / "catalogue"), lambda ws: shutil.rmtree(ws)],
    ids=["no catalogue folder", "no workspace"],
)
def test_cannot_run(ws: Path, prepare: Callable[[Path], None]) -> None:
    prepare(ws)
    with pytest.raises(CheckError):
        check(ws)


# --- --changed-since on a real git repository ------------------------------------------


@pytest.fixture
def repo(ws: Path) -> git.Repo:
    repo = git.Repo.init(ws)
    with repo.config_writer() as config:
        config.set_value("user", "name", "test")
        config.set_value("user", "email", "test@example.invalid")
    (ws / ".gitignore").write_text(".factory/\n")
    repo.git.add(A=True)
    repo.git.commit(m="shelf")
    return repo


def test_changed_since_allows_the_new_product(ws: Path, repo: git.Repo) -> None:
    second_machine()(ws)
    (ws / ".factory").mkdir()
    (ws / ".factory/scratch.txt").write_text("ignored state")
    report = check(ws, changed_since="HEAD")
    assert report.problems == [] and report.counts["machines"] == 2


@pytest.mark.parametrize(
    ("mutate", "path"),
    [
        (append("README.md", "\nedited\n"), "README.md"),
        (write("AGENTS.md", "new"), "AGENTS.md"),
        (append(MC, "/* touched */\n"), MC),
    ],
    ids=["tracked file", "untracked file", "an existing product"],
)
def test_changed_since_fails_changes_outside(
    ws: Path, repo: git.Repo, mutate: Callable[[Path], None], path: str
) -> None:
    second_machine()(ws)
    mutate(ws)
    (problem,) = check(ws, changed_since="HEAD").problems
    assert problem.file == path and "outside the new product's folder" in problem.message


def test_changed_since_sees_committed_changes(ws: Path, repo: git.Repo) -> None:
    base = repo.head.commit.hexsha
    edit(GI, "<h1>", "<h1 class=x>")(ws)
    repo.git.commit("-am", "edit")
    (problem,) = check(ws, changed_since=base).problems
    assert problem.file == GI
    (problem,) = check(ws, ["machines"], changed_since=base).problems
    assert problem.file == GI


def test_changed_since_bad_revision(ws: Path, repo: git.Repo) -> None:
    with pytest.raises(CheckError, match="no such revision"):
        check(ws, changed_since="nope~3")


def test_changed_since_needs_git(ws: Path) -> None:
    with pytest.raises(CheckError, match="not a git checkout"):
        check(ws, changed_since="HEAD")


# --- the command -----------------------------------------------------------------------

runner = CliRunner()


def test_cli_ok(ws: Path) -> None:
    result = runner.invoke(app, ["check", "--workspace", str(ws)])
    assert result.exit_code == 0
    assert "ok - 1 machines, 1 games" in result.stdout


def test_cli_problems_one_line_each(ws: Path) -> None:
    edit(MI, "<dialog data-manual>", "<dialog>")(ws)
    set_entry(MACHINES, era="1930s")(ws)
    result = runner.invoke(app, ["check", "-w", str(ws), "--line", "machines"])
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert lines[-1] == "check: 2 problem(s) in 1 machines"
    assert [line for line in lines if "entry 0 (saltmarsh-evaporator)" in line] == lines[:2]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--line", "boats"], "--line 'boats'"),
        (["--changed-since", "HEAD"], "not a git checkout"),
    ],
)
def test_cli_cannot_run(ws: Path, args: list[str], message: str) -> None:
    result = runner.invoke(app, ["check", "-w", str(ws), *args])
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.output


def test_cli_no_workspace(tmp_path: Path) -> None:
    result = runner.invoke(app, ["check", "-w", str(tmp_path)])
    assert result.exit_code == 2
    assert "no catalogue folder" in result.stderr


def test_cli_json_shape(ws: Path) -> None:
    (ws / GAMES).write_text("{}")
    result = runner.invoke(app, ["check", "-w", str(ws), "--json"])
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["ok"] is False
    assert report["counts"] == {"machines": 1}
    assert report["notes"] == []
    (problem,) = report["problems"]
    assert problem == {
        "line": "games",
        "index": None,
        "slug": "",
        "file": GAMES,
        "message": "must be a JSON array of entries",
        "text": f"{GAMES}: must be a JSON array of entries",
    }
