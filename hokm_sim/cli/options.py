"""Option types and option bundles shared by the commands."""

from __future__ import annotations

import re
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING

import click

from hokm_sim.house import FIRST_HAKEM_METHODS, MAX_TARGET
from hokm_sim.inlining import ENGINES
from hokm_sim.sim.checks import MAX_SEED, MAX_SIZE

if TYPE_CHECKING:
    from hokm_sim.writing import OutputFile

CONTEXT = {"help_option_names": ["-h", "--help"], "max_content_width": 100}

_SIZE_RE = re.compile(r"^(?P<num>\d+(?:\.\d*)?|\.\d+)(?:[eE](?P<exp>[+-]?\d+))?(?P<suf>[kKmMgG]?)$")
_SUFFIX = {"": 1, "k": 10**3, "m": 10**6, "g": 10**9}


class SizeType(click.ParamType):
    """A positive whole count: ``1000``, ``1e6``, ``10k``, ``2.5k``, ``1.5M``, ``2G``
    (also ``0`` when ``zero``, for a count whose work may be left out)."""

    name = "N"

    def __init__(self, zero: bool = False) -> None:
        self.zero = zero

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            n = Fraction(value)
        else:
            text = str(value).strip().replace("_", "")
            m = _SIZE_RE.match(text)
            if not m or (m["exp"] is not None and abs(int(m["exp"])) > 30):
                self.fail(
                    f"{value!r} is not a count (examples: 1000, 1e6, 10k, 2.5k, 1.5M)", param, ctx
                )
            n = Fraction(m["num"]) * _SUFFIX[m["suf"].lower()]
            if m["exp"] is not None:
                n *= Fraction(10) ** int(m["exp"])
        if n.denominator != 1:
            self.fail(f"{value!r} is not a whole number", param, ctx)
        if n < 0 or (n == 0 and not self.zero):
            self.fail(f"{value!r} must be {'0 or more' if self.zero else 'positive'}", param, ctx)
        if n > MAX_SIZE:
            self.fail(f"{value!r} is too large (at most {MAX_SIZE:.3g})", param, ctx)
        return int(n)


class SeedType(click.ParamType):
    """A whole number in 0 .. 2**64-1 (decimal, or 0x... hexadecimal)."""

    name = "SEED"

    def convert(self, value, param, ctx):
        try:
            n = int(str(value), 0) if not isinstance(value, int) else value
        except ValueError:
            self.fail(f"{value!r} is not a whole number in 0 .. 2**64-1", param, ctx)
        if not 0 <= n <= MAX_SEED:
            self.fail(f"{value!r} is not a whole number in 0 .. 2**64-1", param, ctx)
        return n


class SpecListType(click.ParamType):
    """Comma-separated strategy specs, cut as a composition is (commas inside
    parentheses or quotes stay: ``longest,weighted(length=3,strength=1)``)."""

    name = "SPECS"

    def convert(self, value, param, ctx):
        if isinstance(value, list):
            return value
        from hokm_sim.bots.registry import split_top
        from hokm_sim.errors import InputError

        try:
            specs = [s for s in split_top(str(value)) if s]
        except InputError as exc:
            self.fail(str(exc), param, ctx)
        if not specs:
            self.fail("expected at least one strategy spec", param, ctx)
        return specs


SIZE = SizeType()
SIZE_OR_ZERO = SizeType(zero=True)
SEED = SeedType()
SPECS = SpecListType()
POSITIVE = click.IntRange(min=1)


def strategy_options(f):
    """``--a`` (team 0, seats 0 and 2) and ``--b`` (team 1, seats 1 and 3), as specs."""
    f = click.option(
        "--b",
        "b",
        default="longest",
        show_default=True,
        help="Strategy of team 1 (seats 1 and 3): a name, a bot file or trump=X,play=Y.",
    )(f)
    f = click.option(
        "--a",
        "a",
        default="longest",
        show_default=True,
        help="Strategy of team 0 (seats 0 and 2): a name, a bot file or trump=X,play=Y.",
    )(f)
    return f


def given(ctx: click.Context, **values: object) -> dict[str, object]:
    """``values`` by option name, those the user did not type (left at their click
    default) as None: for an API call that tells an option given from one left out."""
    typed = click.core.ParameterSource.COMMANDLINE
    return {k: v if ctx.get_parameter_source(k) is typed else None for k, v in values.items()}


def _check_threads(ctx: click.Context, param: click.Parameter, value: int | None) -> int | None:
    """At most this machine's cores, refused as a bad value of the option itself."""
    if value is not None:
        from hokm_sim.errors import InputError
        from hokm_sim.sim.runner import check_threads

        try:
            check_threads(value)
        except InputError as exc:
            raise click.BadParameter(str(exc), ctx, param) from None
    return value


threads_option = click.option(
    "--threads", type=POSITIVE, callback=_check_threads, help="Threads [default: all cores]."
)
engine_option = click.option(
    "--engine",
    type=click.Choice(ENGINES),
    help="Which engine plays compiled bots: generic (compiled once, calls each bot), "
    "specialised (compiled for the pair, bots inlined: the fastest hands after its own "
    "compilation), or auto: generic, moving to the specialised engine once a long run has "
    "compiled it in the background [default: auto, or $HOKM_SIM_ENGINE]. Same counts.",
)
seed_option = click.option("--seed", type=SEED, help="Run seed [default: a fresh one, recorded].")
scheduler_option = click.option(
    "--scheduler",
    metavar="ADDRESS",
    help="Play on a Dask cluster: its scheduler (tcp://HOST:8786), or local:N to start "
    "N local workers [default: this machine's threads]. Needs the dask extra.",
)
first_hakem_option = click.option(
    "--first-hakem",
    type=click.Choice(FIRST_HAKEM_METHODS),
    help="House rule that finds a match's first Hakem (docs/rules.md) [default: first-ace].",
)
target_option = click.option(
    "--target",
    type=POSITIVE,
    help=f"Match target score, 1..{MAX_TARGET} (with --matches) [default: 7].",
)


class FolderType(click.Path):
    """A report folder to write: an empty name (which would mean the working
    directory, and with ``--force`` clear hokm-sim's files there) is refused, and
    so is ``-``, which means standard output to ``-o`` and to most tools: a
    report is a folder of files, and a folder named ``-`` is ``./-``."""

    def __init__(self) -> None:
        super().__init__(file_okay=False, path_type=Path)

    def convert(self, value, param, ctx):
        if isinstance(value, str) and not value.strip():
            self.fail("expected a folder name, not an empty one", param, ctx)
        if value == "-":
            self.fail(
                "a report is a folder of files and cannot go to standard output "
                "(a folder named - is ./-)",
                param,
                ctx,
            )
        return super().convert(value, param, ctx)


def out_options(f):
    """``--out DIR`` and ``--force``."""
    f = click.option("--force", is_flag=True, help="Overwrite an existing --out folder.")(f)
    f = click.option(
        "--out",
        type=FolderType(),
        help="Report folder [default: results/<time>-<what>-seed<seed>].",
    )(f)
    return f


def _dash_is_stdout(ctx: click.Context, param: click.Parameter, value: Path | None):
    """``-o -`` is standard output, as for most tools (never a file named ``-``)."""
    return None if value is not None and str(value) == "-" else value


output_option = click.option(
    "-o",
    "--output",
    type=click.Path(allow_dash=True, path_type=Path),
    callback=_dash_is_stdout,
    help="Write to FILE instead of standard output (- for it): a new file appears whole or "
    "not at all; an existing one is replaced only with --force; a device or a named pipe "
    "(/dev/stdout) is written to.",
)


def force_option(what: str):
    """``--force``: replace an existing ``what`` (an output file, a folder)."""
    return click.option("--force", is_flag=True, help=f"Overwrite an existing {what}.")


def output_to(output: Path | None, force: bool) -> OutputFile | None:
    """The ``-o`` file, checked before any work is done (None: standard output)."""
    from hokm_sim.writing import OutputFile

    return None if output is None else OutputFile(output, force, "--output")


def emit_lines(lines: Iterable[str], output: OutputFile | None) -> None:
    """Lines to standard output, or to ``output`` (``-o``, see :func:`output_to`)."""
    if output is None:
        for line in lines:
            click.echo(line)
        return
    with output.open() as f:
        for line in lines:
            f.write(line + "\n")


bot_timeout_option = click.option(
    "--bot-timeout",
    type=float,
    metavar="SECONDS",
    help="How long an exec: bot may take to answer hello and to answer each message (plus "
    "10 ms a request); given, it sets both [default: 60 for hello, 10 for a message].",
)


def interrupted(data: dict, then: str) -> None:
    """After the report of work stopped by Ctrl-C or ``SIGTERM`` (``data["partial"]``):
    one line on standard error saying so and ``then`` (how to continue), and exit 130
    (143 for ``SIGTERM``: 128 + the signal)."""
    if data.get("partial"):
        from hokm_sim.sim.interrupt import stop_signal

        click.echo(f"interrupted: the report covers only the finished batches; {then}", err=True)
        raise SystemExit(128 + stop_signal())
