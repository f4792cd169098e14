"""The command line of every public function: which flag each Python parameter is.

One table, :data:`COMMANDS`, names for each function of :mod:`hokm_sim.api`
the ``hokm-sim`` command that does its work and the flag (or argument) of
each of its parameters. It serves twice:

- :func:`command_line` builds the command recorded with every result, the
  one that reproduces it, from the values the function played with. A
  parameter that decides the result (``decides``) is written whenever it has
  a value; where it plays (threads, scheduler) and where it writes are not.
- :func:`labels` gives the CLI the name of each parameter on its command
  line, so that library errors, which name Python parameters
  (:class:`hokm_sim.errors.InputError`), read in the user's words there.

The CLI's options are declared by its click commands; a test checks that
this table and they agree.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

VALUE, SWITCH, NEGATED, LIST, REPEATED, ARGUMENT, ARGUMENTS = (
    "value",
    "switch",
    "negated",
    "list",
    "repeated",
    "argument",
    "arguments",
)
"""How a value is written: ``--flag VALUE``; ``--flag`` when true; ``--flag`` when
false; ``--flag A,B,C``; ``--flag A --flag B`` (one flag per item); a positional
argument; one positional argument per item."""


@dataclass(frozen=True)
class Param:
    """One Python parameter and its place on the command line."""

    name: str
    flag: str
    form: str = VALUE
    decides: bool = True


@dataclass(frozen=True)
class Command:
    """A public function, the ``hokm-sim`` words that run it, and its parameters."""

    function: str
    words: tuple[str, ...]
    params: tuple[Param, ...]

    def param(self, name: str) -> Param:
        """The parameter called ``name``."""
        for p in self.params:
            if p.name == name:
                return p
        raise KeyError(f"{self.function} has no parameter {name!r}")


def _p(name: str, flag: str | None = None, form: str = VALUE, decides: bool = True) -> Param:
    return Param(name, flag or "--" + name.replace("_", "-"), form, decides)


_THREADS = _p("threads", decides=False)
_SCHEDULER = _p("scheduler", decides=False)
_OUT = (_p("out", decides=False), _p("force", form=SWITCH, decides=False))
_SPRT = (_p("elo0"), _p("elo1"), _p("alpha"), _p("beta"))
_STRATEGIES = (_p("a", "--a"), _p("b", "--b"))
_BOT_TIMEOUT = _p("bot_timeout")
"""Written when given: it does not change a count, but a slow protocol bot held to
the default limit would fault where the recorded run did not."""

COMMANDS: dict[str, Command] = {
    c.function: c
    for c in (
        Command(
            "run",
            ("run",),
            (
                _p("a", "A", ARGUMENT),
                _p("b", "B", ARGUMENT),
                _p("hands"),
                _p("matches"),
                _p("seed"),
                _p("target"),
                _p("first_hakem"),
                _p("duplicate", "--no-duplicate", NEGATED),
                _p("save_hands", form=SWITCH),
                _p("analyse"),
                _THREADS,
                _SCHEDULER,
                _p("task", "--task-size", decides=False),
                _p("engine", decides=False),
                *_OUT,
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "resume",
            ("run",),
            (
                _p("folder", "--resume"),
                _THREADS,
                _SCHEDULER,
                _p("task", "--task-size", decides=False),
                _p("engine", decides=False),
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "tournament",
            ("tournament",),
            (
                _p("strategies", "S1 S2 [S3 ...]", ARGUMENTS),
                _p("hands"),
                _p("seed"),
                _THREADS,
                _SCHEDULER,
                *_OUT,
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "experiment",
            ("experiment",),
            (_p("file", "FILE", ARGUMENT), _THREADS, *_OUT, _BOT_TIMEOUT),
        ),
        Command(
            "regress",
            ("regress",),
            (
                _p("candidate", "CANDIDATE", ARGUMENT),
                _p("baseline"),
                _p("metric"),
                _p("seed"),
                *_SPRT,
                _p("max_pairs"),
                _p("check_every"),
                _p("target"),
                _THREADS,
                _SCHEDULER,
                *_OUT,
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "calibrate",
            ("regress",),
            (
                _p("name", "--calibrate"),
                _p("runs"),
                _p("metric"),
                _p("seed"),
                *_SPRT,
                _p("max_pairs"),
                _p("check_every"),
                _p("target"),
                _THREADS,
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "sprt",
            ("sprt",),
            (_p("wins", form=LIST), _p("points", form=LIST), *_SPRT),
        ),
        Command(
            "trump_study",
            ("trump-study",),
            (
                _p("player"),
                _p("heuristics", form=LIST),
                _p("hands"),
                _p("seed"),
                _p("eval_hands"),
                _THREADS,
                _SCHEDULER,
                *_OUT,
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "plot",
            ("plot",),
            (_p("folder", "RESULTS_DIR", ARGUMENT), _p("force", form=SWITCH, decides=False)),
        ),
        Command(
            "dd_study",
            ("dd-study",),
            (
                _p("heuristics", form=LIST),
                _p("hands"),
                _p("seed"),
                _THREADS,
                *_OUT,
                _BOT_TIMEOUT,
            ),
        ),
        Command("solve", ("dd",), (_p("deals", "FILE", ARGUMENT), _THREADS)),
        Command(
            "analyse",
            ("analyse",),
            (
                _p("folder", "FOLDER", ARGUMENT),
                _p("trace"),
                _p("seed"),
                _p("hands"),
                *_STRATEGIES,
                _THREADS,
                _p("out", "--html", decides=False),
                _p("force", form=SWITCH, decides=False),
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "trace",
            ("trace",),
            (
                _p("seed"),
                _p("hands"),
                _p("matches"),
                *_STRATEGIES,
                _p("target"),
                _p("first_hakem"),
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "show",
            ("show",),
            (
                _p("trace"),
                _p("line"),
                _p("seed"),
                _p("match"),
                _p("hand"),
                _p("target"),
                *_STRATEGIES,
                _p("copy"),
                _p("first_hakem"),
                _p("html", decides=False),
                _p("force", form=SWITCH, decides=False),
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "bench",
            ("bench",),
            # threads decides here: a rate per thread count
            (*_STRATEGIES, _p("hands"), _p("threads"), _p("repeat"), _p("engine"), _BOT_TIMEOUT),
        ),
        Command("list_strategies", ("strategies",), ()),
        Command(
            "results",
            ("results",),
            tuple(
                _p(name, decides=False)
                for name in (
                    "bot",
                    "command",
                    "since",
                    "until",
                    "commit",
                    "digest",
                    "limit",
                    "store",
                )
            ),  # fmt: skip
        ),
        Command(
            "import_results",
            ("results", "import"),
            (_p("folders", "FOLDERS", ARGUMENTS, decides=False), _p("store", decides=False)),
        ),
        Command(
            "history",
            ("history",),
            (
                _p("bot", "BOT", ARGUMENT),
                _p("plot", decides=False),
                _p("force", form=SWITCH, decides=False),
                _p("store", decides=False),
            ),
        ),
        Command(
            "field",
            ("field",),
            (
                _p("candidate", "CANDIDATE", ARGUMENT),
                _p("members", "--field", LIST),
                _p("hands"),
                _p("matches"),
                _p("seed"),
                _p("target"),
                _p("metric"),
                _THREADS,
                *_OUT,
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "tune",
            ("tune",),
            (
                _p("bot", "BOT", ARGUMENT),
                _p("params", "--param", REPEATED),
                _p("against", form=LIST),
                _p("iterations"),
                _p("pairs"),
                _p("c"),
                _p("rate"),
                _p("metric"),
                _p("seed"),
                _p("check"),
                _THREADS,
                *_OUT,
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "serve",
            ("serve",),
            (
                _p("bot", "BOT", ARGUMENT),
                _p("http"),
                _p("host"),
                _BOT_TIMEOUT,
            ),
        ),
        Command(
            "check_bot",
            ("check-bot",),
            (_p("spec", "SPEC", ARGUMENT), _BOT_TIMEOUT, _p("seed"), _p("batch")),
        ),
    )
}
"""Every public function that a ``hokm-sim`` command runs, by function name."""


def quote(word: Any) -> str:
    """One word quoted for a POSIX shell when it needs it."""
    s = str(word)
    if re.fullmatch(r"[A-Za-z0-9_./=:,+@-]+", s):
        return s
    return "'" + s.replace("'", "'\\''") + "'"


def shell(words: Iterable[Any]) -> str:
    """Words joined into one command line for a POSIX shell."""
    return " ".join(quote(w) for w in words)


def command_line(function: str, **values: Any) -> str:
    """The ``hokm-sim`` command that does what ``function`` did with ``values``.

    Parameters that decide the result are written when they have a value
    (``None`` and, for switches, false are left out), in the table's order,
    arguments first. Naming a parameter the table does not know for the
    function is an error, so that no value is silently left out.
    """
    cmd = COMMANDS[function]
    unknown = set(values) - {p.name for p in cmd.params}
    if unknown:
        raise KeyError(f"{function} has no parameters {sorted(unknown)}")
    arguments: list[Any] = []
    options: list[Any] = []
    for p in cmd.params:
        value = values.get(p.name)
        if not p.decides or value is None:
            continue
        if p.form == ARGUMENT:
            arguments.append(value)
        elif p.form == ARGUMENTS:
            arguments.extend(value)
        elif p.form == SWITCH:
            options += [p.flag] if value else []
        elif p.form == NEGATED:
            options += [] if value else [p.flag]
        elif p.form == LIST:
            options += [p.flag, ",".join(str(v) for v in value)]
        elif p.form == REPEATED:
            for v in value:
                options += [p.flag, v]
        else:
            options += [p.flag, value]
    return shell(["hokm-sim", *cmd.words, *arguments, *options])


def labels(words: str) -> dict[str, str]:
    """Python parameter -> its flag or argument on ``hokm-sim words``: the parameters
    of the functions that command runs, then, for parameters an error mentions
    that belong to another command (``save_hands`` in ``analyse``), theirs."""
    out: dict[str, str] = {}
    for own in (True, False):
        for cmd in COMMANDS.values():
            if (cmd.words[0] == words) == own:
                for p in cmd.params:
                    out.setdefault(p.name, p.flag)
    return out
