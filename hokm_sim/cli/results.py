"""``results`` (list what the store holds, ``results import`` adds report folders) and
``history`` (a bot's strength across its commits), ``dashboard`` (all of it in the
browser): docs/results.md.

``results`` reads the store through :mod:`hokm_sim.store.query` rather than the API's
pandas frame, as ``serve`` calls :mod:`hokm_sim.serving` alone: a listing answers at
once, without importing pandas.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from hokm_sim.cli.options import CONTEXT, POSITIVE

store_option = click.option(
    "--store",
    metavar="PATH|URL",
    help="The results store: a SQLite file, or postgresql://USER:PASSWORD@HOST/DATABASE "
    "[default: $HOKM_SIM_STORE, else results.sqlite in the user's data folder].",
)
LIMIT = 50
"""How many results ``hokm-sim results`` lists unless told."""


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
@click.option("--limit", type=POSITIVE, help=f"The newest so many [default: {LIMIT}].")
@click.option("--all", "every", is_flag=True, help="Every result that matches.")
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
    limit: int | None,
    every: bool,
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
    if every and limit is not None:
        raise click.UsageError("give --limit or --all, not both")
    from hokm_sim.store.query import as_json as json_text
    from hokm_sim.store.query import bot_label, count, select

    filters = dict(bot=bot, command=command, since=since, until=until, commit=commit,
                   digest=digest)  # fmt: skip
    limit = None if every else limit or LIMIT
    found = select(store, limit=limit, raw_figures=as_json, **filters)
    more = count(store, **filters) - len(found) if len(found) == limit else 0
    out = click.get_text_stream("stdout")
    if as_json:
        out.writelines(json_text(found))
        out.write("\n")
    else:
        out.writelines(_listed(r, bot_label) for r in found)
        if not found:
            click.echo("(no results match)", err=True)
    if more:
        click.echo(f"({more:,} more: --limit N, or --all, lists them)", err=True)


def _listed(r: dict[str, Any], bot_label: Callable[[dict[str, Any]], str]) -> str:
    """A stored result's lines in the listing: id, date, command and bots; its headline
    and its report folder under them."""
    bots = ", ".join(bot_label(b) for b in r["bots"])
    text = f"{r['id']:>6}  {r['created'][:16].replace('T', ' ')}  {r['kind']:<11} {bots}\n"
    for line in (r["headline"], r["folder"]):
        if line:
            text += f"        {line}\n"
    return text


@results.command("import", context_settings=CONTEXT)
@click.argument("folders", nargs=-1, required=True, type=click.Path(path_type=Path))
@store_option
def import_(folders: tuple[Path, ...], store: str | None) -> None:
    """Add existing report folders (or folders of them, such as results/) to the store.

    A folder already stored keeps its row (recorded when it was written, its bots
    have their digests and commits).

    \b
    Example:
        hokm-sim results import results/
    """
    from hokm_sim import api

    n, kept = api.import_results(list(folders), store=store)
    said = f"imported {n} report folder{'s' if n != 1 else ''}"
    click.echo(said + (f", kept {kept:,} already stored" if kept else ""))


@click.command(context_settings=CONTEXT)
@click.argument("bot")
@click.option("--plot", type=click.Path(path_type=Path), help="Draw it into FILE (PNG, or SVG).")
@click.option("--force", is_flag=True, help="Overwrite an existing --plot file.")
@click.option("--json", "as_json", is_flag=True, help="Print the history as JSON.")
@store_option
def history(bot: str, plot: Path | None, force: bool, as_json: bool, store: str | None) -> None:
    """BOT's strength across its versions (commits), from every stored comparison.

    BOT is the bot's name as `hokm-sim strategies` shows it, or its file (any
    path to it). One Bradley-Terry fit over the stored duplicate pairs that
    involve BOT's versions and the opponents they met; Elo relative to the
    oldest version, with 95% intervals, and the regress verdicts of each version.

    \b
    Example:
        hokm-sim history my_bot --plot my_bot.png
        hokm-sim history strategies/my_bot.py
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
