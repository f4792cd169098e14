"""Hunts the Kot when the opponents have no trick, fights for one when they hunt it.

Trump (the Hakem sees five cards): the highest ``length x cards + strength
x honour points`` (A4 K3 Q2 J1), defaults 3 and 2: a strong suit for a
hand that wants every trick.

Most of a hand it plays a steady game. Leading: a sure side-suit winner
(nothing unseen above it) where no opponent may ruff; on the Hakem's team
the master trump while an opponent may hold one; the lowest card of the
longest safe side suit. Following suit: partner winning, low; second hand
low unless it holds a sure winner; third hand the cheapest card as good as
its highest when that beats the trick; fourth hand the cheapest winner.
Void: the cheapest trump that beats an opponent's card (second hand only
over a jack or better); discards the lowest card that is not a sure winner.

Two moments change its play, both about the Kot (7 tricks to 0: 2 points,
3 against the Hakem's team):

- **Hunting**: its team has ``hunt`` tricks or more (default 3) and the
  opponents none. Every trick now counts: it leads its master trump or
  draws trumps while holding more than are unseen, takes tricks second
  hand, overtakes a partner whose card is not sure to win with a sure
  winner of its own, and ruffs high enough that the left-hand opponent
  cannot overruff.
- **Fending off**: its team has no trick and the opponents ``fend`` or
  more (default 4). It plays the same way for one trick: a single trick
  turns the Kot into a plain loss.

In a match, when a Kot would settle it (the Kot's points reach the target
and a plain win's would not), the hunt and the fight start a trick earlier.

Why: a Kot is worth a plain win and a half or more, and the hands where
one is in reach are the ones where a steady player lets the last trick
go to save a card it will never need.
"""

from hokm_sim.bots.botkit import (
    FULL_DECK,
    V_HAKEM,
    V_HAND,
    V_LED,
    V_NTRICK,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_TARGET,
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
    suit_mask,
    suit_of,
)
from hokm_sim.strategies._tips import (
    cheap_top,
    follow_by_seat,
    is_master,
    longest_of,
    master_trump_lead,
    ruff_threats,
    safest_master,
    seat_voids,
    side_masters,
    suits_held,
    weighted_trump,
    winning_trumps,
)

DESCRIPTION = "steady play, all out for every trick when a Kot is in reach, either way"
PARAMS = {"length": 3.0, "strength": 2.0, "hunt": 3.0, "fend": 4.0}

RUFF_SECOND = 9
"""Second hand ruffs a lead only from this rank up (9 = jack), outside a Kot fight."""


@njit
def choose_trump(view, params, mem, rng):
    """Highest ``length * cards + strength * honour points`` among the five."""
    return weighted_trump(view[V_HAND], params[0], params[1])


@njit
def _all_out(view, params, me):
    """Whether a Kot is in reach for either team: every trick counts now."""
    team = me & 1
    ours = view[V_TRICKS + team]
    theirs = view[V_TRICKS + 1 - team]
    hunt = params[2]
    fend = params[3]
    target = view[V_TARGET]
    if target > 0:
        hakem_side = (view[V_HAKEM] & 1) == team
        kot_us = 2 if hakem_side else 3
        kot_them = 3 if hakem_side else 2
        us = view[V_SCORES + team]
        them = view[V_SCORES + 1 - team]
        if us + 1 < target <= us + kot_us:
            hunt -= 1
        if them + 1 < target <= them + kot_them:
            fend -= 1
    return (theirs == 0 and ours >= hunt) or (ours == 0 and theirs >= fend)


@njit
def _lead(hand, trump, out, me, hakem, voids, fight):
    lho = (me + 1) & 3
    rho = (me + 3) & 3
    t_out = suit_cards(out, trump)
    danger = ruff_threats(voids, lho, t_out, trump) | ruff_threats(voids, rho, t_out, trump)
    c = safest_master(side_masters(hand, out, trump), out, danger)
    if c >= 0:
        return c
    if fight or (me & 1) == (hakem & 1):
        c = master_trump_lead(hand, trump, out, voids, me)
        if c >= 0:
            return c
    mine = suit_cards(hand, trump)
    both_void = ((seat_voids(voids, lho) & seat_voids(voids, rho)) >> trump) & 1
    if fight and mine != 0 and not both_void and popcount(mine) > popcount(t_out) > 0:
        return lowest(mine)
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    ok = suits_held(side) & ~danger
    if ok == 0:
        return lowest(mine) if mine != 0 else lowest_by_rank(side)
    return lowest(suit_cards(side, longest_of(side, ok)))


@njit
def _follow(follow, led, win, pos, mine, out, lho_ruffs, fight):
    """By seat; in a fight second hand high, and partner's unsure card made sure."""
    if fight and mine and pos < 3 and not lho_ruffs and suit_of(win) == led:
        out_led = suit_cards(out, led)
        higher = follow & above(win)
        if higher != 0 and not is_master(win, out_led):
            c = cheap_top(higher, out_led)
            if is_master(c, out_led):
                return c
    return follow_by_seat(follow, led, win, pos, mine, out, fight)


@njit
def _ruff(hand, led, win, pos, mine, trump, out, lho_overruffs, fight):
    trumps = suit_cards(hand, trump)
    if trumps == 0 or mine:
        return -1
    need = winning_trumps(trumps, win, trump)
    if need == 0:
        return -1
    if pos == 1 and not fight and rank_of(win) < RUFF_SECOND:
        return -1
    if fight and lho_overruffs:
        sure = need & above(highest(suit_cards(out, trump)))
        return lowest(sure) if sure != 0 else highest(need)
    return lowest(need)


@njit
def play_card(view, params, mem, rng):
    """Steady play; all out for each trick while either team's Kot is in reach."""
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    me = view[V_SEAT]
    voids = view[V_VOIDS]
    out = FULL_DECK & ~view[V_PLAYED] & ~hand
    fight = _all_out(view, params, me)
    if led < 0:
        return _lead(hand, trump, out, me, view[V_HAKEM], voids, fight)
    win = view[V_WIN_CARD]
    pos = view[V_NTRICK]
    mine = view[V_WIN_SEAT] == ((me + 2) & 3)
    lv = seat_voids(voids, (me + 1) & 3)
    lho_ruffs = (
        pos < 3
        and led != trump
        and (lv >> led) & 1 == 1
        and (lv >> trump) & 1 == 0
        and suit_cards(out, trump) != 0
    )
    follow = suit_cards(hand, led)
    if follow != 0:
        return _follow(follow, led, win, pos, mine, out, lho_ruffs, fight)
    c = _ruff(hand, led, win, pos, mine, trump, out, lho_ruffs, fight)
    if c >= 0:
        return c
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    rest = side & ~side_masters(hand, out, trump)
    return lowest_by_rank(rest if rest != 0 else side)
