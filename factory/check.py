"""The static gate: is every catalogue entry, and the product it names, publishable?

It reads the catalogue and the shelf of each line and reports every problem
as one line naming the entry, the file and what to do. Its verdict must equal
the reference gate's on any product: a rule the reference does not have may
only ever add a note, never a problem. It never writes, and never opens a
browser (that is the probe).
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Collection, Iterable
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath

from factory import htmlscan
from factory.lines import Line, all_lines, line_named

SLUG = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*")
CREATED = re.compile(r"\d{4}-\d{2}-\d{2}")


class CheckError(Exception):
    """The gate cannot run at all (not a workspace, unreadable, bad revision): exit 2."""


@dataclass(frozen=True)
class Problem:
    line: str
    """The line's name, or "" for a problem of the workspace as a whole."""
    index: int | None
    """The entry's position in the catalogue, or None for the file as a whole."""
    slug: str
    file: str
    """Workspace-relative path of the file to fix."""
    message: str

    def __str__(self) -> str:
        if self.index is None:
            return f"{self.file}: {self.message}"
        return f"{self.line} entry {self.index} ({self.slug or '?'}): {self.file}: {self.message}"


@dataclass
class CheckReport:
    problems: list[Problem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    """Catalogue entries checked, per line."""

    @property
    def ok(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict:
        return {
            "ok": self.ok,
            "counts": dict(self.counts),
            "problems": [asdict(p) | {"text": str(p)} for p in self.problems],
            "notes": list(self.notes),
        }


def check(
    workspace: Path,
    lines: list[str] | None = None,
    changed_since: str | None = None,
    repairs: Collection[str] = (),
) -> CheckReport:
    """Run the static gate over the chosen lines (all by default).

    `repairs` are workspace-relative files or folders that may change since
    `changed_since` too: what already failed before the work began (a shift's
    first task is to repair it)."""
    workspace = Path(workspace)
    if not workspace.is_dir():
        raise CheckError(f"{workspace}: not a folder")
    if not (workspace / "catalogue").is_dir():
        raise CheckError(f"{workspace / 'catalogue'}: no catalogue folder; is this a workspace?")
    try:
        chosen = [line_named(name) for name in lines] if lines else list(all_lines().values())
    except KeyError as error:
        raise CheckError(str(error.args[0])) from None
    report = CheckReport()
    for line in chosen:
        entries = _check_line(workspace, line, report, required=bool(lines))
        if entries is not None:
            report.counts[line.name] = len(entries)
    if changed_since is not None:
        _check_changes(workspace, chosen, changed_since, report, repairs)
    return report


def read_catalogue(workspace: Path, line: Line) -> list:
    """The line's catalogue as a list; ValueError names what is wrong with it."""
    path = line.catalogue_path(workspace)
    try:
        entries = json.loads(path.read_text(encoding="utf-8"))
    except UnicodeDecodeError as error:
        raise ValueError(f"is not UTF-8 text ({error.reason}); save it as UTF-8") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"is not valid JSON: {error.msg} at line {error.lineno} column {error.colno}"
        ) from None
    if not isinstance(entries, list):
        raise ValueError("must be a JSON array of entries")
    return entries


def _check_line(workspace: Path, line: Line, report: CheckReport, required: bool) -> list | None:
    path = line.catalogue_path(workspace)
    where = _relative(path, workspace)
    if not path.exists():
        if required:
            report.problems.append(
                Problem(line.name, None, "", where, "does not exist; create it as []")
            )
        else:
            report.notes.append(f"{where} does not exist; the {line.name} line is not checked")
        return None
    try:
        entries = read_catalogue(workspace, line)
    except OSError as error:
        raise CheckError(f"{where}: cannot be read ({error.strerror})") from None
    except ValueError as error:
        report.problems.append(Problem(line.name, None, "", where, str(error)))
        return None

    seen: dict[tuple[str, ...], dict[tuple, int]] = {group: {} for group in line.unique}
    for index, entry in enumerate(entries):
        if not isinstance(entry, dict):
            report.problems.append(
                Problem(line.name, index, "", where, "is not a JSON object; write it as {...}")
            )
            continue
        slug = entry.get("slug") if isinstance(entry.get("slug"), str) else ""
        for message in _entry_problems(line, entry, entries[:index], seen, index):
            report.problems.append(Problem(line.name, index, slug, where, message))
        if SLUG.fullmatch(slug):
            for file, message in _product_problems(workspace, line, entry, slug, report):
                report.problems.append(Problem(line.name, index, slug, file, message))

    listed = {
        e.get("slug") for e in entries if isinstance(e, dict) and isinstance(e.get("slug"), str)
    }
    shelf = line.shelf_dir(workspace)
    if shelf.is_dir():
        for folder in sorted(p for p in shelf.iterdir() if p.is_dir() and p.name not in listed):
            report.notes.append(f"{_relative(folder, workspace)} is not in the catalogue yet")
    return entries


def _entry_problems(
    line: Line,
    entry: dict,
    earlier: list,
    seen: dict[tuple[str, ...], dict[tuple, int]],
    index: int,
) -> Iterable[str]:
    for name, info in line.entry_model.model_fields.items():
        value = entry.get(name)
        if info.annotation is str and (not isinstance(value, str) or not value.strip()):
            yield f"missing or empty field '{name}'"
    slug = entry.get("slug")
    if isinstance(slug, str) and slug.strip() and not SLUG.fullmatch(slug):
        yield f"slug {slug!r} must be lowercase a-z0-9 words joined by single dashes"
    for group, firsts in seen.items():
        values = [entry.get(name) for name in group]
        if not all(isinstance(v, str) and v.strip() for v in values):
            continue
        key = tuple(line.unique_key(v) for v in values)
        if key in firsts:
            yield (
                f"same {' + '.join(group)} as entry {firsts[key]} ({', '.join(key)}); "
                "choose one no entry has"
            )
        else:
            firsts[key] = index
    created = entry.get("created")
    if isinstance(created, str) and created.strip() and not CREATED.fullmatch(created):
        yield f"created {created!r} must be a date written YYYY-MM-DD"
    for rule in line.entry_rules:
        yield from rule(entry, earlier)


def _product_problems(
    workspace: Path, line: Line, entry: dict, slug: str, report: CheckReport
) -> Iterable[tuple[str, str]]:
    folder = line.product_dir(workspace, slug)
    where = _relative(folder, workspace)
    if not folder.is_dir():
        yield where, "does not exist; build the product there or fix the slug"
        return
    missing = [name for name in line.files if not (folder / name).is_file()]
    if missing:
        yield where, f"is missing {', '.join(missing)}"
        return
    extra = sorted(p.name for p in folder.iterdir() if p.name not in line.files)
    if extra:
        yield (
            where,
            (
                f"has extra files {', '.join(extra)}; a {line.noun} is exactly {', '.join(line.files)}"
            ),
        )
    size = sum((folder / name).stat().st_size for name in line.files)
    if size > line.size_limit:
        yield (
            where,
            (
                f"is {size // 1024} KB in total (limit {line.size_limit // 1024} KB); "
                f"keep it near {line.size_target // 1024} KB"
            ),
        )
    elif size > line.size_target:
        report.notes.append(
            f"{where} is {size // 1024} KB; the order asks for about {line.size_target // 1024} KB"
        )

    try:
        sources = {
            name: (folder / name).read_text(encoding="utf-8", errors="replace")
            for name in line.files
        }
    except OSError as error:
        yield where, f"cannot be read ({error.strerror}); fix its permissions"
        return
    for name, text in sources.items():
        request = htmlscan.external_request(text)
        if request:
            yield f"{where}/{name}", f"external request {request!r}; everything must be relative"

    stylesheet = next(name for name in line.files if name.endswith(".css"))
    script = next(name for name in line.files if name.endswith(".js"))
    for page in line.pages:
        html = sources[page]
        file = f"{where}/{page}"
        if not htmlscan.is_html_document(html):
            yield file, "does not look like an HTML document (no <html>)"
        if not htmlscan.tag_refers_to(html, "link", "href", stylesheet):
            yield (
                file,
                f'does not link the stylesheet (<link rel="stylesheet" href="{stylesheet}">)',
            )
        if htmlscan.has_inline_style(html):
            yield file, f"has an inline <style> block; move the CSS into {stylesheet}"
        if htmlscan.has_inline_script(html):
            yield file, f"has an inline <script> block; move the JS into {script}"
        if "../../" not in html:
            yield file, 'has no relative link back to the catalogue (href="../../")'
    if not htmlscan.tag_refers_to(sources["index.html"], "script", "src", script):
        yield f"{where}/index.html", f'does not load its script (<script src="{script}">)'

    for rule in line.product_rules:
        for name, message in rule(entry, sources):
            yield f"{where}/{name}", message
    for rule in line.product_notes:
        for name, message in rule(entry, sources):
            report.notes.append(f"{where}/{name}: {message} (our order asks for it)")
    if isinstance(entry.get("created"), str) and CREATED.fullmatch(entry["created"]):
        try:
            datetime.date.fromisoformat(entry["created"])
        except ValueError:
            report.notes.append(f"{where}: created {entry['created']!r} is not a calendar date")


def _check_changes(
    workspace: Path, lines: list[Line], rev: str, report: CheckReport, repairs: Collection[str]
) -> None:
    """The order's rule: since `rev`, only the new products' folders and the catalogue changed.

    The new products are the entries appended to each catalogue since `rev`.
    Ignored files (`.factory/`) are not changes; untracked files are.
    """
    import git

    try:
        repo = git.Repo(workspace, search_parent_directories=True)
        base = repo.commit(rev)
    except git.InvalidGitRepositoryError:
        raise CheckError(f"{workspace}: not a git checkout; --changed-since needs one") from None
    except (git.BadName, ValueError, git.GitCommandError):
        raise CheckError(f"--changed-since {rev!r}: no such revision") from None
    root = Path(repo.working_tree_dir or workspace).resolve()
    prefix = _relative(workspace.resolve(), root)
    prefix = "" if prefix == "." else prefix + "/"

    allowed_files: set[str] = {prefix + path.rstrip("/") for path in repairs}
    allowed_folders: list[str] = [prefix + path.rstrip("/") + "/" for path in repairs]
    for line in lines:
        catalogue = _relative(line.catalogue_path(workspace), workspace)
        allowed_files.add(prefix + catalogue)
        before = _catalogue_at(base, prefix + catalogue)
        try:
            now = read_catalogue(workspace, line)
        except (OSError, ValueError):
            continue  # the catalogue rules already report it
        if now[: len(before)] != before:
            report.notes.append(f"{catalogue}: entries that existed at {rev} were changed")
        appended = now[len(before) :]
        if len(appended) > 1:
            report.notes.append(
                f"{catalogue}: {len(appended)} entries appended since {rev}; the order asks for one"
            )
        for entry in appended:
            slug = entry.get("slug") if isinstance(entry, dict) else None
            if isinstance(slug, str) and SLUG.fullmatch(slug):
                folder = _relative(line.product_dir(workspace, slug), workspace)
                allowed_folders.append(f"{prefix}{folder}/")

    diffs = base.diff(None)
    changed = {d.a_path for d in diffs} | {d.b_path for d in diffs} | set(repo.untracked_files)
    for path in sorted(p for p in changed if p):
        if path in allowed_files or any(path.startswith(f) for f in allowed_folders):
            continue
        shown = path[len(prefix) :] if path.startswith(prefix) else path
        report.problems.append(
            Problem(
                "",
                None,
                "",
                shown,
                f"changed since {rev}, outside the new product's folder and the catalogue; "
                "undo the change",
            )
        )


def _catalogue_at(commit, path: str) -> list:
    """The catalogue as it was at a commit; [] when absent or unreadable there."""
    try:
        data = (commit.tree / path).data_stream.read()
        entries = json.loads(data.decode("utf-8"))
    except (KeyError, ValueError):
        return []
    return entries if isinstance(entries, list) else []


def _relative(path: Path, workspace: Path) -> str:
    try:
        return str(PurePosixPath(path.relative_to(workspace)))
    except ValueError:
        return str(path)
