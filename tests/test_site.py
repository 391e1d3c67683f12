"""The shelf site, built from a real workspace and driven in real Chromium.

The workspace is the gate corpus (one machine, one game) plus copies of its
products under new slugs with varied catalogue entries, so the page has a
shelf worth filtering. Everything is real: the check, the files, an HTTP
server on 127.0.0.1, the browser (one for the whole module).
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import threading
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, sync_playwright
from typer.testing import CliRunner

from factory import site
from factory.browser import launch_options
from factory.cli import app
from factory.lines import all_lines

CORPUS = Path(__file__).parent / "corpus"

# slug, name, kind, domain, era, palette, created, tagline
MACHINES = [
    ("tidewater-signal-frame", "Tidewater Signal Frame", "mechanical interlocking frame", "rail",
     "1920s", ["#5b4636", "#e3c77a", "#2f3b2f"], "2025-02-03", "Levers that refuse to let two trains meet."),
    ("kessel-grid-desk", "Kessel Grid Control Desk", "regional load dispatch desk", "power-grid",
     "1970s", ["#9aa39a", "#b23a1e", "#f1ede0"], "2025-03-11", "Keeps a valley lit by shedding the right village."),
    ("ardent-cryo-bay", "Ardent Cryo Bay", "vaccine cold store monitor", "cold-chain",
     "2020s", ["#e9eef2", "#124e8c", "#7fb069"], "2025-03-11", "Two to eight degrees, for forty thousand doses."),
    ("halden-sounder", "Halden Deep Sounder", "submersible echo sounder", "deep-sea",
     "1960s", ["#1d2b36", "#d9a441", "#8fb8c9"], "2025-04-20", "Listens for the floor of the trench."),
]  # fmt: skip

# slug, name, genre, mechanic, theme, created, tagline
GAMES = [
    ("kiln-stack", "Kiln Stack", "puzzle", "stack and fire", "a potter's wood kiln",
     "2025-02-14", "Load the kiln so every pot survives the firing."),
    ("fog-ferry", "Fog Ferry", "arcade", "dodge and deliver", "a harbour ferry in fog",
     "2025-04-02", "Cross the harbour by the sound of the buoys."),
]  # fmt: skip

NEWEST_FIRST = [
    "halden-sounder",
    "fog-ferry",
    "ardent-cryo-bay",  # same day as kessel-grid-desk, appended after it
    "kessel-grid-desk",
    "kiln-stack",
    "tidewater-signal-frame",
    "saltmarsh-evaporator",  # same day as lantern-drift, both first in their line
    "lantern-drift",
]


def stock(workspace: Path) -> Path:
    """A workspace holding the corpus and varied copies of its two products."""
    shutil.copytree(CORPUS / "catalogue", workspace / "catalogue")
    shutil.copytree(CORPUS / "shelf", workspace / "shelf")
    machines = json.loads((workspace / "catalogue/machines.json").read_text())
    games = json.loads((workspace / "catalogue/games.json").read_text())
    machine, game = machines[0], games[0]
    for n, (slug, name, kind, domain, era, palette, created, tagline) in enumerate(MACHINES):
        shutil.copytree(
            workspace / "shelf/machines" / machine["slug"], workspace / "shelf/machines" / slug
        )
        machines.append(
            machine
            | dict(slug=slug, name=name, kind=kind, domain=domain, era=era, palette=palette)
            | dict(created=created, tagline=tagline)
            | dict(design=f"variant {n} of painted steel with brass legends and lamps")
            | dict(interaction=f"operated in the manner of variant {n}")
        )
    for slug, name, genre, mechanic, theme, created, tagline in GAMES:
        shutil.copytree(workspace / "shelf/games" / game["slug"], workspace / "shelf/games" / slug)
        games.append(
            game
            | dict(slug=slug, name=name, genre=genre, mechanic=mechanic, theme=theme)
            | dict(created=created, tagline=tagline)
        )
    (workspace / "catalogue/machines.json").write_text(json.dumps(machines, indent=2))
    (workspace / "catalogue/games.json").write_text(json.dumps(games, indent=2))
    return workspace


def catalogue(workspace: Path) -> dict[str, list[dict]]:
    return {
        line.name: json.loads(line.catalogue_path(workspace).read_text())
        for line in all_lines().values()
    }


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return stock(tmp_path_factory.mktemp("ws"))


@pytest.fixture(scope="module")
def built(workspace: Path) -> Path:
    return site.build_site(workspace).out


@pytest.fixture(scope="module")
def served(built: Path):
    httpd = site.server(built)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield site.address(httpd)
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(**launch_options())
        yield browser
        browser.close()


class Watched:
    """A page with every error, failed request and foreign request recorded."""

    ALLOWED = re.compile(r"^(file:|data:|blob:|about:|http://127\.0\.0\.1[:/])")

    def __init__(
        self, browser: Browser, width: int = 1440, height: int = 900, guard: bool = True
    ) -> None:
        self.context = browser.new_context(viewport={"width": width, "height": height})
        self.page: Page = self.context.new_page()
        self.problems: list[str] = []
        self.requests: list[str] = []
        if guard:
            self.context.route("**/*", self._route)
        else:
            # Unrouted, Chromium behaves as for a visitor (it asks for /favicon.ico).
            self.page.on("request", lambda r: self.requests.append(r.url))
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.problems.append(f"exception: {error}"))
        self.page.on("requestfailed", self._failed)
        self.page.on("response", self._response)

    def _route(self, route) -> None:
        url = route.request.url
        self.requests.append(url)
        if self.ALLOWED.match(url):
            route.continue_()
        else:
            self.problems.append(f"external request: {url}")
            route.abort()

    def _failed(self, request) -> None:
        # Aborted loads are the test navigating on while previews still load
        # (a refused foreign request is recorded by the route already).
        if request.failure != "net::ERR_ABORTED":
            self.problems.append(f"failed: {request.url} {request.failure}")

    def _response(self, response) -> None:
        if response.status >= 400:
            self.problems.append(f"HTTP {response.status}: {response.url}")

    def _console(self, message) -> None:
        if message.type == "error":
            self.problems.append(f"console: {message.text}")

    def __enter__(self) -> Watched:
        return self

    def __exit__(self, *exc) -> None:
        self.context.close()


def visible_slugs(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#ledger > li:not([hidden])", "els => els.map(e => e.id.split('-').slice(1).join('-'))"
    )


def overflow(page: Page) -> int:
    return page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )


# --- the build, without a browser ------------------------------------------------------


def test_build_lays_out_the_site_as_the_shelf(workspace: Path, built: Path) -> None:
    for line_name, entries in catalogue(workspace).items():
        line = all_lines()[line_name]
        assert sorted(p.name for p in (built / line_name).iterdir()) == sorted(
            e["slug"] for e in entries
        )
        for entry in entries:
            for name in line.files:
                copied = built / line_name / entry["slug"] / name
                assert (
                    copied.read_bytes()
                    == (line.product_dir(workspace, entry["slug"]) / name).read_bytes()
                )
    for name in site.ASSETS:
        assert (built / name).is_file()
    assert "{{shelf}}" not in (built / "index.html").read_text()


def test_shelf_data_comes_from_the_lines(workspace: Path) -> None:
    data = site.shelf(workspace)
    assert [item.slug for item in data.items] == NEWEST_FIRST
    by_slug = {item.slug: item for item in data.items}
    machine, game = by_slug["halden-sounder"], by_slug["fog-ferry"]
    assert machine.headline == ["submersible echo sounder", "deep-sea", "1960s"]
    assert game.headline == ["arcade", "dodge and deliver", "a harbour ferry in fog"]
    assert machine.palette == ["#1d2b36", "#d9a441", "#8fb8c9"] and game.palette == []
    assert [(p.label, p.href) for p in machine.pages] == [
        ("Open the machine", "machines/halden-sounder/index.html"),
        ("Manual", "machines/halden-sounder/manual.html"),
    ]
    assert [p.href for p in game.pages] == ["games/fog-ferry/index.html"]
    assert machine.facets == {"domain": "deep-sea", "era": "1960s"} and game.facets == {}
    assert machine.number == 5 and game.number == 3


def test_a_long_kind_or_genre_still_heads_its_entry(workspace: Path) -> None:
    # The issue asks for kind or genre on the page: length must not push it out.
    long_kind = "triple-effect vacuum brine evaporator with thermocompressor"
    path = workspace / "catalogue" / "machines.json"
    entries = json.loads(path.read_text())
    entries[-1]["kind"] = long_kind
    path.write_text(json.dumps(entries))
    item = next(i for i in site.shelf(workspace).items if i.slug == entries[-1]["slug"])
    assert item.headline[0] == long_kind and len(item.headline) == 3


def test_entry_text_cannot_break_out_of_the_page() -> None:
    hostile = "</script><script>document.title='owned'</script>"
    item = site.Item(
        line="machines", noun="machine", number=1, slug="x", name=hostile, tagline=hostile,
        created="2025-01-01", headline=[], facets={}, facts=[], palette=[],
        pages=[site.Page(label="Open", href="machines/x/index.html")],
        preview="machines/x/index.html",
    )  # fmt: skip
    rendered = site.render_page(site.Shelf(lines=[], facets=[], items=[item]))
    assert rendered.count("</script>") == 2  # the data tag's and shelf.js's, nothing more
    blob = re.search(r'id="shelf-data">(.*?)</script>', rendered, re.S).group(1)
    assert json.loads(blob)["items"][0]["name"] == hostile


BREAKAGES = {
    "catalogue not JSON": lambda ws: (ws / "catalogue/games.json").write_text("[{"),
    "product file missing": lambda ws: (ws / "shelf/games/fog-ferry/game.js").unlink(),
    "slug repeated": lambda ws: (ws / "catalogue/games.json").write_text(
        json.dumps(catalogue(ws)["games"] + [catalogue(ws)["games"][0]])
    ),
}


@pytest.mark.parametrize("breakage", BREAKAGES, ids=list(BREAKAGES))
def test_a_failing_catalogue_is_refused_and_the_old_site_kept(
    breakage: str, tmp_path: Path
) -> None:
    ws = stock(tmp_path / "ws")
    site.build_site(ws)
    before = {p: p.read_bytes() for p in (ws / "_site").rglob("*") if p.is_file()}
    BREAKAGES[breakage](ws)
    with pytest.raises(site.SiteRefused) as refused:
        site.build_site(ws)
    assert refused.value.problems and all("\n" not in p for p in refused.value.problems)
    after = {p: p.read_bytes() for p in (ws / "_site").rglob("*") if p.is_file()}
    assert after == before
    assert [p.name for p in tmp_path.joinpath("ws").iterdir() if p.name.startswith("._site")] == []


def test_cli_build_prints_the_checks_problems_and_exits_1(tmp_path: Path) -> None:
    ws = stock(tmp_path / "ws")
    (ws / "shelf/machines/kessel-grid-desk/manual.html").unlink()
    (ws / "shelf/games/kiln-stack/game.css").unlink()
    result = CliRunner().invoke(app, ["site", "build", "--workspace", str(ws)])
    assert result.exit_code == 1
    assert "Traceback" not in result.output
    lines = result.output.strip().splitlines()
    assert any("kessel-grid-desk" in line and "manual.html" in line for line in lines)
    assert any("kiln-stack" in line and "game.css" in line for line in lines)
    assert not (ws / "_site").exists()


def test_cli_build_writes_to_out(tmp_path: Path, workspace: Path) -> None:
    out = tmp_path / "public"
    result = CliRunner().invoke(app, ["site", "build", "-w", str(workspace), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "5 machines, 3 games" in result.output
    assert (out / "machines/halden-sounder/manual.html").is_file()


@pytest.mark.parametrize(
    ("counts", "said"),
    [
        ({"machines": 1, "games": 0}, "1 machine, 0 games"),
        ({"machines": 2, "games": 1}, "2 machines, 1 game"),
    ],
)
def test_the_build_summary_counts_in_words(counts: dict[str, int], said: str) -> None:
    assert site.Built(out=Path("_site"), counts=counts).summary() == said


def test_cli_build_on_no_workspace_is_one_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["site", "build", "-w", str(tmp_path / "nowhere")])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and "nowhere" in result.output


@pytest.mark.parametrize("where", [".", "..", "shelf", "catalogue/machines.json", "notes"])
def test_build_never_replaces_a_folder_it_did_not_build(tmp_path: Path, where: str) -> None:
    ws = stock(tmp_path / "ws")
    (ws / "notes").mkdir()
    (ws / "notes/todo.txt").write_text("keep me")
    before = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*"))
    with pytest.raises(site.SiteError, match="choose another --out"):
        site.build_site(ws, ws / where)
    assert sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*")) == before


def test_a_build_that_dies_midway_leaves_the_old_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    ws = stock(tmp_path / "ws")
    site.build_site(ws)
    before = sorted(p.relative_to(ws) for p in (ws / "_site").rglob("*"))
    calls = []

    def dying_copy(src, dst):  # stands in for a full disk on the fifth file
        calls.append(src)
        if len(calls) == 5:
            raise OSError(28, "No space left on device")
        return shutil.copyfile(src, dst)

    monkeypatch.setattr(site.shutil, "copy2", dying_copy)
    with pytest.raises(OSError):
        site.build_site(ws)
    assert sorted(p.relative_to(ws) for p in (ws / "_site").rglob("*")) == before
    assert [p.name for p in ws.iterdir() if p.name.startswith("._site")] == []


def test_cli_serve_builds_first_and_serves_on_localhost(tmp_path: Path) -> None:
    ws = stock(tmp_path / "ws")
    command = [sys.executable, "-m", "factory.cli", "site", "serve", "--port", "0", "-w", str(ws)]
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as process:
        try:
            lines = [process.stdout.readline(), process.stdout.readline()]
            url = re.search(r"http://127\.0\.0\.1:\d+/", "".join(lines)).group(0)
            with urllib.request.urlopen(url, timeout=10) as response:
                assert 'id="shelf-data"' in response.read().decode()
            with urllib.request.urlopen(url + "games/fog-ferry/", timeout=10) as response:
                assert "game.js" in response.read().decode()
        finally:
            process.terminate()
    assert (ws / "_site/index.html").is_file()


# --- the page, in Chromium -------------------------------------------------------------


def test_the_page_lists_exactly_the_catalogue_from_disk(browser: Browser, built: Path) -> None:
    with Watched(browser) as watched:
        watched.page.goto((built / "index.html").as_uri())
        assert visible_slugs(watched.page) == NEWEST_FIRST
        names = watched.page.eval_on_selector_all(
            ".entry .name", "els => els.map(e => e.textContent)"
        )
        assert sorted(names) == sorted(
            e["name"] for entries in catalogue(built.parent).values() for e in entries
        )
        assert watched.page.text_content("#tally") == "Showing all 8"
        assert watched.problems == []


def test_every_link_opens_a_product_that_loads_cleanly(browser: Browser, served: str) -> None:
    with Watched(browser, guard=False) as watched:
        watched.page.goto(served)
        hrefs = watched.page.eval_on_selector_all("#ledger a", "els => els.map(a => a.href)")
        assert len(set(hrefs)) == 5 * 2 + 3  # each machine's panel and manual, each game
        for href in sorted(set(hrefs)):
            response = watched.page.goto(href, wait_until="load")
            assert response is not None and response.ok, href
        assert watched.problems == []
        assert all(url.startswith(served) for url in watched.requests)


def test_the_back_link_of_every_product_reaches_the_shelf_page(
    browser: Browser, served: str, workspace: Path
) -> None:
    with Watched(browser) as watched:
        page = watched.page
        followed = set()
        for line_name, entries in catalogue(workspace).items():
            pages = [f for f in all_lines()[line_name].files if f.endswith(".html")]
            for entry in entries:
                for name in pages:
                    page.goto(f"{served}{line_name}/{entry['slug']}/{name}")
                    back = page.locator('a[href="../../"]').first
                    assert back.evaluate("a => a.href") == served
                    if (line_name, name) in followed:
                        continue
                    # Follow it for real once per line and page kind.
                    followed.add((line_name, name))
                    with page.expect_navigation():
                        back.click()
                    assert page.url == served
                    assert visible_slugs(page) == NEWEST_FIRST
        assert followed == {
            ("machines", "index.html"),
            ("machines", "manual.html"),
            ("games", "index.html"),
        }
        assert watched.problems == []


FILTERS = [
    ({"#f-line": "games"}, ["fog-ferry", "kiln-stack", "lantern-drift"]),
    ({"#f-domain": "rail"}, ["tidewater-signal-frame"]),
    ({"#f-era": "1960s"}, ["halden-sounder"]),
    ({"#f-line": "games", "#f-era": "1960s"}, []),
    ({"#q": "ferry"}, ["fog-ferry"]),
    ({"#q": "VALLEY lit"}, ["kessel-grid-desk"]),  # words of the tagline, any case
    ({"#q": "echo sounder"}, ["halden-sounder"]),  # the kind
    ({"#q": "arcade"}, ["fog-ferry", "lantern-drift"]),  # the genre
    ({"#q": "machine", "#f-era": "2020s"}, ["ardent-cryo-bay"]),
    ({"#q": "nothing-like-this"}, []),
]


@pytest.fixture(scope="module")
def shelf_page(browser: Browser, built: Path):
    with Watched(browser) as watched:
        watched.page.goto((built / "index.html").as_uri())
        yield watched


@pytest.mark.parametrize(("filters", "expected"), FILTERS)
def test_filters_and_search_narrow_the_list(
    shelf_page: Watched, filters: dict[str, str], expected: list[str]
) -> None:
    page = shelf_page.page
    page.click("#clear") if page.is_visible("#clear") else None
    for selector in ("#f-line", "#f-domain", "#f-era"):
        page.select_option(selector, "")
    page.fill("#q", "")
    assert visible_slugs(page) == NEWEST_FIRST
    for selector, value in filters.items():
        if selector == "#q":
            page.fill(selector, value)
        else:
            page.select_option(selector, value)
    assert visible_slugs(page) == expected
    assert page.is_visible("#empty") == (expected == [])
    assert page.text_content("#tally") == f"Showing {len(expected)} of 8"
    assert shelf_page.problems == []


def test_filters_live_in_the_address(browser: Browser, built: Path) -> None:
    with Watched(browser) as watched:
        page = watched.page
        page.goto((built / "index.html").as_uri())
        page.select_option("#f-line", "machines")
        page.fill("#q", "desk")
        hash_ = page.evaluate("location.hash")
        assert "line=machines" in hash_ and "q=desk" in hash_
        page.reload()
        assert visible_slugs(page) == ["kessel-grid-desk"]
        assert page.input_value("#q") == "desk"
        page.click("#clear") if page.is_visible("#clear") else page.fill("#q", "zzz")
        page.click("#clear")
        assert visible_slugs(page) == NEWEST_FIRST
        assert page.text_content("#tally") == "Showing all 8"
        assert watched.problems == []


def preview(page: Page, slug: str):
    """The preview frame of one entry once it has loaded (None if it never does)."""
    for _ in range(200):
        for frame in page.frames:
            if frame.url.endswith(f"/{slug}/index.html"):
                frame.wait_for_load_state("load")
                return frame
        page.wait_for_timeout(50)
    return None


def test_no_request_leaves_the_site_and_previews_are_the_real_products(
    browser: Browser, built: Path
) -> None:
    with Watched(browser) as watched:
        page = watched.page
        page.goto((built / "index.html").as_uri())
        machines = 0
        for slug in NEWEST_FIRST:
            page.locator(f"li[id$='-{slug}'] .frame").scroll_into_view_if_needed()
            frame = preview(page, slug)
            assert frame is not None, slug
            if "/machines/" in frame.url:
                assert frame.evaluate("window.machine.faults.length") == 2
                machines += 1
        assert machines == 5
        # Scrolled away, the first previews are unloaded again.
        assert page.evaluate("document.querySelector('.frame').children.length") == 0
        assert watched.requests and all(u.startswith("file:") for u in watched.requests)
        assert watched.problems == []


@pytest.mark.parametrize(("width", "height"), [(1440, 900), (390, 844)])
def test_no_sideways_overflow_and_readable(
    browser: Browser, built: Path, tmp_path: Path, width: int, height: int
) -> None:
    with Watched(browser, width, height) as watched:
        page = watched.page
        page.goto((built / "index.html").as_uri())
        assert overflow(page) <= 0
        page.click(".particulars summary")  # the longest text, opened
        assert overflow(page) <= 0
        sizes = page.eval_on_selector_all(
            ".tagline, .name, .particulars dd",
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize))",
        )
        assert min(sizes) >= 14
        plate = page.locator(".frame").first.bounding_box()
        assert plate["x"] >= 0 and plate["x"] + plate["width"] <= width
        shot = tmp_path / f"shelf-{width}.png"
        page.screenshot(path=str(shot), full_page=True)
        assert shot.stat().st_size > 10_000
        assert watched.problems == []


def test_an_empty_shelf_says_so(browser: Browser, tmp_path: Path) -> None:
    for line in all_lines().values():
        line.catalogue_path(tmp_path).parent.mkdir(exist_ok=True)
        line.catalogue_path(tmp_path).write_text("[]")
    out = site.build_site(tmp_path).out
    with Watched(browser) as watched:
        watched.page.goto((out / "index.html").as_uri())
        assert watched.page.locator("#ledger > li").count() == 0
        assert watched.page.is_hidden("#finder")
        assert watched.page.text_content("#empty p") == "Nothing has been made yet."
        assert watched.page.text_content("#holdings") == "The shelf is empty so far."
        assert watched.problems == []


def test_keyboard_search_and_entry_to_entry(browser: Browser, built: Path) -> None:
    with Watched(browser) as watched:
        page = watched.page
        page.goto((built / "index.html").as_uri())
        page.keyboard.press("/")
        assert page.evaluate("document.activeElement.id") == "q"
        page.keyboard.type("harbour")
        assert visible_slugs(page) == ["fog-ferry"]
        page.keyboard.press("Escape")
        assert visible_slugs(page) == NEWEST_FIRST
        page.focus("#ledger .title")
        page.keyboard.press("ArrowDown")
        page.keyboard.press("ArrowDown")
        focused = page.evaluate("document.activeElement.closest('li').id")
        assert focused == "machines-ardent-cryo-bay"
        page.keyboard.press("ArrowUp")
        assert page.evaluate("document.activeElement.closest('li').id") == "games-fog-ferry"
        # Tabbing through the whole page never lands inside a preview.
        seen = set()
        for _ in range(30):
            page.keyboard.press("Tab")
            seen.add(page.evaluate("document.activeElement.tagName"))
        assert "IFRAME" not in seen and "A" in seen
        assert watched.problems == []
