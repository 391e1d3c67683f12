"""The command line: parse, call one function, render the result with rich.

No logic lives here that a test would have to go through the CLI to reach.
Every problem the user can cause ends as one line naming the file and the
problem, and a non-zero exit; never a traceback.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer
from rich.console import Console

app = typer.Typer(
    help="An unattended software factory: one standing order, one new product a shift.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
errors = Console(stderr=True)

WorkspaceOption = typer.Option(Path("."), "--workspace", "-w", help="The factory checkout.")


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one line on stderr and return the exit to raise."""
    errors.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


def not_built(what: str) -> typer.Exit:
    return fail(f"{what} is not built yet", 2)


# --- harness: run, sessions ----------------------------------------------------------

sessions_app = typer.Typer(help="The recorded sessions of this workspace.", no_args_is_help=True)
app.add_typer(sessions_app, name="sessions")


@app.command()
def run() -> None:
    """Run a standing order once with a model, through real tools, recording every step."""
    raise not_built("factory run")


# --- gates: check, probe ---------------------------------------------------------------


@app.command()
def check(
    workspace: Path = WorkspaceOption,
    line: str = typer.Option("all", "--line", help="machines, games or all."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    changed_since: str | None = typer.Option(
        None, "--changed-since", help="Also fail changes since REV outside the new product."
    ),
) -> None:
    """The static gate: catalogue rules and product files, for every line."""
    import json

    from factory.check import CheckError
    from factory.check import check as run_check
    from factory.lines import all_lines

    if line != "all" and line not in all_lines():
        raise fail(f"--line {line!r}: choose one of {', '.join([*all_lines(), 'all'])}")
    try:
        report = run_check(workspace, None if line == "all" else [line], changed_since)
    except CheckError as error:
        raise fail(str(error)) from None
    if as_json:
        print(json.dumps(report.as_dict(), indent=2))
    else:
        for note in report.notes:
            console.print(f"check: note: {note}", style="dim", markup=False, soft_wrap=True)
        for problem in report.problems:
            console.print(f"check: {problem}", style="red", markup=False, soft_wrap=True)
        counted = ", ".join(f"{n} {name}" for name, n in report.counts.items()) or "nothing"
        if report.ok:
            console.print(f"check: ok - {counted}", style="green", markup=False, highlight=False)
        else:
            console.print(
                f"check: {len(report.problems)} problem(s) in {counted}",
                markup=False,
                highlight=False,
            )
    raise typer.Exit(0 if report.ok else 1)


SlugsArgument = typer.Argument(None, help="Products to probe (default: the newest).")
ShotsOption = typer.Option(None, "--out", help="Screenshot folder (default .factory/shots).")


@app.command()
def probe(
    slugs: list[str] = SlugsArgument,
    all_products: bool = typer.Option(False, "--all", help="Every product of the line."),
    line: str | None = typer.Option(
        None, "--line", help="machines or games (default: the line listing SLUG, else machines)."
    ),
    workspace: Path = WorkspaceOption,
    out: Path | None = ShotsOption,
    shots_only: bool = typer.Option(False, "--shots-only", help="Take the screenshots, judge nothing."),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    jobs: int = typer.Option(2, "--jobs", min=1, help="Products probed side by side."),
    parity: bool = typer.Option(False, "--parity", help="Only the reference factory's rules."),
) -> None:
    """The dynamic gate: drive products in headless Chromium and take screenshots."""
    from rich.table import Table

    from factory import probe as gate

    try:
        chosen = line or (gate.line_of(workspace, slugs) if slugs else "machines")
        report = gate.probe(
            workspace,
            slugs or None,
            all=all_products,
            line=chosen,
            out=out,
            shots_only=shots_only,
            jobs=jobs,
            parity=parity,
        )
    except gate.ProbeError as error:
        raise fail(str(error)) from None
    if as_json:
        print(report.model_dump_json(indent=2))
    else:
        table = Table("slug", "verdict", "problems", "seconds")
        for result in report.results:
            lines = result.problems + [f"{f.name}: {f.detail}" for f in result.findings if not f.ok]
            verdict = "[green]pass[/]" if result.ok else "[red]FAIL[/]"
            table.add_row(result.slug, verdict, "\n".join(lines) or "-", f"{result.seconds:.1f}")
        console.print(table)
        for result in report.results:
            for shot in result.shots:
                console.print(f"shot: {shot}", markup=False, highlight=False)
    raise typer.Exit(0 if report.ok else 1)


# --- the row: export, ship, rows -------------------------------------------------------


@app.command()
def export() -> None:
    """Export a session chain as a dataset row (JSONL + images)."""
    raise not_built("factory export")


@app.command()
def ship() -> None:
    """Publish exported rows to the Hub, or to the local trajectories folder."""
    raise not_built("factory ship")


@app.command()
def rows() -> None:
    """The dataset cards' filters over a rows folder."""
    raise not_built("factory rows")


# --- the shift: shift, config, cron ----------------------------------------------------


@app.command()
def shift() -> None:
    """One unattended shift: run the order, gate, land one commit, ship the row."""
    raise not_built("factory shift")


@app.command()
def config() -> None:
    """Print the resolved configuration, secrets masked."""
    raise not_built("factory config")


# --- the shelf site --------------------------------------------------------------------


site_app = typer.Typer(help="The shelf as a static site.", no_args_is_help=True)
app.add_typer(site_app, name="site")

OutOption = typer.Option(
    None, "--out", "-o", help="Where the site goes (default: <workspace>/_site)."
)


def _site_built(workspace: Path, out: Path | None) -> Path:
    from factory.site import SiteRefused, build_site

    try:
        built = build_site(workspace, out)
    except SiteRefused as refused:
        for problem in refused.problems:
            errors.print(problem, highlight=False, soft_wrap=True, markup=False)
        raise fail(f"site not built: {workspace} does not pass factory check", 1) from None
    except OSError as error:
        raise fail(f"{error.filename or workspace}: {error.strerror or error}", 2) from None
    counts = ", ".join(f"{n} {line}" for line, n in built.counts.items())
    console.print(f"built {built.out} ({counts})", highlight=False)
    return built.out


@site_app.command("build")
def site_build(workspace: Path = WorkspaceOption, out: Path | None = OutOption) -> None:
    """Gate the catalogue with factory check, then write the shelf page and every product."""
    _site_built(workspace, out)


@site_app.command("serve")
def site_serve(
    port: int = typer.Option(8000, "--port", "-p", help="Port on 127.0.0.1 (0: any free port)."),
    workspace: Path = WorkspaceOption,
    out: Path | None = OutOption,
) -> None:
    """Serve the built site on 127.0.0.1, building it first when there is none."""
    from factory.site import DEFAULT_OUT, address, is_built, server

    folder = out if out is not None else workspace / DEFAULT_OUT
    if not is_built(folder):
        folder = _site_built(workspace, out)
    try:
        httpd = server(folder, port)
    except OSError as error:
        raise fail(f"cannot listen on 127.0.0.1:{port}: {error.strerror or error}", 2) from None
    console.print(f"serving {folder} at {address(httpd)} (Ctrl-C stops)", highlight=False)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        console.print("stopped")
    finally:
        httpd.server_close()


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        errors.print("interrupted")
        sys.exit(130)


if __name__ == "__main__":
    main()
