"""The moves of a double-dummy position and the order the search tries them in.

Cards of one hand that are adjacent in rank among the cards still alive (in
hands or on the table) are one move (:func:`equivalents`): holding K and Q
once the A has gone is one choice, not two. The order follows the weight
functions of DDS's move generator (``Moves`` in ``src/Moves.cpp`` of
bo-haglund/dds, its trump-game functions: a Hokm hand always has trump),
each function here naming the one whose weights it takes:

- a lead: :func:`lead_order`, ``Moves::WeightAllocTrump0``;
- a second hand following suit: :func:`second_hand_first`,
  ``Moves::WeightAllocTrumpNotvoid1``, its best card first and the others
  from the lowest up;
- a third or fourth hand following suit: :func:`follow_order`, a third
  hand as ``Moves::WeightAllocTrumpNotvoid2`` (and ``Moves::RankForcesAce``
  for making the fourth spend its top cards), the others as
  ``Moves::WeightAllocCombinedNotvoid3``;
- a hand void in the led suit: :func:`void_order`,
  ``Moves::WeightAllocTrumpVoid3`` and, for ruffing partner's card,
  ``Moves::WeightAllocTrumpVoid2``.

Left out because they did not pay: trying the table's stored best lead
first; the whole of DDS's order for a second hand (sorting every card costs
more than it saves over trying its best card first); DDS's weights for a
hand void in the led suit seat by seat (more nodes than
:func:`void_order`); a killer move for followers and for leads ahead of the
weights; cards of a hand counted as equivalent across cards of the current
trick other than the winning one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from hokm_sim.dd.bits import pdep, pext
from hokm_sim.dd.bounds import alive_cards, holder
from hokm_sim.engine.bits import bit_length, ctz, highest, popcount, suit_mask
from hokm_sim.inlining import HELPERS


@njit(inline=HELPERS)
def equivalents(cards, alive):
    """One card of each run of ``cards`` adjacent in rank among ``alive``.

    Keeps the highest card of each run, suit by suit.
    """
    # Packed in rank order among the alive cards, a run's top card is one
    # whose next alive card up is not ours (suits kept apart by their own bit).
    out = 0
    for s in range(4):
        sm = suit_mask(s)
        x = cards & sm
        if x != 0:
            a = alive & sm
            c = pext(x, a)
            out |= pdep(c & ~(c >> 1), a)
    return out


@njit(inline=HELPERS)
def _ruffs(hand, sm, tmask):
    """Whether a hand is void in a suit and holds a trump."""
    return (hand & sm) == 0 and (hand & tmask) != 0


@njit(inline=HELPERS)
def _insert(out, row, wts, n, c, w):
    """Card ``c`` of weight ``w`` into the list ``out[row, :n]`` kept in falling weight
    (``wts``), after the cards of equal weight; returns the new length."""
    k = n
    while k > 0 and wts[k - 1] < w:
        wts[k] = wts[k - 1]
        out[row, k] = out[row, k - 1]
        k -= 1
    wts[k] = w
    out[row, k] = c
    return n + 1


@njit(cache=True)
def lead_order(h, moves, seat, trump, killer, out, row, wts):
    """The leads in ``moves`` in the order to try them, into ``out[row]``; returns how many.

    The weights of DDS's ``Moves::WeightAllocTrump0`` (leads in a trump
    game): a lead that should win the trick (cashing the suit's top card, a
    card to partner's top card, partner's ruff), which of the four hands hold
    the suit's top three cards, who can ruff, few cards for the opponents to
    choose from; ranks are relative (1 for the suit's top alive card). The
    lead that last cut the search off at this depth (``killer``) is preferred,
    by a bonus of its own.
    """
    tmask = suit_mask(trump)
    alive = alive_cards(h)
    lho = (seat + 1) & 3
    pd = (seat + 2) & 3
    rho = (seat + 3) & 3
    nrem = popcount(h[seat])
    tp = h[pd] & tmask
    tlh = h[lho] & tmask
    trh = h[rho] & tmask
    n = np.int64(0)  # typed: a literal 0 would compile _insert for n == 0 too
    for s in range(4):
        sm = suit_mask(s)
        x = moves & sm
        if x == 0:
            continue
        side = s != trump
        a = alive & sm
        len_l = popcount(h[seat] & sm)
        len_lh = popcount(h[lho] & sm)
        len_rh = popcount(h[rho] & sm)
        len_p = popcount(h[pd] & sm)
        top = 1 << highest(a)
        a2 = a ^ top
        second_bit = (1 << highest(a2)) if a2 else 0
        a3 = a2 ^ second_bit
        third_bit = (1 << highest(a3)) if a3 else 0
        win_h = holder(h, top)
        sec_h = holder(h, second_bit) if second_bit else -1
        thi_h = holder(h, third_bit) if third_bit else -1
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
            c = highest(x)
            b = 1 << c
            x ^= b
            delta = bonus
            rrank = 1 + popcount(a & ~((b << 1) - 1))
            below = a & (b - 1)
            seq = below != 0 and (h[seat] >> highest(below)) & 1 == 1
            win = False
            if b == top:
                if not side:
                    win = True
                elif len_p != 0 or tp == 0:
                    win = (len_lh != 0 or tlh == 0) and (len_rh != 0 or trh == 0)
                else:
                    win = (len_lh != 0 or tp > tlh) and (len_rh != 0 or tp > trh)
            elif p_top > o_top and highest(p_top | 1) > highest(o_top | 1):
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
            n = _insert(out, row, wts, n, c, w)
    return n


@njit(inline=HELPERS)
def second_hand_first(h, moves, seat, trump, lead_card):
    """Second hand following suit: the card to try first, by the weights of DDS's
    ``Moves::WeightAllocTrumpNotvoid1``.

    The weights tell whether a card can win the trick for the side (it beats
    the led card and the third hand's, or the fourth hand can), and prefer
    then the cheapest card that does (ducking when partner, fourth, wins
    anyway), else the lowest card. Only the first card matters much: the
    rest are tried from the lowest up.
    """
    led = lead_card // 13
    lm = suit_mask(led)
    tm = suit_mask(trump)
    leader = (seat + 3) & 3
    third = h[(seat + 1) & 3]
    fourth = h[(seat + 2) & 3]
    c3 = third & lm
    c4 = fourth & lm
    max3rd = highest(c3) % 13 + 2 if c3 else 0
    min3rd = ctz(c3) % 13 + 2 if c3 else 0
    maxpd = highest(c4) % 13 + 2 if c4 else 0
    minpd = ctz(c4) % 13 + 2 if c4 else 0
    r0 = lead_card % 13 + 2
    alive = alive_cards(h) & lm
    t3 = third & tm
    t4 = fourth & tm
    lead_over = (h[leader] & lm) > c4
    bw = -(1 << 30)  # below every weight: the first card sets it
    best = 0
    x = moves
    while x != 0:
        c = highest(x)
        b = 1 << c
        x ^= b
        r = c % 13 + 2
        rrank = 1 + popcount(alive & ~((b << 1) - 1))
        below = alive & (b - 1)
        seq = below != 0 and (h[seat] >> highest(below)) & 1 == 1
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
def void_order(h, moves, pos, seat, led, best, best_seat, trump, out, row, wts):
    """A follower void in the led suit: its cards in the order to try them, into ``out[row]``.

    Weights after DDS's ``Moves::WeightAllocTrumpVoid3`` (the fourth hand's,
    used here for the second and third too): with partner winning, discard
    low from long suits (not from a guarded second-best card) rather than
    ruff; else ruff as cheaply as wins, then discard the same way;
    under-ruffs last. A third hand whose partner's card the fourth hand may
    still beat ruffs it, as in ``Moves::WeightAllocTrumpVoid2``.
    """
    alive = alive_cards(h)
    me = h[seat]
    ours = (best_seat & 1) == (seat & 1)
    bs = best // 13
    tmask = suit_mask(trump)
    lm = suit_mask(led)
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
    n = np.int64(0)
    for s in range(4):
        sm = suit_mask(s)
        x = moves & sm
        if x == 0:
            continue
        ln = popcount(me & sm)
        val = (ln << 6) // 24
        a = alive & sm
        if ln == 2 and popcount(a) >= 2:
            second = 1 << highest(a ^ (1 << highest(a)))
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
            n = _insert(out, row, wts, n, c, w)
    return n


@njit(inline=HELPERS)
def follow_order(nxt_hand, moves, pos, seat, led, best, best_seat, trump, alive_t):
    """Split a third or fourth hand's moves (following suit) into three masks tried in order.

    The first mask holds at most one card, tried from its top. A third hand
    following the suit of the winning card as in DDS's
    ``Moves::WeightAllocTrumpNotvoid2``: the cheapest card the fourth hand
    cannot beat when it is needed, else (``Moves::RankForcesAce``) the card
    that makes the fourth spend its top cards, else low. Otherwise, as in
    ``Moves::WeightAllocCombinedNotvoid3``: partner winning, low cards,
    trumps last; an opponent winning, the cheapest card that beats it first,
    then low losing cards, then the rest. (Leads are
    ordered by :func:`lead_order`, a second hand following suit by
    :func:`second_hand_first`, a hand void in the led suit by :func:`void_order`.)
    """
    tmask = suit_mask(trump)
    bs = best // 13
    if pos == 2 and bs == led and (moves & suit_mask(bs)) == moves:
        # Third hand following the suit of the winning card (as DDS): win
        # with the cheapest card the fourth hand cannot beat, when there is one
        # and it is needed; else low.
        nxt = nxt_hand & suit_mask(bs)
        top = 1 << highest(moves)
        if nxt == 0:
            if (best_seat & 1) == (seat & 1):
                return 0, moves, 0
            above = moves & ~((2 << best) - 1)
            first = above & -above
            return first, moves ^ first, 0
        max4 = 1 << highest(nxt)
        if ((best_seat & 1) == (seat & 1) and (1 << best) > max4) or top < (nxt & -nxt):
            return 0, moves, 0
        if top > max4 and top > (1 << best):
            above = moves & ~((max4 << 1) - 1) & ~((2 << best) - 1)
            first = above & -above
            return first, moves ^ first, 0
        if top > (1 << best):
            # The fourth hand wins: make it spend its top cards (as DDS),
            # playing just over its best card below them.
            a = alive_t & suit_mask(bs)
            p4 = pext(nxt, a)
            n4 = popcount(a)
            gaps = ~p4 & ((1 << n4) - 1)
            below = p4 & ((1 << bit_length(gaps)) - 1)
            first = 0
            if below != 0:
                sec4 = pdep(1 << highest(below), a)
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
    winners = moves & ((suit_mask(bs) & above_best) | (tmask if bs != trump else 0))
    first = winners & -winners
    second = moves & ~winners & ~tmask
    return first, second, (moves ^ first) & ~second
