"""A partnership that talks with its discards: a high spot asks for the suit, a low one refuses it.

Trump (the Hakem sees five cards): the longest suit, ties to the higher
rank sum (``longest``).

Signals. A seat that cannot follow suit and does not ruff discards:

- from the side suit it wants partner to lead (one holding a sure winner or
  a king, with a card to spare below it), its highest spot card below the
  ten when that spot is an eight or a nine (an *encouraging* card);
- else the lowest card of its weakest side suit, which says "not this
  suit" (a *discouraging* card).

The partner reads the first discard it sees from its partner: an eight or
a nine asks for that suit, anything lower refuses it. The memory of the
hand keeps what it read (``mem``: the signal, the suits refused, the suit
partner led first, the led suit of the trick of the seat's last card, and
the partner's cards already read).

Leading, first that applies: a sure side-suit winner (nothing unseen above
it) where no opponent may ruff; the suit partner asked for (its top card
from a doubleton, else its lowest); on the Hakem's team the master trump
while an opponent may hold one; the suit partner led first (return
partner's suit); the longest side suit neither refused nor ruffable, its
lowest card.

Following suit: partner winning, low; second hand low unless it holds a
sure winner; third hand the cheapest card as good as its highest when that
beats the trick; fourth hand wins as cheaply as it can. Void, with an
opponent winning: the cheapest trump that wins (second hand only over a
ten or better: partner, last to play, may win a low card).

Why: a defender who knows where partner's strength lies leads into it
instead of guessing; the same signals serve the Hakem's team. Against
players who do not signal, its own signals cost a spot card now and then.
"""

from hokm_sim.bots.botkit import (
    FULL_DECK,
    V_HAKEM,
    V_HAND,
    V_LEADER,
    V_LED,
    V_NTRICK,
    V_PLAYED,
    V_PLAYED_BY,
    V_SEAT,
    V_TRICK,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
    highest,
    lowest,
    lowest_by_rank,
    njit,
    popcount,
    rank_of,
    suit_cards,
    suit_mask,
    suit_of,
)
from hokm_sim.strategies._tips import (
    follow_by_seat,
    longest_of,
    longest_trump,
    master_trump_lead,
    ruff_threats,
    safest_master,
    side_masters,
    suits_held,
    winning_trumps,
)

DESCRIPTION = "discards signal a suit to partner (high spot: lead it; low: not this one)"

M_READ = 0
"""``mem`` slot: partner's cards already read."""
M_LED = 1
"""``mem`` slot: the led suit of the trick of the seat's last card, plus one (0: none)."""
M_ASK = 2
"""``mem`` slot: the suit partner asked for, plus one (0: none yet); -1 once a low discard came."""
M_REFUSED = 3
"""``mem`` slot: suits partner refused (bits 0..3)."""
M_FIRST = 4
"""``mem`` slot: the suit partner led first, plus one (0: none)."""
ENCOURAGE = 6
"""Lowest rank of an encouraging discard (6: the eight)."""
TEN = 8
"""Rank of the ten: an encouraging spot is below it."""
RUFF_SECOND = 8
"""Second hand ruffs a lead only from this rank up (8 = ten)."""


@njit
def choose_trump(view, params, mem, rng):
    """The longest suit among the five; ties by higher rank sum, then lower suit."""
    return longest_trump(view[V_HAND])


@njit
def _note(mem, card, led, trump, partner_led):
    """Read one card of partner's: a discard (off the led suit, not a trump), or a lead."""
    s = suit_of(card)
    if partner_led:
        if mem[M_FIRST] == 0:
            mem[M_FIRST] = s + 1
        return
    if led < 0 or s in (led, trump) or mem[M_ASK] != 0:
        return
    if ENCOURAGE <= rank_of(card) < TEN:
        mem[M_ASK] = s + 1
    else:
        mem[M_ASK] = -1
        mem[M_REFUSED] |= 1 << s


@njit
def _read(view, mem, me):
    """Read partner's cards played since this seat's last decision.

    A card of partner's in the current trick followed its led suit or not;
    any other new card fell in the trick before, after this seat's card,
    whose led suit the seat noted then.
    """
    partner = (me + 2) & 3
    new = view[V_PLAYED_BY + partner] & ~mem[M_READ]
    if new == 0:
        return
    trump = view[V_TRUMP]
    led = view[V_LED]
    leader = view[V_LEADER]
    here = -1
    for k in range(view[V_NTRICK]):
        if (leader + k) & 3 == partner:
            here = view[V_TRICK + k]
    m = new
    while m != 0:
        c = lowest(m)
        m &= m - 1
        if c == here:
            _note(mem, c, led, trump, leader == partner)
        else:
            # The trick before: partner led it only if it led before this seat's
            # card, and then the seat saw the card; so partner followed.
            _note(mem, c, mem[M_LED] - 1, trump, False)
    mem[M_READ] |= new


@njit
def _done(mem, card, led):
    """Note the led suit of the trick this card goes to, and return the card."""
    mem[M_LED] = (suit_of(card) if led < 0 else led) + 1
    return card


@njit
def _asked(hand, mem, danger):
    """The card to lead in the suit partner asked for, or -1."""
    s = mem[M_ASK] - 1
    if s < 0 or (danger >> s) & 1:
        return -1
    cards = suit_cards(hand, s)
    if cards == 0:
        return -1
    return highest(cards) if popcount(cards) == 2 else lowest(cards)


@njit
def _lead(hand, trump, out, me, hakem, voids, mem):
    lho = (me + 1) & 3
    rho = (me + 3) & 3
    t_out = suit_cards(out, trump)
    danger = ruff_threats(voids, lho, t_out, trump) | ruff_threats(voids, rho, t_out, trump)
    c = safest_master(side_masters(hand, out, trump), out, danger)
    if c >= 0:
        return c
    c = _asked(hand, mem, danger)
    if c >= 0:
        return c
    if (me & 1) == (hakem & 1):
        c = master_trump_lead(hand, trump, out, voids, me)
        if c >= 0:
            return c
    first = mem[M_FIRST] - 1
    if first >= 0 and first != trump and not (danger >> first) & 1:
        cards = suit_cards(hand, first)
        if cards != 0:
            return lowest(cards)
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    ok = suits_held(side) & ~danger
    if ok & ~mem[M_REFUSED]:
        ok &= ~mem[M_REFUSED]
    if ok == 0:
        mine = suit_cards(hand, trump)
        return lowest(mine) if mine != 0 else lowest_by_rank(side)
    return lowest(suit_cards(side, longest_of(side, ok)))


@njit
def _discard(hand, trump, out):
    """An encouraging spot from the suit to ask for, else the lowest of the weakest suit."""
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    masters = side_masters(hand, out, trump)
    for s in range(4):
        cards = suit_cards(side, s)
        if s == trump or popcount(cards) < 2:
            continue
        top = highest(cards)
        if not ((masters >> top) & 1 or rank_of(top) == 11):
            continue
        spots = cards & ~(1 << top) & ~masters
        if spots == 0:
            continue
        c = highest(spots)
        if ENCOURAGE <= rank_of(c) < TEN:
            return c
    weakest = -1
    weakest_key = 1 << 30
    for s in range(4):
        cards = suit_cards(side, s) & ~masters
        if s == trump or cards == 0:
            continue
        # A spot of eight or nine would read as a request: such suits come last.
        misread = 1024 if rank_of(lowest(cards)) >= ENCOURAGE else 0
        key = misread + rank_of(highest(suit_cards(side, s))) * 16 + popcount(cards)
        if key < weakest_key:
            weakest = s
            weakest_key = key
    if weakest < 0:
        return lowest_by_rank(side)
    return lowest(suit_cards(side, weakest))


@njit
def _play(view, mem, hand, trump, led, me, out):
    if led < 0:
        return _lead(hand, trump, out, me, view[V_HAKEM], view[V_VOIDS], mem)
    win = view[V_WIN_CARD]
    pos = view[V_NTRICK]
    mine = view[V_WIN_SEAT] == ((me + 2) & 3)
    follow = suit_cards(hand, led)
    if follow != 0:
        return follow_by_seat(follow, led, win, pos, mine, out, False)
    trumps = suit_cards(hand, trump)
    if trumps != 0 and not mine and not (pos == 1 and rank_of(win) < RUFF_SECOND):
        need = winning_trumps(trumps, win, trump)
        if need != 0:
            return lowest(need)
    return _discard(hand, trump, out)


@njit
def play_card(view, params, mem, rng):
    """Read partner's signals, lead what it asked for, signal with every discard."""
    hand = view[V_HAND]
    me = view[V_SEAT]
    led = view[V_LED]
    _read(view, mem, me)
    out = FULL_DECK & ~view[V_PLAYED] & ~hand
    return _done(mem, _play(view, mem, hand, view[V_TRUMP], led, me, out), led)
