"""The ``pimc`` bot: consistent samples, determinism, legal play in the engine.

Its samples of the hidden hands must never hold a card the seat has seen
(its own, or any played) and must respect every void shown and each seat's
card count; a seed fixes every decision; the engine (which rejects illegal
cards) plays whole hands with it.
"""

from __future__ import annotations

import random as pyrandom
from pathlib import Path
from typing import NamedTuple

import numpy as np
import pytest
from hokm_checks import trump_view
from test_strategies import view_of

from hokm_sim import reference as ref
from hokm_sim.cards import mask_of
from hokm_sim.dd.pimc import (
    MODEL_BETTER,
    MODEL_ONLY,
    P_DEPARTS,
    P_INFER,
    P_K,
    P_MARGIN,
    P_MODEL,
    P_MS,
    P_NODES,
    P_TRIES,
    PARAM_NAMES,
    pimc_trump_scores,
)
from hokm_sim.dd.sample import sample_hands, sample_view
from hokm_sim.engine.records import C_TRICKS
from hokm_sim.engine.view import (
    MEM_SIZE,
    V_HAND,
    V_PLAYED,
    V_PLAYED_BY,
    V_SEAT,
    V_TRUMP,
    V_VOIDS,
)
from hokm_sim.strategies._pimc import pimc_scores

FAST = "pimc(k=3,nodes=20000)"


def _views(seed: int, n: int) -> list[np.ndarray]:
    """Views of random decisions in hands of random legal play (the reference's rules)."""
    rnd = pyrandom.Random(seed)
    out: list[np.ndarray] = []
    while len(out) < n:
        deck = list(range(52))
        rnd.shuffle(deck)
        stop = rnd.randrange(1, 40)
        seen = []

        def choose(seat, hand, trick, legal, pv, seen=seen, stop=stop):
            if len(seen) == stop:
                out.append(view_of(seat, hand, trick, legal, pv))
            seen.append(1)
            return rnd.choice(sorted(legal))

        ref.play_hand(deck, rnd.randrange(4), lambda five, h: rnd.randrange(4), choose)
    return out[:n]


def test_samples_hold_only_unseen_cards_and_respect_voids_and_counts():
    rng = np.array([7, 0, 0, 0], np.uint64)
    hands = np.zeros(4, np.int64)
    voided = 0
    for v in _views(1, 300):
        seat = int(v[V_SEAT])
        unseen = ((1 << 52) - 1) & ~int(v[V_HAND]) & ~int(v[V_PLAYED])
        voided += int(v[V_VOIDS]) != 0
        for _ in range(5):
            assert sample_view(v, rng, hands)
            assert hands[seat] == v[V_HAND]
            others = [int(hands[s]) for s in range(4) if s != seat]
            assert sum(bin(h).count("1") for h in others) == bin(unseen).count("1")
            assert int(np.bitwise_or.reduce(others)) == unseen  # only unseen cards, each once
            for s in range(4):
                if s == seat:
                    continue
                assert bin(int(hands[s])).count("1") == 13 - bin(int(v[V_PLAYED_BY + s])).count("1")
                for suit in range(4):
                    if int(v[V_VOIDS]) >> (s * 4 + suit) & 1:
                        assert (int(hands[s]) >> (13 * suit)) & 0x1FFF == 0
    assert voided > 50  # the voids were really put to the test


def test_samples_spread_over_the_consistent_deals():
    # Seat 0 has seen its hand only; seat 1 is void in clubs: every club
    # unseen must go to seats 2 and 3, and both get some.
    rng = np.array([3, 0, 0, 0], np.uint64)
    hand = mask_of(range(13, 26))  # all diamonds
    unseen = ((1 << 52) - 1) & ~hand
    counts = np.array([13, 13, 13, 13], np.int64)
    out = np.zeros(4, np.int64)
    got = set()
    for _ in range(200):
        assert sample_hands(rng, 0, hand, unseen, counts, 1 << (1 * 4 + 0), out)
        assert out[1] & 0x1FFF == 0
        got.add(bin(int(out[2]) & 0x1FFF).count("1"))
    assert len(got) > 3


def test_the_bots_parameters_fill_the_slots_the_kernels_read():
    """The engine fills ``params`` in the order of the bot file's ``PARAMS``; the
    kernels read slot ``P_*`` of :data:`PARAM_NAMES`: the two orders are one."""
    from hokm_sim.bots.registry import builtin_bots, resolve

    bot = builtin_bots()["pimc"]
    assert tuple(bot.params) == PARAM_NAMES and tuple(bot.limits) == PARAM_NAMES
    spec = "pimc(k=5,nodes=7,ms=2,margin=1,infer=2,tries=9,model=2,departs=3)"
    row = resolve(spec).params_array()[1]
    got = [row[i] for i in (P_K, P_NODES, P_MS, P_MARGIN, P_INFER, P_TRIES, P_MODEL, P_DEPARTS)]
    assert got == [5, 7, 2, 1, 2, 9, 2, 3]


def _params(k: int, nodes: int, ms: float, margin: int = 0) -> np.ndarray:
    p = np.zeros(16)
    p[P_K], p[P_NODES], p[P_MS], p[P_MARGIN] = k, nodes, ms, margin
    return p


def test_the_margin_adds_double_dummy_tricks_below_one_point():
    """Same samples with and without the margin: each card level on the best
    points gains (tricks summed over the samples) / 14k, never a whole point,
    so it only orders cards the points leave level; the others gain nothing."""
    k = 4
    seen = 0
    for v in _views(8, 40):
        plain, with_margin = np.zeros(52), np.zeros(52)
        moves, used = pimc_scores(v, _params(k, 0, 0), _mem(), _rng(3), plain)
        moves2, used2 = pimc_scores(v, _params(k, 0, 0, margin=1), _mem(), _rng(3), with_margin)
        assert moves == moves2 and used == used2
        if used == 0:
            continue
        extra = (with_margin - plain) * 14 * k
        cards = [c for c in range(52) if moves >> c & 1]
        for c in cards:
            assert abs(extra[c] - round(extra[c])) < 1e-6 and 0 <= round(extra[c]) <= 13 * k
        best = max(with_margin[c] for c in cards)
        top = max(plain[c] for c in cards)
        assert all(plain[c] == top for c in cards if with_margin[c] == best)
        # Only cards level on the best points are counted: no other can be lifted.
        assert all(extra[c] == 0 for c in cards if plain[c] < top)
        seen += 1
        if seen == 6:
            break
    assert seen == 6


def test_the_model_search_only_ever_raises_a_cards_score():
    """Same samples with double dummy and with the better of it and the search
    against the model: no card scores less (both are made against ``expert``),
    and some score more (the model's slips); the search alone can score below
    double dummy (the team plays as the model too, but for one card)."""
    k, raised, below = 4, 0, 0
    for v in _views(9, 40):
        dd, better, only = np.zeros(52), np.zeros(52), np.zeros(52)
        p = _params(k, 0, 0)
        moves, used = pimc_scores(v, p, _mem(), _rng(3), dd)
        p[P_MODEL], p[P_DEPARTS] = MODEL_BETTER, 1
        assert pimc_scores(v, p, _mem(), _rng(3), better) == (moves, used)
        p[P_MODEL] = MODEL_ONLY
        assert pimc_scores(v, p, _mem(), _rng(3), only) == (moves, used)
        cards = [c for c in range(52) if moves >> c & 1]
        assert all(better[c] >= dd[c] and better[c] >= only[c] for c in cards)
        raised += any(better[c] > dd[c] for c in cards)
        below += any(only[c] < dd[c] for c in cards)
    assert raised > 5 and below > 0


def test_a_time_budget_stops_sampling_and_keeps_finished_samples():
    """A time budget spent before the first check stops sampling at once; a budget that
    ends part way keeps exactly the samples that finished: the same scores as that many
    samples with no budget, whatever the clock allowed.

    No node budget here, so only the clock can drop a sample; the budget grows
    until some sample finishes, so a busy machine only makes the test longer.
    """
    huge = 1_000_000  # never finished in any budget below
    views = [v for v in _views(5, 30) if bin(int(v[V_HAND])).count("1") <= 9]
    totals = np.zeros(52)
    for v in views[:3]:
        assert pimc_scores(v, _params(huge, 0, 1e-6), _mem(), _rng(1), totals)[1] == 0
        assert not totals.any()
    assert pimc_trump_scores(trump_view([0, 13, 26, 39, 12], 1), _params(huge, 0, 1e-6),
                             _rng(1), np.zeros(4)) == 0  # fmt: skip
    checked = 0
    for v in views:
        ms = 250.0
        while checked < 3:
            moves, used = pimc_scores(v, _params(huge, 0, ms), _mem(), _rng(1), totals)
            if bin(int(moves)).count("1") == 1:
                break  # nothing to sample
            if used == 0:
                ms *= 2
                continue
            unbudgeted = np.zeros(52)
            assert pimc_scores(v, _params(used, 0, 0), _mem(), _rng(1), unbudgeted) == (
                moves,
                used,
            )
            np.testing.assert_array_equal(totals, unbudgeted)
            checked += 1
            break
    assert checked == 3
    five, ms = trump_view([0, 13, 26, 39, 12], 1), 250.0
    while (used := pimc_trump_scores(five, _params(huge, 0, ms), _rng(1), got := np.zeros(4))) == 0:
        ms *= 2
    want = np.zeros(4)
    assert pimc_trump_scores(five, _params(used, 0, 0), _rng(1), want) == used
    np.testing.assert_array_equal(got, want)


def _mem() -> np.ndarray:
    return np.zeros(MEM_SIZE, np.int64)


def _rng(seed: int) -> np.ndarray:
    return np.array([seed, 0, 0, 0], np.uint64)


def test_pimcmix_takes_pimcs_parameters():
    """Written out in its file (``hokm-sim strategies`` reads them as text), the same."""
    from hokm_sim.strategies import pimc, pimcmix

    assert (pimcmix.PARAMS, pimcmix.PARAM_LIMITS) == (pimc.PARAMS, pimc.PARAM_LIMITS)


@pytest.mark.parametrize("bot", ["pimc", "pimcmix"])
def test_pimc_plays_whole_hands_legally_and_reproducibly(runner, bot):
    r = runner(FAST.replace("pimc", bot), "expert")
    first = r.counts(2024, 12, duplicate=True)  # an illegal card would raise
    again = r.counts(2024, 12, duplicate=True)
    assert first[C_TRICKS : C_TRICKS + 128].sum() == 24
    np.testing.assert_array_equal(first, again)


def test_decisions_are_deterministic_for_a_seed(runner):
    """A seed fixes every card and trump: deal by deal, the same results on one thread
    as on two (each deal's decisions draw from that deal's own streams)."""
    r = runner(FAST, "expert")
    one = [b.codes for b in r.batches(7, 16, threads=1, codes=True)]
    every = [b.codes for b in r.batches(7, 16, threads=2, codes=True)]
    np.testing.assert_array_equal(np.concatenate(one), np.concatenate(every))


def test_with_no_time_left_pimc_plays_and_calls_as_expert(runner):
    """A budget spent before the first sample leaves expert's choices: against expert
    in duplicate, every deal is played the same in both seatings, so each pair is split."""
    from hokm_sim.analysis.summary import summarize

    r = runner("pimc(k=8,nodes=1,ms=0.000001)", "expert")  # the engine of FAST
    assert r.engine is runner(FAST, "expert").engine
    counts = r.counts(5, 40, duplicate=True)
    s = summarize(counts, {"a": "p", "b": "e", "seed": 5, "duplicate": True, "mode": "hands"})
    assert s.data["pair_counts"] == {"LL": 0, "split": 40, "WW": 0}
    tricks = counts[C_TRICKS : C_TRICKS + 128].reshape(2, 8, 8)
    np.testing.assert_array_equal(tricks[0], tricks[1])  # A as Hakem: as B as Hakem


def _allocating_callee_first_called_from_a_loop(**options) -> None:
    """A loop compiled without reference counting (as the engine's card loop is) that is
    the first to call a fresh function which allocates, jitted with ``options``."""
    from numba import njit

    @njit(**options)
    def callee(n):
        return np.zeros(n).sum()

    @njit(_nrt=False)
    def loop(n):
        return callee(n)

    loop.compile("(int64,)")


def test_pimc_compiles_when_first_called_from_the_card_loop():
    """The engine's card loop runs without reference counting and its callees
    inherit that; pimc's calls allocate, so they must still compile when the loop
    is the first to call them (cold caches). They once compiled only when called
    elsewhere first: the functions the bot and the engine call first ask for
    reference counting, and that is what makes an allocating callee compile."""
    from numba.core.errors import TypingError

    from hokm_sim.dd import pimc
    from hokm_sim.strategies import _pimc, _pimcmix

    for entry in (_pimc.pimc_card, _pimc.KERNELS.pimc_card, _pimcmix.pimc_card, pimc.pimc_trump):
        assert entry.targetoptions.get("_nrt") is True, entry
    _allocating_callee_first_called_from_a_loop(_nrt=True)
    with pytest.raises(TypingError):  # the bug, without reference counting asked for
        _allocating_callee_first_called_from_a_loop()


def test_engines_with_pimc_hash_the_solver_and_others_do_not():
    """An edit of hokm_sim/dd must recompile engines that call it, and only those."""
    from hokm_sim.bots.registry import builtin_bots
    from hokm_sim.sources import source_closure

    dd_dir = Path(sample_view.py_func.__code__.co_filename).parent
    bots = builtin_bots()

    def dd_files(name: str) -> set[str]:
        return {p.name for p in source_closure(bots[name].path) if p.parent == dd_dir}

    dd = {"solver.py", "search.py", "bounds.py", "order.py", "table.py", "pimc.py", "sample.py"}
    assert dd | {"infer.py", "respond.py", "model.py"} <= dd_files("pimc")
    # The model of inference and of the search is expert, bound in by the bot:
    # an edit of expert.py recompiles pimc's cached kernels, and the library
    # itself names no bot.
    from hokm_sim.dd import infer, pimc, respond, weigh
    from hokm_sim.strategies import _pimc, expert

    bots_dir = Path(expert.__file__).resolve().parent
    assert Path(expert.__file__).resolve() in source_closure(_pimc.__file__)
    for lib in (infer, pimc, respond, weigh):
        assert not any(p.parent == bots_dir for p in source_closure(lib.__file__))
    for name in ("expert", "longest", "random", "weighted"):
        assert dd_files(name) == set()


class Decision(NamedTuple):
    """A decision of seat 0 in a hand played by the reference (:func:`_seat0_decisions`)."""

    view: np.ndarray
    hands: np.ndarray
    """Each seat's cards at that moment of the real deal."""
    seats: np.ndarray
    cards: np.ndarray
    n: int
    """The cards played so far, in order, as the history in seat 0's memory gives them."""
    order: tuple[list[int], list[int]]
    """The same from the reference: ``(cards, seats)``."""
    hakem: int


def _seat0_decisions(seed: int, deals: int, play, hakems=(0, 1, 2, 3)) -> list[Decision]:
    """Seat 0's decisions in ``deals`` hands (the Hakem drawn from ``hakems``) in which
    every seat plays ``play(view)``, trump always suit 0; seat 0 notes the history in its
    memory at each of its decisions (:func:`hokm_sim.dd.infer.record`)."""
    from hokm_sim.dd.infer import play_order, record

    rnd = pyrandom.Random(seed)
    out: list[Decision] = []
    for _ in range(deals):
        deck = list(range(52))
        rnd.shuffle(deck)
        hakem = hakems[rnd.randrange(len(hakems))]
        dealt = [mask_of(h) for h in ref.deal(deck, hakem)]
        mem = _mem()

        def choose(seat, hand, trick, legal, pv, mem=mem, dealt=dealt, hakem=hakem):
            v = view_of(seat, hand, trick, legal, pv)
            if seat == 0:
                record(v, mem)
                seats = np.zeros(52, np.int64)
                cards = np.zeros(52, np.int64)
                n = play_order(v, mem, seats, cards)
                plays = [c for t in pv.history for c in t.cards] + list(trick)
                who = [(t.leader + i) % 4 for t in pv.history for i in range(4)]
                who += [(pv.leader + i) % 4 for i in range(len(trick))]
                now = np.array([dealt[s] & ~v[V_PLAYED_BY + s] for s in range(4)], np.int64)
                out.append(Decision(v, now, seats, cards, n, (plays, who), hakem))
            return play(v)

        ref.play_hand(deck, hakem, lambda five, h: 0, choose)
    return out


def _swapped(hands: np.ndarray) -> np.ndarray | None:
    """``hands`` with the top card of the first suit both opponents (seats 1 and 3) hold
    swapped for the other's lowest of it (so no void breaks); None if there is none."""
    for suit in range(4):
        sm = 0x1FFF << (13 * suit)
        if hands[1] & sm and hands[3] & sm:
            swap = (1 << (int(hands[1] & sm).bit_length() - 1)) | (
                int(hands[3] & sm) & -int(hands[3] & sm)
            )
            alt = hands.copy()
            alt[1] ^= swap
            alt[3] ^= swap
            return alt
    return None


def test_the_true_deal_explains_experts_play_and_the_history_is_the_play():
    """Hands of ``expert`` at every seat (the reference plays them): at each
    decision of seat 0, the history kept in its memory gives back every card
    played so far in order, and on the real deal the model (``expert``) plays
    every one of them as observed; a deal with two cards of different
    opponents swapped is usually not explained."""
    from hokm_sim.dd.infer import JUDGE_ALL, JUDGE_OPPONENTS, judged_seats, new_scratch
    from hokm_sim.strategies import expert
    from hokm_sim.strategies._pimc import EXPERT_PARAMS, KERNELS

    misses = KERNELS.misses
    scratch = new_scratch()
    judged = judged_seats(0, JUDGE_OPPONENTS)
    checked = swapped_missed = swapped = 0

    def play(v):
        return expert.play_card(v, EXPERT_PARAMS, np.zeros(16, np.int64), _rng(0))

    for d in _seat0_decisions(5, 30, play):
        v, now, seats, cards, n = d.view, d.hands, d.seats, d.cards, d.n
        assert (list(cards[:n]), list(seats[:n])) == d.order
        plays_only = judged_seats(0, JUDGE_ALL) & ~(1 << d.hakem)  # its call: below
        assert misses(v, now, seats, cards, n, plays_only, _rng(1), scratch, 99) == 0
        checked += 1
        alt = _swapped(now) if n >= 4 else None
        if alt is not None:
            swapped += 1
            miss = misses(v, alt, seats, cards, n, judged, _rng(1), scratch, 99)
            swapped_missed += miss > 0
            # Counting stops at the cap, with the same answer up to it.
            capped = misses(v, alt, seats, cards, n, judged, _rng(1), scratch, 1)
            assert capped == min(miss, 1)
    assert checked > 150
    assert swapped > 50 and swapped_missed > swapped / 3


def test_a_hakems_call_passes_as_often_as_five_of_its_cards_would_make_it():
    """The trump call is judged on five of the Hakem's thirteen drawn at random:
    the share of deals passed is the share of all 1,287 fives on which
    ``expert`` calls that trump."""
    from itertools import combinations

    from hokm_sim.dd.infer import new_scratch
    from hokm_sim.strategies import expert
    from hokm_sim.strategies._pimc import EXPERT_PARAMS, KERNELS

    misses = KERNELS.misses
    deck = list(range(52))
    pyrandom.Random(11).shuffle(deck)
    dealt = [mask_of(h) for h in ref.deal(deck, 1)]
    hakem_cards = [c for c in range(52) if dealt[1] >> c & 1]
    calls = [
        expert.choose_trump(trump_view(list(five), 1), EXPERT_PARAMS, _mem(), _rng(0))
        for five in combinations(hakem_cards, 5)
    ]
    trump = max(range(4), key=calls.count)
    share = calls.count(trump) / len(calls)
    assert 0.05 < share < 0.95
    v = trump_view([], 1)
    v[V_SEAT], v[V_HAND], v[V_TRUMP] = 0, dealt[0], trump
    hands = np.array(dealt, np.int64)
    rng, scratch, n = _rng(4), new_scratch(), 4000
    none = np.zeros(52, np.int64)
    passed = sum(misses(v, hands, none, none, 0, 1 << 1, rng, scratch, 99) == 0 for _ in range(n))
    assert abs(passed / n - share) < 4 * (share * (1 - share) / n) ** 0.5


def test_a_mixture_explains_a_card_when_any_of_its_bots_would_play_it():
    """Hands in which every seat plays as ``drawer``: on the real deal a judge of
    ``expert`` and ``drawer`` together explains every card, where ``expert`` alone
    misses some; on deals with two opponents' cards swapped, the pair misses a
    decision only where both of its bots miss it (never more than either alone)."""
    from hokm_sim.bots.botkit import default_params
    from hokm_sim.dd.infer import JUDGE_OPPONENTS, judged_seats, make_replay, new_scratch
    from hokm_sim.dd.model import Model
    from hokm_sim.strategies import drawer
    from hokm_sim.strategies._pimc import KERNELS, MODEL

    drawer_params = default_params(drawer.PARAMS)
    as_drawer = Model(drawer.choose_trump, drawer.play_card, drawer_params)
    alone = make_replay(as_drawer)[0]
    pair = make_replay((MODEL, as_drawer))[0]
    by_expert = KERNELS.misses
    judged = judged_seats(0, JUDGE_OPPONENTS)
    scratch = new_scratch()
    checked = expert_missed = compared = 0

    def play(v):
        return drawer.play_card(v, drawer_params, np.zeros(MEM_SIZE, np.int64), _rng(0))

    # The Hakem on seat 0's team: the opponents' trump call is not judged here.
    for d in _seat0_decisions(8, 20, play, hakems=(0, 2)):
        v, now, seats, cards, n = d.view, d.hands, d.seats, d.cards, d.n
        assert pair(v, now, seats, cards, n, judged, _rng(1), scratch, 99) == 0
        expert_missed += by_expert(v, now, seats, cards, n, judged, _rng(1), scratch, 99)
        checked += 1
        alt = _swapped(now) if n >= 4 else None
        if alt is not None:
            both = pair(v, alt, seats, cards, n, judged, _rng(1), scratch, 99)
            one = alone(v, alt, seats, cards, n, judged, _rng(1), scratch, 99)
            other = by_expert(v, alt, seats, cards, n, judged, _rng(1), scratch, 99)
            assert both <= min(one, other)
            compared += 1
    assert checked > 100 and compared > 30
    assert expert_missed > 0


def test_kernels_binding_the_same_model_are_made_once():
    """``pimcmix`` and ``pimcnet`` search against ``expert`` as ``pimc`` does: one set of
    kernels for that model (typed and compiled once in a process), another where the
    models differ."""
    from hokm_sim.bots.botkit import default_params
    from hokm_sim.dd.model import Model
    from hokm_sim.dd.pimc import make_pimc
    from hokm_sim.strategies import _pimc, _pimcmix, expert

    alike = Model(expert.choose_trump, expert.play_card, default_params(expert.PARAMS))
    assert make_pimc(alike) is _pimc.KERNELS
    assert _pimcmix.KERNELS.model_value_after is _pimc.KERNELS.model_value_after
    assert _pimcmix.KERNELS.pimc_scores is not _pimc.KERNELS.pimc_scores  # its judges differ
    other = alike._replace(params=alike.params + 1.0)
    assert make_pimc(other).model_value_after is not _pimc.KERNELS.model_value_after
