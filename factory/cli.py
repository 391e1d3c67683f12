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
from rich.markup import escape

app = typer.Typer(
    help="An unattended software factory: one standing order, one new product a shift.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)
console = Console()
errors = Console(stderr=True)

WorkspaceOption = typer.Option(Path("."), "--workspace", "-w", help="The factory checkout.")
# Who takes the work: shared by `run` and `shift`, which staff a model the same way.
ProviderOption = typer.Option(
    None,
    "--provider",
    help="openai, builtin, replay, or auto (default: openai with a key or a base URL "
    "of your own, else the built-in designer).",
)
BaseUrlOption = typer.Option(None, "--base-url", help="An OpenAI-compatible endpoint.")
ModelOption = typer.Option(None, "--model", help="The model id the endpoint knows.")
ApiKeyEnvOption = typer.Option(
    None, "--api-key-env", help="The NAME of the variable holding the key."
)


def fail(message: str, code: int = 2) -> typer.Exit:
    """Print one line on stderr and return the exit to raise."""
    errors.print(f"[bold red]error:[/] {message}", highlight=False, soft_wrap=True)
    return typer.Exit(code)


# --- harness: run, sessions ----------------------------------------------------------

sessions_app = typer.Typer(help="The recorded sessions of this workspace.", no_args_is_help=True)
app.add_typer(sessions_app, name="sessions")


@app.command()
def run(
    order: str = typer.Option(
        ..., "--order", help="NAME (orders/NAME.yaml in the workspace) or a path."
    ),
    workspace: Path = WorkspaceOption,
    provider: str | None = ProviderOption,
    base_url: str | None = BaseUrlOption,
    model: str | None = ModelOption,
    api_key_env: str | None = ApiKeyEnvOption,
    vision: bool | None = typer.Option(None, "--vision/--no-vision", help="Offer the view tool."),
    max_iterations: int | None = typer.Option(None, "--max-iterations", help="Model calls."),
    max_calls: int | None = typer.Option(None, "--max-calls", help="Tool calls."),
    max_minutes: float | None = typer.Option(None, "--max-minutes", help="Wall-clock minutes."),
    max_cost: float | None = typer.Option(None, "--max-cost", help="Dollars; 0 is no limit."),
    quiet: bool = typer.Option(False, "--quiet", help="Print only the end (for cron)."),
    as_json: bool = typer.Option(False, "--json", help="Print a machine-readable summary."),
) -> None:
    """Run a standing order once with a model, through real tools, recording every step."""
    import json
    import signal
    import threading

    from factory import config, loop, session
    from factory.drivers import DriverError, make_model
    from factory.drivers.replay import ReplayError
    from factory.order import OrderError, load_order

    flags = dict(
        provider=provider, base_url=base_url, model=model, api_key_env=api_key_env,
        vision=vision, max_iterations=max_iterations, max_calls=max_calls,
        max_minutes=max_minutes, max_cost=max_cost,
    )  # fmt: skip
    workspace = workspace.resolve()  # every path the run records or names is absolute
    try:
        settings = config.load_settings(workspace, flags)
        the_order = load_order(workspace, order)
        session_id = session.new_id()
        the_model = make_model(settings, workspace, session_id)
    except (config.ConfigError, OrderError, DriverError, ReplayError) as error:
        raise fail(str(error)) from None

    abort = threading.Event()

    # The loop notices within a fraction of a second (even mid model call) and
    # writes its outcome; nothing is interrupted halfway through a record.
    signal.signal(signal.SIGTERM, lambda signum, frame: abort.set())
    display = _RunDisplay(quiet=quiet or as_json)
    with display:
        result = loop.run(
            the_model, the_order, workspace, settings,
            session_id=session_id, abort=abort, on_event=display.show,
        )  # fmt: skip
    summary = {
        "session": result.session_id, "reason": result.reason, "iterations": result.iterations,
        "calls": result.calls, "tokens": result.tokens, "cost": result.cost,
        "log": str(result.log_path), "summary": result.summary,
    }  # fmt: skip
    if as_json:
        print(json.dumps(summary))
    else:
        style = "green" if result.settled else "red"
        console.print(
            f"[bold {style}]{result.reason}[/] {result.session_id}: {result.iterations} turns, "
            f"{result.calls} calls, {result.tokens['input']}+{result.tokens['output']} tokens, "
            f"${result.cost:.4f}",
            highlight=False,
        )
        if result.summary:
            console.print(result.summary, markup=False, highlight=False, soft_wrap=True)
    raise typer.Exit(0 if result.settled else 1)


class _RunDisplay:
    """The live view of a run: one line per tool call, retry, nudge; a status line of tokens."""

    def __init__(self, quiet: bool):
        self.quiet = quiet
        self.turn = 0
        self.tokens = [0, 0]
        self.status = None if quiet else console.status("starting")

    def __enter__(self) -> _RunDisplay:
        if self.status is not None:
            self.status.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        if self.status is not None:
            self.status.__exit__(*exc)

    def show(self, name: str, fields: dict) -> None:
        if self.quiet:
            return
        line = None
        if name == "iteration":
            self.turn = fields.get("n", self.turn)
        elif name == "usage":
            self.tokens[0] += fields.get("input", 0)
            self.tokens[1] += fields.get("output", 0)
        elif name == "tool":
            mark = "[green]ok[/]" if fields.get("ok") else "[red]!![/]"
            shown = escape(str(fields.get("display") or ""))
            line = f"{mark} {fields.get('name')} [dim]{shown}[/] {fields.get('seconds', 0):.2f}s"
        elif name == "retry":
            line = f"[yellow]retry[/] {fields.get('status')} in {fields.get('wait', 0):g}s: {escape(str(fields.get('why')))}"
        elif name == "nudge":
            line = f"[yellow]nudge[/] {fields.get('why')} ({fields.get('n')})"
        elif name == "compaction":
            line = f"[cyan]compacted[/] {fields.get('dropped')} messages ({fields.get('how')})"
        if line:
            console.print(line, highlight=False, soft_wrap=True)
        if self.status is not None:
            self.status.update(f"turn {self.turn} · tokens {self.tokens[0]}+{self.tokens[1]}")


@sessions_app.command("list")
def sessions_list(workspace: Path = WorkspaceOption) -> None:
    """Every recorded session: id, order, model, started, reason, turns."""
    from rich.table import Column, Table

    from factory import session

    # The id is what `sessions show` and `export` take: never cut, even at 80 columns
    # in a pipe; the other columns fold instead.
    table = Table(Column("id", no_wrap=True, min_width=len(session.new_id())))
    for name in ("order", "model", "started", "reason", "turns"):
        table.add_column(name, overflow="fold")
    for path in session.list_sessions(workspace):
        try:
            recorded = session.load(path)
        except (ValueError, OSError) as error:
            table.add_row(path.stem, "", "", "", f"unreadable: {error}", "")
            continue
        outcome = recorded.outcome or {}
        turns = outcome.get("iterations", recorded.events.get("iteration", 0))
        table.add_row(
            recorded.id, str(recorded.meta.get("order") or ""), str(recorded.meta.get("model") or ""),
            recorded.started[:19], str(outcome.get("reason") or "(unfinished)"), str(turns),
        )  # fmt: skip
    console.print(table)


@sessions_app.command("show")
def sessions_show(
    ref: str = typer.Argument(..., help="A session id, unique prefix, or `last`."),
    workspace: Path = WorkspaceOption,
) -> None:
    """One session: its meta, every message, the event counts and the outcome."""
    from factory import session

    try:
        recorded = session.load(session.find(workspace, ref))
    except (LookupError, ValueError, OSError) as error:
        raise fail(str(error)) from None
    meta = recorded.meta
    console.print(f"[bold]{recorded.id}[/] {meta.get('order')} · {meta.get('model')} "
                  f"({meta.get('driver')}) · started {recorded.started}", highlight=False)  # fmt: skip
    if meta.get("continues"):
        console.print(f"continues {meta['continues']} (chain {' > '.join(recorded.chain)})")
    for message in recorded.messages:
        console.print(_message_line(message), highlight=False, soft_wrap=True)
    console.print(f"events: {recorded.events}", highlight=False, markup=False)
    outcome = recorded.outcome
    console.print(
        f"outcome: {outcome if outcome else '(unfinished)'}", highlight=False, markup=False
    )


def _message_line(message: dict) -> str:
    kind = message.get("type", message.get("role"))
    content = message.get("content")
    if isinstance(content, list):
        text = " ".join(p.get("text") or p.get("image", "") for p in content)
    else:
        text = str(content or "")
    for call in message.get("tool_calls") or []:
        text += f" -> {call['function']['name']}({call['function']['arguments'][:120]})"
    text = " ".join(text.split())
    return f"[bold]{kind:>12}[/] {escape(text[:200])}"


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
    all_products: bool = typer.Option(False, "--all", help="Every product (of --line)."),
    line: str | None = typer.Option(
        None, "--line", help="machines or games (default: every line; no SLUG: each newest)."
    ),
    workspace: Path = WorkspaceOption,
    out: Path | None = ShotsOption,
    shots_only: bool = typer.Option(
        False, "--shots-only", help="Take the screenshots, judge nothing."
    ),
    as_json: bool = typer.Option(False, "--json", help="Print the report as JSON."),
    jobs: int = typer.Option(2, "--jobs", min=1, help="Products probed side by side."),
    parity: bool = typer.Option(False, "--parity", help="Only the reference factory's rules."),
) -> None:
    """The dynamic gate: drive products in headless Chromium and take screenshots."""
    from rich.table import Table
    from rich.text import Text

    from factory import probe as gate

    try:
        report = gate.probe(
            workspace,
            slugs or None,
            all=all_products,
            line=line,
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
            verdict = "[green]pass[/]" if result.ok else "[red]FAIL[/]"
            # A product's own console text may hold [brackets]: never read it as markup.
            reasons = Text("\n".join(result.failures()) or "-")
            table.add_row(result.slug, verdict, reasons, f"{result.seconds:.1f}")
        console.print(table)
        for result in report.results:
            for shot in result.shots:
                console.print(f"shot: {shot}", markup=False, highlight=False)
    raise typer.Exit(0 if report.ok else 1)


# --- the row: export, ship, rows -------------------------------------------------------

RowsOutOption = typer.Option(None, "--out", help="Rows folder (default trajectories/).")
RowsFolderArgument = typer.Argument(Path("trajectories"), help="A rows folder.")


@app.command()
def export(
    ref: str | None = typer.Argument(None, help="A session id, unique prefix, or `last`."),
    all_tips: bool = typer.Option(False, "--all", help="Every chain tip."),
    workspace: Path = WorkspaceOption,
    out: Path | None = RowsOutOption,
    snapshots: bool = typer.Option(True, "--snapshots/--no-snapshots", help="Keep earlier states."),
    fmt: str = typer.Option(
        "row", "--format", help="row (the cards) or sft (zenyx; default out sft/data)."
    ),
    rejects: bool = typer.Option(False, "--rejects", help="Rejected rows go to rejects/."),
) -> None:
    """Export a session chain as a dataset row (JSONL + images)."""
    from factory import config
    from factory import export as rows_export

    if (ref is None) == (not all_tips):
        raise fail("name a session (an id, a prefix or `last`) or pass --all, not both")
    try:
        settings = config.load_settings(workspace)
        rows_folder = settings.trajectories if fmt == "row" else rows_export.SFT_OUT
        target = out if out is not None else workspace / rows_folder
        options = dict(snapshots=snapshots, fmt=fmt, rejects=rejects)
        options["secrets"] = config.secret_values(settings)
        if all_tips:
            paths = rows_export.export_all(workspace, target, **options)
        else:
            paths = [rows_export.export_row(workspace, ref or "", target, **options)]
    except (ValueError, OSError) as error:  # ConfigError, ExportError, SecretFound, a bad log
        raise fail(str(error)) from None
    for path in paths:
        console.print(f"export: {path}", markup=False, highlight=False)
    if not paths:
        console.print("export: no sessions", markup=False, highlight=False)


@app.command()
def ship(
    ref: str | None = typer.Argument(None, help="A session id, unique prefix, or `last`."),
    pending: bool = typer.Option(False, "--pending", help="Retry every row not yet shipped."),
    to: str | None = typer.Option(None, "--to", help="hf://datasets/OWNER/NAME or a folder."),
    workspace: Path = WorkspaceOption,
) -> None:
    """Publish exported rows to the Hub, or to the local trajectories folder."""
    from factory import ship as shipping

    if (ref is None) == (not pending):
        raise fail("name a session (an id, a prefix or `last`) or pass --pending, not both")
    try:
        report = shipping.ship(workspace, shipping.PENDING if pending else ref or "", to)
    except (ValueError, OSError) as error:  # ConfigError, ExportError, ShipError, SecretFound
        raise fail(str(error)) from None
    if report.note:
        console.print(f"ship: {report.note}", markup=False, highlight=False)
    for row_id in report.shipped:
        console.print(f"ship: {row_id} -> {report.target}", markup=False, highlight=False)
    for row_id in report.skipped:
        console.print(f"ship: {row_id} already at {report.target}", markup=False, highlight=False)


@app.command()
def rows(
    folder: Path = RowsFolderArgument,
    only_finished: bool = typer.Option(False, "--finished", help="Finished products only."),
    only_tips: bool = typer.Option(False, "--tips", help="Chain tips only."),
    critique: bool = typer.Option(False, "--critique", help="Design-critique rounds."),
    as_json: bool = typer.Option(False, "--json", help="JSONL instead of a table."),
) -> None:
    """The dataset cards' filters over a rows folder."""
    import json

    from rich.table import Table

    from factory import rows as rows_filter

    try:
        chosen = rows_filter.select(
            rows_filter.load_rows(folder), only_finished=only_finished, only_tips=only_tips
        )
    except rows_filter.RowsError as error:
        raise fail(str(error)) from None
    if critique:
        lines = [r for row in chosen for r in rows_filter.critique_rounds(row)]
        columns = ("id", "path", "images", "reply")
    else:
        lines = [rows_filter.summary(row) for row in chosen]
        columns = ("id", "line", "product", "reason", "outcome", "check", "probe", "messages")
    if as_json:
        for line in lines:
            print(json.dumps(line, ensure_ascii=False))
        return
    table = Table(*columns)
    for line in lines:
        table.add_row(*(str(line[c])[:80] for c in columns))
    console.print(table)
    console.print(f"{len(lines)} {'round(s)' if critique else 'row(s)'}", highlight=False)


# --- the shift: shift, config, cron ----------------------------------------------------


@app.command()
def shift(
    order: str = typer.Option(..., "--order", help="orders/NAME.yaml in the workspace, or a path."),
    workspace: Path = WorkspaceOption,
    provider: str | None = ProviderOption,
    model: str | None = ModelOption,
    base_url: str | None = BaseUrlOption,
    api_key_env: str | None = ApiKeyEnvOption,
    dry_run: bool = typer.Option(
        False, "--dry-run", help="In a throwaway worktree: nothing landed, pushed or shipped."
    ),
    fresh: bool = typer.Option(False, "--fresh", help="Do not resume an unfinished session."),
    max_minutes: float | None = typer.Option(None, "--max-minutes", help="Minutes for the model."),
    no_land: bool = typer.Option(False, "--no-land", help="Leave the work on the shift branch."),
    no_ship: bool = typer.Option(False, "--no-ship", help="Export the row but do not ship it."),
    wait: float = typer.Option(0.0, "--wait", help="Seconds to wait for a running shift."),
    quiet: bool = typer.Option(False, "--quiet", help="Print only the end (for cron)."),
    as_json: bool = typer.Option(False, "--json", help="Print the end as JSON."),
) -> None:
    """One unattended shift: run the order, gate, land one commit, ship the row."""
    import json

    from factory import config as settings_layers
    from factory import shift as shifts

    flags = dict(provider=provider, model=model, base_url=base_url, api_key_env=api_key_env)
    flags["max_minutes"] = max_minutes
    try:
        settings = settings_layers.load_settings(workspace, flags)
        result = shifts.run_shift(
            workspace,
            settings,
            order=order,
            dry_run=dry_run,
            fresh=fresh,
            land=not no_land,
            ship=not no_ship,
            wait=wait,
            on_event=None if (quiet or as_json) else _live_line,
        )
    except (settings_layers.ConfigError, shifts.ShiftError) as error:
        raise fail(str(error)) from None
    if as_json:
        print(json.dumps(result.as_dict(), ensure_ascii=False, indent=2))
    else:
        _shift_summary(result)
    raise typer.Exit(result.exit_code)


def _live_line(event: str, fields: dict) -> None:
    """One line per tool call, retry, nudge and shift note while the shift runs."""
    text = None
    if event == "shift":
        text = f"[cyan]shift[/] {fields.get('note', '')}"
    elif event == "tool":
        mark = "[green]ok[/]" if fields.get("ok") else "[red]error[/]"
        shown = fields.get("display") or fields.get("name", "")
        text = f"  {mark} {shown} [dim]{fields.get('seconds', 0):.2f}s[/]"
    elif event == "retry":
        text = f"  [yellow]retry[/] {fields.get('status', '')} in {fields.get('wait', 0):.0f}s"
    elif event == "nudge":
        text = f"  [yellow]nudge[/] {fields.get('why', '')}"
    elif event == "usage" and (fields.get("input") or fields.get("output")):
        text = f"  [dim]tokens {fields.get('input', 0)} in, {fields.get('output', 0)} out[/]"
    if text:
        console.print(text, highlight=False, soft_wrap=True)


def _shift_summary(result) -> None:  # noqa: ANN001 - a ShiftResult, imported lazily
    from rich.table import Table

    from factory.shift import GATE

    if result.running:
        console.print(f"shift: a shift is running ({result.running}); nothing to do")
        return
    if result.idle:
        console.print(f"shift: idle: {result.idle}", markup=False, highlight=False)
        return
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column("what", no_wrap=True)
    # Folded, never cut: cron logs and CI are 80 columns wide, and a path is copied from here.
    table.add_column("value", overflow="fold")
    product = result.product or {}
    verdict = result.verdict
    judged = "not run" if verdict is None else ("passed" if verdict.ok else "failed")
    rows = [
        ("product", f"{product.get('name', '-')} ({product.get('slug', 'no new entry')})"),
        ("outcome", result.reason + (f": {result.summary}" if result.summary else "")),
        ("gates", f"check {GATE[result.catalogue_check] or 'not run'}, "
                  f"probe {GATE[result.probe] or 'not run'}"),
        ("judge", judged),
        ("iterations", f"{result.iterations} ({result.calls} tool calls)"),
        ("tokens", f"{result.tokens.get('input', 0)} in, {result.tokens.get('output', 0)} out"),
        ("cost", f"${result.cost:.4f}"),
        ("duration", f"{result.seconds:.0f} s"),
        ("commit", (result.commit[:12] + (" (pushed)" if result.pushed else ""))
                   if result.committed else "none"),
        ("session", str(result.session_path or "-")),
        ("row", str(result.row or "-")),
    ]  # fmt: skip
    if result.dry_run:
        rows.insert(0, ("worktree", str(result.workspace)))
    for name, value in rows:
        table.add_row(f"[bold]{name}[/]", value)
    console.print(table)
    for reason in verdict.reasons if verdict else []:
        console.print(f"  judge: {reason}", markup=False, highlight=False)
    for problem in result.gate_problems[:20]:
        console.print(f"  gate: {problem}", markup=False, highlight=False)
    for note in result.notes:
        console.print(f"  note: {note}", markup=False, highlight=False)


@app.command()
def config(workspace: Path = WorkspaceOption) -> None:
    """Print the resolved configuration, secrets masked."""
    import json

    from factory import config as settings_layers

    try:
        settings = settings_layers.load_settings(workspace)
    except settings_layers.ConfigError as error:
        raise fail(str(error)) from None
    print(json.dumps(settings_layers.masked(settings), indent=2, ensure_ascii=False))


cron_app = typer.Typer(help="Run a shift every 30 minutes from this machine's crontab.")
app.add_typer(cron_app, name="cron")
CronOrderOption = typer.Option("new-machine", "--order", help="The standing order to run.")


@cron_app.command("print")
def cron_print(workspace: Path = WorkspaceOption, order: str = CronOrderOption) -> None:
    """Print the crontab line (every 30 minutes, with the shift lock and a log file)."""
    from factory import cron

    print(cron.cron_line(workspace, order))


@cron_app.command("install")
def cron_install(workspace: Path = WorkspaceOption, order: str = CronOrderOption) -> None:
    """Add (or replace) this workspace's line in the user's crontab."""
    from factory import cron

    try:
        line = cron.install(workspace, order)
    except cron.CronError as error:
        raise fail(str(error)) from None
    console.print(f"cron: installed: {line}", markup=False, highlight=False)


@cron_app.command("remove")
def cron_remove(workspace: Path = WorkspaceOption) -> None:
    """Remove this workspace's line from the user's crontab."""
    from factory import cron

    try:
        removed = cron.remove(workspace)
    except cron.CronError as error:
        raise fail(str(error)) from None
    console.print("cron: removed" if removed else "cron: no line for this workspace")


# --- the shelf site --------------------------------------------------------------------


site_app = typer.Typer(help="The shelf as a static site.", no_args_is_help=True)
app.add_typer(site_app, name="site")

OutOption = typer.Option(
    None, "--out", "-o", help="Where the site goes (default: <workspace>/_site)."
)


def _site_built(workspace: Path, out: Path | None) -> Path:
    from factory.site import SiteError, SiteRefused, build_site

    try:
        built = build_site(workspace, out)
    except SiteRefused as refused:
        for problem in refused.problems:
            errors.print(problem, highlight=False, soft_wrap=True, markup=False)
        raise fail(f"site not built: {workspace} does not pass factory check", 1) from None
    except SiteError as error:
        raise fail(f"site not built: {error}", 2) from None
    except OSError as error:
        raise fail(f"{error.filename or workspace}: {error.strerror or error}", 2) from None
    console.print(f"built {built.out} ({built.summary()})", highlight=False, soft_wrap=True)
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
    console.print(
        f"serving {folder} at {address(httpd)} (Ctrl-C stops)", highlight=False, soft_wrap=True
    )
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
