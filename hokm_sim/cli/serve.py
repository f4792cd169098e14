"""``serve`` (a hokm-sim strategy as a protocol bot) and ``check-bot`` (is a bot conformant?)."""

from __future__ import annotations

import json
import sys

import click

from hokm_sim.cli.options import CONTEXT, POSITIVE, SEED, bot_timeout_option
from hokm_sim.cli.progress import Progress


@click.command(context_settings=CONTEXT)
@click.argument("bot")
@click.option("--http", type=click.IntRange(0, 65535), help="Answer POST /decide on "
              "this port (0: any free one) instead of standard input and output.")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind with --http.")  # fmt: skip
@bot_timeout_option
def serve(bot: str, http: int | None, host: str, bot_timeout: float | None) -> None:
    """Answer the hokm-bot/1 protocol with strategy BOT, so that a game or a host in any
    language can play hokm-sim's bots.

    BOT is any strategy: a name (see `hokm-sim strategies`), a bot file, a
    composition, even exec:COMMAND. Messages come one JSON object a line on
    standard input and are answered on standard output (anything else a bot
    prints goes to standard error); with --http the same messages are the
    bodies of POST /decide (and POST /hello). A served bot plays exactly the
    cards it plays inside hokm-sim: its memory of the hand is rebuilt from
    each request. See docs/protocol.md.

    As a bot of hokm-sim itself: hokm-sim run "exec:hokm-sim serve expert" longest.

    \b
    Example:
        hokm-sim serve expert
        hokm-sim serve pimc --http 8765
    """
    from hokm_sim.serving import serve as serve_bot  # not via hokm_sim.api: start-up time

    def ready(url: str) -> None:
        click.echo(f"serving {bot} on {url} (Ctrl-C stops)", err=True)

    with Progress():  # a first compilation of the strategy said on standard error
        serve_bot(bot, http=http, host=host, on_ready=ready, bot_timeout=bot_timeout)


@click.command("check-bot", context_settings=CONTEXT)
@click.argument("spec")
@click.option("--bot-timeout", type=float, default=10.0, show_default=True, metavar="SECONDS",
              help="Limit for hello and for each message (plus 10 ms a request).")  # fmt: skip
@click.option("--seed", type=SEED, default=1, show_default=True, help="Seed of the positions.")
@click.option("--batch", type=POSITIVE, default=1000, show_default=True,
              help="Requests in the big batch.")  # fmt: skip
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def check_bot(spec: str, bot_timeout: float, seed: int, batch: int, as_json: bool) -> None:
    """Check that a bot speaks hokm-bot/1: hello, every kind of request alone and in a
    batch, the same answers in another order, bye and a clean exit; then its time
    per decision. Exit 0 when every check passes, 4 when one fails.

    SPEC is exec:COMMAND for a bot in any language, or any hokm-sim strategy,
    checked as `hokm-sim serve SPEC` answers for it.

    \b
    Example:
        hokm-sim check-bot "exec:node examples/bots/longest.js"
        hokm-sim check-bot expert --json
    """
    from hokm_sim.api import check_bot as check
    from hokm_sim.protocol.check import report_lines

    lines = 0

    def shown(c) -> None:
        nonlocal lines
        if not as_json:
            if not lines:
                click.echo(f"check-bot {spec}")
            mark = {True: "pass", False: "FAIL", None: "skip"}[c.ok]
            click.echo(f"  {mark}  {c.name}" + (f": {c.detail}" if c.detail else ""))
            lines += 1

    res = check(spec, bot_timeout=bot_timeout, seed=seed, batch=batch, on_check=shown)
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=2))
    else:
        for line in report_lines(res)[1 + len(res.checks) :]:
            click.echo(line)
    sys.exit(res.exit_code)


COMMANDS = (serve, check_bot)
