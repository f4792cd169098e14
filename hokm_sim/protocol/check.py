"""``hokm-sim check-bot``: does a bot speak hokm-bot/1? A conformance check.

In the spirit of fastchess's ``--compliance``: the bot is started and taken
through the protocol step by step, each step passed or failed with what went
wrong, the bot's stderr kept for the report. The requests are positions of
real hands (random legal play under the rules of :mod:`hokm_sim.reference`,
seeded, so a check is reproducible) of every kind a host sends: a trump
call, a lead, following suit, void in the suit led with and without trumps,
the last trick, a hand of a match (scores and target set). They come alone
and in a batch of 1,000; the batch again in the reverse order must get the
same answers, since a bot may know only what a request says. The bot's time
per decision is measured on requests sent one at a time (a round trip
each), and the check ends with ``bye`` and a clean exit.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from hokm_sim import reference as ref
from hokm_sim.cards import suit_of
from hokm_sim.protocol.answers import AnswerError, bad_answer, read_answers
from hokm_sim.protocol.child import BotProcess, ChildFault
from hokm_sim.protocol.wire import CARD_INDEX, dumps, request

KINDS = (
    "a trump call",
    "a lead",
    "following suit",
    "void in the suit led, holding trumps",
    "void in the suit led, without trumps",
    "the last trick",
    "a hand of a match (scores and target set)",
)
PER_REQUEST = 0.01
"""Seconds a message may take per request beyond the base limit (as hokm-sim's host)."""


@dataclass
class Check:
    """One step: passed (True), failed (False) or not run (None), and what was seen."""

    name: str
    ok: bool | None
    detail: str = ""


@dataclass
class CheckResult:
    """Every step of a check, and the bot's times per decision."""

    command: list[str]
    checks: list[Check] = field(default_factory=list)
    single: list[float] = field(default_factory=list)
    """Seconds of each one-request message, round trip included."""
    batch: float | None = None
    """Seconds of the message of the big batch."""
    batch_size: int = 0
    hello: dict = field(default_factory=dict)
    stderr: str = ""
    """The last line the bot wrote to standard error."""

    @property
    def passed(self) -> bool:
        """Whether every step was run and passed."""
        return all(c.ok for c in self.checks)

    @property
    def exit_code(self) -> int:
        """0 when every step passed, else 4 (a bot fault)."""
        return 0 if self.passed else 4

    def timing(self) -> dict:
        """Median and 99th percentile of the one-at-a-time decisions, in seconds."""
        if not self.single:
            return {}
        ordered = sorted(self.single)
        p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
        out = {"decisions": len(ordered), "median": statistics.median(ordered), "p99": p99}
        if self.batch is not None:
            out["batch"] = {"requests": self.batch_size, "seconds": self.batch}
        return out

    def to_dict(self) -> dict:
        """A JSON-ready record."""
        return {
            "command": self.command,
            "passed": self.passed,
            "hello": self.hello,
            "checks": [{"check": c.name, "ok": c.ok, "detail": c.detail} for c in self.checks],
            "time_per_decision": self.timing(),
            "stderr": self.stderr,
        }


def positions(seed: int, n: int) -> list[tuple[dict, set[str]]]:
    """``n`` requests of random legal play, in random order (ids 1000, 1007, ...), each with
    the kinds of :data:`KINDS` it is; every kind is among them (``n >= len(KINDS)``)."""
    rng = random.Random(seed)
    pool: list[tuple[dict, set[str]]] = []
    alone = 0  # requests of single hands: about half, the rest from whole matches
    while len(pool) < 5 * n or not _every_kind(pool):
        hakem, scores = rng.randrange(4), [0, 0]
        target = 7 if 2 * alone > len(pool) else 0
        while True:
            reqs, score = _hand(rng, hakem, scores, target)
            pool += reqs
            alone += 0 if target else len(reqs)
            scores[score.winner_team] += score.points
            hakem = score.next_hakem
            if not target or max(scores) >= target:
                break
    chosen = rng.sample(pool, n)
    for kind in KINDS:  # each kind at least once
        if not any(kind in k for _, k in chosen):
            chosen[rng.randrange(n)] = next(x for x in pool if kind in x[1])
    return [({**r, "id": 1000 + 7 * i}, k) for i, (r, k) in enumerate(chosen)]


def _every_kind(items: list[tuple[dict, set[str]]]) -> bool:
    seen = set().union(*(k for _, k in items))
    return all(k in seen for k in KINDS)


def _mask(cards) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _hand(rng: random.Random, hakem: int, scores: list[int], target: int):
    """The requests of one hand of random legal play (a random trump), and its score."""
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [set(h) for h in ref.deal(deck, hakem)]
    five = _mask(ref.first_five(deck))
    trump = rng.randrange(4)
    match = {"a hand of a match (scores and target set)"} if target else set()
    call = request(0, hakem, hakem, -1, five, 0, five, [], [0, 0], scores, target,
                   rng.getrandbits(64))  # fmt: skip
    out = [(call, {"a trump call"} | match)]
    plays: list[int] = []
    tricks = [0, 0]
    leader = hakem
    while max(tricks) < ref.TRICKS_TO_WIN:
        trick: list[int] = []
        for k in range(4):
            seat = (leader + k) % 4
            legal = ref.legal_cards(sorted(hands[seat]), trick)
            kinds = set(match)
            if not trick:
                kinds.add("a lead")
            elif suit_of(legal[0]) == suit_of(trick[0]):
                kinds.add("following suit")
            else:
                holds = any(suit_of(c) == trump for c in hands[seat])
                kinds.add(f"void in the suit led, {'holding' if holds else 'without'} trumps")
            if len(hands[seat]) == 1:
                kinds.add("the last trick")
            out.append((request(0, seat, hakem, trump, _mask(hands[seat]), _mask(legal),
                                five if seat == hakem else 0, list(plays), list(tricks), scores,
                                target, rng.getrandbits(64)), kinds))  # fmt: skip
            card = rng.choice(legal)
            hands[seat].discard(card)
            trick.append(card)
            plays.append(card)
        leader = ref.trick_winner(trick, leader, trump)
        tricks[leader % 2] += 1
    return out, ref.score_hand(hakem, tricks)


def _ask(bot: BotProcess, reqs: Sequence[dict], timeout: float) -> tuple[list, float]:
    """Send one decide message; the answers (suit or card indices) and the seconds taken.
    Raises ChildFault or AnswerError, or AnswerError for an answer that is not legal."""
    line = dumps({"type": "decide", "requests": list(reqs)})
    t = time.perf_counter()
    answer = bot.exchange(line, timeout + PER_REQUEST * len(reqs), "decide")
    seconds = time.perf_counter() - t
    cards = np.array([int(r["kind"] == "card") for r in reqs], np.int64)
    values = read_answers(answer, cards, np.array([r["id"] for r in reqs], np.int64))
    for i, (r, card, value) in enumerate(zip(reqs, cards, values.tolist(), strict=True)):
        legal = _mask(CARD_INDEX[c] for c in r["legal"])
        fine = (legal >> value) & 1 if card and value >= 0 else (not card and 0 <= value <= 3)
        if not fine:
            hand = _mask(CARD_INDEX[c] for c in r["hand"])
            raise AnswerError(
                f"request {i}: {bad_answer(answer, i, bool(card), value, legal, hand)}"
            )
    return values.tolist(), seconds


def check_bot(
    argv: Sequence[str],
    *,
    timeout: float = 10.0,
    seed: int = 1,
    batch: int = 1000,
    singles: int = 200,
    on_check: Callable[[Check], None] | None = None,
) -> CheckResult:
    """Take the bot run by ``argv`` through the protocol (see the module doc); each
    check is passed to ``on_check`` as it is done. ``timeout`` is the limit for
    ``hello`` and, plus 10 ms a request, for each message."""
    res = CheckResult(list(argv))
    reqs = positions(seed, batch)
    bot: BotProcess | None = None

    def step(name: str, run: Callable[[], str]) -> None:
        nonlocal bot
        if bot is None or not bot.alive:
            c = Check(name, None, "not run: the bot is gone")
        else:
            try:
                c = Check(name, True, run())
            except (ChildFault, AnswerError) as exc:
                c = Check(name, False, exc.what)
        res.checks.append(c)
        if on_check:
            on_check(c)

    try:
        bot = BotProcess(argv)
    except ChildFault as exc:
        c = Check("starts", False, exc.what)
        res.checks.append(c)
        if on_check:
            on_check(c)
        return res

    def hello() -> str:
        res.hello = bot.hello(timeout)
        who = " ".join(str(res.hello[k]) for k in ("name", "version") if res.hello.get(k))
        return f"{who or 'no name given'}, {res.hello['protocol']}"

    step("starts and answers hello", hello)
    for kind in KINDS:

        def one(kind=kind) -> str:
            r = next(q for q, k in reqs if kind in k)
            (value,), seconds = _ask(bot, [r], timeout)
            res.single.append(seconds)
            return f"{seconds * 1000:.2f} ms"

        step(f"one request: {kind}", one)
    answers: list = []

    def whole() -> str:
        answers[:], res.batch = _ask(bot, [q for q, _ in reqs], timeout)
        res.batch_size = len(reqs)
        return f"{len(reqs):,} requests in {res.batch * 1000:.1f} ms"

    step(f"a batch of {batch:,} requests of every kind, from many hands", whole)

    def again() -> str:
        got, _ = _ask(bot, [q for q, _ in reversed(reqs)], timeout)
        if got[::-1] != answers:
            i = next(i for i, (a, b) in enumerate(zip(got[::-1], answers, strict=True)) if a != b)
            raise AnswerError(
                f"request {i} of the batch got another answer when the batch came in another "
                "order: a bot must answer from the request alone"
            )
        return "the same answers"

    step("the same batch in reverse order gets the same answers", again)

    def timing() -> str:
        for r, _ in reqs[:singles]:
            _, seconds = _ask(bot, [r], timeout)
            res.single.append(seconds)
        return f"{singles} messages"

    step(f"{singles} requests one at a time", timing)

    def bye() -> str:
        problem = bot.bye(timeout)
        if problem:
            raise ChildFault(problem)
        return "exit status 0"

    step("answers bye and exits with status 0", bye)
    res.stderr = bot.last_stderr() if bot.alive else ""
    bot.kill()
    return res


def report_lines(res: CheckResult) -> list[str]:
    """The check for people: a line per step, the times, the verdict."""
    lines = [f"check-bot {' '.join(res.command)}"]
    for c in res.checks:
        mark = {True: "pass", False: "FAIL", None: "skip"}[c.ok]
        lines.append(f"  {mark}  {c.name}" + (f": {c.detail}" if c.detail else ""))
    t = res.timing()
    if t:
        line = (f"time per decision: median {t['median'] * 1000:.3f} ms, 99th percentile "
                f"{t['p99'] * 1000:.3f} ms ({t['decisions']} requests one at a time)")  # fmt: skip
        if "batch" in t:
            each = t["batch"]["seconds"] / t["batch"]["requests"] * 1000
            line += f"; {each:.4f} ms each in the batch of {t['batch']['requests']:,}"
        lines.append(line)
    if res.stderr and not res.passed:
        lines.append(f"the bot's last stderr line: {res.stderr}")
    ok = sum(1 for c in res.checks if c.ok)
    verdict = "conformant" if res.passed else "NOT conformant"
    lines.append(f"{ok} of {len(res.checks)} checks passed: {verdict}")
    return lines
