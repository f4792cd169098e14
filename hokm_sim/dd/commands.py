"""``hokm-sim dd`` and ``hokm-sim dd-study``: double-dummy answers on the command line.

Registered on the main group by :mod:`hokm_sim.cli`; kept here so the
double-dummy work stays in one package.
"""

from __future__ import annotations

import json
import sys

import click

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}


def _set_threads(threads: int | None) -> int:
    import numba

    from hokm_sim.runner import check_threads

    try:
        n = check_threads(threads)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--threads") from None
    numba.set_num_threads(n)
    return n


@click.command("dd", context_settings=CONTEXT)
@click.argument("file", type=click.File("r", encoding="utf-8"), default="-")
@click.option("--threads", type=int, help="Threads [default: all cores].")
def dd(file, threads: int | None) -> None:
    """Solve deals double dummy (every hand open, best play): one JSON line in, one out.

    Each input line is {"hands": [4 lists of cards by seat], "trump": "H",
    "leader": SEAT}; hands may be shorter than 13 (an ending) but of equal
    length. Each output line holds "tricks" ([team 0, team 1], counting every
    remaining trick as if the hand were played out; who gets to 7 first is
    unchanged by that), "reach7" (the leader's team takes 7 or more) and, for
    13-card deals, "kot" (the leader's team can take the first 7 tricks in a
    row) and "hakem_kot" (the other team can). FILE defaults to standard input.

    \b
    Example:
        hokm-sim dd deals.jsonl
        hokm-sim dd deals.jsonl --threads 2
    """
    from hokm_sim.dd.api import DealError, analyse, parse_deal

    n = _set_threads(threads)
    deals = []
    for lineno, line in enumerate(file, 1):
        if not line.strip():
            continue
        try:
            deals.append(parse_deal(line))
        except DealError as exc:
            raise click.UsageError(f"line {lineno}: {exc}") from None
    for answer in analyse(deals, threads=n):
        click.echo(json.dumps(answer))
    sys.stdout.flush()


def register(group: click.Group) -> None:
    """Add the double-dummy commands to the ``hokm-sim`` group."""
    group.add_command(dd)
