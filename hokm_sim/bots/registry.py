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
  :mod:`hokm_sim.bots.execspec`), alone or as a part of a composition
  (``trump=exec:./my_bot,play=expert``).

A path that holds ``(``, ``)``, ``,``, ``=`` or a quote is quoted with ``"`` or
``'`` inside the spec (``'trump="my(2).py",play=expert'``); a whole spec
that names an existing file needs no quotes. An ``exec:`` command is split by
shell rules and may hold anything but a comma outside quotes, which ends the
part: ``exec:node "my bot.js" --opts "a,b"``.

Unknown names raise :class:`StrategyError` listing the valid names.

A built-in bot's name is its file's name (``strategies/longest.py`` is
``longest``), so resolving one name imports that bot alone, and listing them
(:func:`builtin_listing`) imports none: importing a bot compiles nothing,
but it loads numba and, for ``pimc``, the double-dummy solver.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import importlib.util
import inspect
import math
import numbers
import re
import sys
from collections.abc import Iterable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from hokm_sim.bots import execspec
from hokm_sim.bots.faults import shown
from hokm_sim.bots.pyrules import is_compiled, python_arity_problem
from hokm_sim.errors import InputError
from hokm_sim.paths import not_a_file
from hokm_sim.sources import strategies_dir

if TYPE_CHECKING:
    import numpy as np


class StrategyError(InputError):
    """A strategy spec that does not name a usable strategy."""


def builtin_dir() -> Path:
    """The folder of built-in bot files (``strategies/`` in the repository)."""
    return strategies_dir()


def import_bot_file(path: str | Path) -> ModuleType:
    """Import a bot file by path, once per process and content.

    The module name carries a hash of the path and of the file's bytes, so a
    file edited while a process runs (a notebook, a test) is imported anew;
    so is a file whose modules beside it (:func:`_beside`) changed since.
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
    if mod is not None and _stamps(getattr(mod, "__hokm_beside__", ())) == mod.__hokm_stamps__:
        return mod
    # Compile from the bytes just hashed, never from __pycache__: the standard
    # loader trusts cached bytecode when size and mtime (whole seconds) match,
    # which would run an edited bot's old code under its new hash.
    mod = ModuleType(name)
    mod.__file__ = str(p)
    sys.modules[name] = mod
    try:
        with _beside(p.parent) as found:
            exec(compile(content, str(p), "exec"), mod.__dict__)
    except (Exception, SystemExit) as exc:
        del sys.modules[name]
        what = f"called sys.exit({exc.code!r})" if isinstance(exc, SystemExit) else str(exc)
        raise StrategyError(f"bot file {str(path)!r} failed to import: {what}") from None
    mod.__hokm_beside__ = tuple(found)
    mod.__hokm_stamps__ = _stamps(found)
    return mod


def _stamps(files: Iterable[Path]) -> tuple[tuple[int, int], ...]:
    """Size and modification time of each file (-1 for one that is gone)."""
    out = []
    for f in files:
        try:
            st = f.stat()
            out.append((st.st_size, st.st_mtime_ns))
        except OSError:
            out.append((-1, -1))
    return tuple(out)


@contextmanager
def _beside(folder: Path) -> Iterator[list[Path]]:
    """While a bot file runs its imports: modules beside it are importable
    (``from helper import pick``) with no ``PYTHONPATH``, and are its own.

    The folder comes first on ``sys.path``. The modules it supplies that
    nothing else could (a ``.py`` file or package in the folder whose name is
    not importable already) are taken out of ``sys.modules`` again afterwards
    (the bot keeps them), so two bots in different folders that each have a
    ``helper.py`` (a bot and its ``regress`` baseline) each get their own.
    The yielded list receives the files of those modules.
    """
    try:
        entries = list(folder.iterdir())
    except OSError:
        entries = []
    own = {
        f.stem if f.suffix == ".py" else f.name
        for f in entries
        if (f.suffix == ".py" and f.stem.isidentifier())
        or (f.name.isidentifier() and (f / "__init__.py").is_file())
    }
    own = {n for n in own if not _importable(n)}
    where = str(folder)
    sys.path.insert(0, where)
    importlib.invalidate_caches()  # a helper written a moment ago must be seen
    found: list[Path] = []
    try:
        yield found
    finally:
        with suppress(ValueError):
            sys.path.remove(where)
        for name in [n for n in sys.modules if n.partition(".")[0] in own]:
            file = getattr(sys.modules.pop(name), "__file__", None)
            if file:
                found.append(Path(file).resolve())
        found.sort()


def _importable(name: str) -> bool:
    """Whether top-level module ``name`` is importable (or imported) as things stand."""
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return True


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
        where = f"bot file {str(path)!r}"
        desc = _text(mod, "DESCRIPTION", where) or (mod.__doc__ or "").strip().split("\n")[0]
        params = _params(mod, where)
        limits = _limits(mod, params, where)
        name = _text(mod, "NAME", where) or path.stem
        if builtin:
            name = path.stem  # a built-in bot is found by its file's name
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
        name = name or _text(obj, "NAME", where) or type(obj).__name__
        try:
            path = Path(inspect.getsourcefile(type(obj)) or "").resolve()
        except (TypeError, OSError):  # defined in `python -c`, a notebook cell, a REPL
            path = Path(f"<{type(obj).__module__}>")
        desc = _text(obj, "DESCRIPTION", where) or (obj.__doc__ or "").strip().split("\n")[0]
        params = _params(obj, where)
        return cls(
            name=name,
            path=path,
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


_PARAM_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def _text(mod: object, attr: str, where: str) -> str | None:
    """A bot's ``NAME`` or ``DESCRIPTION``: a string, or None when not set."""
    value = getattr(mod, attr, None)
    if value is not None and not isinstance(value, str):
        raise StrategyError(f"{where}: {attr} is {shown(value)}; expected a string")
    return value or None


def _number(value: object) -> float | None:
    """``value`` as a finite float if it is a real number (not a string), else None."""
    if isinstance(value, numbers.Real):
        x = float(value)
        return x if math.isfinite(x) else None
    return None


def _params(mod: object, where: str) -> dict[str, float]:
    """A bot's ``PARAMS``: a dict of names (as a spec writes them) to finite numbers."""
    raw = getattr(mod, "PARAMS", {})
    if not isinstance(raw, dict):
        raise StrategyError(
            f"{where}: PARAMS is {shown(raw)}; expected a dict of parameter names to "
            'default numbers, such as {"length": 2.0}'
        )
    from hokm_sim.engine.view import PARAM_SIZE  # the engine is loaded with the bot

    if len(raw) > PARAM_SIZE:
        raise StrategyError(f"{where} has {len(raw)} PARAMS; at most {PARAM_SIZE}")
    params = {}
    for key, value in raw.items():
        if not isinstance(key, str) or not _PARAM_NAME.match(key):
            raise StrategyError(
                f"{where}: bad PARAMS name {shown(key)}: expected a name of letters, digits "
                "and _ (as in weighted(length=2))"
            )
        x = _number(value)
        if x is None:
            raise StrategyError(
                f"{where}: PARAMS[{key!r}] is {shown(value)}; expected a finite number"
            )
        params[key] = x
    return params


def _limits(mod: object, params: dict[str, float], where: str) -> dict[str, tuple]:
    """A bot's ``PARAM_LIMITS``: per parameter ``(low, high)`` or ``(low, high, whole)``."""
    raw = getattr(mod, "PARAM_LIMITS", {})
    expect = "expected a dict of parameter names to (low, high) or (low, high, whole)"
    if not isinstance(raw, dict):
        raise StrategyError(f"{where}: PARAM_LIMITS is {shown(raw)}; {expect}")
    limits = {}
    for key, value in raw.items():
        if key not in params:
            raise StrategyError(
                f"{where}: PARAM_LIMITS names {shown(key)}, which is not in PARAMS "
                f"({', '.join(params) or 'none'})"
            )
        ok = isinstance(value, tuple | list) and len(value) in (2, 3)
        lo, hi = (_number(value[0]), _number(value[1])) if ok else (None, None)
        if lo is None or hi is None or lo > hi:
            raise StrategyError(f"{where}: PARAM_LIMITS[{key!r}] is {shown(value)}; {expect}")
        limits[key] = (lo, hi, bool(value[2]) if len(value) > 2 else False)
        if not lo <= params[key] <= hi:
            raise StrategyError(
                f"{where}: PARAMS[{key!r}] = {params[key]:g} lies outside its PARAM_LIMITS "
                f"{lo:g}..{hi:g}"
            )
    return limits


def builtin_names() -> list[str]:
    """The built-in bots' names, sorted: the files of ``strategies/`` not starting with
    ``_``, found without importing any."""
    return sorted(p.stem for p in builtin_dir().glob("*.py") if not p.name.startswith("_"))


def _builtin(name: str) -> BotFile:
    """The built-in bot ``name`` (one of :func:`builtin_names`): its file alone imported."""
    return BotFile.load(builtin_dir() / f"{name}.py", builtin=True)


def builtin_bots() -> dict[str, BotFile]:
    """Built-in bots by name, sorted by name (every bot file is imported)."""
    return {name: _builtin(name) for name in builtin_names()}


def builtin_listing() -> dict[str, tuple[str, dict[str, float]]]:
    """Each built-in bot's description and parameters, read from its file's text
    (the docstring, ``DESCRIPTION`` and ``PARAMS``) without importing it; a bot
    whose values are not written as literals is loaded."""
    out = {}
    for name in builtin_names():
        path = builtin_dir() / f"{name}.py"
        found = _literal_fields(path)
        if found is None:
            bot = _builtin(name)
            out[name] = (bot.description, dict(bot.params))
            continue
        doc, fields = found
        description = fields.get("DESCRIPTION") or (doc or "").strip().split("\n")[0]
        out[name] = (description, {k: float(v) for k, v in fields.get("PARAMS", {}).items()})
    return out


_LISTED = {"DESCRIPTION", "PARAMS"}


def _bound(node: ast.stmt) -> set[str]:
    """The names a top-level statement may bind (``*`` for a star import)."""
    names = {
        n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    if isinstance(node, ast.Import | ast.ImportFrom):
        names |= {(a.asname or a.name).partition(".")[0] for a in node.names}
    if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
        names.add(node.name)
    return names


def _literal_fields(path: Path) -> tuple[str | None, dict[str, object]] | None:
    """A bot file's docstring and its ``DESCRIPTION`` and ``PARAMS`` when each is bound
    only by top-level ``NAME = literal`` (a string; a dict of names to numbers); None
    when anything else could bind them."""
    tree = ast.parse(path.read_bytes(), str(path))
    fields: dict[str, object] = {}
    for node in tree.body:
        bound = _bound(node)
        if "*" in bound:
            return None
        for name in bound & _LISTED:
            plain = isinstance(node, ast.Assign) and len(node.targets) == 1
            if not plain or not isinstance(node.targets[0], ast.Name):
                return None
            try:
                fields[name] = ast.literal_eval(node.value)
            except ValueError:
                return None
    desc, params = fields.get("DESCRIPTION"), fields.get("PARAMS", {})
    if desc is not None and not isinstance(desc, str):
        return None
    if not isinstance(params, dict) or not all(
        isinstance(k, str) and isinstance(v, int | float) and not isinstance(v, bool)
        for k, v in params.items()
    ):
        return None
    return ast.get_docstring(tree, clean=False), fields


@dataclass(frozen=True)
class Strategy:
    """A playable strategy: a trump chooser and a card player with their parameters."""

    name: str
    trump: BotFile
    play: BotFile
    trump_params: tuple[float, ...] | None = None
    play_params: tuple[float, ...] | None = None
    """Each part's parameter values in its bot's ``PARAMS`` order; None (the default)
    is the bot file's own defaults, so a strategy built from a bot's parts is that bot."""

    def __post_init__(self) -> None:
        for attr, bot in (("trump_params", self.trump), ("play_params", self.play)):
            values = getattr(self, attr)
            values = tuple(bot.params.values()) if values is None else tuple(values)
            if len(values) != len(bot.params):
                raise ValueError(
                    f"{attr} of {self.name!r} has {len(values)} values; {bot.name} has "
                    f"{len(bot.params)} PARAMS ({', '.join(bot.params) or 'none'})"
                )
            object.__setattr__(self, attr, values)

    def params_array(self) -> np.ndarray:
        """``float64[2, PARAM_SIZE]``: row 0 for trump choice, row 1 for card play."""
        import numpy as np

        from hokm_sim.engine.view import PARAM_SIZE

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


QUOTES = "\"'"
"""A bot path in a spec may be quoted with either: ``'trump="my(2).py",play=expert'``."""
_SPECIAL = "(),=" + QUOTES
_PART_RE = re.compile(
    r"""\s*(?:(?P<role>[^()"',=]*?)\s*=\s*)?"""
    r"""(?P<bot>"[^"]*"|'[^']*'|[^()"',=]*?)\s*(?:\((?P<args>[^()"']*)\))?\s*\Z"""
)
_EXEC_RE = re.compile(
    r"\s*(?:(?P<role>\w+)\s*=\s*)?(?P<bot>" + re.escape(execspec.PREFIX) + r".*?)\s*\Z", re.S
)
"""An ``exec:`` part: its command runs to the end of the part and may hold any
character; its quotes are the shell's, and keep a comma in the command."""


def split_top(text: str) -> list[str]:
    """``text`` cut at the commas that are outside parentheses and quotes.

    The one splitter of comma-separated strategy specs: the parts of a
    composition, and lists of specs such as ``--heuristics
    "longest,weighted(length=3,strength=1)"``.
    """
    parts, cur, depth, quote = [], [], 0, ""
    for ch in text:
        if quote:
            quote = "" if ch == quote else quote
        elif ch in QUOTES:
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
            continue
        cur.append(ch)
    if quote:
        raise StrategyError(f"bad strategy {text!r}: the quote {quote} is not closed")
    parts.append("".join(cur).strip())
    return parts


def spec_path(path: str | Path) -> str:
    """A bot file's path as a spec writes it: quoted when it holds ``(``, ``)``, ``,``,
    ``=`` or a quote (see :data:`QUOTES`), so that :func:`resolve` reads it back."""
    text = str(path)
    if not any(ch in _SPECIAL for ch in text) and text == text.strip():
        return text
    for q in QUOTES:
        if q not in text:
            return f"{q}{text}{q}"
    raise StrategyError(f"bot path {text!r} holds both quote characters: rename the file")


def _find_bot(token: str, names: list[str], base: Path | None) -> BotFile:
    quoted = token[:1] in QUOTES
    if quoted:
        token = token[1:-1]
    if not quoted and token in names:
        return _builtin(token)
    if quoted or token.endswith(".py") or "/" in token or "\\" in token:
        p = Path(token).expanduser()
        if base is not None and not p.is_absolute():
            p = base / p
        problem = not_a_file(p)
        if problem is not None:
            where = f" (in {base})" if base is not None else ""
            raise StrategyError(f"bot file {token!r} {problem}{where}")
        return BotFile.load(p, builtin=False)
    close = difflib.get_close_matches(token, names, n=1)
    hint = f"did you mean {close[0]!r}? " if close else ""
    raise StrategyError(
        f"unknown strategy {token!r}; {hint}valid names: {', '.join(names)} "
        "(or a path to a .py bot file)"
    )


def _bot_with_params(bot: BotFile, args: str | None) -> tuple[BotFile, tuple[float, ...]]:
    values = dict(bot.params)
    given: set[str] = set()
    for item in filter(None, (a.strip() for a in (args or "").split(","))):
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
        if key in given:
            raise StrategyError(f"parameter {key!r} of {bot.name} given twice")
        given.add(key)
        try:
            values[key] = bot.check(key, float(val))
        except ValueError as exc:
            if isinstance(exc, StrategyError):
                raise
            raise StrategyError(
                f"bad value {val.strip()!r} for {bot.name} parameter {key}: not a number"
            ) from None
    return bot, tuple(values.values())


def resolve(spec: str, base: Path | None = None) -> Strategy:
    """Turn a strategy spec (name, path, composition, parameters) into a Strategy.

    Relative bot paths are taken from ``base`` (an experiment file's folder),
    else from the working directory. A whole spec that names an existing file
    is that bot file, whatever characters its path holds.
    """
    spec = spec.strip()
    if not spec:
        raise StrategyError("empty strategy; valid names: " + ", ".join(builtin_names()))
    names = builtin_names()
    whole = Path(spec).expanduser()
    if base is not None and not whole.is_absolute():
        whole = base / whole
    if spec not in names and any(ch in _SPECIAL for ch in spec) and whole.is_file():
        bot, values = _bot_with_params(BotFile.load(whole, builtin=False), None)
        return Strategy(name=spec, trump=bot, play=bot, trump_params=values, play_params=values)
    base_part: tuple[BotFile, tuple[float, ...]] | None = None
    roles: dict[str, tuple[BotFile, tuple[float, ...]]] = {}
    for part in split_top(spec):
        m = _EXEC_RE.match(part) or _PART_RE.match(part)
        if not m or not m.group("bot"):
            raise StrategyError(
                f"bad strategy part {part!r}: expected NAME, NAME(k=v,...), a path "
                "(quoted if it holds ( ) , or =), exec:COMMAND, trump=BOT or play=BOT"
            )
        role = m.group("role")
        if role is not None and role not in ("trump", "play"):
            raise StrategyError(
                f"bad strategy part {part!r}: expected trump=BOT, play=BOT or a bot name"
            )
        if m.re is _EXEC_RE:
            found = (BotFile.from_command(m.group("bot")), ())
        else:
            found = _bot_with_params(_find_bot(m.group("bot"), names, base), m.group("args"))
        if role is not None:
            if role in roles:
                raise StrategyError(f"bad strategy {spec!r}: {role}= given twice")
            roles[role] = found
        else:
            if base_part is not None:
                raise StrategyError(f"bad strategy {spec!r}: more than one plain bot name")
            base_part = found
    trump = roles.get("trump") or base_part
    play = roles.get("play") or base_part
    if trump is None or play is None:
        missing = "trump" if trump is None else "play"
        raise StrategyError(f"bad strategy {spec!r}: no bot for {missing}=")
    return Strategy(
        name=spec, trump=trump[0], play=play[0], trump_params=trump[1], play_params=play[1]
    )


def from_object(obj: object, name: str | None = None) -> Strategy:
    """A strategy played by a plain-Python bot object (see :meth:`BotFile.from_object`)."""
    bot = BotFile.from_object(obj, name)
    return Strategy(name=bot.name, trump=bot, play=bot)


def portable_spec(s: Strategy) -> str:
    """A spec string that resolves to ``s`` in a worker process: bot files by
    absolute path, parameters exact.

    Workers must see the same files at the same paths: the engine's name
    hashes both, and :func:`worker_runner` checks it.
    """

    for bot in (s.trump, s.play):
        if bot.source is not None:
            raise InputError(
                f"strategy {s.name!r} is a bot object, which lives in this process only; "
                "give it as a bot file to play on a cluster"
            )

    def part(bot, values: tuple[float, ...]) -> str:
        if bot.kind == "exec":
            return bot.name  # exec:COMMAND, run from the worker's current directory
        args = ",".join(f"{k}={v!r}" for k, v in zip(bot.params, values, strict=True))
        return f"{spec_path(bot.path)}({args})" if args else spec_path(bot.path)

    return f"trump={part(s.trump, s.trump_params)},play={part(s.play, s.play_params)}"
