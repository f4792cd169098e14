"""Available strategies: built-in bot files, bot files given by path, and composition.

A *bot file* is a Python file with a module docstring (its first line is the
description unless ``DESCRIPTION`` is set), two functions ``choose_trump``
and ``play_card``, and optionally ``PARAMS``, a dict of parameter names to
default values. The functions are either both jitted (a compiled bot, see
:mod:`hokm_sim.bots.botkit`) or both plain Python (see
:mod:`hokm_sim.bots.pyrules`).

A *strategy spec* on the command line is one of:

- a built-in name: ``longest``;
- a path to a bot file: ``path/to/my_bot.py``;
- a composition: ``trump=longest,play=expert`` (either part may be omitted
  when a plain name comes too: ``expert,trump=points``);
- any of those with parameters: ``weighted(length=2,high=0.5)``;
- a protocol bot in any language: ``exec:node my_bot.js`` (see
  :mod:`hokm_sim.bots.execspec`), alone or as a part of a composition.

Unknown names raise :class:`StrategyError` listing the valid names.
"""

from __future__ import annotations

import difflib
import hashlib
import inspect
import math
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

import numpy as np

from hokm_sim.bots import execspec
from hokm_sim.bots.pyrules import is_compiled, python_arity_problem
from hokm_sim.engine.view import PARAM_SIZE
from hokm_sim.errors import InputError


class StrategyError(InputError):
    """A strategy spec that does not name a usable strategy."""


def builtin_dir() -> Path:
    """The folder of built-in bot files (``strategies/`` in the repository)."""
    import hokm_sim.strategies as pkg

    return Path(next(iter(pkg.__path__)))


def import_bot_file(path: str | Path) -> ModuleType:
    """Import a bot file by path, once per process and content.

    The module name carries a hash of the path and of the file's bytes, so a
    file edited while a process runs (a notebook, a test) is imported anew.
    """
    p = Path(path).resolve()
    try:
        content = p.read_bytes()
    except OSError as exc:
        raise StrategyError(f"cannot read bot file {str(path)!r}: {exc.strerror}") from None
    digest = hashlib.sha1(str(p).encode() + b"\0" + content).hexdigest()[:12]
    stem = re.sub(r"\W", "_", p.stem)
    name = f"hokm_bot_{stem}_{digest}"
    mod = sys.modules.get(name)
    if mod is not None:
        return mod
    # Compile from the bytes just hashed, never from __pycache__: the standard
    # loader trusts cached bytecode when size and mtime (whole seconds) match,
    # which would run an edited bot's old code under its new hash.
    mod = ModuleType(name)
    mod.__file__ = str(p)
    sys.modules[name] = mod
    try:
        exec(compile(content, str(p), "exec"), mod.__dict__)
    except Exception as exc:
        del sys.modules[name]
        raise StrategyError(f"bot file {str(path)!r} failed to import: {exc}") from exc
    return mod


@dataclass(frozen=True)
class BotFile:
    """One bot file: where it is, what it says it does, its parameters."""

    name: str
    path: Path
    description: str
    params: dict[str, float] = field(default_factory=dict)
    builtin: bool = True
    limits: dict[str, tuple[float, float, bool]] = field(default_factory=dict)
    kind: str = "numba"
    """``"numba"`` (compiled into the engine), ``"python"`` (called between numba steps)
    or ``"exec"`` (a child process speaking the protocol, asked between numba steps)."""
    source: object = field(default=None, compare=False, repr=False)
    """The bot object, for a plain-Python bot given through the Python API."""
    command: tuple[str, ...] = ()
    """An ``exec:`` bot's argument vector."""
    files: tuple[tuple[str, str], ...] = ()
    """An ``exec:`` bot's files named by its command: ``(path, sha256)``."""

    @classmethod
    def load(cls, path: Path, builtin: bool) -> BotFile:
        """Read a bot file's name, description and parameters, checking its functions."""
        mod = import_bot_file(path)
        missing = [f for f in ("choose_trump", "play_card") if not hasattr(mod, f)]
        if missing:
            raise StrategyError(
                f"bot file {str(path)!r} lacks {' and '.join(missing)}: a bot defines "
                "choose_trump and play_card, plain Python taking an observation or @njit "
                "taking (view, params, mem, rng)"
            )
        kind = _kind(mod, f"bot file {str(path)!r}")
        desc = getattr(mod, "DESCRIPTION", None) or (mod.__doc__ or "").strip().split("\n")[0]
        params = {str(k): float(v) for k, v in getattr(mod, "PARAMS", {}).items()}
        if len(params) > PARAM_SIZE:
            raise StrategyError(f"bot file {str(path)!r} has more than {PARAM_SIZE} PARAMS")
        limits = {
            str(k): (float(v[0]), float(v[1]), bool(v[2]) if len(v) > 2 else False)
            for k, v in getattr(mod, "PARAM_LIMITS", {}).items()
        }
        name = getattr(mod, "NAME", None) or path.stem
        return cls(
            name=name,
            path=path.resolve(),
            description=desc,
            params=params,
            builtin=builtin,
            limits=limits,
            kind=kind,
        )

    @classmethod
    def from_object(cls, obj: object, name: str | None = None) -> BotFile:
        """A plain-Python bot given as an object (an instance, class or module) with
        ``choose_trump(obs)`` and ``play_card(obs)``, through the Python API."""
        where = f"bot object {type(obj).__name__!r}"
        missing = [f for f in ("choose_trump", "play_card") if not hasattr(obj, f)]
        if missing:
            raise StrategyError(f"{where} lacks {' and '.join(missing)}")
        if _kind(obj, where) != "python":
            raise StrategyError(f"{where}: compiled bots are used by name or bot file path")
        name = name or getattr(obj, "NAME", None) or type(obj).__name__
        try:
            path = Path(inspect.getsourcefile(type(obj)) or "")
        except TypeError:
            path = Path()
        desc = getattr(obj, "DESCRIPTION", None) or (obj.__doc__ or "").strip().split("\n")[0]
        params = {str(k): float(v) for k, v in getattr(obj, "PARAMS", {}).items()}
        return cls(
            name=name,
            path=path.resolve(),
            description=desc or "a plain-Python bot object",
            params=params,
            builtin=False,
            kind="python",
            source=obj,
        )

    @classmethod
    def from_command(cls, text: str) -> BotFile:
        """A protocol bot from ``exec:COMMAND`` (see :mod:`hokm_sim.bots.execspec`)."""
        try:
            argv = execspec.split_command(text)
        except execspec.CommandError as exc:
            raise StrategyError(str(exc)) from None
        files = execspec.named_files(argv)
        return cls(
            name=execspec.PREFIX + execspec.command_text(argv),
            path=Path(files[0][0]) if files else Path(argv[0]),
            description=f"protocol bot: {execspec.command_text(argv)}",
            builtin=False,
            kind="exec",
            command=argv,
            files=files,
        )

    def record(self) -> dict:
        """What names the bot in a report: its name and path, and for an ``exec:`` bot
        its command and the digests of the files the command names."""
        out: dict = {"bot": self.name, "path": str(self.path)}
        if self.kind == "exec":
            out["command"] = list(self.command)
            out["files"] = dict(self.files)
        return out

    def check(self, key: str, value: float) -> float:
        """``value`` for parameter ``key`` if it is finite and within the bot's
        ``PARAM_LIMITS`` (low, high, whole); :class:`StrategyError` otherwise."""
        if not math.isfinite(value):
            raise StrategyError(f"bad value {value} for {self.name} parameter {key}: not finite")
        if key in self.limits:
            lo, hi, whole = self.limits[key]
            kind = "a whole number" if whole else "a number"
            if not lo <= value <= hi or (whole and value != int(value)):
                raise StrategyError(
                    f"bad value {value:g} for {self.name} parameter {key}: expected {kind} "
                    f"from {lo:g} to {hi:g}"
                )
        return value

    def module(self) -> ModuleType | object:
        """The imported bot module (or the bot object given through the API)."""
        if self.source is not None:
            return self.source
        return import_bot_file(self.path)


def _kind(mod: object, where: str) -> str:
    """``"numba"`` or ``"python"``: what kind of bot ``mod``'s two functions make."""
    fns = {f: getattr(mod, f) for f in ("choose_trump", "play_card")}
    compiled = {f: is_compiled(fn) for f, fn in fns.items()}
    if all(compiled.values()):
        for fname, fn in fns.items():
            n = fn.py_func.__code__.co_argcount
            if n != 4:
                raise StrategyError(
                    f"{where}: {fname} takes {n} arguments; a compiled bot's {fname} "
                    "takes (view, params, mem, rng)"
                )
        return "numba"
    if any(compiled.values()):
        raise StrategyError(
            f"{where}: choose_trump and play_card must both be @njit (compiled) or both "
            "plain Python"
        )
    for fname, fn in fns.items():
        problem = python_arity_problem(fn, fname)
        if problem:
            raise StrategyError(f"{where}: {problem}")
    return "python"


def builtin_bots() -> dict[str, BotFile]:
    """Built-in bots by name, sorted by name."""
    out = {}
    for p in sorted(builtin_dir().glob("*.py")):
        if p.name.startswith("_"):
            continue
        bot = BotFile.load(p, builtin=True)
        out[bot.name] = bot
    return out


@dataclass(frozen=True)
class Strategy:
    """A playable strategy: a trump chooser and a card player with their parameters."""

    name: str
    trump: BotFile
    play: BotFile
    trump_params: tuple[float, ...] = ()
    play_params: tuple[float, ...] = ()

    def params_array(self) -> np.ndarray:
        """``float64[2, PARAM_SIZE]``: row 0 for trump choice, row 1 for card play."""
        a = np.zeros((2, PARAM_SIZE), np.float64)
        a[0, : len(self.trump_params)] = self.trump_params
        a[1, : len(self.play_params)] = self.play_params
        return a

    @property
    def description(self) -> str:
        """One line saying what the strategy does."""
        if self.trump.path == self.play.path:
            return self.play.description
        return f"trump from {self.trump.name}; play from {self.play.name}"

    def to_dict(self) -> dict:
        """A JSON-ready record of the strategy, enough to reproduce it."""
        return {
            "name": self.name,
            "trump": {
                **self.trump.record(),
                "params": dict(zip(self.trump.params, self.trump_params, strict=True)),
            },
            "play": {
                **self.play.record(),
                "params": dict(zip(self.play.params, self.play_params, strict=True)),
            },
        }


_PARAMS_RE = re.compile(r"^(?P<bot>[^()]+?)\s*(?:\((?P<args>[^()]*)\))?$")


def _split_top(spec: str) -> list[str]:
    """Split on commas that are not inside parentheses."""
    parts, depth, cur = [], 0, []
    for ch in spec:
        if ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur))
            cur = []
        else:
            cur.append(ch)
    parts.append("".join(cur))
    return [p.strip() for p in parts]


def _find_bot(token: str, bots: dict[str, BotFile]) -> BotFile:
    if token in bots:
        return bots[token]
    if token.endswith(".py") or "/" in token or "\\" in token:
        p = Path(token).expanduser()
        if not p.is_file():
            raise StrategyError(f"bot file {token!r} does not exist")
        return BotFile.load(p, builtin=False)
    close = difflib.get_close_matches(token, list(bots), n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise StrategyError(
        f"unknown strategy {token!r}; {hint}valid names: {', '.join(bots)} "
        "(or a path to a .py bot file)"
    )


def _bot_with_params(text: str, bots: dict[str, BotFile]) -> tuple[BotFile, tuple[float, ...]]:
    if execspec.is_exec(text):
        return BotFile.from_command(text), ()
    m = _PARAMS_RE.match(text.strip())
    if not m:
        raise StrategyError(f"bad strategy {text!r}: expected NAME, NAME(k=v,...) or a path")
    bot = _find_bot(m.group("bot").strip(), bots)
    values = dict(bot.params)
    for item in filter(None, (a.strip() for a in (m.group("args") or "").split(","))):
        key, eq, val = item.partition("=")
        key = key.strip()
        valid = ", ".join(bot.params) or "none"
        if not eq:
            raise StrategyError(
                f"bad parameter {item!r} for {bot.name}: expected name=value; parameters: {valid}"
            )
        if key not in values:
            close = difflib.get_close_matches(key, list(bot.params), n=1)
            hint = f"did you mean {close[0]!r}? " if close else ""
            raise StrategyError(
                f"unknown parameter {key!r} for {bot.name}; {hint}parameters: {valid}"
            )
        try:
            values[key] = bot.check(key, float(val))
        except ValueError as exc:
            if isinstance(exc, StrategyError):
                raise
            raise StrategyError(
                f"bad value {val.strip()!r} for {bot.name} parameter {key}: not a number"
            ) from None
    return bot, tuple(values.values())


def resolve(spec: str) -> Strategy:
    """Turn a strategy spec (name, path, composition, parameters) into a Strategy."""
    spec = spec.strip()
    if not spec:
        raise StrategyError("empty strategy; valid names: " + ", ".join(builtin_bots()))
    bots = builtin_bots()
    base: tuple[BotFile, tuple[float, ...]] | None = None
    roles: dict[str, tuple[BotFile, tuple[float, ...]]] = {}
    parts = execspec.split_parts(spec, _split_top) if execspec.PREFIX in spec else _split_top(spec)
    for part in parts:
        role, eq, rest = ("", "", "") if execspec.is_exec(part) else part.partition("=")
        if eq and role.strip() in ("trump", "play") and "(" not in role:
            if role.strip() in roles:
                raise StrategyError(f"bad strategy {spec!r}: {role.strip()}= given twice")
            roles[role.strip()] = _bot_with_params(rest, bots)
        elif eq and "(" not in role:
            raise StrategyError(
                f"bad strategy part {part!r}: expected trump=BOT, play=BOT or a bot name"
            )
        else:
            if base is not None:
                raise StrategyError(f"bad strategy {spec!r}: more than one plain bot name")
            base = _bot_with_params(part, bots)
    trump = roles.get("trump") or base
    play = roles.get("play") or base
    if trump is None or play is None:
        missing = "trump" if trump is None else "play"
        raise StrategyError(f"bad strategy {spec!r}: no bot for {missing}=")
    return Strategy(
        name=spec, trump=trump[0], play=play[0], trump_params=trump[1], play_params=play[1]
    )


def from_object(obj: object, name: str | None = None) -> Strategy:
    """A strategy played by a plain-Python bot object (see :meth:`BotFile.from_object`)."""
    bot = BotFile.from_object(obj, name)
    return Strategy(name=bot.name, trump=bot, play=bot, trump_params=(), play_params=())
