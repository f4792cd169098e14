"""``strategies`` (what bots there are) and ``bench`` (how fast the engine plays them)."""

from __future__ import annotations

import json

import click

from hokm_sim.cli.options import (
    CONTEXT,
    POSITIVE,
    SIZE,
    bot_timeout_option,
    strategy_options,
    threads_option,
)


@click.command(context_settings=CONTEXT)
def strategies() -> None:
    """List every built-in strategy with a one-line description.

    \b
    Example:
        hokm-sim strategies
    """
    from hokm_sim import api

    rows = api.list_strategies().data["strategies"]
    width = max(len(s["name"]) for s in rows)
    for s in rows:
        params = ""
        if s["params"]:
            params = "  [" + ", ".join(f"{k}={v:g}" for k, v in s["params"].items()) + "]"
        click.echo(f"{s['name']:<{width}}  {s['description']}{params}")


@click.command(context_settings=CONTEXT)
@strategy_options
@click.option("--hands", type=SIZE, default="3M", show_default=True, help="Hands to time.")
@threads_option
@click.option(
    "--repeat",
    type=POSITIVE,
    default=3,
    show_default=True,
    help="Time the hands this many times; report the fastest run and the median.",
)
@click.option(
    "--engine",
    type=click.Choice(("generic", "specialised")),
    default="generic",
    show_default=True,
    help="The engine to time: generic (compiled once, calls each bot) or specialised "
    "(compiled for the pair, bots inlined; compiled first when not cached).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@bot_timeout_option
def bench(
    a: str,
    b: str,
    hands: int,
    threads: int | None,
    repeat: int,
    engine: str,
    as_json: bool,
    bot_timeout: float | None,
) -> None:
    """Measure whole hands per second after compilation (cached code is reused).

    The fastest of --repeat runs is the figure: other work on the machine
    only ever slows a run down. The engine is the fast one, never the
    checking mode's (HOKM_SIM_BOUNDSCHECK=1 times that one).

    \b
    Example:
        hokm-sim bench --a random --b random --threads 1
        hokm-sim bench --a longest --b longest --repeat 5 --json
        hokm-sim bench --a expert --b longest --engine specialised
    """
    from hokm_sim import api

    result = api.bench(
        a, b, hands=hands, threads=threads, repeat=repeat, engine=engine, bot_timeout=bot_timeout
    )
    click.echo(json.dumps(result.to_dict()) if as_json else result.headline)


COMMANDS = (strategies, bench)
