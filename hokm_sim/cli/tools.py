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
    from hokm_sim.bots.registry import builtin_bots

    bots = builtin_bots()
    width = max(len(n) for n in bots)
    for name, bot in bots.items():
        params = ""
        if bot.params:
            params = "  [" + ", ".join(f"{k}={v:g}" for k, v in bot.params.items()) + "]"
        click.echo(f"{name:<{width}}  {bot.description}{params}")


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
@click.option("--json", "as_json", is_flag=True, help="Print the figures as JSON.")
@bot_timeout_option
def bench(a: str, b: str, hands: int, threads: int | None, repeat: int, as_json: bool) -> None:
    """Measure whole hands per second after compilation (cached code is reused).

    The fastest of --repeat runs is the figure: other work on the machine
    only ever slows a run down. The engine is the fast one, never the
    checking mode's (HOKM_SIM_BOUNDSCHECK=1 times that one).

    \b
    Example:
        hokm-sim bench --a random --b random --threads 1
        hokm-sim bench --a longest --b longest --repeat 5 --json
    """
    from hokm_sim.api import strategy
    from hokm_sim.sim.runner import Runner, measure

    runner = Runner(strategy(a, "--a"), strategy(b, "--b"), checked=False)  # the fast engine
    res = measure(runner, hands, threads, repeat=repeat)
    if as_json:
        click.echo(json.dumps(res))
        return
    runs = f"best of {repeat} runs" if repeat > 1 else "1 run"
    median = f", median {res['median_hands_per_sec']:,.0f}" if repeat > 2 else ""
    click.echo(
        f"{res['a']} vs {res['b']}: {res['hands_per_sec']:,.0f} hands/s on "
        f"{res['threads']} thread(s), {runs} of {res['hands']:,} hands{median} "
        f"(ready after {res['warmup_seconds']:.1f} s)"
    )


COMMANDS = (strategies, bench)
