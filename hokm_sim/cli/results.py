"""``results`` (list what the store holds, ``results import`` adds report folders) and
``history`` (a bot's strength across its commits), ``dashboard`` (all of it in the
browser): docs/results.md.

``results`` reads the store through :mod:`hokm_sim.store.query` rather than the API's
pandas frame, as ``serve`` calls :mod:`hokm_sim.serving` alone: a listing answers at
once, without importing pandas.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from hokm_sim.cli.options import CONTEXT, POSITIVE

store_option = click.option(
    "--store",
    metavar="PATH",
    help="The results store [default: $HOKM_SIM_STORE, else results.sqlite in the user's "
    "data folder].",
)


@click.group(context_settings=CONTEXT, invoke_without_command=True)
@click.option("--bot", help="Only results that played this bot (its name).")
@click.option(
    "--command",
    help="Only results of this command: run, tournament, field, tune, regress, calibrate, "
    "experiment, trump-study, dd-study, play.",
)
@click.option("--since", metavar="DATE", help="Only results from DATE on (YYYY-MM-DD, UTC).")
@click.option("--until", metavar="DATE", help="Only results up to DATE (its whole day).")
@click.option("--commit", help="Only results of a bot at this commit (its first digits).")
@click.option("--digest", help="Only results of a bot with this source digest (first digits).")
@click.option("--limit", type=POSITIVE, default=50, show_default=True, help="The newest so many.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@store_option
@click.pass_context
def results(
    ctx: click.Context,
    bot: str | None,
    command: str | None,
    since: str | None,
    until: str | None,
    commit: str | None,
    digest: str | None,
    limit: int,
    as_json: bool,
    store: str | None,
) -> None:
    """List the stored results, newest first: every report a command wrote.

    \b
    Example:
        hokm-sim results --bot expert --command regress
        hokm-sim results import results/
    """
    if ctx.invoked_subcommand is not None:
        return
    from hokm_sim.store.query import bot_label, select

    found = select(store, bot=bot, command=command, since=since, until=until, commit=commit,
                   digest=digest, limit=limit)  # fmt: skip
    if as_json:
        click.echo(json.dumps(found, indent=1))
        return
    for r in found:
        bots = ", ".join(bot_label(b) for b in r["bots"])
        click.echo(f"{r['id']:>6}  {r['created'][:16].replace('T', ' ')}  {r['kind']:<11} {bots}")
        if r["headline"]:
            click.echo(f"        {r['headline']}")
        if r["folder"]:
            click.echo(f"        {r['folder']}")
    if not found:
        click.echo("(no results match)", err=True)


@results.command("import", context_settings=CONTEXT)
@click.argument("folders", nargs=-1, required=True, type=click.Path(path_type=Path))
@store_option
def import_(folders: tuple[Path, ...], store: str | None) -> None:
    """Add existing report folders (or folders of them, such as results/) to the store.

    \b
    Example:
        hokm-sim results import results/
    """
    from hokm_sim import api

    n = api.import_results(list(folders), store=store)
    click.echo(f"imported {n} report folder{'s' if n != 1 else ''}")


@click.command(context_settings=CONTEXT)
@click.argument("bot")
@click.option("--plot", type=click.Path(path_type=Path), help="Draw it into FILE (PNG, or SVG).")
@click.option("--force", is_flag=True, help="Overwrite an existing --plot file.")
@click.option("--json", "as_json", is_flag=True, help="Print the history as JSON.")
@store_option
def history(bot: str, plot: Path | None, force: bool, as_json: bool, store: str | None) -> None:
    """BOT's strength across its versions (commits), from every stored comparison.

    One Bradley-Terry fit over the stored duplicate pairs that involve BOT's
    versions and the opponents they met; Elo relative to the oldest version,
    with 95% intervals, and the regress verdicts of each version.

    \b
    Example:
        hokm-sim history mybot.py --plot mybot.png
    """
    from hokm_sim import api

    res = api.history(bot, plot=plot, force=force, store=store)
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=1))
        return
    from hokm_sim.analysis.results import estimate_text

    click.echo(res.headline)
    for key in ("versions", "opponents"):
        click.echo(f"\n{key}:")
        for e in res.data[key]:
            verdicts = ", ".join(f"{k} {v}" for k, v in e.get("verdicts", {}).items())
            click.echo(
                f"  {e['name']:<16} {e['version']:<10} {e['first_seen'][:10]}  "
                f"{estimate_text(e['elo'], '{:+.1f}'):<24} {e['pairs']:>9,} pairs  {verdicts}"
            )
    if plot is not None:
        click.echo(f"\nplot: {plot}")


@click.command(context_settings=CONTEXT)
@click.option("--port", type=click.IntRange(1, 65535), help="Port on 127.0.0.1 [default: 8728].")
@click.option("--no-open", is_flag=True, help="Do not open the browser; print the address.")
@store_option
def dashboard(port: int | None, no_open: bool, store: str | None) -> None:
    """Serve the results store's pages on 127.0.0.1: recent results, each result's
    report, each bot's history. Ctrl-C stops it.

    \b
    Example:
        hokm-sim dashboard
        hokm-sim dashboard --port 8800 --no-open
    """
    from hokm_sim.play.dashboard import dashboard as serve

    serve(port=port, store=store, open_browser=not no_open, announce=click.echo)
    click.echo("hokm-sim dashboard: stopped")


COMMANDS = (results, history, dashboard)
