"""``regress`` (is my changed bot worse?) and ``sprt`` (the same test on counts)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from hokm_sim.cli.options import (
    CONTEXT,
    POSITIVE,
    SIZE,
    FolderType,
    bot_timeout_option,
    force_option,
    given,
    interrupted,
    scheduler_option,
    seed_option,
    threads_option,
)
from hokm_sim.cli.progress import Progress


def sprt_options(f):
    """The hypotheses and error rates of a sequential test."""
    for opt in reversed(
        [
            click.option(
                "--elo0",
                type=float,
                default=-3.0,
                show_default=True,
                help="H0 in normalized Elo (a regression).",
            ),
            click.option(
                "--elo1",
                type=float,
                default=0.0,
                show_default=True,
                help="H1 in normalized Elo (no regression).",
            ),
            click.option(
                "--alpha",
                type=float,
                default=0.05,
                show_default=True,
                help="False 'no regression' rate.",
            ),
            click.option(
                "--beta",
                type=float,
                default=0.05,
                show_default=True,
                help="False 'regression' rate.",
            ),
        ]
    ):
        f = opt(f)
    return f


@click.command(context_settings=CONTEXT)
@click.argument("candidate", required=False)
@click.option(
    "--baseline",
    default="git:HEAD",
    show_default=True,
    help="Baseline: a strategy spec, or git:REF for the candidate file at that commit.",
)
@sprt_options
@click.option(
    "--metric",
    type=click.Choice(["wins", "points", "matches"]),
    default="wins",
    show_default=True,
    help="What a pair scores.",
)
@click.option("--max-pairs", type=SIZE, help="Cap on pairs [default: ~10x the expected length].")
@click.option(
    "--check-every",
    type=POSITIVE,
    default=100,
    show_default=True,
    help="Pairs between LLR checks (in deal order).",
)
@seed_option
@click.option("--target", type=POSITIVE, help="Match target (with --metric matches) [default: 7].")
@threads_option
@scheduler_option
@click.option(
    "--calibrate",
    metavar="NAME",
    help="Run NAME against itself on fresh seeds and report the false-alarm rate.",
)
@click.option(
    "--runs",
    type=POSITIVE,
    default=40,
    show_default=True,
    help="Calibration runs (with --calibrate).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@click.option(
    "--out",
    type=FolderType(),
    help="Report folder [default: none; the verdict goes to the results store].",
)
@force_option("--out folder")
@bot_timeout_option
def regress(
    candidate: str | None,
    baseline: str,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    metric: str,
    max_pairs: int | None,
    check_every: int,
    seed: int | None,
    target: int | None,
    threads: int | None,
    scheduler: str | None,
    calibrate: str | None,
    runs: int,
    as_json: bool,
    out: Path | None,
    force: bool,
    bot_timeout: float | None,
) -> None:
    """Is CANDIDATE worse than its baseline? A sequential test on duplicate pairs.

    Plays duplicate pairs against the baseline, consumed in deal order, and
    stops as soon as the generalized SPRT decides (H0: nElo <= --elo0, a
    regression; H1: nElo >= --elo1, no regression), or at the cap.

    \b
    Exit codes:
        0  no regression (H1 accepted)
        1  regression (H0 accepted)
        2  usage error
        3  inconclusive (the cap was reached)
        4  stopped by a bot fault or a failed cluster

    \b
    Example:
        hokm-sim regress strategies/my_bot.py --baseline git:HEAD
        hokm-sim regress expert --baseline longest --metric points
        hokm-sim regress --calibrate expert --runs 40
    """
    from hokm_sim import api
    from hokm_sim.report.pages import sprt_line

    if calibrate is not None and candidate is not None:
        raise click.UsageError("--calibrate NAME runs NAME against itself: drop CANDIDATE")
    typed = given(click.get_current_context(), runs=runs, baseline=baseline)
    if calibrate is None and typed["runs"] is not None:
        raise click.UsageError("--runs counts the runs of --calibrate NAME: give it with that")
    if calibrate is not None:
        extra = (("--baseline", typed["baseline"]), ("--out", out), ("--scheduler", scheduler))
        for flag in [flag for flag, value in extra if value is not None][:1]:
            raise click.UsageError(
                f"--calibrate NAME plays NAME against itself here and writes no report: drop {flag}"
            )
    test = {
        "elo0": elo0,
        "elo1": elo1,
        "alpha": alpha,
        "beta": beta,
        "metric": metric,
        "max_pairs": max_pairs,
        "check_every": check_every,
        "seed": seed,
        "target": target,
        "threads": threads,
    }
    with Progress() as prog:
        if calibrate is not None:
            res = api.calibrate(
                calibrate, runs=runs, progress=prog, bot_timeout=bot_timeout, **test
            )
        else:
            res = api.regress(
                candidate,
                baseline,
                scheduler=scheduler,
                out=out,
                force=force,
                progress=prog,
                bot_timeout=bot_timeout,
                **test,
            )
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=1))
    elif calibrate is not None:
        d = res.data
        click.echo(
            f"{res.headline} (the bounds promise {d['promised']}); {d['no_regression']} "
            f"no regression, {d['inconclusive']} inconclusive; mean {d['mean_pairs']:,.0f} pairs"
        )
    else:
        click.echo(sprt_line(res.data))
        if res.data.get("partial"):
            click.echo(f"report: {res.folder}")
    interrupted(res.data, "no verdict: run the check again")
    sys.exit(0 if calibrate is not None else res.exit_code)


@click.command(context_settings=CONTEXT)
@click.option("--wins", "wins", help="Hand-win pair counts LL,SPLIT,WW (A's point of view).")
@click.option("--points", "points", help="Points pair counts for D = -6..6 (13 numbers).")
@sprt_options
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
def sprt(
    wins: str | None,
    points: str | None,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    as_json: bool,
) -> None:
    """Offline SPRT calculator: LLR and verdict from pair counts gathered elsewhere.

    Exit codes as for regress: 0 no regression, 1 regression, 3 undecided.

    \b
    Example:
        hokm-sim sprt --wins 3100,13200,3700
        hokm-sim sprt --points 0,1,5,40,200,900,1500,950,210,45,6,1,0
    """
    from hokm_sim import api

    res = api.sprt(
        _counts(wins, "--wins"),
        points=_counts(points, "--points"),
        elo0=elo0,
        elo1=elo1,
        alpha=alpha,
        beta=beta,
    )
    click.echo(json.dumps(res.to_dict(), indent=1) if as_json else res.headline)
    sys.exit(res.exit_code)


def _counts(text: str | None, flag: str) -> list[int] | None:
    """A comma-separated list of whole numbers, or None."""
    if text is None:
        return None
    try:
        return [int(x) for x in text.replace(" ", "").split(",")]
    except ValueError:
        raise click.BadParameter(
            f"{text!r} is not a comma-separated list of whole numbers", param_hint=flag
        ) from None


COMMANDS = (regress, sprt)
