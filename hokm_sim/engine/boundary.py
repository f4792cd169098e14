"""The engine's boundary: what crosses between Python and an engine, by name.

An engine plays a pair of strategies, one of three kinds: specialised (a module
per pair with the bots inlined, :mod:`hokm_sim.bots.compiled`), generic (one
module for every pair, the bots called through pointers,
:mod:`hokm_sim.bots.called`), or stepped (a table with parts played outside
numba, :mod:`hokm_sim.bots.stepped`). Whichever it is, its caller
(:class:`hokm_sim.sim.runner.Runner`) speaks to it through :class:`Engine`: a
method per kind of work, each given the pair's :class:`Params`, a job saying what
to play (:class:`Hands`, :class:`Matches`, :class:`Study`, :class:`TraceHands`,
:class:`TraceMatch`) and, for the work that counts, the arrays the results go
into (:class:`Tally`, :class:`StudyRows`).

The compiled entry points take these NamedTuples as they are: numba types a
NamedTuple by its class and its fields' types, and caches code compiled for it
like any other. Each field has one type, its annotation, and :func:`exact` casts
a job's fields to them, so an entry point is compiled once: a seed is
``uint64`` (a Python int below 2**63 would be typed ``int64``: another
compilation, and other random streams), indices and sizes ``int64``, flags
``bool``.

A chunk that stops at a strategy's fault writes it into its row of ``errs``,
``int64[ERR_SIZE]`` at the offsets ``E_*`` below (the kernels write them);
Python reads a row as a :class:`Fault`, never by offset.
"""

from __future__ import annotations

from functools import cache
from typing import NamedTuple, Protocol, TypeVar, get_type_hints, runtime_checkable

import numpy as np

from hokm_sim.engine.records import N_COUNTS

# --- an error row: int64[ERR_SIZE] ----------------------------------------------
E_CODE = 0  # 0: no error, else ERR_ILLEGAL_CARD / ERR_BAD_TRUMP
E_MATCH = 1  # match index (deal index for independent hands)
E_HAND = 2  # hand index within the match (0 for independent hands)
E_COPY = 3  # 0: A on team 0; 1: teams swapped
E_SEAT = 4
E_TRICK = 5
E_CARD = 6
ERR_SIZE = 8


class Params(NamedTuple):
    """The parameters of A and B, each ``float64[2, PARAM_SIZE]``: row 0 for the trump
    choice, row 1 for card play (:meth:`hokm_sim.bots.registry.Strategy.params_array`)."""

    a: np.ndarray
    b: np.ndarray


class Hands(NamedTuple):
    """Deals ``start .. start + total - 1`` under ``seed``, in chunks of ``chunk``
    (the last one shorter), each played twice in ``duplicate`` (teams swapped);
    ``forced_trump`` >= 0 makes every hand use that suit as trump, -1 lets the
    Hakem's strategy choose (:data:`hokm_sim.engine.play.NO_FORCED_TRUMP`)."""

    seed: np.uint64
    start: int
    total: int
    chunk: int
    duplicate: bool
    forced_trump: int


class Matches(NamedTuple):
    """Matches ``start .. start + total - 1`` under ``seed`` to ``target`` points, in
    chunks of ``chunk``, each played twice in ``duplicate``; each match's first Hakem
    found by house rule ``method`` (a code of :data:`hokm_sim.house.FIRST_HAKEM_METHODS`)."""

    seed: np.uint64
    start: int
    total: int
    chunk: int
    duplicate: bool
    target: int
    method: int


class Study(NamedTuple):
    """The trump study's deals ``start .. start + total - 1`` under ``seed``, in chunks of
    ``chunk``: each played with every suit as trump when ``suits``, else only the Hakem's
    call asked (``study_chunk`` in :mod:`hokm_sim.engine.kernels`)."""

    seed: np.uint64
    start: int
    total: int
    chunk: int
    suits: bool


class TraceHands(NamedTuple):
    """Every card of deals ``start .. start + count - 1``, copy ``copy`` of a duplicate
    pair (1: teams swapped), trump as for :class:`Hands`."""

    seed: np.uint64
    start: int
    count: int
    copy: int
    forced_trump: int


class TraceMatch(NamedTuple):
    """Every card of every hand of match ``match`` (copy ``copy``) to ``target``, its
    first Hakem by house rule ``method``."""

    seed: np.uint64
    match: int
    copy: int
    target: int
    method: int


class Tally(NamedTuple):
    """Where a run of hands or matches adds its results: a row of counts
    (``int64[N_COUNTS]``, :mod:`hokm_sim.engine.records`) and an error row per chunk,
    and, when ``codes`` is not empty (duplicate only), each pair's outcome code in index
    order (``int8``, see ``hands_chunk`` and ``matches_chunk``)."""

    counts: np.ndarray
    errs: np.ndarray
    codes: np.ndarray

    @classmethod
    def zeros(cls, chunks: int, codes: int = 0) -> Tally:
        """Zeroed rows for ``chunks`` chunks, and ``codes`` pair codes (-1 until played)."""
        return cls(
            np.zeros((chunks, N_COUNTS), np.int64),
            np.zeros((chunks, ERR_SIZE), np.int64),
            np.full(codes, -1, np.int8),
        )


STUDY_COLUMNS = 11
"""Columns of a row of the trump study (``study_chunk`` in :mod:`hokm_sim.engine.kernels`)."""


class StudyRows(NamedTuple):
    """Where a :class:`Study` writes: a row per deal (``int64[total, STUDY_COLUMNS]``)
    and an error row per chunk."""

    rows: np.ndarray
    errs: np.ndarray

    @classmethod
    def zeros(cls, deals: int, chunks: int) -> StudyRows:
        """Zeroed rows for ``deals`` deals in ``chunks`` chunks."""
        return cls(
            np.zeros((deals, STUDY_COLUMNS), np.int64), np.zeros((chunks, ERR_SIZE), np.int64)
        )


class Fault(NamedTuple):
    """A strategy's fault as an engine records it: the error code (``ERR_*`` of
    :mod:`hokm_sim.engine.records`), where (the match, or the deal of independent hands;
    the hand within the match, 0 for independent hands; the copy), the seat whose
    strategy erred, the trick (0-based) and the card (or suit) it returned."""

    code: int
    match: int
    hand: int
    copy: int
    seat: int
    trick: int
    card: int


def fault_in(err: np.ndarray) -> Fault | None:
    """The fault an error row holds, or None when its chunk played out."""
    if not err[E_CODE]:
        return None
    return Fault(*(int(err[i]) for i in (E_CODE, E_MATCH, E_HAND, E_COPY, E_SEAT, E_TRICK, E_CARD)))


def first_fault(errs: np.ndarray) -> Fault | None:
    """The earliest fault (by match, or deal, then hand) of the error rows ``errs``, or
    None: the one a run reports, whichever thread found which."""
    faults = [f for f in map(fault_in, errs) if f is not None]
    return min(faults, key=lambda f: (f.match, f.hand)) if faults else None


Job = TypeVar("Job", bound=tuple)
"""A job: :class:`Hands`, :class:`Matches`, :class:`Study`, :class:`TraceHands`,
:class:`TraceMatch`, or a table kernel's call (``Step`` of :mod:`hokm_sim.engine.stepper`,
``VectorStep`` of :mod:`hokm_sim.engine.vector`): a NamedTuple whose fields are annotated
with the types they are cast to."""


@cache
def _casts(cls: type) -> tuple[type, ...]:
    return tuple(get_type_hints(cls).values())


def exact(job: Job) -> Job:
    """``job`` with each field cast to its annotated type (``np.uint64``, ``int``,
    ``bool``): the types its entry point is compiled for."""
    return type(job)(*(cast(v) for cast, v in zip(_casts(type(job)), job, strict=True)))


@runtime_checkable
class Engine(Protocol):
    """What every kind of engine gives its caller (see the module's docstring).

    ``name`` names its machine code: a hash of the engine's and the bots' sources,
    then its mode (:func:`hokm_sim.bots.compiled.engine_key` drops the mode, which
    changes no count). ``checked`` says whether bounds are checked (the checking
    mode). The methods play what their job says with the parameters ``params``
    (each kind casts the job with :func:`exact` first, so a caller may build it of
    plain ints or numpy scalars alike);
    the counting ones add into the arrays given and record a strategy's fault in
    their chunk's error row; a trace returns ``int64[hands, TRACE_SIZE]`` rows
    (:mod:`hokm_sim.engine.kernels`), ending at the hand of a fault. A bot that
    raises, raises out of the method.
    """

    name: str
    checked: bool

    def hands(self, params: Params, job: Hands, tally: Tally) -> None:
        """Play deals into ``tally``."""

    def matches(self, params: Params, job: Matches, tally: Tally) -> None:
        """Play matches into ``tally``."""

    def study(self, params: Params, job: Study, out: StudyRows) -> None:
        """Write the trump study's rows of deals into ``out``."""

    def trace_hands(self, params: Params, job: TraceHands) -> np.ndarray:
        """The trace rows of deals."""

    def trace_match(self, params: Params, job: TraceMatch) -> np.ndarray:
        """The trace rows of the hands of one match."""

    def abort(self) -> None:
        """End what plays outside this process now, from any thread (a call left running
        after Ctrl-C must leave no bot process behind); nothing for compiled bots."""
