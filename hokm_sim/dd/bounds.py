"""Sure tricks: bounds that decide a position of the double-dummy search without searching it.

Each gives the tricks a side is sure of and the cards the bound rests on
(its top cards), which the search's partition and the table keep
(:mod:`hokm_sim.dd.search`, :mod:`hokm_sim.dd.table`). Bounds are for both
sides, and a bound stops counting at the tricks the question needs, so that
it rests on as few top cards as it can (a result that rests on fewer cards
serves more positions from the table):

- :func:`quick_tricks`: the top cards the leader can cash before an
  opponent with trumps runs out of the suit, then a card to partner's top
  cards of a suit the opponents cannot ruff or to partner's ruff (while
  partner has other cards to play under the leader's); with the top trumps
  to draw the opponents' trumps, every trump the leader holds and its side
  suits' top cards (up to partner's length while partner may have to
  ruff). After DDS's ``QuickTricks`` (``src/QuickTricks.cpp`` of
  bo-haglund/dds);
- :func:`trump_run_tricks`: each team's run of top trumps, ``min(run,
  longer trump holding)`` of them when the run is split between its two
  hands (the longer hand plays a lower trump whenever the other plays one
  of the run);
- :func:`guarded_trump`: when the leader's team needs every trick, the
  other team's guarded second trump sitting just after the top one, or its
  second and third trumps;
- :func:`second_hand_trick`: a second hand whose side needs only the
  current trick and surely wins it (by ruffing, or with the top card of the
  suit the third hand cannot ruff), after DDS's ``QuickTricksSecondHand``;
- :func:`last_trick`: the last trick, counted directly.
"""

from __future__ import annotations

from numba import njit

from hokm_sim.dd.bits import pdep, pext
from hokm_sim.engine.bits import bit_length, ctz, highest, popcount, suit_mask
from hokm_sim.engine.rules import beats
from hokm_sim.inlining import HELPERS


@njit(inline=HELPERS)
def alive_cards(h):
    return h[0] | h[1] | h[2] | h[3]


@njit(inline=HELPERS)
def holder(h, card_bit):
    """Seat holding a card (-1 for none)."""
    for k in range(4):
        if h[k] & card_bit:
            return k
    return -1


@njit(inline=HELPERS)
def top_run(mine, alive):
    """How many of the highest alive cards of one suit are in ``mine``."""
    n = popcount(alive)
    if n == 0:
        return 0
    c = pext(mine, alive)
    gaps = ~c & ((1 << n) - 1)
    # Leading ones of the n-bit value c: n minus the bit length of its gaps.
    return n - bit_length(gaps)


@njit(inline=HELPERS)
def top_cards(alive_s, k):
    """The ``k`` highest cards of ``alive_s`` (one suit's alive cards)."""
    n = popcount(alive_s)
    return pdep(((1 << k) - 1) << (n - k), alive_s)


@njit(inline=HELPERS)
def quick_tricks(h, trump, leader, kot, want):
    """Tricks the leader's team can cash from the top, the leader leading (in a row with ``kot``).

    After DDS's ``QuickTricks`` (``src/QuickTricks.cpp``), for a trump game.

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
    alive = alive_cards(h)
    nme = popcount(me)
    tmask = suit_mask(trump)
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
        sm = suit_mask(s)
        mine = me & sm
        if mine == 0:
            continue
        run = top_run(mine, alive & sm)
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
            sup |= top_cards(alive & sm, run)
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
    t = top_run(mine_t, tm)
    if t > 0 and t >= popcount(o1 & tmask) and t >= popcount(o2 & tmask):
        pt_left = popcount(partner & tmask) - t
        tot2 = t
        if not kot or pt_left <= 0:
            tot2 += popcount(mine_t) - t
        sup2 = top_cards(tm, t)
        if tot2 < want:
            for s in range(4):
                if s == trump:
                    continue
                sm = suit_mask(s)
                mine = me & sm
                if mine == 0:
                    continue
                run = top_run(mine, alive & sm)
                if pt_left > 0:
                    run = min(run, popcount(partner & sm))
                if run > 0:
                    run = min(run, want - tot2)
                    tot2 += run
                    sup2 |= top_cards(alive & sm, run)
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
            sm = suit_mask(s)
            if (me & sm) == 0:
                continue
            a = alive & sm
            r1 = s != trump and (o1 & sm) == 0 and (o1 & tmask) != 0
            r2 = s != trump and (o2 & sm) == 0 and (o2 & tmask) != 0
            if r1 or r2:
                continue
            ps = partner & sm
            if ps != 0:
                run = top_run(ps, a)
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
                        sup = (own_sup if base else 0) | top_cards(a, run)
                        if total >= want:
                            return total, sup
            elif s != trump and pt != 0:
                # (the leader's own tops are not in this suit when it lacks its top card)
                top = 1 << highest(a)
                base = own if (pt > own_t and pside >= own - own_t and (me & top) == 0) else 0
                if base + 1 > total:
                    total = base + 1
                    sup = own_sup if base else 0
                    if total >= want:
                        return total, sup
    return total, sup


@njit(inline=HELPERS)
def trump_run_tricks(h, trump, team, want):
    """Tricks ``team`` is sure of with the top trumps it holds, and those trumps.

    Every card in the run of highest alive trumps held by ``team`` wins the
    trick it falls on (only a higher trump, also the team's, can beat it),
    and one hand's cards fall on different tricks: a lower bound of
    ``max`` over the team's two hands of their cards in that run. When a
    hand has ``want`` of them, the trumps it rests on are only those down to
    that hand's ``want``-th (of the two hands, the one that needs fewer).
    """
    tm = suit_mask(trump)
    ours = (h[team] | h[team + 2]) & tm
    alive = alive_cards(h) & tm
    run = top_run(ours, alive)
    if run == 0:
        return 0, 0
    top = top_cards(alive, run)
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


@njit(inline=HELPERS)
def guarded_trump(h, trump, team):
    """The trumps behind a trick ``team`` is sure of though the other team holds
    the top trump (0 when there is none).

    ``team`` holds the second trump with a guard, and either the top trump's
    holder plays just before that hand (its holder sees the top trump fall or
    not before it plays, so it ducks under it or wins with the second) or
    ``team`` holds the third trump too (the top trump takes only one of them).
    """
    tm = suit_mask(trump)
    alive = alive_cards(h) & tm
    if popcount(alive) < 2:
        return 0
    top = 1 << highest(alive)
    rest = alive ^ top
    second = 1 << highest(rest)
    a = holder(h, top)
    k = holder(h, second)
    if (a & 1) == team or (k & 1) != team or popcount(h[k] & tm) < 2:
        return 0
    if a == (k + 3) & 3:
        return top | second
    rest ^= second
    if rest != 0:
        third = 1 << highest(rest)
        if (holder(h, third) & 1) == team:
            return top | second | third
    return 0


@njit(inline=HELPERS)
def last_trick(h, trump, leader):
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
    sm = suit_mask(best // 13)
    return best_seat, (1 << best) if popcount(alive_cards(h) & sm) > 1 else 0


@njit(inline=HELPERS)
def second_hand_trick(h, trump, seat, led, best):
    """Whether the side of ``seat``, second to a trick led in suit ``led`` (winning card
    so far ``best``), surely wins it, and the card that rests on (0 for a ruff).

    It does when the third hand cannot ruff and either hand of the side can (a
    side suit led), or the side holds a card of the suit above the led card and
    every card of the third hand there. After DDS's ``QuickTricksSecondHand``
    (``src/QuickTricks.cpp``).
    """
    lm = suit_mask(led)
    tmask = suit_mask(trump)
    third = h[(seat + 1) & 3]
    partner = h[(seat + 2) & 3]
    if led != trump and (third & lm) == 0 and (third & tmask) != 0:
        return False, 0
    if led != trump and (
        ((h[seat] & lm) == 0 and (h[seat] & tmask) != 0)
        or ((partner & lm) == 0 and (partner & tmask) != 0)
    ):
        return True, 0
    ours = (h[seat] | partner) & lm
    if ours != 0:
        top = 1 << highest(ours)
        if top > (1 << best) and top > (third & lm):
            return True, top
    return False, 0


@njit(inline=HELPERS)
def lead_bound(h, trump, leader, team, need, kot):
    """Whether the bounds decide, at a trick boundary with ``leader`` to lead, if ``team``
    can take ``need`` of the remaining tricks (the next ``need`` in a row with ``kot``).

    Returns ``(decided, answer, cards it rests on, wl)``, ``wl`` being the tricks
    the leader's team must take for the answer to be yes for it (the table's
    question too: bounds and table entries are on the leader's team's tricks,
    in a row with ``kot``). Counted: the last trick; the leader's cashable top
    cards (:func:`quick_tricks`, in a row); without ``kot``, each team's top
    trumps (:func:`trump_run_tricks`) and, when the leader's team needs every
    trick, the other team's guarded trump (:func:`guarded_trump`).
    """
    lead_team = leader & 1
    nrem = popcount(h[leader])
    if need <= 0:
        return True, True, 0, 0
    if need > nrem:
        return True, False, 0, 0
    if nrem == 1:
        ws, rests = last_trick(h, trump, leader)
        return True, (ws & 1) == team, rests, 0
    wl = need if lead_team == team else nrem - need + 1
    if kot:
        qt, qsup = quick_tricks(h, trump, leader, kot, wl if lead_team == team else 1)
        if lead_team == team:
            if qt >= need:
                return True, True, qsup, wl
        elif qt > 0:
            return True, False, qsup, wl
        return False, False, 0, wl
    qt, qsup = quick_tricks(h, trump, leader, kot, wl)
    if qt < wl:
        tl, tlsup = trump_run_tricks(h, trump, lead_team, wl)
        if tl >= wl:
            qt, qsup = tl, tlsup
    if qt >= wl:
        return True, lead_team == team, qsup, wl
    wo = nrem + 1 - wl
    to, tosup = trump_run_tricks(h, trump, 1 - lead_team, wo)
    if to >= wo:
        return True, lead_team != team, tosup, wl
    if wl == nrem:
        gsup = guarded_trump(h, trump, 1 - lead_team)
        if gsup != 0:
            return True, lead_team != team, gsup, wl
    return False, False, 0, wl
