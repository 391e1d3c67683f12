"""The shelf as a static site: one page that lists every line's products, and the products.

Layout: the site *is* the shelf folder. `shelf/<line>/<slug>/` is copied byte
for byte to `<out>/<line>/<slug>/`, and the shelf page takes the place of
`shelf/index.html` at `<out>/index.html`. A product's back-link `../../`,
from `<line>/<slug>/index.html`, therefore resolves to the site root, the
shelf page, exactly as it resolves to `shelf/` in the workspace; the page's own
links (`<line>/<slug>/...`) are the workspace's paths relative to `shelf/`.
The catalogue is embedded in the page as a JSON script tag, so the page also
works opened from disk; only the products' directory back-links need a server
(file:// shows a folder listing for `../../`), which GitHub Pages and
`factory site serve` are.

The page is built from the line descriptions alone: an entry's headline facts
are the line's `facts` (kind, domain, era; genre, mechanic, theme), its pages are the line's `.html` files, its swatches the `palette`
field when it has one. A third line appears on the page without edits here.

This room must never build a catalogue that `factory check` refuses, never
leave a half-built site behind (it builds in a temporary folder and swaps),
and never serve beyond 127.0.0.1.
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import sys
import tempfile
from dataclasses import dataclass
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from factory.check import CheckError, check
from factory.lines import Line, all_lines

DEFAULT_OUT = "_site"
ASSETS = ("index.html", "shelf.css", "shelf.js")
DATA_MARK = "{{shelf}}"
IDENTITY = ("slug", "name", "tagline", "created")
"""Fields every entry has and the page shows on their own, not as facts."""
FACETS = ("domain", "era")
"""Filterable fields besides the line. An entry without one drops out when it is set."""
SHORT = 40
"""A text field this long or shorter may be a headline fact of a line naming none."""
HEX = re.compile(r"#[0-9a-fA-F]{6}")


class SiteError(Exception):
    """The site cannot be built at all (no workspace, the check cannot run): one line."""


class SiteRefused(SiteError):
    """`factory check` refuses the workspace; `problems` are its lines, one each."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__(f"{len(problems)} problem(s) in factory check")
        self.problems = problems


class Page(BaseModel):
    label: str
    href: str


class Item(BaseModel):
    """One product as the shelf page shows it: the page's data boundary."""

    line: str
    noun: str
    number: int
    """1-based position in its line's catalogue: the ledger number."""
    slug: str
    name: str
    tagline: str
    created: str
    headline: list[str]
    facets: dict[str, str]
    facts: list[tuple[str, str]]
    palette: list[str]
    pages: list[Page]
    preview: str


class Shelf(BaseModel):
    lines: list[dict[str, Any]]
    facets: list[str]
    items: list[Item]


@dataclass
class Built:
    out: Path
    counts: dict[str, int]
    """Products on the site, per line name."""

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def summary(self) -> str:
        """`3 machines, 1 game`: what a person reads after a build."""
        lines = all_lines()
        return ", ".join(
            f"{n} {lines[name].noun if n == 1 else name}" for name, n in self.counts.items()
        )


def _label(field: str) -> str:
    return field.replace("_", " ").replace("-", " ").capitalize()


def _text(value: Any) -> str:
    if isinstance(value, list):
        return ", ".join(str(part) for part in value)
    return str(value)


def _item(line: Line, number: int, raw: dict[str, Any]) -> Item:
    entry = line.entry_model.model_validate(raw).model_dump()
    slug = entry["slug"]
    rest = {k: v for k, v in entry.items() if k not in IDENTITY}
    palette = rest.pop("palette", None)
    if not (isinstance(palette, list) and all(HEX.fullmatch(str(c)) for c in palette)):
        palette = []
    if line.facts:
        headline = [_text(entry[f]) for f in line.facts if entry.get(f)]
    else:
        headline = [v for v in rest.values() if isinstance(v, str) and len(v) <= SHORT][:3]
    base = f"{line.name}/{slug}/"
    pages = [
        Page(
            label=f"Open the {line.noun}" if name == "index.html" else _label(Path(name).stem),
            href=base + name,
        )
        for name in line.files
        if name.endswith(".html")
    ]
    return Item(
        line=line.name,
        noun=line.noun,
        number=number,
        slug=slug,
        name=entry["name"],
        tagline=entry["tagline"],
        created=entry["created"],
        headline=headline,
        facets={f: str(rest[f]) for f in FACETS if isinstance(rest.get(f), str)},
        facts=[(_label(k), _text(v)) for k, v in rest.items()],
        palette=palette,
        pages=pages,
        preview=base + line.files[0],
    )


def _catalogue(line: Line, workspace: Path) -> list[dict[str, Any]]:
    path = line.catalogue_path(workspace)
    if not path.is_file():
        return []
    return json.loads(path.read_text(encoding="utf-8"))


def shelf(workspace: Path) -> Shelf:
    """Every line's catalogue as the page's data, newest first.

    Ties on the created date go to the later catalogue position: entries are
    appended, so later means newer. Assumes a catalogue `factory check` passed.
    """
    items: list[Item] = []
    lines: list[dict[str, Any]] = []
    for line in all_lines().values():
        entries = _catalogue(line, workspace)
        lines.append({"name": line.name, "noun": line.noun, "count": len(entries)})
        items += [_item(line, i + 1, raw) for i, raw in enumerate(entries)]
    items.sort(key=lambda item: (item.created, item.number), reverse=True)
    return Shelf(lines=lines, facets=list(FACETS), items=items)


def render_page(data: Shelf) -> str:
    """The shelf page's HTML with the data embedded in its JSON script tag."""
    template = _asset("index.html")
    # "<" escaped as \u003c: no entry text can close the script tag early.
    blob = json.dumps(data.model_dump(), ensure_ascii=False).replace("<", "\\u003c")
    return template.replace(DATA_MARK, blob, 1)


def _asset(name: str) -> str:
    return resources.files("factory").joinpath("site_assets", name).read_text(encoding="utf-8")


def _gate(workspace: Path) -> None:
    try:
        report = check(workspace)
    except CheckError as error:
        raise SiteError(str(error)) from None
    if not report.ok:
        raise SiteRefused([str(problem) for problem in report.problems])


def build_site(workspace: Path, out: Path | None = None) -> Built:
    """Gate the workspace with `factory check`, then write the site to `out`.

    Raises SiteRefused with the check's problems, SiteError when it cannot
    run; `out` is then untouched.
    The new site replaces the old one only once it is complete.
    """
    workspace = Path(workspace)
    if not workspace.is_dir():
        raise SiteError(f"{workspace}: no such workspace folder")
    out = Path(out) if out is not None else workspace / DEFAULT_OUT
    _refuse_to_replace(out, workspace)
    _gate(workspace)
    data = shelf(workspace)
    out.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{out.name}-", dir=out.parent))
    staging.chmod(0o755)  # mkdtemp makes it private; a site is for reading
    try:
        lines = all_lines()
        for item in data.items:
            line = lines[item.line]
            target = staging / line.name / item.slug
            target.mkdir(parents=True)
            for name in line.files:
                shutil.copy2(line.product_dir(workspace, item.slug) / name, target / name)
        (staging / "index.html").write_text(render_page(data), encoding="utf-8")
        for name in ASSETS[1:]:
            (staging / name).write_text(_asset(name), encoding="utf-8")
        # GitHub Pages would otherwise run Jekyll over the products.
        (staging / ".nojekyll").write_text("", encoding="utf-8")
        _swap(staging, out)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    counts = {entry["name"]: entry["count"] for entry in data.lines}
    return Built(out=out, counts=counts)


def _refuse_to_replace(out: Path, workspace: Path) -> None:
    """The swap deletes the old `out`: it must be a site we built, never a user's folder."""
    where, home = out.resolve(), workspace.resolve()
    if where == home or where in home.parents:
        raise SiteError(f"{out}: holds the workspace; choose another --out")
    if where.exists() and not (where.is_dir() and _is_site(where)):
        raise SiteError(f"{out}: exists and is not a built site; choose another --out")


def _is_site(folder: Path) -> bool:
    return not any(folder.iterdir()) or all((folder / name).is_file() for name in ASSETS)


def _swap(staging: Path, out: Path) -> None:
    """Put the finished site in place; the old one goes only after the rename."""
    old = None
    if out.exists():
        old = out.with_name(f".{out.name}-old-{staging.name}")
        out.rename(old)
    staging.rename(out)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def is_built(out: Path) -> bool:
    return (Path(out) / "index.html").is_file()


class _Handler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass

    def end_headers(self) -> None:
        # A rebuilt site should show at once, not a cached page.
        self.send_header("Cache-Control", "no-store")
        super().end_headers()

    def do_GET(self) -> None:
        # Browsers ask every origin for /favicon.ico; products cannot carry one
        # (exactly their files), and a 404 would be a console error on every page.
        if self.path == "/favicon.ico" and not Path(self.translate_path(self.path)).is_file():
            self.send_response(204)
            self.end_headers()
            return
        super().do_GET()


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A visitor leaving mid-download is not an error worth a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


def server(out: Path, port: int = 0) -> ThreadingHTTPServer:
    """A threaded HTTP server for `out` on 127.0.0.1 (port 0: any free port).

    The caller runs `serve_forever()` (or in a thread) and `shutdown()`s it.
    """
    return _Server(("127.0.0.1", port), functools.partial(_Handler, directory=str(out)))


def address(httpd: ThreadingHTTPServer) -> str:
    host, port = httpd.server_address[:2]
    return f"http://{host}:{port}/"
