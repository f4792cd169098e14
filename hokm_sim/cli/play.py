"""``play`` (a browser game against the bots) and ``games`` (the games played, listed)."""

from __future__ import annotations

from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    SEED,
    bot_timeout_option,
    emit_lines,
    first_hakem_option,
    force_option,
    output_option,
    output_to,
)

TARGET_CHOICES = ("3", "5", "7", "10")
TIMER_CHOICES = ("15", "30", "45", "60")
GAME_IDS = 2**63 - 1
"""The largest game number (SQLite's largest row id)."""
data_option = click.option(
    "--data",
    type=click.Path(file_okay=False, path_type=Path),
    help="Folder of the games database [default: $HOKM_SIM_DATA, else "
    "$XDG_DATA_HOME/hokm-sim, else ~/.local/share/hokm-sim].",
)


@click.command(context_settings=CONTEXT)
@click.option(
    "--partner", default="expert", show_default=True,
    help="Strategy of your partner (North): a name, a bot file, trump=X,play=Y, pimc ...",
)  # fmt: skip
@click.option(
    "--opponents", default="expert", show_default=True,
    help="Strategy of both opponents (East and West).",
)  # fmt: skip
@click.option(
    "--target", type=click.Choice(TARGET_CHOICES), default="7", show_default=True,
    help="Points that win a match.",
)  # fmt: skip
@click.option("--daily", is_flag=True, help="Today's deals (UTC date), the same for everyone.")
@click.option("--seed", type=SEED, help="Play the game of this seed [default: a fresh one].")
@click.option(
    "--port", type=click.IntRange(1, 65535),
    help="Port on 127.0.0.1 [default: 8727, or a free one if that is taken].",
)  # fmt: skip
@click.option("--no-open", is_flag=True, help="Do not open the browser; print the address.")
@click.option(
    "--allow-origin", "allow_origins", multiple=True, metavar="ORIGIN",
    help="Also let pages from ORIGIN (e.g. http://localhost:9000, a tunnel to the table) use "
    "it; repeat for more [default: only the table's own address].",
)  # fmt: skip
@click.option(
    "--pause", type=click.FloatRange(0, 10), default=0.7, show_default=True,
    help="Seconds before each bot's card shows (twice that after a full trick).",
)  # fmt: skip
@click.option(
    "--host", "host", is_flag=True,
    help="Open a shared table: prints a link per seat (each with its own key), one for "
    "spectators and one for your lobby, where you choose the bots, target and timer.",
)  # fmt: skip
@click.option(
    "--bind", default="127.0.0.1", show_default=True, metavar="ADDRESS",
    help="With --host: the address to listen on, e.g. this machine's LAN address for a game "
    "on the local network; the links carry it.",
)  # fmt: skip
@click.option(
    "--timer", type=click.Choice(TIMER_CHOICES), default="30", show_default=True,
    help="With --host: seconds for each decision (the trump call too) before the seat's bot "
    "decides.",
)  # fmt: skip
@click.option(
    "--bot", "bots", multiple=True, metavar="STRATEGY",
    help="With --host: one more bot the lobby offers (a bot file, exec:..., a composition); "
    "repeat for more [default: the built-in bots, --partner and --opponents].",
)  # fmt: skip
@first_hakem_option
@data_option
@bot_timeout_option
def play(
    partner: str,
    opponents: str,
    target: str,
    daily: bool,
    seed: int | None,
    port: int | None,
    no_open: bool,
    allow_origins: tuple[str, ...],
    pause: float,
    first_hakem: str | None,
    data: Path | None,
    bot_timeout: float | None,
    host: bool,
    bind: str,
    timer: str,
    bots: tuple[str, ...],
) -> None:
    """Play Hokm in your browser: you and a bot partner against two bot opponents.

    Starts a server on 127.0.0.1 and opens the table in your browser; Ctrl-C
    stops it. You sit South; your partner is North. Every game is saved
    (see hokm-sim games); after each hand, every card (yours and the bots')
    can be seen graded double dummy, and at the end of a match your
    accuracy is shown beside the bots'. A game of seed S is the match
    `hokm-sim trace --seed S --matches 1 --a PARTNER --b OPPONENTS` plays,
    with you in seat 0 (docs/play.md); --first-hakem chooses the house rule
    for the first Hakem (first-ace, the default, highest-card, highest-two).
    Only the table's own pages may use it (other sites' pages are refused);
    the seed is shown when the match ends, or when you ask for it.

    With --host, a table for several people: a link for each seat, one for
    spectators and one for your lobby are printed; whoever opens a seat's
    link sits there, and when you start, bots fill the empty seats. Each
    decision has --timer seconds, after which the seat's bot decides; a
    person gone for longer than a few seconds is played by their bot until
    they come back by the same link. 127.0.0.1 unless --bind says otherwise.
    The table is saved as it changes: started again with the same data
    folder, it resumes with the same links and the match where it was.

    \b
    Example:
        hokm-sim play
        hokm-sim play --partner pimc --opponents expert --target 5
        hokm-sim play --daily
        hokm-sim play --seed 12345 --no-open --port 8800
        hokm-sim play --host --timer 15 --bot exec:./mybot
        hokm-sim play --host --bind 192.168.1.5
    """
    if daily and seed is not None:
        raise click.UsageError("give --daily or --seed N, not both")
    if not host and (bind != "127.0.0.1" or bots or timer != "30"):
        raise click.UsageError("--bind, --bot and --timer are for a shared table: add --host")
    from hokm_sim.bots.host import bot_timeout as held_to
    from hokm_sim.play.server import play as serve

    with held_to(bot_timeout):
        serve(
            partner, opponents, target=int(target), seed=seed, daily=daily, port=port,
            open_browser=not no_open, pause=pause, data=data, allow_origins=allow_origins,
            announce=click.echo, host=host, bind=bind, timer=int(timer), bots=bots,
            **({"first_hakem": first_hakem} if first_hakem else {}),
        )  # fmt: skip
    click.echo("hokm-sim play: stopped")


@click.command(context_settings=CONTEXT)
@data_option
@click.option(
    "--format", "fmt", type=click.Choice(["table", "json", "jsonl"]), default="table",
    show_default=True,
    help="table: one line per game; json: the games with their hands; jsonl: every finished "
    "hand as a hokm-sim trace line (hokm-sim analyse --trace reads it).",
)  # fmt: skip
@click.option("--game", "game_ids", type=click.IntRange(1, GAME_IDS), multiple=True,
              help="Only this game (repeat for more).")  # fmt: skip
@click.option(
    "--by-person", is_flag=True,
    help="Each person's figures instead (the name typed in a shared table's lobby; You for "
    "hokm-sim play alone): hands, hands won, Kot made and conceded, and their own cards' "
    "accuracy against double-dummy play. --format table or json.",
)  # fmt: skip
@output_option
@force_option("-o file")
def games(
    data: Path | None, fmt: str, game_ids: tuple[int, ...], by_person: bool,
    output: Path | None, force: bool,
) -> None:  # fmt: skip
    """List the games played with hokm-sim play, or export them.

    --format jsonl writes every finished hand as hokm-sim trace writes it:
    hokm-sim analyse --trace FILE grades it double dummy. --by-person sums
    each person's hands over the games instead.

    \b
    Example:
        hokm-sim games
        hokm-sim games --format jsonl -o my-hands.jsonl
        hokm-sim games --game 3 --format json
        hokm-sim games --by-person
    """
    if by_person and fmt == "jsonl":
        raise click.UsageError("--by-person is a table or JSON: --format table or json")
    from hokm_sim.play.export import lines

    out = output_to(output, force)
    emit_lines(lines(data, fmt, list(game_ids) or None, by_person), out)


COMMANDS = (play, games)
