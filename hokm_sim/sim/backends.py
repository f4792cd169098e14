"""Where the work runs: this machine's cores, or a Dask distributed cluster.

A run is a list of ranges of deal (or match) indices, played by the pair's
:class:`~hokm_sim.sim.runner.Runner`, which the caller builds once and hands
to the backend. :class:`Local` plays them with that numba-threaded Runner on every core;
:class:`Dask` cuts them into tasks of whole engine chunks and sends them to a
Dask cluster (``--scheduler tcp://HOST:8786``, or ``--scheduler local:N`` for
a cluster of N worker processes on this machine's loopback). Both yield
:class:`~hokm_sim.sim.runner.Batch` records of exact integer counts; summing them
is exact and order-independent, so the result is bit-identical whichever
backend, worker count or task size computed it.

On a cluster each worker process plays one task at a time with one numba
thread, and keeps a Runner of its own for each strategy pair it met
(:func:`worker_runner`), so compilation (or loading from the disk cache)
happens once per worker, not once per task; the client's Runner says which
engine the workers must build. A task that raises, or whose
worker is lost, is run again elsewhere (Dask ``retries`` and its rescheduling
of lost work); a strategy that breaks the rules is a result, not an error,
so it is reported once and never retried.
"""

from __future__ import annotations

import dataclasses
import logging
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import cache
from typing import Any

import numba

from hokm_sim.bots.faults import PythonBotError
from hokm_sim.bots.host import Limits, limits, set_limits
from hokm_sim.bots.registry import portable_spec, resolve
from hokm_sim.errors import InputError, StoppedError
from hokm_sim.sim.runner import (
    HAND_CHUNK,
    MATCH_CHUNK,
    Batch,
    BotError,
    Runner,
    StrategyFault,
    numba_threads,
)

LOCAL = "local:"
"""Prefix of ``--scheduler local:N``: start N local Dask worker processes."""
DASK_MISSING = (
    "needs Dask, which is not installed: "
    "pip install 'hokm-sim[dask]' (or pip install 'dask[distributed]')"
)
TASK_CHUNKS = 64
"""Engine chunks per Dask task at most (64 x 8192 deals: about a second of work)."""
RETRIES = 2
"""Extra attempts of a task whose worker raised (lost workers are rescheduled by Dask)."""
IN_FLIGHT = 2
"""Tasks queued per worker: enough to keep workers busy, few to lose on a stop."""
CONNECT_TIMEOUT = "20s"
"""How long to try reaching a scheduler address before giving up."""


class SchedulerError(InputError):
    """A ``--scheduler`` that cannot be used: bad form, Dask missing, unreachable."""


def check_scheduler(value: str | None) -> str | None:
    """Validate a ``--scheduler`` value (``local:N`` or an address) and that Dask is there."""
    if value is None:
        return None
    value = value.strip()
    if value.startswith(LOCAL):
        n = value[len(LOCAL) :]
        if not n.isdigit() or int(n) < 1:
            raise SchedulerError(f"bad scheduler {value!r}: expected local:N with N >= 1 workers")
    elif not value or any(ch.isspace() for ch in value):
        raise SchedulerError(
            f"bad scheduler {value!r}: expected an address such as tcp://HOST:8786, or local:N"
        )
    try:
        import distributed  # noqa: F401
        from distributed.comm import get_address_host_port
    except ImportError:
        raise SchedulerError(DASK_MISSING, "scheduler") from None
    if not value.startswith(LOCAL):
        try:
            _, port = get_address_host_port(value)
            if not 0 < port < 65536:
                raise ValueError(f"port {port} is not in 1..65535")
        except ValueError as exc:
            raise SchedulerError(
                f"bad scheduler {value!r} ({exc}): expected an address such as "
                "tcp://HOST:8786 (tls://, ws:// and wss:// too), or local:N"
            ) from None
    return value


@dataclasses.dataclass(frozen=True)
class Work:
    """Everything that says what to play, except which deals (or matches) and by whom
    (the Runner given with it).

    ``per_task`` sets the deals (or matches) per batch or task; a regression
    check sets it to a multiple of its check interval. ``codes`` asks for
    every pair's outcome code (duplicate only).
    """

    seed: int
    matches: bool = False
    target: int = 7
    duplicate: bool = True
    chunk: int | None = None
    codes: bool = False
    per_task: int | None = None
    first_hakem: int = 0
    """Matches: the house rule of the first Hakem (``hokm_sim.house.FIRST_HAKEM_METHODS``)."""


TaskFn = Callable[[Runner, int, int], Any]
"""A task: ``fn(runner, start, count)`` computes something of deals (or matches)
``start .. start + count - 1`` with a pair's Runner, on the threads numba is set
to. Sent to Dask workers, so it must pickle: a module-level function, or a
frozen dataclass with ``__call__``."""

LOCAL_TASK = 16 * HAND_CHUNK
"""Deals per task of :meth:`Local.map` by default: a progress step."""


class Local:
    """Plays ranges on this machine with the numba-threaded Runner."""

    def __init__(self, threads: int | None = None) -> None:
        self.threads = threads

    def batches(
        self, runner: Runner, work: Work, ranges: list[tuple[int, int]], *, ordered: bool = True
    ) -> Iterator[Batch]:
        """Batches of the ranges ``(start, count)`` played by ``runner``, always in index
        order."""
        for start, count in ranges:
            yield from runner.batches(
                work.seed,
                count,
                start=start,
                matches=work.matches,
                target=work.target,
                duplicate=work.duplicate,
                threads=self.threads,
                chunk=work.chunk,
                codes=work.codes,
                per_batch=work.per_task,
                first_hakem=work.first_hakem,
            )

    def map(
        self,
        runner: Runner,
        fn: TaskFn,
        ranges: list[tuple[int, int]],
        *,
        size: int | None = None,
        ordered: bool = True,
    ) -> Iterator[tuple[int, Any]]:
        """``(start, fn(runner, start, count))`` for tasks of ``size`` cut from the
        ranges, in index order, on this machine's threads."""
        size = size or LOCAL_TASK
        for s, n in ranges:
            for o in range(0, n, size):
                with numba_threads(self.threads):
                    result = fn(runner, s + o, min(size, n - o))
                yield s + o, result


_FAULTS = (StrategyFault, BotError, PythonBotError)
"""What a task returns rather than raises: a bot's fault, found again on any worker."""


class ClusterError(StoppedError):
    """Work the cluster could not do, after retries: one line saying why."""


class EngineMismatch(RuntimeError):
    """A worker built a different engine than the client: other code or bot files."""


@cache
def worker_runner(
    a_spec: str, a_name: str, b_spec: str, b_name: str, key: str, checked: bool
) -> Runner:
    """The Runner of a strategy pair in this process, built once per process, in the
    checking mode when ``checked``.

    ``key`` is the client's engine key (:attr:`Runner.engine_key`), which hashes the
    engine sources and the bot files: part of the cache's key, so an edited bot gets a
    new Runner, and checked, so a worker with other files fails loudly instead of
    mixing two versions of a bot into one result. The kind of engine may differ (a
    worker plays its default): it changes no count.
    """
    a = dataclasses.replace(resolve(a_spec), name=a_name)
    b = dataclasses.replace(resolve(b_spec), name=b_name)
    runner = Runner(a, b, checked=checked)
    if runner.engine_key != key:
        raise EngineMismatch(
            f"a worker built engine {runner.engine_key} where the client built {key}: "
            "install the same hokm-sim and bot files on every worker"
        )
    return runner


def run_task(
    specs: tuple[str, str, str, str, str, bool, Limits], fn: TaskFn, start: int, count: int
) -> Any | StoppedError:
    """One task on a worker with one numba thread, protocol bots held to the client's
    limits: its result, or the strategy's fault."""
    runner = worker_runner(*specs[:6])
    old = set_limits(specs[6])
    try:
        with numba_threads(1):
            return fn(runner, start, count)
    except _FAULTS as fault:
        return fault  # a result: retrying would only find it again
    finally:
        set_limits(old)


@dataclasses.dataclass(frozen=True)
class PlayChunk:
    """The task of a run: play one range in one batch (see :meth:`Runner.batches`)."""

    seed: int
    matches: bool
    target: int
    duplicate: bool
    chunk: int | None
    codes: bool
    first_hakem: int = 0

    def __call__(self, runner: Runner, start: int, count: int) -> Batch:
        (batch,) = runner.batches(
            self.seed,
            count,
            start=start,
            matches=self.matches,
            target=self.target,
            duplicate=self.duplicate,
            threads=numba.get_num_threads(),
            chunk=self.chunk,
            codes=self.codes,
            per_batch=count,
            first_hakem=self.first_hakem,
        )
        return batch


class Dask:
    """Plays ranges as tasks on a Dask cluster through a connected ``Client``."""

    def __init__(self, client) -> None:
        self.client = client

    def workers(self) -> int:
        """Task slots (worker threads) connected now; at least 1, so a cluster
        still starting gets tasks."""
        return max(1, sum(self.client.nthreads().values()))

    def task_size(self, work: Work, ranges: list[tuple[int, int]]) -> int:
        """Deals (or matches) per task: whole engine chunks, about 8 tasks per worker
        for small runs, at most ``TASK_CHUNKS`` chunks for big ones."""
        if work.per_task:
            return work.per_task
        chunk = work.chunk or (MATCH_CHUNK if work.matches else HAND_CHUNK)
        total = sum(n for _, n in ranges)
        want = -(-total // (8 * self.workers()))
        return chunk * min(TASK_CHUNKS, max(1, -(-want // chunk)))

    def batches(
        self, runner: Runner, work: Work, ranges: list[tuple[int, int]], *, ordered: bool = False
    ) -> Iterator[Batch]:
        """Batches of the ranges as tasks finish (in index order if ``ordered``), played
        by the workers' Runners of ``runner``'s pair and engine."""
        task = PlayChunk(
            work.seed, work.matches, work.target, work.duplicate, work.chunk, work.codes,
            work.first_hakem,
        )  # fmt: skip
        size = self.task_size(work, ranges)
        for _, batch in self.map(runner, task, ranges, size=size, ordered=ordered):
            yield batch

    def map(
        self,
        runner: Runner,
        fn: TaskFn,
        ranges: list[tuple[int, int]],
        *,
        size: int | None = None,
        ordered: bool = True,
    ) -> Iterator[tuple[int, Any]]:
        """``(start, fn(worker's runner, start, count))`` of tasks as they finish on the
        cluster (in index order if ``ordered``); each worker's Runner plays ``runner``'s
        pair on the same engine key, in the same mode.

        At most ``IN_FLIGHT`` tasks per worker are queued, so stopping (Ctrl-C,
        a decided sequential test) loses little; leaving the iterator early
        cancels what is queued. A strategy fault stops the queueing; the tasks
        before it finish, and the earliest fault by index is raised, the one a
        local run reports.
        """
        from distributed import as_completed

        size = size or self.task_size(Work(0), ranges)
        todo = [(s + o, min(size, n - o)) for s, n in ranges for o in range(0, n, size)]
        todo.reverse()
        a, b = runner.a, runner.b
        specs = (portable_spec(a), a.name, portable_spec(b), b.name, runner.engine_key,
                 runner.engine.checked, limits())  # fmt: skip
        order = deque(s for s, _ in reversed(todo))
        waiting: dict[int, Any] = {}
        pending = as_completed(loop=self.client.loop)  # not the default client's loop
        futures: dict[Any, int] = {}  # queued future -> first index of its task
        fault: tuple[int, StoppedError] | None = None

        slots, counted = 0, -1.0  # tasks to keep queued; when the workers were counted

        def refill() -> None:
            """Queue tasks up to ``IN_FLIGHT`` per worker (recounted each second, so
            workers that join during the run get work)."""
            nonlocal slots, counted
            if time.monotonic() - counted > 1.0:
                slots, counted = IN_FLIGHT * self.workers(), time.monotonic()
            while todo and len(futures) < slots:
                s, n = todo.pop()
                f = self.client.submit(run_task, specs, fn, s, n, retries=RETRIES, pure=False)
                futures[f] = s
                pending.add(f)

        try:
            refill()
            for fut in pending:
                try:
                    result = fut.result()
                except Exception as exc:  # the task failed on every worker it was given
                    detail = " ".join(str(exc).split()) or type(exc).__name__
                    raise ClusterError(f"a Dask task failed after retries: {detail}") from exc
                start = futures.pop(fut)
                stopped = isinstance(result, _FAULTS)
                if stopped and (fault is None or start < fault[0]):
                    fault = (start, result)
                if fault is not None:
                    continue  # drain: every earlier task is queued, and may hold an earlier fault
                refill()
                if not ordered:
                    yield start, result
                    continue
                waiting[start] = result
                while order and order[0] in waiting:
                    s = order.popleft()
                    yield s, waiting.pop(s)
        finally:
            for f in futures:
                f.cancel()
        if fault is not None:
            raise fault[1]


Backend = Local | Dask


@contextmanager
def _workers_ignore_sigint() -> Iterator[None]:
    """Start local workers with Ctrl-C ignored (a process started while it is inherits that).

    A Ctrl-C at a terminal reaches the whole process group; it is the
    client's to handle (stop after the tasks in flight, keep the checkpoint),
    and workers that died of it would leave those tasks waiting forever.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, old)


@contextmanager
def open_backend(scheduler: str | None, threads: int | None = None) -> Iterator[Backend]:
    """The backend for ``--scheduler`` (None: this machine's threads), closed on exit.

    ``local:N`` starts N single-threaded worker processes on the loopback
    interface and stops them on exit; an address connects to a running
    scheduler. Raises :class:`SchedulerError` if Dask is missing or the
    scheduler cannot be reached.
    """
    if scheduler is None:
        yield Local(threads)
        return
    check_scheduler(scheduler)
    from distributed import Client, LocalCluster

    cluster = None
    try:
        if scheduler.startswith(LOCAL):
            with _workers_ignore_sigint():
                cluster = LocalCluster(
                    n_workers=int(scheduler[len(LOCAL) :]),
                    threads_per_worker=1,
                    processes=True,
                    host="127.0.0.1",
                    dashboard_address="127.0.0.1:0",
                    # Quiet on a stop: tasks cancelled are warnings, and a worker whose heartbeat
                    # meets the scheduler already closed logs an error with its traceback. What
                    # goes wrong in a task reaches the client as that task's error.
                    silence_logs=logging.CRITICAL,
                )
            client = Client(cluster)
        else:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as exc:
        if cluster is not None:
            cluster.close()
        raise SchedulerError(f"cannot reach Dask scheduler {scheduler}: {exc}") from None
    try:
        yield Dask(client)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
