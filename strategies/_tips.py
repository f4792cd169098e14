"""Shared pieces of the built-in bots: trump rules, the neutral baseline, one function per tip.

Not a bot (the name starts with ``_``). Every helper is ``@njit(inline=HELPERS)``
so that it is inlined into the engine's card loop like the bot's own code
(helpers in another module are not inlined by :func:`hokm_sim.bots.compiled.inline_bot`),
and compiled once and called in the test suite's quick mode
(:data:`hokm_sim.inlining.HELPERS`).

A *tip* function looks at the view and returns the card the tip wants played,
or ``-1`` when the tip has nothing to say; a bot then falls back to
:func:`basic_play`. Each tip bot is ``basic`` plus exactly one of these, so a
tip's worth can be measured on its own (duplicate, against ``basic``).

Seats around the deciding seat ``me``: the left-hand opponent ``me + 1``
plays right after it, the partner ``me + 2``, the right-hand opponent
``me + 3`` right before it. With ``k`` cards already in the trick (0 when
leading), the seats still to play after ``me`` are the left-hand opponent
(when ``k < 3``) and then the partner (when ``k == 1``).

Everything here reads only the view: own hand, cards played (by whom), shown
voids, the trick in progress and the tricks taken.
"""

from hokm_sim.bots.botkit import (
    ACES,
    FULL_DECK,
    RANK_COLUMN,
    SUIT_MASK,
    V_HAND,
    V_LED,
    V_NTRICK,
    V_PLAYED,
    V_SEAT,
    V_TRICKS,
    V_TRUMP,
    V_VOIDS,
    V_WIN_CARD,
    V_WIN_SEAT,
    above,
    highest,
    lowest,
    lowest_by_rank,
    njit,
    popcount,
    rank_of,
    suit_cards,
    suit_counts_rank_sums,
    suit_mask,
    suit_of,
)
from hokm_sim.inlining import HELPERS

KOT_THREAT = 4
"""``kotfight`` fights when the other team has at least this many tricks and we have none."""

# --------------------------------------------------------------------------- trump choice


@njit(inline=HELPERS)
def suit_bits(m, s):
    """The 13 rank bits of suit ``s`` in mask ``m`` (bit r = rank r, 2..A = 0..12)."""
    return (m >> (13 * s)) & SUIT_MASK


@njit(inline=HELPERS)
def honour_points(bits):
    """High-card strength of one suit's rank bits: A = 4, K = 3, Q = 2, J = 1."""
    ace = (bits >> 12) & 1
    king = (bits >> 11) & 1
    queen = (bits >> 10) & 1
    jack = (bits >> 9) & 1
    return 4 * ace + 3 * king + 2 * queen + jack


@njit(inline=HELPERS)
def rank_sum(bits):
    """Sum of the ranks (2 = 0 ... A = 12) of one suit's rank bits."""
    return (
        popcount(bits & 0xAAAA)
        + 2 * popcount(bits & 0xCCCC)
        + 4 * popcount(bits & 0xF0F0)
        + 8 * popcount(bits & 0xFF00)
    )


@njit(inline=HELPERS)
def longest_trump(five):
    """Most cards; ties by higher rank sum, then lower suit (the rule of ``longest``)."""
    suit, _ = suit_counts_rank_sums(five)
    return suit


@njit(inline=HELPERS)
def points_trump(five):
    """Highest honour points (A4 K3 Q2 J1); ties by more cards, then lower suit."""
    best = 0
    best_p = -1
    best_n = -1
    for s in range(4):
        b = suit_bits(five, s)
        p = honour_points(b)
        n = popcount(b)
        if p > best_p or (p == best_p and n > best_n):
            best = s
            best_p = p
            best_n = n
    return best


@njit(inline=HELPERS)
def weighted_trump(five, w_len, w_str):
    """Highest ``w_len * cards + w_str * honour points``.

    Ties go to more cards, then to the higher rank sum, then to the lower suit.
    """
    best = 0
    best_v = -1.0e300
    best_n = -1
    best_t = -1
    for s in range(4):
        b = suit_bits(five, s)
        n = popcount(b)
        t = rank_sum(b)
        v = w_len * n + w_str * honour_points(b)
        if v > best_v or (v == best_v and (n > best_n or (n == best_n and t > best_t))):
            best = s
            best_v = v
            best_n = n
            best_t = t
    return best


# --------------------------------------------------------------------------- table facts


@njit(inline=HELPERS)
def seat_voids(voids, seat):
    """Suits (bits 0..3) that ``seat`` has shown void in; ``voids`` is ``view[V_VOIDS]``.

    The helpers below take scalars read from the view rather than the view
    itself: every inlined call with an array argument costs a reference-count
    increment and decrement (atomic) that numba cannot always remove.
    """
    return (voids >> (4 * seat)) & 15


@njit(inline=HELPERS)
def opp_voids(view):
    """Suits (bits 0..3) in which either opponent has shown void."""
    me = view[V_SEAT]
    voids = view[V_VOIDS]
    return seat_voids(voids, (me + 1) & 3) | seat_voids(voids, (me + 3) & 3)


@njit(inline=HELPERS)
def unseen(view):
    """Cards neither played nor in the own hand: the other three hands together."""
    return FULL_DECK & ~view[V_PLAYED] & ~view[V_HAND]


@njit(inline=HELPERS)
def ruff_threats(voids, seat, trumps_out, trump):
    """Suits in which ``seat`` has shown void and may still hold a trump."""
    v = seat_voids(voids, seat)
    may = (trumps_out != 0) & ((v >> trump) & 1 == 0)
    return (v & ~(1 << trump)) * may


@njit(inline=HELPERS)
def suits_held(m):
    """Suits (bits 0..3) in which mask ``m`` holds at least one card."""
    return (
        ((m & SUIT_MASK) != 0) * 1
        + ((m & (SUIT_MASK << 13)) != 0) * 2
        + ((m & (SUIT_MASK << 26)) != 0) * 4
        + ((m & (SUIT_MASK << 39)) != 0) * 8
    )


@njit(inline=HELPERS)
def suit_key(m, s, eligible):
    """``4 * cards of suit s + 3 - s`` when ``eligible``, else -1 (max: most cards, lower suit)."""
    n = popcount(suit_cards(m, s))
    return (n * 4 + 3 - s) if eligible else -1


@njit(inline=HELPERS)
def cheap_top(mine, out):
    """The cheapest card as good as the highest of ``mine`` (one suit) against ``out``.

    ``out`` holds the unseen cards of that suit. The answer is the lowest card
    of ``mine`` with no unseen card between it and ``mine``'s highest, so it
    loses to exactly the same unseen cards as the highest would.
    """
    h = highest(mine)
    below = out & ((1 << h) - 1)
    if below == 0:
        return lowest(mine)
    return lowest(mine & above(highest(below)))


@njit(inline=HELPERS)
def is_master(card, out):
    """Whether no unseen card of ``card``'s suit is higher.

    ``out`` holds the unseen cards of that suit.
    """
    return (out & above(card)) == 0


def _below_rank(k):
    """Mask of ranks 0 .. 12 - k in every suit: where a shift right by ``k`` stays in the suit."""
    return RANK_COLUMN * ((1 << (13 - k)) - 1)


_KEEP1 = _below_rank(1)
_KEEP2 = _below_rank(2)
_KEEP4 = _below_rank(4)
_KEEP8 = _below_rank(8)


@njit(inline=HELPERS)
def at_or_below_top(m):
    """Every card at or below the highest card of ``m`` in its suit, in all four suits at once."""
    m |= (m >> 1) & _KEEP1
    m |= (m >> 2) & _KEEP2
    m |= (m >> 4) & _KEEP4
    m |= (m >> 8) & _KEEP8
    return m


@njit(inline=HELPERS)
def side_masters(hand, out, trump):
    """The own off-trump cards that no unseen card of their suit beats (sure winners in suit).

    ``out`` holds the unseen cards. Branch-free: one smear of ``out`` down
    each suit instead of a loop over suits.
    """
    return hand & ~at_or_below_top(out) & ~suit_mask(trump)


@njit(inline=HELPERS)
def suits_to_cards(bits):
    """The card mask of the suits set in ``bits`` (bits 0..3)."""
    return (
        (bits & 1) * SUIT_MASK
        + ((bits >> 1) & 1) * (SUIT_MASK << 13)
        + ((bits >> 2) & 1) * (SUIT_MASK << 26)
        + ((bits >> 3) & 1) * (SUIT_MASK << 39)
    )


@njit(inline=HELPERS)
def safest_master(masters, out, skip):
    """Of ``masters``, the cheapest one of the suit with the most unseen cards.

    Suits set in ``skip`` (bits 0..3) are passed over. More unseen cards in a
    suit make it likelier that both opponents still follow it (ties: the
    lower suit). Returns -1 when none is left. Branch-free selection.
    """
    masters &= ~suits_to_cards(skip)
    has = suits_held(masters)
    k = max(
        max(suit_key(out, 0, has & 1), suit_key(out, 1, (has >> 1) & 1)),
        max(suit_key(out, 2, (has >> 2) & 1), suit_key(out, 3, (has >> 3) & 1)),
    )
    if k < 0:
        return -1
    return lowest(suit_cards(masters, 3 - (k & 3)))


# --------------------------------------------------------------------------- baseline


@njit(inline=HELPERS)
def discard_low(hand, trump):
    """The lowest-ranked off-trump card; the lowest trump when only trumps are left."""
    side = hand & ~suit_mask(trump)
    if side != 0:
        return lowest_by_rank(side)
    return lowest(hand)


@njit(inline=HELPERS)
def lead_long_low(hand, trump):
    """The lowest card of the longest off-trump suit (ties: lower suit), or the lowest trump."""
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    best = 0
    best_n = 0
    for s in range(4):
        if s != trump:
            n = popcount(suit_cards(hand, s))
            if n > best_n:
                best = s
                best_n = n
    return lowest(suit_cards(hand, best))


@njit(inline=HELPERS)
def basic_play(view):
    """The neutral baseline: lead low from the longest side suit, follow low, discard low.

    Never wins on purpose and never ruffs (a void seat discards its
    lowest-ranked side card, or its lowest trump when it holds only trumps).
    """
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    if led < 0:
        return lead_long_low(hand, trump)
    follow = suit_cards(hand, led)
    if follow != 0:
        return lowest(follow)
    return discard_low(hand, trump)


# --------------------------------------------------------------------------- one tip each


@njit(inline=HELPERS)
def tip_aces(view):
    """Leading: an off-trump ace of a suit no opponent has shown void in.

    Of several, the one whose suit has the most unseen cards (so both
    opponents are likeliest to follow). -1 otherwise.
    """
    if view[V_LED] >= 0:
        return -1
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    aces = hand & ACES & ~suit_mask(trump)
    if aces == 0:
        return -1
    return safest_master(aces, unseen(view), opp_voids(view))


@njit(inline=HELPERS)
def tip_partner(view):
    """Following suit: low when partner is winning; else the cheapest card that wins.

    "Wins" means it beats the card winning so far (never when the trick is
    already trumped). -1 when leading or void (the baseline then discards:
    it never ruffs, so it never trumps partner's trick).
    """
    led = view[V_LED]
    if led < 0:
        return -1
    follow = suit_cards(view[V_HAND], led)
    if follow == 0:
        return -1
    win = view[V_WIN_CARD]
    if not partner_is_winning(view) and suit_of(win) == led:
        higher = follow & above(win)
        if higher != 0:
            return lowest(higher)
    return lowest(follow)


@njit(inline=HELPERS)
def partner_is_winning(view):
    """Whether the deciding seat's partner holds the trick so far."""
    return view[V_WIN_SEAT] >= 0 and view[V_WIN_SEAT] == ((view[V_SEAT] + 2) & 3)


@njit(inline=HELPERS)
def tip_ruff(view):
    """Void in the led suit and partner not winning: the cheapest trump that wins.

    Over an opponent's trump only a higher trump (overtrump only to win);
    with none, -1 (the baseline discards rather than wasting a trump).
    """
    led = view[V_LED]
    if led < 0:
        return -1
    hand = view[V_HAND]
    if suit_cards(hand, led) != 0 or partner_is_winning(view):
        return -1
    trump = view[V_TRUMP]
    trumps = suit_cards(hand, trump)
    win = view[V_WIN_CARD]
    if suit_of(win) == trump:
        trumps &= above(win)
    if trumps == 0:
        return -1
    return lowest(trumps)


@njit(inline=HELPERS)
def tip_trumps(view):
    """Leading: draw trumps while the opponents may still hold some.

    Counting trumps from the cards played: with the highest unplayed trump,
    lead it; with more trumps than the unseen ones, lead the lowest. Not when
    no trump is unseen or both opponents have shown void in trumps. -1 otherwise.
    """
    if view[V_LED] >= 0:
        return -1
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    mine = suit_cards(hand, trump)
    if mine == 0:
        return -1
    out = suit_cards(unseen(view), trump)
    if out == 0:
        return -1
    me = view[V_SEAT]
    voids = view[V_VOIDS]
    both_void = seat_voids(voids, (me + 1) & 3) & seat_voids(voids, (me + 3) & 3)
    if (both_void >> trump) & 1:
        return -1
    top = highest(mine)
    if is_master(top, out):
        return top
    if popcount(mine) > popcount(out):
        return lowest(mine)
    return -1


@njit(inline=HELPERS)
def kot_threat(view, threshold):
    """Our team has no trick and the other team at least ``threshold``."""
    team = view[V_SEAT] & 1
    return view[V_TRICKS + team] == 0 and view[V_TRICKS + 1 - team] >= threshold


@njit(inline=HELPERS)
def tip_kotfight(view):
    """Facing a Kot: go for any trick now, with the highest cards.

    Leading: a side-suit master (no opponent shown void there), else the
    master trump. Following suit with partner not winning: the highest card
    if it beats the winner. Void with partner not winning: the highest trump
    if it wins. -1 when there is no threat or nothing wins.
    """
    if not kot_threat(view, KOT_THREAT):
        return -1
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    out = unseen(view)
    if led < 0:
        c = safest_master(side_masters(hand, out, trump), out, opp_voids(view))
        if c >= 0:
            return c
        mine = suit_cards(hand, trump)
        if mine != 0 and is_master(highest(mine), suit_cards(out, trump)):
            return highest(mine)
        return -1
    if partner_is_winning(view):
        return -1
    win = view[V_WIN_CARD]
    follow = suit_cards(hand, led)
    if follow != 0:
        if suit_of(win) == led and highest(follow) > win:
            return highest(follow)
        return -1
    trumps = suit_cards(hand, trump)
    if suit_of(win) == trump:
        trumps &= above(win)
    if trumps == 0:
        return -1
    return highest(trumps)


@njit(inline=HELPERS)
def tip_early(view):
    """Take sure tricks as soon as possible instead of holding them.

    Leading: a side-suit master (the highest unplayed card of its suit) in a
    suit no opponent has shown void in. Following suit, partner not winning,
    trick not trumped: the cheapest card that is sure to win (nothing unseen
    above it, and the left-hand opponent, if still to play, has not shown void
    with trumps possibly left). -1 otherwise.
    """
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    out = unseen(view)
    if led < 0:
        return safest_master(side_masters(hand, out, trump), out, opp_voids(view))
    follow = suit_cards(hand, led)
    win = view[V_WIN_CARD]
    if follow == 0 or partner_is_winning(view) or suit_of(win) != led:
        return -1
    out_led = suit_cards(out, led)
    c = cheap_top(follow, out_led)
    if c < win or not is_master(c, out_led):
        return -1
    if view[V_NTRICK] < 3 and led != trump:
        lho = (view[V_SEAT] + 1) & 3
        if (ruff_threats(view[V_VOIDS], lho, suit_cards(out, trump), trump) >> led) & 1:
            return -1
    return c


# --------------------------------------------------------------------------- play by seat
# Pieces several of the field's bots (drawer, eager, signal, kots, cautious) share.


@njit(inline=HELPERS)
def longest_of(m, ok):
    """The suit (of the bits set in ``ok``) in which ``m`` holds most cards, ties to the
    lower suit; -1 when ``ok`` names no suit ``m`` holds."""
    k = max(
        max(suit_key(m, 0, ok & 1), suit_key(m, 1, (ok >> 1) & 1)),
        max(suit_key(m, 2, (ok >> 2) & 1), suit_key(m, 3, (ok >> 3) & 1)),
    )
    if k < 0 or suit_cards(m, 3 - (k & 3)) == 0:
        return -1
    return 3 - (k & 3)


@njit(inline=HELPERS)
def sequence_top(cards, min_rank):
    """The top card of one suit's ``cards`` when it heads a two-card sequence (K Q, Q J ...)
    and ranks at least ``min_rank``: a lead that drives out the one card above; else -1."""
    if cards == 0:
        return -1
    top = highest(cards)
    rest = cards & ~(1 << top)
    if rest != 0 and rank_of(top) >= min_rank and highest(rest) == top - 1:
        return top
    return -1


@njit(inline=HELPERS)
def master_trump_lead(hand, trump, out, voids, me):
    """The seat's highest trump when no unseen trump beats it and an opponent may still
    hold one (drawing a trump for nothing); else -1."""
    mine = suit_cards(hand, trump)
    t_out = suit_cards(out, trump)
    if mine == 0 or t_out == 0:
        return -1
    both = seat_voids(voids, (me + 1) & 3) & seat_voids(voids, (me + 3) & 3)
    top = highest(mine)
    if (both >> trump) & 1 or not is_master(top, t_out):
        return -1
    return top


@njit(inline=HELPERS)
def winning_trumps(trumps, win, trump):
    """The trumps of ``trumps`` that beat the trick's winning card ``win``."""
    return trumps & above(win) if suit_of(win) == trump else trumps


@njit(inline=HELPERS)
def follow_by_seat(follow, led, win, pos, mine, out, second_high):
    """Following suit by seat: partner winning, low; second hand low unless it holds a sure
    winner (or, with ``second_high``, whenever it can beat the trick); third hand the
    cheapest card as good as its highest that beats the trick; fourth hand the cheapest
    winner; low when nothing beats the trick or it is trumped.

    ``follow`` holds the seat's cards of the led suit, ``pos`` the cards already in the
    trick, ``out`` the unseen cards.
    """
    low = lowest(follow)
    if mine or suit_of(win) != led:
        return low
    higher = follow & above(win)
    if higher == 0:
        return low
    if pos == 3:
        return lowest(higher)
    out_led = suit_cards(out, led)
    c = cheap_top(higher, out_led)
    if pos == 1 and not second_high and not is_master(c, out_led):
        return low
    return c
