"""The built-in bots: legal, deterministic, blind to hidden cards, each tip doing its job.

- Contract: every registered bot plays thousands of seeded duplicate hands
  against ``random`` without an illegal card (the engine raises
  StrategyFault), and two runs with one seed give identical counts.
- Views: :func:`view_of` builds a seat's view from what the plain-Python
  reference gives a seat (own hand, trick, legal cards, public history) and
  nothing else. Replaying engine traces through it reproduces every decision
  of ``expert`` (so it builds the engine's view), and two deals that differ
  only in how the *hidden* cards are split between the other three seats
  give equal views, hence equal decisions, for every bot.
- Tips: each tip bot does its one thing in a hand-made position where
  ``basic`` does not.
- Strength: ``expert`` beats ``random`` and ``basic`` in duplicate.
"""

from __future__ import annotations

import random as pyrandom

import numpy as np
import pytest
from hokm_checks import bot_module, trump_view

from hokm_sim import reference as ref
from hokm_sim.bots.registry import builtin_bots, resolve
from hokm_sim.cards import mask_of, parse_card, parse_cards, parse_suit, suit_of
from hokm_sim.engine import kernels as k
from hokm_sim.engine.records import C_TRICKS
from hokm_sim.engine.view import (
    MEM_SIZE,
    V_HAKEM,
    V_HAND,
    V_LEADER,
    V_LED,
    V_LEGAL,
    V_NTRICK,
    V_PLAYED,
    V_PLAYED_BY,
    V_SEAT,
    V_TRICK,
    V_TRICK_NO,
    V_TRICKS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
    VIEW_SIZE,
)

# Search at every card: tests/test_pimc.py and tests/test_pimcnet.py check them on fewer deals.
HEAVY = {"pimc", "pimcmix", "pimcnet"}
BOTS = sorted(set(builtin_bots()) - HEAVY)


# --------------------------------------------------------------------------- views


def view_of(seat, hand, trick, legal, pv: ref.PlayView) -> np.ndarray:
    """The view of ``seat`` from exactly what the reference shows a seat.

    The arguments are those of the reference's ``choose_card``: the seat's own
    cards, the current trick, its legal cards and the public :class:`PlayView`
    (trump, Hakem, leader, tricks won, finished tricks). No other hand is
    passed in, so nothing hidden can reach the view.
    """
    v = np.zeros(VIEW_SIZE, np.int64)
    v[V_HAND] = mask_of(hand)
    v[V_SEAT] = seat
    v[V_HAKEM] = pv.hakem
    v[V_TRUMP] = pv.trump
    v[V_LEADER] = pv.leader
    v[V_NTRICK] = len(trick)
    for i in range(4):
        v[V_TRICK + i] = trick[i] if i < len(trick) else -1
    played = 0
    by = [0, 0, 0, 0]
    voids = 0
    for t in [*pv.history, ref.Trick(pv.leader, list(trick), -1)]:
        for i, c in enumerate(t.cards):
            s = (t.leader + i) % 4
            played |= 1 << c
            by[s] |= 1 << c
            if i > 0 and suit_of(c) != suit_of(t.cards[0]):
                voids |= 1 << (s * 4 + suit_of(t.cards[0]))
    v[V_PLAYED] = played
    for s in range(4):
        v[V_PLAYED_BY + s] = by[s]
    v[V_VOIDS] = voids
    if trick:
        w = ref.trick_winner(trick, pv.leader, pv.trump)
        v[V_LED] = suit_of(trick[0])
        v[V_WIN_SEAT] = w
        v[V_WIN_CARD] = trick[(w - pv.leader) % 4]
    else:
        v[V_LED] = v[V_WIN_SEAT] = v[V_WIN_CARD] = -1
    v[V_TRICKS] = pv.tricks_won[0]
    v[V_TRICKS + 1] = pv.tricks_won[1]
    v[V_TRICK_NO] = pv.trick_no
    v[V_LEGAL] = mask_of(legal)
    return v


def position(hand, trump, hakem, history=(), trick=None):
    """A hand-made view: ``history`` and ``trick`` are ``(leader, "AS KS ...")`` pairs.

    Each finished trick's winner leads the next one; the seat to play is the
    one after the current trick's cards.
    """
    tricks = []
    won = [0, 0]
    for leader, cards in history:
        cs = parse_cards(cards)
        w = ref.trick_winner(cs, leader, trump)
        if tricks:
            assert leader == tricks[-1].winner, "each trick is led by the last winner"
        tricks.append(ref.Trick(leader, cs, w))
        won[w % 2] += 1
    leader, cards = trick if trick else (tricks[-1].winner if tricks else hakem, "")
    cs = parse_cards(cards)
    seat = (leader + len(cs)) % 4
    held = parse_cards(hand)
    pv = ref.PlayView(trump, hakem, leader, len(tricks), won, tricks)
    return view_of(seat, held, cs, ref.legal_cards(held, cs), pv)


class Bot:
    """A bot module's jitted functions, called directly with its default parameters."""

    def __init__(self, spec: str):
        strat = resolve(spec)
        self.trump_mod = bot_module(strat.trump)
        self.play_mod = bot_module(strat.play)
        self.params = strat.params_array()

    def rng(self):
        return np.array([1, 2, 3, 4], np.uint64)

    def play(self, view: np.ndarray) -> int:
        mem = np.zeros(MEM_SIZE, np.int64)
        return int(self.play_mod.play_card(view, self.params[1], mem, self.rng()))

    def trump(self, view: np.ndarray) -> int:
        mem = np.zeros(MEM_SIZE, np.int64)
        return int(self.trump_mod.choose_trump(view, self.params[0], mem, self.rng()))


_BOTS: dict[str, Bot] = {}


def bot(spec: str) -> Bot:
    if spec not in _BOTS:
        _BOTS[spec] = Bot(spec)
    return _BOTS[spec]


def card(text: str) -> int:
    return parse_card(text)


# --------------------------------------------------------------------------- contract


@pytest.mark.parametrize("name", BOTS)
def test_every_bot_is_legal_and_deterministic(runner, name):
    """3,000 duplicate deals against random: no illegal card (the engine checks every
    card and suit, for every bot alike), same counts twice; and a legal card in a few
    hand-made positions (in one test, so that one worker compiles the bot)."""
    r = runner(name, "random")
    first = r.counts(2024, 3000, duplicate=True)
    again = r.counts(2024, 3000, duplicate=True)
    assert first[C_TRICKS : C_TRICKS + 128].sum() == 6000
    np.testing.assert_array_equal(first, again)
    b = bot(name)
    for v in POSITIONS():
        assert (v[V_LEGAL] >> b.play(v)) & 1


def test_every_bot_has_a_docstring_and_a_description():
    for name, b in builtin_bots().items():
        mod = b.module()
        assert mod.__doc__ and len(mod.__doc__.strip()) > 80, f"{name}: say what and why"
        assert "\n" not in b.description and b.description, name


# --------------------------------------------------------------------------- hidden cards


def _play_and_capture(deck, hakem, trump, choose, stop):
    """Play a hand with ``choose`` (seat, hand, trick, legal, pv, n) -> card;
    return the plays and the chooser arguments at play index ``stop``."""
    seen = {}
    plays = []

    def choose_card(seat, hand, trick, legal, pv):
        n = len(plays)
        if n == stop:
            seen["args"] = (seat, hand, trick, legal, pv)
        c = choose(seat, hand, trick, legal, pv, n)
        plays.append(c)
        return c

    ref.play_hand(deck, hakem, lambda five, h: trump, choose_card)
    return plays, seen.get("args")


def _resplit(deck, hakem, trump, seat, plays, stop, rnd):
    """A deck whose deal differs from ``deck``'s only in the other seats' unplayed cards.

    ``seat``'s hand is unchanged (same cards in the same order), every other
    seat keeps the cards it played before play index ``stop``, and the
    hidden cards are dealt anew among the other seats, respecting the voids
    they showed (so the same plays stay legal). Returns None if no new
    split was found.
    """
    hands = ref.deal(deck, hakem)
    owner = {}
    leader = hakem
    voids = {s: set() for s in range(4)}
    for t0 in range(0, stop, 4):
        trick = plays[t0 : min(t0 + 4, stop)]
        for i, c in enumerate(trick):
            owner[c] = (leader + i) % 4
            if i and suit_of(c) != suit_of(trick[0]):
                voids[(leader + i) % 4].add(suit_of(trick[0]))
        if len(trick) == 4:
            leader = ref.trick_winner(trick, leader, trump)
    others = [s for s in range(4) if s != seat]
    hidden = [c for s in others for c in hands[s] if c not in owner]
    sizes = {s: sum(1 for c in hands[s] if c not in owner) for s in others}
    for _ in range(5000):
        rnd.shuffle(hidden)
        new, i = {}, 0
        for s in others:
            new[s] = hidden[i : i + sizes[s]]
            i += sizes[s]
        if any(suit_of(c) in voids[s] for s in others for c in new[s]):
            continue
        if all(set(new[s]) == {c for c in hands[s] if c not in owner} for s in others):
            continue
        out = [list(hands[seat]) if s == seat else None for s in range(4)]
        for s in others:
            out[s] = [c for c in hands[s] if c in owner] + new[s]
        deck2 = []
        pos = [0, 0, 0, 0]
        for size in ref.DEAL_ROUNDS:
            for j in range(4):
                s = (hakem + j) % 4
                deck2 += out[s][pos[s] : pos[s] + size]
                pos[s] += size
        return deck2
    return None


def test_views_hold_no_hidden_cards():
    """Two deals that differ only in the hidden split give the same view and decisions."""
    rnd = pyrandom.Random(5)
    checked = 0
    for deal_no in range(40):
        deck = list(range(52))
        rnd.shuffle(deck)
        hakem = deal_no % 4
        trump = rnd.randrange(4)
        stop = rnd.randrange(4, 36)

        def random_card(seat, hand, trick, legal, pv, n):
            return rnd.choice(legal)

        plays, args = _play_and_capture(deck, hakem, trump, random_card, stop)
        if args is None:  # the hand ended before the decision point
            continue
        seat = args[0]
        deck2 = _resplit(deck, hakem, trump, seat, plays, stop, rnd)
        if deck2 is None:
            continue

        def replay(seat_, hand, trick, legal, pv, n, plays=plays, stop=stop):
            return plays[n] if n < stop else legal[0]

        _, args2 = _play_and_capture(deck2, hakem, trump, replay, stop)
        hands1, hands2 = ref.deal(deck, hakem), ref.deal(deck2, hakem)
        assert hands1[seat] == hands2[seat]
        assert any(set(hands1[s]) != set(hands2[s]) for s in range(4) if s != seat)
        v1, v2 = view_of(*args), view_of(*args2)
        np.testing.assert_array_equal(v1, v2)
        legal = mask_of(args[3])
        for name in BOTS:
            c1, c2 = bot(name).play(v1), bot(name).play(v2)
            assert c1 == c2 == bot(name).play(v1), name
            assert (legal >> c1) & 1, f"{name} chose an illegal card"
        checked += 1
    assert checked >= 25


def test_trump_choice_sees_five_cards_only():
    rnd = pyrandom.Random(9)
    for _ in range(30):
        five = rnd.sample(range(52), 5)
        hakem = rnd.randrange(4)
        v = trump_view(five, hakem)
        for name in BOTS:
            t = bot(name).trump(v)
            assert 0 <= t <= 3 and t == bot(name).trump(v.copy()), name


def test_view_builder_reproduces_engine_decisions(runner):
    """Replaying engine traces through ``view_of`` gives expert's every card and trump.

    So the views of these tests are the engine's views (as far as any
    decision can tell).
    """
    r = runner("expert", "random")
    rows = r.trace_hands(31, 0, 60)  # A (expert) is team 0
    expert = bot("expert")
    decisions = 0
    for row in rows:
        deck = [int(c) for c in row[k.T_DECK : k.T_DECK + 52]]
        hakem, trump = int(row[k.T_HAKEM]), int(row[k.T_TRUMP])
        n_cards = 4 * int(row[k.T_TRICKS] + row[k.T_TRICKS + 1])
        plays = [int(c) for c in row[k.T_PLAYS : k.T_PLAYS + n_cards]]
        if hakem % 2 == 0:
            assert expert.trump(trump_view(deck[:5], hakem)) == trump
        done = []

        def choose(seat, hand, trick, legal, pv, done=done, plays=plays):
            c = plays[len(done)]
            if seat % 2 == 0:
                assert expert.play(view_of(seat, hand, trick, legal, pv)) == c
            done.append(c)
            return c

        ref.play_hand(deck, hakem, lambda five, h, t=trump: t, choose)
        assert len(done) == len(plays)
        decisions += len(done) // 2
    assert decisions > 1000


# --------------------------------------------------------------------------- trump bots


@pytest.mark.parametrize(
    ("spec", "five", "suit"),
    [
        ("points", "AH KH 2S 3S 4S", "H"),
        ("points", "KH QS JS 2C 3D", "S"),  # tie on points: more cards
        ("points", "AH AS 2H 2S 3C", "H"),  # tie on points and length: lower suit
        ("longest", "AH KH 2S 3S 4S", "S"),
        ("basic", "AH KH 2S 3S 4S", "S"),
        ("weighted", "AH KH 2S 3S 4S", "H"),  # 2*2+7 = 11 against 2*3 = 6
        ("weighted(length=3,strength=0)", "AH KH 2S 3S 4S", "S"),
        ("weighted(length=5,strength=1)", "AH 5H 2S 3S 4S", "S"),  # 15 against 14
        ("weighted(length=1,strength=1)", "AH 5H 2S 3S 4S", "H"),  # 6 against 3
        ("weighted(length=1,strength=0)", "AH KH 2S 3S 4H", "H"),
        ("expert", "AH 5H 2S 3S 4S", "S"),  # an ace weighs one card; ties go to length
        ("expert", "AH KH 2S 3S 4S", "H"),  # but A K doubleton beats three small
    ],
)
def test_trump_choice(spec, five, suit):
    assert bot(spec).trump(trump_view(parse_cards(five), 0)) == parse_suit(suit)


# --------------------------------------------------------------------------- card tips
# Trump is spades (3) in every position; seat 0 is Hakem unless said otherwise.
S = 3


def test_basic_is_neutral():
    b = bot("basic")
    # Leads the lowest card of the longest side suit, even holding aces.
    assert b.play(position("AD 9C 7C 3C KS 2S", S, 0)) == card("3C")
    # Follows low even when it could win; discards low when void, never ruffs.
    assert b.play(position("AH 2H KS", S, 0, trick=(3, "KH"))) == card("2H")
    assert b.play(position("2S KS 9C 4D", S, 0, trick=(3, "AH"))) == card("4D")


def test_aces_cashes_an_off_trump_ace():
    v = position("AD 9C 7C 3C KS 2S", S, 0)
    assert bot("aces").play(v) == card("AD")
    assert bot("basic").play(v) == card("3C")
    # Not into a suit an opponent has shown void in: seat 1 did not follow clubs.
    v = position("AC 9D 7D 3D KS", S, 0, history=[(0, "KC 2D 3C 4C")])
    assert bot("aces").play(v) == card("3D")


def test_partner_plays_low_when_partner_wins_and_wins_cheaply_otherwise():
    p = bot("partner")
    # Partner (seat 2) led the ace; seat 3 followed; seat 0 plays low.
    assert p.play(position("KH 5H 2S", S, 0, trick=(2, "AH 3H"))) == card("5H")
    # Void, partner winning: discard, do not trump partner's trick.
    assert p.play(position("2S 9S 4C 8D", S, 0, trick=(2, "AH 3H"))) == card("4C")
    # Opponent (seat 3) winning with 9H: the cheapest card that beats it.
    v = position("KH QH 2H", S, 0, trick=(3, "9H"))
    assert p.play(v) == card("QH")
    assert bot("basic").play(v) == card("2H")
    # Trick already trumped by an opponent: cannot win by following, so low.
    assert p.play(position("KH QH 2H", S, 0, trick=(1, "9H 4H 3S"))) == card("2H")


def test_ruff_trumps_cheaply_and_overtrumps_only_to_win():
    r = bot("ruff")
    # Void in hearts, opponent winning: the cheapest trump.
    v = position("3S 9S KS 4C", S, 0, trick=(3, "AH"))
    assert r.play(v) == card("3S")
    assert bot("basic").play(v) == card("4C")
    # Opponent (seat 3) ruffed with TS: overtrump with the cheapest trump above it.
    assert r.play(position("3S 9S KS 4C", S, 0, trick=(1, "AH 2H TS"))) == card("KS")
    # Only lower trumps than the opponent's QS: discard, do not underruff.
    assert r.play(position("3S 9S 4C", S, 0, trick=(1, "AH 2H QS"))) == card("4C")
    # Partner (seat 2) winning: no ruff.
    assert r.play(position("3S 9S 4C", S, 0, trick=(1, "5H AH 2H"))) == card("4C")


def test_trumps_leads_trump_from_the_top():
    t = bot("trumps")
    v = position("AS KS 4S 9C 7C 3C", S, 0)
    assert t.play(v) == card("AS")
    assert bot("basic").play(v) == card("3C")
    # The ace fell: the king is now the master trump.
    hist = [(1, "AS 2S 5S 6S")]
    assert t.play(position("KS 4S 9C 7C 3C", S, 1, history=hist)) == card("KS")
    # No master, but seven trumps against six unseen: lead the lowest.
    assert t.play(position("JS TS 9S 8S 7S 6S 5S 2H 3H", S, 0)) == card("5S")
    # Both opponents (seats 1 and 3) have shown void in trumps: no trump lead.
    v = position("AS 4S 9C 7C 3C", S, 0, history=[(0, "2S 3D 3S 4D")])
    assert v[V_SEAT] == 2
    assert t.play(v) == card("3C")


def test_kotfight_plays_its_winner_against_a_kot():
    # Seat 1 has won four tricks, team 0 none; seat 1 leads 5H to the fifth.
    hist = [
        (1, "AC 2C 3C 4C"),
        (1, "KC 5C 6C 7C"),
        (1, "QC 8C 9C TC"),
        (1, "AD 2D 3D 4D"),
    ]
    v = position("AH 3H 2S", S, 0, history=hist, trick=(1, "5H"))
    assert v[V_SEAT] == 2 and v[V_TRICKS + 1] == 4 and v[V_TRICKS] == 0
    assert bot("kotfight").play(v) == card("AH")
    assert bot("basic").play(v) == card("3H")
    # Void: ruff with the highest trump.
    v = position("KS 2S 9D", S, 0, history=hist, trick=(1, "5H"))
    assert bot("kotfight").play(v) == card("KS")
    # Three tricks to none is no threat yet: plays like basic.
    v = position("AH 3H 2S", S, 0, history=hist[:3], trick=(1, "5H"))
    assert bot("kotfight").play(v) == card("3H")


def test_early_takes_a_sure_winner():
    e = bot("early")
    v = position("AH 2H 5C", S, 0, trick=(3, "KH"))
    assert e.play(v) == card("AH")
    assert bot("basic").play(v) == card("2H")
    # The ace of diamonds fell: the king is a master, lead it.
    v = position("KD 9C 7C 3C 2S", S, 1, history=[(1, "AD 2D 3D 4D")])
    assert e.play(v) == card("KD")
    # A queen with the ace still out is not sure: no.
    assert e.play(position("QH 2H 5C", S, 0, trick=(3, "JH"))) == card("2H")


def test_expert_respects_partner_and_seat():
    x = bot("expert")
    # Never overtake a partner's sure winner, never ruff it.
    assert x.play(position("KH 2H 5C", S, 0, trick=(2, "AH 3H"))) == card("2H")
    assert x.play(position("3S 9S 4C", S, 0, trick=(2, "AH 3H"))) == card("4C")
    # Second hand low (the queen is not sure with the ace out) ...
    assert x.play(position("QH 2H 5C", S, 0, trick=(3, "6H"))) == card("2H")
    # ... third hand high enough: the queen (as good as the king) over 6H.
    assert x.play(position("KH QH 2H 5C", S, 0, trick=(2, "4H 6H"))) == card("QH")
    # Fourth hand: the cheapest winner.
    assert x.play(position("KH 8H 2H", S, 0, trick=(1, "4H 6H 7H"))) == card("8H")
    # Void over an opponent's ace: ruff with the cheapest trump.
    assert x.play(position("3S 9S 4C", S, 0, trick=(1, "AH 2H 5H"))) == card("3S")


# --------------------------------------------------------------------------- the field
# Each of the field's bots plays its own style where ``expert`` plays otherwise.


def test_drawer_draws_trumps_without_the_master_and_defending_when_long():
    d = bot("drawer")
    # The Hakem (seat 0) with K 4 of trumps and the ace out: the low trump (expert: clubs).
    v = position("KS 4S 9C 7C 3C", S, 0)
    assert d.play(v) == card("4S")
    assert bot("expert").play(v) != card("4S")
    # A defender (seat 2, Hakem seat 1) draws with four trumps, not with three.
    hist = [(1, "2H AH 3H 4H")]
    assert d.play(position("9S 7S 5S 3S 8C 4C", S, 1, history=hist)) == card("3S")
    assert d.play(position("9S 7S 5S 8C 4C 3C", S, 1, history=hist)) == card("3C")
    # Trumps gone: the top of the long suit's K Q sequence sets it up.
    hist = [(0, "AS 2S 3S 4S"), (0, "KS 5S 6S 7S"), (0, "QS 8S 9S TS")]
    assert d.play(position("KD QD 5D 4D 9C", S, 0, history=hist)) == card("KD")


def test_eager_plays_second_hand_high_and_ruffs_low_leads():
    e = bot("eager")
    v = position("KH 2H 5C", S, 0, trick=(3, "6H"))
    assert e.play(v) == card("KH")
    assert bot("expert").play(v) == card("2H")
    v = position("3S 9S 4C", S, 0, trick=(3, "5H"))
    assert e.play(v) == card("3S")
    assert bot("expert").play(v) == card("4C")
    # Cashes its honours from the top.
    assert e.play(position("AD KD 4D 9C 2S", S, 0)) == card("AD")


def test_signal_encourages_with_a_high_spot_and_partner_leads_the_suit():
    from hokm_checks import bot_module

    sig = bot("signal")
    # Void in hearts, partner (seat 2) winning: the nine of the A 9 3 suit asks for diamonds.
    v = position("AD 9D 3D 4C 2S", S, 0, trick=(2, "AH 3H"))
    assert sig.play(v) == card("9D")
    assert bot("expert").play(v) == card("4C")
    # Partner discarded the eight of diamonds: this seat (0) takes the trick, then
    # leads the diamond partner asked for; without the signal it leads its long clubs.
    mod = bot_module(resolve("signal").play)
    params = resolve("signal").params_array()[1]
    mem = np.zeros(MEM_SIZE, np.int64)
    rng = np.array([1, 2, 3, 4], np.uint64)
    first = position("AH 7D 3C 4C 5C 2S", S, 1, trick=(1, "KH 8D 3H"))
    assert mod.play_card(first, params, mem, rng) == card("AH")
    lead = position("7D 3C 4C 5C 2S", S, 1, history=[(1, "KH 8D 3H AH")])
    assert lead[V_SEAT] == 0
    assert mod.play_card(lead, params, mem, rng) == card("7D")
    assert sig.play(lead) == card("3C")  # fresh memory: no signal seen


def test_kots_fights_for_a_trick_and_hunts_the_kot():
    k = bot("kots")
    hist = [(1, "AC 2C 3C 4C"), (1, "KC 5C 6C 7C"), (1, "QC 8C 9C TC"), (1, "AD 2D 3D 4D")]
    v = position("KH 3H 2S", S, 0, history=hist, trick=(1, "5H"))
    assert v[V_SEAT] == 2 and v[V_TRICKS + 1] == 4
    assert k.play(v) == card("KH")
    assert bot("kots(fend=99)").play(v) == card("3H")
    # Three tricks to none: overtake partner's queen with the sure ace.
    hist = [(0, "AC 2C 3C 4C"), (0, "KC 5C 6C 7C"), (0, "2D 3D AD 4D")]
    v = position("AH 3H 2S", S, 0, history=hist, trick=(2, "QH 5H"))
    assert v[V_SEAT] == 0 and v[V_TRICKS] == 3
    assert k.play(v) == card("AH")
    assert bot("kots(hunt=99)").play(v) == card("3H")


def test_cautious_leads_safe_and_ruffs_only_when_sure():
    c = bot("cautious")
    # Not away from the lone king of diamonds: low from the honourless clubs.
    v = position("KD 4D 9C 7C 3C 2S", S, 0)
    assert c.play(v) == card("3C")
    assert bot("expert").play(v) == card("4D")
    # Second hand over a queen: ruffs, unless the left-hand opponent may overruff.
    assert c.play(position("3S 9S 4C 8D", S, 0, trick=(3, "QH"))) == card("3S")
    hist = [(0, "2H 3C 4H 5H")]  # seat 1 showed void in hearts
    assert c.play(position("3S 9S 4C 8D", S, 0, history=hist, trick=(3, "QH"))) == card("4C")
    # Never the king's last guard: the king of clubs keeps its small card.
    assert c.play(position("KC 4C 8D 6D 5D", S, 0, trick=(2, "AH 3H"))) == card("5D")


def test_sharp_draws_trumps_first_covers_honours_and_ruffs_from_the_nine():
    sh = bot("sharp")
    # The Hakem with a side ace and K 8 4 of trumps: a trump before the ace (expert: the ace).
    v = position("AD 5D KS 8S 4S 9C", S, 0)
    assert sh.play(v) == card("4S")
    assert bot("expert").play(v) == card("AD")
    # Second hand over a led jack: the king covers it (expert plays low).
    v = position("KH 2H 5C", S, 0, trick=(3, "JH"))
    assert sh.play(v) == card("KH")
    assert bot("expert").play(v) == card("2H")
    # Void second hand over a led nine: ruff (expert waits for the jack).
    v = position("3S 9S 4C", S, 0, trick=(3, "9H"))
    assert sh.play(v) == card("3S")
    assert bot("expert").play(v) == card("4C")


def POSITIONS() -> list[np.ndarray]:  # noqa: N802
    """A few hand-made positions: following, ruffing, leading."""
    return [
        position("AH 2H 5C", S, 0, trick=(3, "KH")),
        position("3S 9S 4C", S, 0, trick=(1, "AH 2H QS")),
        position("AS KS 4S 9C 7C 3C", S, 0),
    ]


# --------------------------------------------------------------------------- strength


def a_wins(counts) -> tuple[float, float]:
    """A's hand-win rate and mean signed points per hand from the counts."""
    t = counts[C_TRICKS : C_TRICKS + 128].reshape(2, 8, 8)
    n = t.sum()
    wins = t[0, 7, :].sum() + t[1, :, 7].sum()
    pts = 0
    for who in range(2):
        for ht in range(8):
            for dt in range(8):
                if t[who, ht, dt]:
                    p = (2 if dt == 0 else 1) if ht == 7 else -(3 if ht == 0 else 1)
                    pts += t[who, ht, dt] * (p if who == 0 else -p)
    return wins / n, pts / n


@pytest.mark.parametrize("other", ["random", "basic"])
def test_expert_beats(runner, other):
    rate, pts = a_wins(runner("expert", other).counts(7, 2000, duplicate=True))
    assert rate > 0.6 and pts > 0.2, (rate, pts)
