"""``serve`` (a hokm-sim strategy as a protocol bot) and ``check-bot`` (is a bot conformant?)."""

from __future__ import annotations

import click

from hokm_sim.cli.options import CONTEXT


@click.command(context_settings=CONTEXT)
@click.argument("bot")
@click.option("--http", "port", type=click.IntRange(0, 65535), help="Answer POST /decide on "
              "this port (0: any free one) instead of standard input and output.")  # fmt: skip
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to bind with --http.")  # fmt: skip
def serve(bot: str, port: int | None, host: str) -> None:
    """Answer the hokm-bot/1 protocol with strategy BOT, so that a game or a host in any
    language can play hokm-sim's bots.

    BOT is any strategy: a name (see `hokm-sim strategies`), a bot file, a
    composition, even exec:COMMAND. Messages come one JSON object a line on
    standard input and are answered on standard output (anything else a bot
    prints goes to standard error); with --http the same messages are the
    bodies of POST /decide (and POST /hello). A served bot plays exactly the
    cards it plays inside hokm-sim: its memory of the hand is rebuilt from
    each request. See docs/protocol.md.

    \b
    Example:
        hokm-sim serve expert
        hokm-sim serve pimc --http 8765
        hokm-sim run "exec:hokm-sim serve expert" longest --hands 20000 --seed 5
    """
    from hokm_sim.serve import serve as serve_bot  # not via hokm_sim.api: start-up time

    def ready(url: str) -> None:
        click.echo(f"serving {bot} on {url} (Ctrl-C stops)", err=True)

    serve_bot(bot, http=port, host=host, on_ready=ready)


COMMANDS = (serve,)
