"""Double-dummy search for Hokm, for numba: every hand open, best play by all four.

A position is the four hands (``int64[4]`` card masks, equal lengths at a
trick boundary), the trump suit, the seat on lead and the cards already in
the current trick (``trick``, ``ntrick``). The questions all reduce to one
zero-window search, :func:`reach_nb`: can team ``team`` take at least
``need`` of the tricks still to play (the current one included)? With
``kot`` set the question is whether it can take the next ``need`` tricks in
a row, which is how a Kot is forced.

Trick counts here are over *all* remaining tricks, as if the hand were
played out to the end. A Hokm hand stops when a team reaches 7, which never
changes who gets there first: a team reaches 7 first exactly when its
double-dummy total (tricks taken plus tricks still to come) is 7 or more.

Techniques, most of them after Bo Haglund's DDS for bridge:

- true/false search against a target, cut off as soon as the target is made
  or out of reach;
- cards of one hand that are adjacent in rank among the cards still alive
  (in hands or on the table) are one move (holding K and Q once the A has
  gone is one choice, not two);
- sure tricks: the top cards the leader can cash before an opponent with
  trumps runs out of the suit, then a card to partner's top cards of a suit
  the opponents cannot ruff or to partner's ruff (while partner has other
  cards to play under the leader's); with the top trumps to draw the
  opponents' trumps, every trump the leader holds and its side suits' top
  cards (up to partner's length while partner may have to ruff); each
  team's run of top trumps, ``min(run, longer trump holding)`` of them when
  the run is split between its two hands (the longer hand plays a lower
  trump whenever the other plays one of the run); when the leader's team
  needs every trick, the other team's guarded second trump sitting just
  after the top one, or its second and third trumps; a second hand whose
  side needs only the current trick and surely wins it (by ruffing, or with
  the top card of the suit the third hand cannot ruff). Bounds are for
  both sides. A bound stops counting at the tricks the question needs, so
  that it rests on as few top cards as it can (a result that rests on fewer
  cards serves more positions from the table);
- partition search ("winning ranks"): every node returns the cards its
  result rests on: winners of tricks won by rank (not the only card of their
  suit in the trick), the top cards behind a sure-trick bound, the cards a
  table entry was matched on, and, for a card that failed, its whole run of
  equivalent cards when any of it counts (a card that succeeds is there to
  be played in every position that agrees down to the cards it rests on).
  Such a result holds for every position that agrees on each
  suit's alive cards down to the lowest card it rests on and on every
  hand's suit lengths: the cards below are interchangeable small cards;
- a transposition table at trick boundaries built on that: entries grouped
  by signature (every hand's length in every suit, trump, Kot flag), each
  keeping who holds the alive cards of each suit only down to that lowest
  card, with lower and upper bounds on the leader's team's tricks (one entry
  serves every target and many deals); a signature's entries are scanned in
  turn, those that serve move up, up to 128 kept;
- small cards: once a card fails and is lower than every card of its suit
  the failure rested on, the hand's other cards of that suit below those
  are not tried (they would fail the same way);
- move ordering by DDS's weights: leads (cashing the suit's top card, a
  card to partner's top card or partner's ruff, who holds the suit's top
  three cards, who can ruff, few cards for the opponents to choose from,
  the lead that last cut the search off at the same depth); a second hand
  following suit tries first the card DDS's weights rank highest (the
  cheapest card that wins the trick for its side, ducking when partner wins
  it anyway), then the others from the lowest up; third hand following
  wins with the cheapest card the fourth cannot beat when it is needed,
  else makes the fourth spend its top cards, else plays low; a void hand
  ruffs as cheaply as wins, ruffs partner's card in third seat when the
  fourth hand may beat it, and discards low from long suits; otherwise the
  cheapest card that beats an opponent's, low cards when partner is winning;
- the last trick is counted directly.

Each of these cuts the nodes a question needs, the tail most: the partition
table, the lead weights, the small-card skip and the third-hand and void
orderings each took the 99th percentile down by a large factor (figures,
with the command that measures them, in docs/performance.md).

Left out because they did not pay: trying the table's stored best lead
first; signature buckets of 8 or 32 shared slots (too few entries per
signature: the tail grew) or of 64 or 256 (no better than 128); the whole
of DDS's order for a second hand (sorting every card costs more than it
saves over trying its best card first); DDS's weights for a hand void in
the led suit (more nodes than :func:`_void_list`); a killer move for
followers and for leads ahead of the weights; cards of a hand counted as
equivalent across cards of the current trick other than the winning one; a
smaller table; overwriting a full signature's last (least used) entries
rather than its entries in turn.

The table (``tt_keys``, ``tt_vals``, from :func:`new_table`) can be shared
by any number of searches and deals: its entries hold everything a stored
bound depends on. When it is full it starts afresh.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from hokm_sim.dd.bits import pdep, pext
from hokm_sim.dd.clock import now_ns
from hokm_sim.engine.bits import SUIT_MASK, ctlz, ctz, popcount
from hokm_sim.engine.rules import beats, legal_mask

TT_EMPTY = -1
"""Signature of an empty index row (real signatures are non-negative)."""
DEFAULT_TT_BITS = 20
"""log2 of the number of table entries for a stand-alone solve (2**20 entries, about 33 MB)."""
_HASH_MUL = -7046029254386353131  # 0x9E3779B97F4A7C15 as int64
_HASH_MUL2 = -4658895280553007687  # 0xBF58476D1CE4E5B9 as int64


TT_MAX_ENTRIES = 128
"""Most entries kept per signature (past it new entries overwrite old ones in turn)."""
_TT_FIRST = 4  # entries a new signature gets room for (doubled as it fills)


@njit(cache=True)
def new_table(bits):
    """A transposition table of ``2**bits`` entries: ``(keys int64[r, 3], vals int8[2**bits, 2])``.

    Row 0 of ``keys`` is the header (next free entry, entry count, index
    size), rows ``1 .. 2**(bits-2)`` an open-addressed index by signature
    (the signature, its first entry, and its entry count and room packed),
    then one row per entry: the holder pattern (two planes) kept on the
    cards of a mask, and the mask. ``vals`` holds each entry's lower and
    upper bounds on the tricks the leader's team takes. A signature's entries
    are contiguous, moved to twice the room as they fill; when room runs out
    the table starts afresh. ``new_table(-1)`` (no rows) turns the table off.
    """
    if bits < 0:
        return np.zeros((0, 3), np.int64), np.zeros((0, 2), np.int8)
    ne = 1 << bits
    ni = 1 << max(bits - 2, 1)
    # Only the index needs clearing: an entry row is written before it is read.
    keys = np.empty((1 + ni + ne, 3), np.int64)
    keys[: 1 + ni] = TT_EMPTY
    keys[0, 0] = 0
    keys[0, 1] = ne
    keys[0, 2] = ni
    return keys, np.empty((ne, 2), np.int8)


@njit(inline="always")
def _alive(h):
    return h[0] | h[1] | h[2] | h[3]


@njit(inline="always")
def _top_run(mine, alive):
    """How many of the highest alive cards of one suit are in ``mine``."""
    n = popcount(alive)
    if n == 0:
        return 0
    c = pext(mine, alive)
    gaps = ~c & ((1 << n) - 1)
    # Leading ones of the n-bit value c: n minus the bit length of its gaps.
    return n - (64 - ctlz(gaps))


@njit(inline="always")
def _top_cards(alive_s, k):
    """The ``k`` highest cards of ``alive_s`` (one suit's alive cards)."""
    n = popcount(alive_s)
    return pdep(((1 << k) - 1) << (n - k), alive_s)


@njit(inline="always")
def _quick_tricks(h, trump, leader, kot, want):
    """Tricks the leader's team can cash from the top, the leader leading (in a row with ``kot``).

    Top trumps count in full; top cards of a side suit count up to the
    length of that suit in each opponent's hand that still holds a trump (an
    opponent without trumps cannot ruff). After them the leader may lead to
    partner's top cards of a suit the opponents cannot ruff, or to partner's
    ruff; those count on top of the leader's own only when partner has a
    side-suit card to play under each of them (a trump would take the lead).
    A lower bound for the leader's team, and the cards it rests on (the top
    cards counted). Counting stops once ``want`` tricks are found, so that
    the cards it rests on are only those needed for ``want`` (a bound that
    rests on fewer cards serves more positions from the table).
    """
    me = h[leader]
    o1 = h[(leader + 1) & 3]
    o2 = h[(leader + 3) & 3]
    partner = h[(leader + 2) & 3]
    alive = _alive(h)
    nme = popcount(me)
    tmask = SUIT_MASK << (13 * trump)
    total = 0
    sup = 0
    own_t = 0
    # Partner plays a side-suit card under each side-suit winner the leader
    # cashes: one holding trumps and nothing else would have to ruff it and
    # take the lead.
    pside = popcount(partner & ~tmask)
    spare = pside if (partner & tmask) != 0 else 13
    for k in range(4):
        # Trumps first: they are the likeliest to be counted.
        s = (trump + k) & 3
        sm = SUIT_MASK << (13 * s)
        mine = me & sm
        if mine == 0:
            continue
        run = _top_run(mine, alive & sm)
        if s != trump:
            if o1 & tmask:
                run = min(run, popcount(o1 & sm))
            if o2 & tmask:
                run = min(run, popcount(o2 & sm))
            run = min(run, spare)
            spare -= run
        if run > 0:
            run = min(run, want - total)
            total += run
            sup |= _top_cards(alive & sm, run)
            if total >= want:
                return total, sup
            if s == trump:
                own_t = run
    total = min(total, nme)
    own = total
    own_sup = sup
    # Drawing trumps: with the top t trumps and no opponent holding more than
    # t, the leader leads them t times, the opponents' trumps fall, its side
    # suits' top cards cash (up to partner's length if partner still has a
    # trump, since partner could otherwise have to ruff) and every trump it
    # has left wins a trick later (in a row only when partner has none).
    tm = alive & tmask
    mine_t = me & tmask
    t = _top_run(mine_t, tm)
    if t > 0 and t >= popcount(o1 & tmask) and t >= popcount(o2 & tmask):
        pt_left = popcount(partner & tmask) - t
        tot2 = t
        if not kot or pt_left <= 0:
            tot2 += popcount(mine_t) - t
        sup2 = _top_cards(tm, t)
        if tot2 < want:
            for s in range(4):
                if s == trump:
                    continue
                sm = SUIT_MASK << (13 * s)
                mine = me & sm
                if mine == 0:
                    continue
                run = _top_run(mine, alive & sm)
                if pt_left > 0:
                    run = min(run, popcount(partner & sm))
                if run > 0:
                    run = min(run, want - tot2)
                    tot2 += run
                    sup2 |= _top_cards(alive & sm, run)
                    if tot2 >= want:
                        break
        tot2 = min(tot2, nme)
        if tot2 > total:
            total, sup = tot2, sup2
    if total < want:
        # Through partner: after cashing its own top cards, the leader leads a
        # card to partner's top card of a suit the opponents cannot ruff, then
        # partner's run there; or partner ruffs. While the leader cashes,
        # partner needs a side-suit card other than those for every trick
        # (a trump would take the lead from the leader).
        pt = popcount(partner & tmask)
        for s in range(4):
            sm = SUIT_MASK << (13 * s)
            if (me & sm) == 0:
                continue
            a = alive & sm
            r1 = s != trump and (o1 & sm) == 0 and (o1 & tmask) != 0
            r2 = s != trump and (o2 & sm) == 0 and (o2 & tmask) != 0
            if r1 or r2:
                continue
            ps = partner & sm
            if ps != 0:
                run = _top_run(ps, a)
                if run > 0:
                    if s != trump:
                        if o1 & tmask:
                            run = min(run, popcount(o1 & sm))
                        if o2 & tmask:
                            run = min(run, popcount(o2 & sm))
                    base = own if pside - (run if s != trump else 0) >= own else 0
                    run = min(run, want - base)
                    if base + run > total:
                        total = base + run
                        sup = (own_sup if base else 0) | _top_cards(a, run)
                        if total >= want:
                            return total, sup
            elif s != trump and pt != 0:
                # (the leader's own tops are not in this suit when it lacks its top card)
                top = 1 << (63 - ctlz(a))
                base = own if (pt > own_t and pside >= own - own_t and (me & top) == 0) else 0
                if base + 1 > total:
                    total = base + 1
                    sup = own_sup if base else 0
                    if total >= want:
                        return total, sup
    return total, sup


@njit(inline="always")
def _sig(h, trump, leader, kot):
    """Signature of a trick-boundary position: every hand's length in every suit.

    Seats counted from the leader; suits 0..2 in 4 bits each (suit 3 follows
    from the number of tricks left), then tricks left, trump and the Kot flag.
    """
    sig = 0
    for k in range(4):
        x = h[(leader + k) & 3]
        for s in range(3):
            sig |= popcount(x & (SUIT_MASK << (13 * s))) << (4 * (3 * k + s))
    return sig | (popcount(h[leader]) << 48) | (trump << 52) | (kot << 54)


@njit(inline="always")
def _pattern(h, leader, alive):
    """Who holds each alive card, in rank order suit by suit: two bit planes.

    Seat ``k`` places from the leader holds the card where plane one has bit
    ``k & 1`` and plane two bit ``k >> 1``.
    """
    b0 = h[(leader + 1) & 3] | h[(leader + 3) & 3]
    b1 = h[(leader + 2) & 3] | h[(leader + 3) & 3]
    return pext(b0, alive), pext(b1, alive)


@njit(cache=True)
def _tt_index(tt_keys, sig, create):
    """Index row of a signature (made if ``create``), or -1."""
    ni = tt_keys[0, 2]
    x = sig * _HASH_MUL
    x ^= (x >> 29) & 0x7FFFFFFFF
    x *= _HASH_MUL2
    i = x >> 32
    for k in range(16):
        r = 1 + ((i + k) & (ni - 1))
        s = tt_keys[r, 0]
        if s == sig:
            return r
        if s == TT_EMPTY:
            if create:
                tt_keys[r, 0] = sig
                tt_keys[r, 1] = 0
                tt_keys[r, 2] = 0
                return r
            return -1
    return -1


@njit(inline="always")
def _move_up(tt_keys, tt_vals, e0, e):
    """Swap entry ``e`` with the one before it: entries that serve often come to be
    found first."""
    f = e - 1
    for k in range(3):
        t = tt_keys[e0 + f, k]
        tt_keys[e0 + f, k] = tt_keys[e0 + e, k]
        tt_keys[e0 + e, k] = t
    for k in range(2):
        t8 = tt_vals[f, k]
        tt_vals[f, k] = tt_vals[e, k]
        tt_vals[e, k] = t8


@njit(cache=True)
def _tt_lookup(tt_keys, tt_vals, sig, p1, p2, target):
    """``(1, mask)`` if an entry matching the position says the leader's team
    reaches ``target``, ``(-1, mask)`` if it says not, else ``(0, 0)``."""
    r = _tt_index(tt_keys, sig, False)
    res = 0
    mask = 0
    if r >= 0:
        start = tt_keys[r, 1]
        e0 = 1 + tt_keys[0, 2]
        e = start
        end = start + min(tt_keys[r, 2] & 0xFFFFFFFF, tt_keys[r, 2] >> 32)
        while e < end:
            m = tt_keys[e0 + e, 2]
            if (p1 & m) == tt_keys[e0 + e, 0] and (p2 & m) == tt_keys[e0 + e, 1]:
                if tt_vals[e, 0] >= target:
                    res = 1
                elif tt_vals[e, 1] < target:
                    res = -1
                if res != 0:
                    mask = m
                    break
            e += 1
        if res != 0 and e > start:
            _move_up(tt_keys, tt_vals, e0, e)
    return res, mask


@njit(cache=True)
def _tt_clear(tt_keys):
    ni = tt_keys[0, 2]
    for r in range(1, 1 + ni):
        tt_keys[r, 0] = TT_EMPTY
    tt_keys[0, 0] = 0


@njit(cache=True)
def _tt_store(tt_keys, tt_vals, sig, p1, p2, mask, nrem, reached, target):
    """Record that the leader's team reaches ``target`` (or not, ``reached``
    false) in every position with this signature and pattern on ``mask``.

    The entry with the same mask and pattern is tightened; else a new one is
    added (past :data:`TT_MAX_ENTRIES`, over the existing ones in turn).
    """
    r = _tt_index(tt_keys, sig, True)
    if r < 0:
        _tt_clear(tt_keys)
        r = _tt_index(tt_keys, sig, True)
    q1 = p1 & mask
    q2 = p2 & mask
    e0 = 1 + tt_keys[0, 2]
    start = tt_keys[r, 1]
    cnt = tt_keys[r, 2] & 0xFFFFFFFF
    cap = tt_keys[r, 2] >> 32
    j = -1
    for e in range(start, start + min(cnt, cap)):
        if tt_keys[e0 + e, 2] == mask and tt_keys[e0 + e, 0] == q1 and tt_keys[e0 + e, 1] == q2:
            j = e
            break
    if j < 0:
        if cnt < cap:
            j = start + cnt
            cnt += 1
        elif cap < TT_MAX_ENTRIES:
            # Move to twice the room (or start afresh when there is none).
            new_cap = max(_TT_FIRST, 2 * cap)
            at = tt_keys[0, 0]
            if at + new_cap > tt_keys[0, 1]:
                _tt_clear(tt_keys)
                r = _tt_index(tt_keys, sig, True)
                at = 0
                cnt = 0
                new_cap = _TT_FIRST
            for k in range(cnt):
                tt_keys[e0 + at + k, 0] = tt_keys[e0 + start + k, 0]
                tt_keys[e0 + at + k, 1] = tt_keys[e0 + start + k, 1]
                tt_keys[e0 + at + k, 2] = tt_keys[e0 + start + k, 2]
                tt_vals[at + k, 0] = tt_vals[start + k, 0]
                tt_vals[at + k, 1] = tt_vals[start + k, 1]
            tt_keys[0, 0] = at + new_cap
            start = at
            cap = new_cap
            tt_keys[r, 1] = start
            j = start + cnt
            cnt += 1
        else:
            j = start + cnt % cap
            cnt = cnt + 1 if cnt + 1 < 2 * cap else cap
        tt_keys[r, 2] = cnt | (cap << 32)
        tt_keys[e0 + j, 0] = q1
        tt_keys[e0 + j, 1] = q2
        tt_keys[e0 + j, 2] = mask
        tt_vals[j, 0] = 0
        tt_vals[j, 1] = nrem
    if reached:
        tt_vals[j, 0] = max(tt_vals[j, 0], target)
    else:
        tt_vals[j, 1] = min(tt_vals[j, 1], target - 1)


@njit(inline="always")
def _extend(w, alive):
    """Every alive card at or above the lowest card of ``w``, suit by suit."""
    out = 0
    for s in range(4):
        x = w & (SUIT_MASK << (13 * s))
        if x != 0:
            out |= alive & (SUIT_MASK << (13 * s)) & ~((x & -x) - 1)
    return out


@njit(inline="always")
def _equivalents(cards, alive):
    """One card of each run of ``cards`` adjacent in rank among ``alive``.

    Keeps the highest card of each run, suit by suit.
    """
    # Packed in rank order among the alive cards, a run's top card is one
    # whose next alive card up is not ours (suits kept apart by their own bit).
    out = 0
    for s in range(4):
        sm = SUIT_MASK << (13 * s)
        x = cards & sm
        if x != 0:
            a = alive & sm
            c = pext(x, a)
            out |= pdep(c & ~(c >> 1), a)
    return out


@njit(inline="always")
def _last_trick(h, trump, leader):
    """Winner of the last trick, each hand holding one card, and the winning
    card's bit when it beat another card of its suit (its rank mattered)."""
    best = ctz(h[leader])
    best_seat = leader
    for k in range(1, 4):
        seat = (leader + k) & 3
        c = ctz(h[seat])
        if beats(c, best, trump):
            best = c
            best_seat = seat
    sm = SUIT_MASK << (13 * (best // 13))
    return best_seat, (1 << best) if popcount(_alive(h) & sm) > 1 else 0


@njit(inline="always")
def _trump_run_tricks(h, trump, team, want):
    """Tricks ``team`` is sure of with the top trumps it holds, and those trumps.

    Every card in the run of highest alive trumps held by ``team`` wins the
    trick it falls on (only a higher trump, also the team's, can beat it),
    and one hand's cards fall on different tricks: a lower bound of
    ``max`` over the team's two hands of their cards in that run. When a
    hand has ``want`` of them, the trumps it rests on are only those down to
    that hand's ``want``-th (of the two hands, the one that needs fewer).
    """
    tm = SUIT_MASK << (13 * trump)
    ours = (h[team] | h[team + 2]) & tm
    alive = _alive(h) & tm
    run = _top_run(ours, alive)
    if run == 0:
        return 0, 0
    top = _top_cards(alive, run)
    a = h[team] & top
    b = h[team + 2] & top
    na = popcount(a)
    nb = popcount(b)
    low = 0
    if na >= want:
        low = pdep(1 << (na - want), a)
    if nb >= want:
        lb = pdep(1 << (nb - want), b)
        if lb > low:
            low = lb
    if low != 0:
        return want, top & ~(low - 1)
    # Both hands' cards of the run: the hand with more trumps plays a lower
    # trump whenever the other plays one of the run, as long as it has one,
    # so they fall on different tricks: run cards for ``max`` of the two
    # hands' trump lengths tricks at the least.
    return min(na + nb, max(popcount(h[team] & tm), popcount(h[team + 2] & tm))), top


@njit(inline="always")
def _guarded_trump(h, trump, team):
    """The trumps behind a trick ``team`` is sure of though the other team holds
    the top trump (0 when there is none).

    ``team`` holds the second trump with a guard, and either the top trump's
    holder plays just before that hand (its holder sees the top trump fall or
    not before it plays, so it ducks under it or wins with the second) or
    ``team`` holds the third trump too (the top trump takes only one of them).
    """
    tm = SUIT_MASK << (13 * trump)
    alive = _alive(h) & tm
    if popcount(alive) < 2:
        return 0
    top = 1 << (63 - ctlz(alive))
    rest = alive ^ top
    second = 1 << (63 - ctlz(rest))
    a = _holder(h, top)
    k = _holder(h, second)
    if (a & 1) == team or (k & 1) != team or popcount(h[k] & tm) < 2:
        return 0
    if a == (k + 3) & 3:
        return top | second
    rest ^= second
    if rest != 0:
        third = 1 << (63 - ctlz(rest))
        if (_holder(h, third) & 1) == team:
            return top | second | third
    return 0


@njit(inline="always")
def _order(nxt_hand, moves, pos, seat, led, best, best_seat, trump, alive_t):
    """Split a third or fourth hand's moves (following suit) into three masks tried in order.

    The first mask holds at most one card, tried from its top. Partner
    winning: low cards, trumps last. An opponent winning: the cheapest card
    that beats it first, then low losing cards, then the rest. (Leads are
    ordered by :func:`_lead_list`, a second hand following suit by
    :func:`_second_first`, a hand void in the led suit by :func:`_void_list`.)
    """
    tmask = SUIT_MASK << (13 * trump)
    bs = best // 13
    if pos == 2 and bs == led and (moves & (SUIT_MASK << (13 * bs))) == moves:
        # Third hand following the suit of the winning card (as DDS): win
        # with the cheapest card the fourth hand cannot beat, when there is one
        # and it is needed; else low.
        nxt = nxt_hand & (SUIT_MASK << (13 * bs))
        top = 1 << (63 - ctlz(moves))
        if nxt == 0:
            if (best_seat & 1) == (seat & 1):
                return 0, moves, 0
            above = moves & ~((2 << best) - 1)
            first = above & -above
            return first, moves ^ first, 0
        max4 = 1 << (63 - ctlz(nxt))
        if ((best_seat & 1) == (seat & 1) and (1 << best) > max4) or top < (nxt & -nxt):
            return 0, moves, 0
        if top > max4 and top > (1 << best):
            above = moves & ~((max4 << 1) - 1) & ~((2 << best) - 1)
            first = above & -above
            return first, moves ^ first, 0
        if top > (1 << best):
            # The fourth hand wins: make it spend its top cards (as DDS),
            # playing just over its best card below them.
            a = alive_t & (SUIT_MASK << (13 * bs))
            p4 = pext(nxt, a)
            n4 = popcount(a)
            gaps = ~p4 & ((1 << n4) - 1)
            below = p4 & ((1 << (64 - ctlz(gaps))) - 1)
            first = 0
            if below != 0:
                sec4 = pdep(1 << (63 - ctlz(below)), a)
                if sec4 > (1 << best):
                    over = moves & ~((sec4 << 1) - 1)
                    first = over & -over
                elif (best_seat & 1) != (seat & 1):
                    over = moves & ~((2 << best) - 1)
                    first = over & -over
            if first != 0:
                return first, moves ^ first, 0
        return 0, moves, 0
    if (best_seat & 1) == (seat & 1):
        second = moves & ~tmask
        if second == 0:
            return 0, moves, 0
        return 0, second, moves & tmask
    above_best = ~((2 << best) - 1)
    winners = moves & (((SUIT_MASK << (13 * bs)) & above_best) | (tmask if bs != trump else 0))
    first = winners & -winners
    second = moves & ~winners & ~tmask
    return first, second, (moves ^ first) & ~second


@njit(inline="always")
def _ruffs(hand, sm, tmask):
    """Whether a hand is void in a suit and holds a trump."""
    return (hand & sm) == 0 and (hand & tmask) != 0


@njit(inline="always")
def _holder(h, card_bit):
    """Seat holding a card (-1 for none)."""
    for k in range(4):
        if h[k] & card_bit:
            return k
    return -1


@njit(cache=True)
def _lead_list(h, moves, seat, trump, killer, out, row, wts):
    """The leads in ``moves`` in the order to try them, into ``out[row]``; returns how many.

    Weights after Bo Haglund's DDS for leads in a trump game: a lead that
    should win the trick (cashing the suit's top card, a card to partner's
    top card, partner's ruff), which of the four hands hold the suit's top
    three cards, who can ruff, few cards for the opponents to choose from;
    the lead that last cut the search off at this depth is preferred.
    """
    tmask = SUIT_MASK << (13 * trump)
    alive = _alive(h)
    lho = (seat + 1) & 3
    pd = (seat + 2) & 3
    rho = (seat + 3) & 3
    nrem = popcount(h[seat])
    tp = h[pd] & tmask
    tlh = h[lho] & tmask
    trh = h[rho] & tmask
    n = 0
    for s in range(4):
        sm = SUIT_MASK << (13 * s)
        x = moves & sm
        if x == 0:
            continue
        side = s != trump
        a = alive & sm
        len_l = popcount(h[seat] & sm)
        len_lh = popcount(h[lho] & sm)
        len_rh = popcount(h[rho] & sm)
        len_p = popcount(h[pd] & sm)
        top = 1 << (63 - ctlz(a))
        a2 = a ^ top
        second_bit = (1 << (63 - ctlz(a2))) if a2 else 0
        a3 = a2 ^ second_bit
        third_bit = (1 << (63 - ctlz(a3))) if a3 else 0
        win_h = _holder(h, top)
        sec_h = _holder(h, second_bit) if second_bit else -1
        thi_h = _holder(h, third_bit) if third_bit else -1
        count_lh = (len_lh if len_lh else nrem) << 2
        count_rh = (len_rh if len_rh else nrem) << 2
        bonus = -(((count_lh + count_rh) << 5) // 13)
        if side and (_ruffs(h[lho], sm, tmask) or _ruffs(h[rho], sm, tmask)):
            bonus -= 12
        if side and len_p == 0 and tp != 0 and len_rh > 0:
            bonus += 17
        if win_h == rho or sec_h == rho:
            if len_rh != 1:
                bonus -= 12
        elif win_h == lho and sec_h == pd and len_p != 1:
            bonus += 27
        if side and len_l == 1 and (h[seat] & tmask) != 0 and len_p > 1 and win_h == pd:
            bonus += 19
        p_top = h[pd] & sm
        o_top = (h[lho] | h[rho]) & sm
        single_top = (len_lh == 1 and win_h == lho) or (len_rh == 1 and win_h == rho)
        while x != 0:
            c = 63 - ctlz(x)
            b = 1 << c
            x ^= b
            delta = bonus
            rrank = 1 + popcount(a & ~((b << 1) - 1))
            below = a & (b - 1)
            seq = below != 0 and (h[seat] >> (63 - ctlz(below))) & 1 == 1
            win = False
            if b == top:
                if not side:
                    win = True
                elif len_p != 0 or tp == 0:
                    win = (len_lh != 0 or tlh == 0) and (len_rh != 0 or trh == 0)
                else:
                    win = (len_lh != 0 or tp > tlh) and (len_rh != 0 or tp > trh)
            elif p_top > o_top and (63 - ctlz(p_top | 1)) > (63 - ctlz(o_top | 1)):
                win = not side or ((len_lh != 0 or tlh == 0) and (len_rh != 0 or trh == 0))
            elif side and len_p == 0 and tp != 0:
                lr = len_lh == 0 and tlh != 0
                rr = len_rh == 0 and trh != 0
                if lr and rr:
                    win = tp > (tlh | trh)
                elif lr:
                    win = tp > tlh
                elif rr:
                    win = tp > trh
                else:
                    win = True
            if win:
                if single_top:
                    w = delta + 35 + rrank
                elif win_h == seat:
                    if sec_h == pd:
                        w = delta + 48 + rrank
                    elif b == top:
                        w = delta + 31
                    else:
                        w = delta - 3 + rrank
                elif win_h == pd:
                    w = delta + (42 if sec_h == seat else 28) + rrank
                elif seq and b == second_bit:
                    w = delta + 40
                elif seq:
                    w = delta + 22 + rrank
                else:
                    w = delta + 11 + rrank
                if c == killer:
                    w += 55
            else:
                if sec_h == pd and thi_h == pd:
                    delta += 20
                elif len_p > 1 and (
                    (sec_h == seat and thi_h == pd) or (sec_h == pd and thi_h == seat)
                ):
                    delta += 13
                if single_top:
                    w = delta + rrank + 2
                elif win_h == seat:
                    if sec_h == pd:
                        w = delta + 33 + rrank
                    elif b == top:
                        w = delta + 38
                    else:
                        w = delta - 14 + rrank
                elif win_h == pd:
                    w = delta + 34 + rrank
                elif seq and b == second_bit:
                    w = delta + 35
                else:
                    w = delta + 17 - (c % 13 + 2)
                if c == killer:
                    w += 18
            k = n
            while k > 0 and wts[k - 1] < w:
                wts[k] = wts[k - 1]
                out[row, k] = out[row, k - 1]
                k -= 1
            wts[k] = w
            out[row, k] = c
            n += 1
    return n


@njit(inline="always")
def _second_first(h, moves, seat, trump, lead_card):
    """Second hand following suit: the card to try first, by DDS's weights.

    The weights tell whether a card can win the trick for the side (it beats
    the led card and the third hand's, or the fourth hand can), and prefer
    then the cheapest card that does (ducking when partner, fourth, wins
    anyway), else the lowest card. Only the first card matters much: the
    rest are tried from the lowest up.
    """
    led = lead_card // 13
    lm = SUIT_MASK << (13 * led)
    tm = SUIT_MASK << (13 * trump)
    leader = (seat + 3) & 3
    third = h[(seat + 1) & 3]
    fourth = h[(seat + 2) & 3]
    c3 = third & lm
    c4 = fourth & lm
    max3rd = (63 - ctlz(c3)) % 13 + 2 if c3 else 0
    min3rd = ctz(c3) % 13 + 2 if c3 else 0
    maxpd = (63 - ctlz(c4)) % 13 + 2 if c4 else 0
    minpd = ctz(c4) % 13 + 2 if c4 else 0
    r0 = lead_card % 13 + 2
    alive = _alive(h) & lm
    t3 = third & tm
    t4 = fourth & tm
    lead_over = (h[leader] & lm) > c4
    bw = -(1 << 30)  # below every weight: the first card sets it
    best = 0
    x = moves
    while x != 0:
        c = 63 - ctlz(x)
        b = 1 << c
        x ^= b
        r = c % 13 + 2
        rrank = 1 + popcount(alive & ~((b << 1) - 1))
        below = alive & (b - 1)
        seq = below != 0 and (h[seat] >> (63 - ctlz(below))) & 1 == 1
        if led == trump:
            win = (maxpd > r0 and maxpd > max3rd) or (r > r0 and r > max3rd)
        elif r > r0 and r > max3rd:
            win = max3rd != 0 or t3 == 0 or (maxpd == 0 and t4 > t3)
        elif maxpd > r0 and maxpd > max3rd:
            win = max3rd != 0 or t3 == 0
        elif r0 > maxpd and r0 > max3rd and r0 > r:
            win = maxpd == 0 and t4 != 0 and (max3rd != 0 or t3 == 0 or t4 > t3)
        else:
            win = maxpd == 0 and t4 != 0
        if win:
            if min3rd > r:
                w = 40 + rrank
            elif maxpd > r0 and lead_over:
                w = 41 + rrank
            elif r > r0:
                if r < maxpd:
                    w = 78 - r
                elif r > max3rd:
                    w = 73 - r
                elif seq:
                    w = 62 - r
                else:
                    w = 49 - r
            elif maxpd > 0:
                w = 47 - r
            else:
                w = 40 - r
        elif r < min3rd or r < minpd:
            w = -9 + rrank
        elif r < r0:
            w = -16 + rrank
        elif seq:
            w = 22 - r
        else:
            w = 10 - r
        if w > bw:
            bw = w
            best = b
    return best


@njit(cache=True)
def _void_list(h, moves, pos, seat, led, best, best_seat, trump, out, row, wts):
    """A follower void in the led suit: its cards in the order to try them, into ``out[row]``.

    Weights after DDS: with partner winning, discard low from long suits
    (not from a guarded second-best card); else ruff as cheaply as wins,
    then discard the same way; under-ruffs last.
    """
    alive = _alive(h)
    me = h[seat]
    ours = (best_seat & 1) == (seat & 1)
    bs = best // 13
    tmask = SUIT_MASK << (13 * trump)
    lm = SUIT_MASK << (13 * led)
    nxt = h[(seat + 1) & 3]
    c_next = nxt & lm
    t_next = nxt & tmask
    # Third hand with partner (the leader) winning: is partner sure to win?
    leader_sure = (
        pos != 2
        or best_seat != (seat + 2) & 3
        or bs != led
        or ((1 << best) > c_next and (c_next != 0 or t_next == 0))
    )
    n = 0
    for s in range(4):
        sm = SUIT_MASK << (13 * s)
        x = moves & sm
        if x == 0:
            continue
        ln = popcount(me & sm)
        val = (ln << 6) // 24
        a = alive & sm
        if ln == 2 and popcount(a) >= 2:
            second = 1 << (63 - ctlz(a ^ (1 << (63 - ctlz(a)))))
            if me & second:
                val -= 2
        while x != 0:
            c = ctz(x)
            x ^= 1 << c
            rank = c % 13 + 2
            if led == trump:
                w = -rank + val
            elif ours and leader_sure:
                w = (2 if s == trump else 25) - rank + val
            elif ours:
                # Partner's card may be beaten by the fourth hand: ruff it.
                if s != trump:
                    w = -rank + val
                elif c_next != 0 or (1 << c) > t_next:
                    w = 48 - rank
                else:
                    w = -12 - rank
            elif s == trump:
                w = 50 - rank if (bs != trump or c > best) else -30 - rank
            else:
                w = 14 - rank + val
            k = n
            while k > 0 and wts[k - 1] < w:
                wts[k] = wts[k - 1]
                out[row, k] = out[row, k - 1]
                k -= 1
            wts[k] = w
            out[row, k] = c
            n += 1
    return n


# Per-depth fields of the explicit search stack (depth = cards played since the root).
_F_LEADER = 0
_F_POS = 1
_F_LED = 2
_F_BEST = 3
_F_BSEAT = 4
_F_TCARDS = 5
_F_NEED = 6
_F_M0 = 7  # moves left to try, in three ordered masks
_F_M1 = 8
_F_M2 = 9
_F_CARD = 10  # the card being tried
_F_SLOT = 11  # 1 when the result goes to the table, -1 when not
_F_K1 = 12  # the position's holder pattern (two planes) and signature
_F_K2 = 13
_F_TARGET = 14
_F_SIG = 15
_F_W = 16  # cards the result rests on, gathered over the moves tried
_F_TW = 17  # the card tried, when it completes a trick: the winner's bit if it won by rank
_F_SKIP = 18  # cards not worth trying: below every card a failed move rested on
_NF = 19


@njit(cache=True)
def _search(
    h, trump, tt_keys, tt_vals, stats, leader, pos, led, best, best_seat, tcards, team, need, kot
):
    """Whether ``team`` can take ``need`` of the remaining tricks (in a row with ``kot``).

    An explicit-stack depth-first search (numba's on-disk cache cannot hold
    recursive functions). ``h`` (int64[4]) is changed during the search and
    restored. ``pos`` cards are in the current trick (``tcards``), led suit
    ``led``, winning so far ``best`` by ``best_seat``. ``stats[0]`` counts the
    nodes entered; a positive ``stats[1]`` (when there is one) is a node limit
    past which the search gives up and returns False (the caller must check);
    a positive ``stats[2]`` a deadline on :func:`hokm_sim.dd.clock.now_ns`,
    looked at every 1,024 nodes, past which it gives up the same way.

    Every node also returns the cards its result rests on (``retw``): the
    winners of tricks won by rank, the top cards behind a sure-trick bound,
    the cards a table entry was matched on. A result stored in the table
    holds for every position that agrees with this one on each suit's alive
    cards down to the lowest such card, and on every hand's suit lengths.
    """
    st = np.empty((53, _NF), np.int64)
    lst = np.empty((53, 13), np.int64)
    wts = np.empty(13, np.int64)
    killer = np.full(53, -1, np.int64)
    limit = stats[1] if stats.shape[0] > 1 else 0
    deadline = stats[2] if stats.shape[0] > 2 else 0
    use_tt = tt_keys.shape[0] > 0
    d = 0
    st[0, _F_LEADER] = leader
    st[0, _F_POS] = pos
    st[0, _F_LED] = led
    st[0, _F_BEST] = best
    st[0, _F_BSEAT] = best_seat
    st[0, _F_TCARDS] = tcards
    st[0, _F_NEED] = need
    entering = True
    ret = False
    retw = 0
    while True:
        if entering:
            # Evaluate the node at depth d: a bound decides it, or set up its moves.
            stats[0] += 1
            if limit > 0 and stats[0] > limit:
                return False  # over budget: the caller sees stats[0] > stats[1]
            if deadline > 0 and (stats[0] & 1023) == 0 and now_ns() >= deadline:
                return False  # out of time: the caller sees the clock past stats[2]
            leader = st[d, _F_LEADER]
            pos = st[d, _F_POS]
            need = st[d, _F_NEED]
            st[d, _F_SLOT] = -1
            st[d, _F_W] = 0
            st[d, _F_SKIP] = 0
            decided = False
            retw = 0
            if pos == 0:
                lead_team = leader & 1
                nrem = popcount(h[leader])
                if need <= 0:
                    decided, ret = True, True
                elif need > nrem:
                    decided, ret = True, False
                elif nrem == 1:
                    ws, retw = _last_trick(h, trump, leader)
                    decided, ret = True, (ws & 1) == team
                else:
                    # Sure tricks: the leader's cashable tops (in a row), and
                    # each team's top trumps (not in a row, so not for kot).
                    # ``wl``: tricks the leader's team must take for the
                    # question's answer to be yes for it (the table's target
                    # too: bounds are on the leader's team's tricks, in a row
                    # with kot); ``wo``: the other team likewise.
                    wl = need if lead_team == team else nrem - need + 1
                    if kot:
                        qt, qsup = _quick_tricks(
                            h, trump, leader, kot, wl if lead_team == team else 1
                        )
                        if lead_team == team:
                            if qt >= need:
                                decided, ret, retw = True, True, qsup
                        elif qt > 0:
                            decided, ret, retw = True, False, qsup
                    else:
                        qt, qsup = _quick_tricks(h, trump, leader, kot, wl)
                        if qt < wl:
                            tl, tlsup = _trump_run_tricks(h, trump, lead_team, wl)
                            if tl >= wl:
                                qt, qsup = tl, tlsup
                        if qt >= wl:
                            decided, ret, retw = True, lead_team == team, qsup
                        else:
                            wo = nrem + 1 - wl
                            to, tosup = _trump_run_tricks(h, trump, 1 - lead_team, wo)
                            if to >= wo:
                                decided, ret, retw = True, lead_team != team, tosup
                            elif wl == nrem:
                                # The leader's team needs every trick: do the
                                # others hold a trump trick the top trump
                                # cannot stop?
                                gsup = _guarded_trump(h, trump, 1 - lead_team)
                                if gsup != 0:
                                    decided, ret, retw = True, lead_team != team, gsup
                    if not decided and use_tt and (not kot or lead_team == team):
                        sig = _sig(h, trump, leader, kot)
                        alive = _alive(h)
                        p1, p2 = _pattern(h, leader, alive)
                        r, m = _tt_lookup(tt_keys, tt_vals, sig, p1, p2, wl)
                        if r != 0:
                            decided = True
                            ret = (r > 0) == (lead_team == team)
                            retw = pdep(m, alive)
                        else:
                            st[d, _F_SLOT] = 1
                            st[d, _F_K1] = p1
                            st[d, _F_K2] = p2
                            st[d, _F_SIG] = sig
                            st[d, _F_TARGET] = wl
            elif pos == 1 and d > 0:
                # Second hand whose side needs only this trick: does it win it surely?
                seat = (leader + 1) & 3
                side = seat & 1
                nrem = popcount(h[seat])
                if side == team:
                    want = need
                elif kot:
                    want = 1
                else:
                    want = nrem - need + 1
                if want <= 1:
                    led_s = st[d, _F_LED]
                    lm = SUIT_MASK << (13 * led_s)
                    tmask = SUIT_MASK << (13 * trump)
                    third = h[(seat + 1) & 3]
                    ours = (h[seat] | h[(seat + 2) & 3]) & lm
                    third_ruffs = led_s != trump and (third & lm) == 0 and (third & tmask) != 0
                    if not third_ruffs:
                        if led_s != trump and (
                            ((h[seat] & lm) == 0 and (h[seat] & tmask) != 0)
                            or ((h[(seat + 2) & 3] & lm) == 0 and (h[(seat + 2) & 3] & tmask) != 0)
                        ):
                            decided, ret, retw = True, side == team, 0
                        elif ours != 0:
                            top = 1 << (63 - ctlz(ours))
                            if top > (1 << st[d, _F_BEST]) and top > (third & lm):
                                decided, ret, retw = True, side == team, top
            if decided:
                if d == 0:
                    return ret
                d -= 1
                entering = False
            else:
                seat = (leader + pos) & 3
                legal = legal_mask(h[seat], st[d, _F_LED])
                moves = _equivalents(legal, _alive(h) | st[d, _F_TCARDS])
                if pos == 0:
                    st[d, _F_M0] = _lead_list(h, moves, seat, trump, killer[d], lst, d, wts)
                    st[d, _F_M1] = 0
                    st[d, _F_M2] = -1
                elif pos == 1 and (h[seat] & (SUIT_MASK << (13 * st[d, _F_LED]))) != 0:
                    first = _second_first(h, moves, seat, trump, ctz(st[d, _F_TCARDS]))
                    st[d, _F_M0] = first
                    st[d, _F_M1] = moves ^ first
                    st[d, _F_M2] = 0
                elif (h[seat] & (SUIT_MASK << (13 * st[d, _F_LED]))) == 0:
                    st[d, _F_M0] = _void_list(
                        h,
                        moves,
                        pos,
                        seat,
                        st[d, _F_LED],
                        st[d, _F_BEST],
                        st[d, _F_BSEAT],
                        trump,
                        lst,
                        d,
                        wts,
                    )
                    st[d, _F_M1] = 0
                    st[d, _F_M2] = -1
                else:
                    m0, m1, m2 = _order(
                        h[(seat + 1) & 3],
                        moves,
                        pos,
                        seat,
                        st[d, _F_LED],
                        st[d, _F_BEST],
                        st[d, _F_BSEAT],
                        trump,
                        _alive(h) | st[d, _F_TCARDS],
                    )
                    st[d, _F_M0] = m0
                    st[d, _F_M1] = m1
                    st[d, _F_M2] = m2
                ret = (seat & 1) != team  # the value if no move reaches the goal
                entering = False
                st[d, _F_CARD] = -1
        else:
            # Back at depth d with ``ret`` and ``retw``: the value of the child
            # just searched and the cards it rests on (or, right after
            # entering, no child yet: CARD is -1).
            leader = st[d, _F_LEADER]
            pos = st[d, _F_POS]
            seat = (leader + pos) & 3
            maximize = (seat & 1) == team
            c = st[d, _F_CARD]
            done = False
            wnode = 0
            if c >= 0:
                h[seat] |= 1 << c
                wm = retw | st[d, _F_TW]
                # The card stood for its run of equivalent cards: if a failure
                # rests on any card of the run, it rests on all of it.
                sm = SUIT_MASK << (13 * (c // 13))
                if ret != maximize and wm & sm:
                    a = (_alive(h) | st[d, _F_TCARDS]) & sm
                    cp = pext(h[seat] & sm, a)
                    pc = popcount(a & ((1 << c) - 1))
                    low = 64 - ctlz(~cp & ((1 << pc) - 1))
                    if low < pc and wm & pdep(((2 << pc) - 1) & ~((1 << low) - 1), a):
                        wm |= pdep(1 << low, a)
                if ret == maximize:
                    done = True
                    wnode = wm
                    if pos == 0:
                        killer[d] = c
                else:
                    st[d, _F_W] |= wm
                    # A failed card below every card of its suit its result
                    # rested on stands for the hand's other such cards (as
                    # in DDS): they are small cards all the same, and fail too.
                    wsuit = wm & sm
                    lowest = wsuit & -wsuit
                    if (lowest == 0 or (1 << c) < lowest) and (st[d, _F_SKIP] & sm) == 0:
                        skip = sm & ((lowest - 1) if lowest else -1)
                        st[d, _F_SKIP] |= skip
                        if st[d, _F_M2] >= 0:
                            st[d, _F_M0] &= ~skip
                            st[d, _F_M1] &= ~skip
                            st[d, _F_M2] &= ~skip
            if not done:
                # The next move, if any.
                if st[d, _F_M2] < 0:
                    k = st[d, _F_M1]
                    while k < st[d, _F_M0] and (st[d, _F_SKIP] >> lst[d, k]) & 1:
                        k += 1
                    if k < st[d, _F_M0]:
                        c = lst[d, k]
                        st[d, _F_M1] = k + 1
                    else:
                        c = -1
                        ret = not maximize
                        done = True
                        wnode = st[d, _F_W]
                elif st[d, _F_M0] != 0:
                    mm = st[d, _F_M0]
                    c = 63 - ctlz(mm)
                    st[d, _F_M0] = mm ^ (1 << c)
                elif st[d, _F_M1] != 0:
                    mm = st[d, _F_M1]
                    c = ctz(mm)
                    st[d, _F_M1] = mm ^ (1 << c)
                elif st[d, _F_M2] != 0:
                    mm = st[d, _F_M2]
                    c = ctz(mm)
                    st[d, _F_M2] = mm ^ (1 << c)
                else:
                    c = -1
                    ret = not maximize
                    done = True
                    wnode = st[d, _F_W]
            if done:
                if st[d, _F_SLOT] >= 0:
                    alive = _alive(h)
                    mask = pext(_extend(wnode, alive), alive)
                    _tt_store(
                        tt_keys,
                        tt_vals,
                        st[d, _F_SIG],
                        st[d, _F_K1],
                        st[d, _F_K2],
                        mask,
                        popcount(h[leader]),
                        ret == ((leader & 1) == team),
                        st[d, _F_TARGET],
                    )
                retw = wnode
                if d == 0:
                    return ret
                d -= 1
                continue
            # Play card c and enter the child position.
            st[d, _F_CARD] = c
            st[d, _F_TW] = 0
            h[seat] ^= 1 << c
            need = st[d, _F_NEED]
            if pos == 0:
                nled = c // 13
                nbest = c
                nseat = seat
            else:
                nled = st[d, _F_LED]
                best = st[d, _F_BEST]
                if beats(c, best, trump):
                    nbest = c
                    nseat = seat
                else:
                    nbest = best
                    nseat = st[d, _F_BSEAT]
            e = d + 1
            if pos == 3:
                four = st[d, _F_TCARDS] | (1 << c)
                if popcount(four & (SUIT_MASK << (13 * (nbest // 13)))) > 1:
                    st[d, _F_TW] = 1 << nbest
                if (nseat & 1) == team:
                    need -= 1
                elif kot:
                    ret = False  # the run is broken: no need to look further
                    retw = 0
                    continue
                st[e, _F_LEADER] = nseat
                st[e, _F_POS] = 0
                st[e, _F_LED] = -1
                st[e, _F_BEST] = -1
                st[e, _F_BSEAT] = -1
                st[e, _F_TCARDS] = 0
            else:
                st[e, _F_LEADER] = leader
                st[e, _F_POS] = pos + 1
                st[e, _F_LED] = nled
                st[e, _F_BEST] = nbest
                st[e, _F_BSEAT] = nseat
                st[e, _F_TCARDS] = st[d, _F_TCARDS] | (1 << c)
            st[e, _F_NEED] = need
            d = e
            entering = True


@njit(inline="always")
def _trick_state(trump, leader, trick, ntrick):
    """``(led, best, best_seat, tcards)`` of a trick with ``ntrick`` cards played."""
    if ntrick == 0:
        return -1, -1, -1, 0
    led = trick[0] // 13
    best = trick[0]
    best_seat = leader
    tcards = 1 << trick[0]
    for k in range(1, ntrick):
        c = trick[k]
        tcards |= 1 << c
        if beats(c, best, trump):
            best = c
            best_seat = (leader + k) & 3
    return led, best, best_seat, tcards


@njit(cache=True)
def reach_nb(hands, trump, leader, trick, ntrick, team, need, kot, tt_keys, tt_vals, stats):
    """Whether ``team`` can take ``need`` of the remaining tricks, double dummy.

    Parameters
    ----------
    hands : int64[4]
        Cards each seat still holds (masks); not changed.
    trump, leader : int
        Trump suit 0..3 and the seat that led (or leads) the current trick.
    trick : int64[>=3]
        The cards already in the current trick, in play order, ``ntrick`` of them
        (0..3); the seat to move is ``(leader + ntrick) % 4``.
    team, need : int
        The question: can team ``team`` (0 or 1) win ``need`` tricks from here,
        the current trick included?
    kot : bool
        Ask instead whether it can win the next ``need`` tricks in a row.
    tt_keys, tt_vals : arrays from :func:`new_table`
        Transposition table, kept between calls.
    stats : int64[>=1]
        ``stats[0]`` is increased by the number of search nodes visited; with a
        second slot, a positive ``stats[1]`` is a node limit: past it the
        search gives up and returns False (``stats[0] > stats[1]`` tells);
        with a third, a positive ``stats[2]`` is a deadline in
        :func:`hokm_sim.dd.clock.now_ns` nanoseconds, treated the same way
        (the clock past it tells).
    """
    led, best, best_seat, tcards = _trick_state(trump, leader, trick, ntrick)
    h = hands.copy()
    # Typed values, never literals: numba compiles a copy of the search for each
    # constant a caller passes (a full deal's 0 cards in the trick, 7 tricks,
    # the Kot question), each as costly to compile as the first and no faster.
    return _search(
        h,
        trump,
        tt_keys,
        tt_vals,
        stats,
        leader,
        np.int64(ntrick),
        led,
        best,
        best_seat,
        tcards,
        team,
        np.int64(need),
        np.bool_(kot),
    )


@njit(cache=True)
def tricks_nb(hands, trump, leader, trick, ntrick, team, tt_keys, tt_vals, stats):
    """Double-dummy number of the remaining tricks (current one included) ``team`` takes.

    A binary search over zero-window searches; the table's bounds make the
    repeated searches cheap.
    """
    led, best, best_seat, tcards = _trick_state(trump, leader, trick, ntrick)
    h = hands.copy()
    nrem = popcount(h[(leader + ntrick) & 3])
    lo = 0
    hi = nrem
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if _search(
            h,
            trump,
            tt_keys,
            tt_vals,
            stats,
            leader,
            np.int64(ntrick),  # typed, not literal (see reach_nb)
            led,
            best,
            best_seat,
            tcards,
            team,
            mid,
            np.bool_(False),
        ):
            lo = mid
        else:
            hi = mid - 1
    return lo


@njit(cache=True)
def analyse_nb(hands, trump, leader, full, tt_keys, tt_vals, stats, out):
    """The ``hokm-sim dd`` questions for one deal at a trick boundary, into ``out``.

    ``out`` (int64[5]) gets team 0's and team 1's double-dummy tricks, whether
    the leader's team reaches 7, and with ``full`` (13 cards each) whether the
    leader's team can take the first 7 tricks in a row (Kot) and whether the
    other team can (Hakem Kot when the leader is the Hakem); -1 otherwise.
    """
    trick = np.zeros(3, np.int64)
    lt = leader & 1
    n = popcount(hands[leader])
    t = tricks_nb(hands, trump, leader, trick, 0, lt, tt_keys, tt_vals, stats)
    out[lt] = t
    out[1 - lt] = n - t
    out[2] = 1 if t >= 7 else 0
    out[3] = -1
    out[4] = -1
    if full:
        out[3] = (
            1
            if reach_nb(hands, trump, leader, trick, 0, lt, 7, True, tt_keys, tt_vals, stats)
            else 0
        )
        out[4] = (
            1
            if reach_nb(hands, trump, leader, trick, 0, 1 - lt, 7, True, tt_keys, tt_vals, stats)
            else 0
        )


@njit(cache=True, parallel=True)
def analyse_many_nb(hands, trump, leader, full, chunks, tt_bits, out, nodes):
    """:func:`analyse_nb` for every deal, ``chunks`` blocks of deals in parallel.

    ``hands`` int64[n, 4], ``trump``/``leader``/``full`` int64[n]; ``out``
    int64[n, 5]; ``nodes`` int64[chunks] gets each block's node count. Each
    block owns its transposition table of ``2**tt_bits`` slots.
    """
    n = hands.shape[0]
    size = -(-n // chunks)
    for b in prange(chunks):
        tt_keys, tt_vals = new_table(tt_bits)
        stats = np.zeros(1, np.int64)
        for i in range(b * size, min(n, (b + 1) * size)):
            analyse_nb(hands[i], trump[i], leader[i], full[i] != 0, tt_keys, tt_vals, stats, out[i])
        nodes[b] = stats[0]


@njit(cache=True)
def play_nb(hands, trump, leader, trick, ntrick, card):
    """Play ``card`` for the seat to move: ``(hands, leader, trick, ntrick, winner)``.

    Returns new arrays (the inputs are not changed). When the card completes
    the trick, the trick is cleared, its winner leads and ``winner`` is that
    seat; otherwise ``winner`` is -1.
    """
    seat = (leader + ntrick) & 3
    h = hands.copy()
    h[seat] ^= 1 << card
    t = np.zeros(3, np.int64)
    for k in range(ntrick):
        t[k] = trick[k]
    if ntrick < 3:
        t[ntrick] = card
        return h, leader, t, ntrick + 1, -1
    best = trick[0]
    best_seat = leader
    for k in range(1, 4):
        c = trick[k] if k < 3 else card
        if beats(c, best, trump):
            best = c
            best_seat = (leader + k) & 3
    return h, best_seat, np.zeros(3, np.int64), 0, best_seat


@njit(cache=True)
def card_values_nb(hands, trump, leader, trick, ntrick, tt_keys, tt_vals, stats, out):
    """Double-dummy value of every legal card of the seat to move, into ``out`` (int64[52]).

    ``out[c]`` is the number of the remaining tricks (the current one
    included) the mover's team takes after playing ``c`` with best play
    from then on; -1 for cards it may not play. Equivalent cards are solved
    once.
    """
    seat = (leader + ntrick) & 3
    team = seat & 1
    led = trick[0] // 13 if ntrick > 0 else -1
    legal = legal_mask(hands[seat], led)
    tcards = 0
    for k in range(ntrick):
        tcards |= 1 << trick[k]
    reps = _equivalents(legal, _alive(hands) | tcards)
    out[:] = -1
    m = reps
    while m != 0:
        c = 63 - ctlz(m)
        m ^= 1 << c
        h, nl, t, nt, w = play_nb(hands, trump, leader, trick, ntrick, c)
        won = 1 if w >= 0 and (w & 1) == team else 0
        out[c] = won + tricks_nb(h, trump, nl, t, nt, team, tt_keys, tt_vals, stats)
    # Every card takes the value of the run it belongs to (runs are topped by reps).
    for s in range(4):
        sm = SUIT_MASK << (13 * s)
        a = (_alive(hands) | tcards) & sm
        v = -1
        x = a
        while x != 0:
            c = 63 - ctlz(x)
            x ^= 1 << c
            if (legal >> c) & 1:
                if (reps >> c) & 1:
                    v = out[c]
                out[c] = v
            else:
                v = -1


@njit(cache=True, parallel=True)
def trump_study_nb(hands, hakem, chunks, tt_bits, out, nodes):
    """For each deal and each trump suit, whether the Hakem's team can force 7.

    ``hands`` int64[n, 4], ``hakem`` int64[n] (the Hakem leads); ``out``
    int64[n, 4] gets 1 or 0 per trump C, D, H, S; ``nodes`` int64[chunks] each
    block's node count. Blocks of deals run in parallel, each with its own
    table of ``2**tt_bits`` slots.
    """
    n = hands.shape[0]
    size = -(-n // chunks)
    for b in prange(chunks):
        tt_keys, tt_vals = new_table(tt_bits)
        stats = np.zeros(1, np.int64)
        trick = np.zeros(3, np.int64)
        for i in range(b * size, min(n, (b + 1) * size)):
            for s in range(4):
                ok = reach_nb(
                    hands[i], s, hakem[i], trick, 0, hakem[i] & 1, 7, False, tt_keys, tt_vals, stats
                )
                out[i, s] = 1 if ok else 0
        nodes[b] = stats[0]
