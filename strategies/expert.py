"""Every tip together, plus seat-aware following and sensible leads: the strongest built-in.

Trump (the Hakem sees five cards): length first, then strength -- the suit
with the highest ``length x cards + strength x honour points`` (A4 K3 Q2 J1),
defaults 4 and 1, so one more card weighs as much as an ace (see
``weighted``; the weights can be set, ``expert(length=1,strength=0)`` is the
longest-suit rule).

Leading, first that applies:

1. cash a sure side-suit winner (``early``/``aces``: no unseen card of its
   suit above it; the cheapest such card), in a suit where no opponent has
   shown void with trumps possibly left, preferring the suit with the most
   unseen cards;
2. on the Hakem's team, draw trumps (``trumps``): the master trump, or the
   lowest trump when holding more than are unseen, while an opponent may
   still hold one;
3. a suit partner has shown void in while partner may hold trumps and the
   right-hand opponent (last to play) has not shown it can overruff, so
   partner ruffs;
4. holding trumps, the shortest safe side suit (to make a void to ruff);
   otherwise the longest; never a suit an opponent may ruff when there is
   another; then the lowest trump.

Following suit (``partner``, ``early``): never over a partner's sure winner
(nothing unseen above it and the left-hand opponent cannot ruff); second hand
low, unless it holds a sure winner; third hand plays the cheapest card as
good as its highest when that beats the trick (also over partner's card
when it is not safe and the higher card gains); fourth hand wins as cheaply as
possible or plays lowest. Void (``ruff``): never trumps the partner's trick;
over an opponent's, the cheapest trump that wins, the cheapest sure one when
the left-hand opponent may overruff; second hand does not ruff a lead below
the jack (partner, last to play, may win it). Discards keep sure winners and
come from the shortest side suit while holding trumps (to make voids).

Facing a Kot (``kotfight``: us 0 tricks, them ``KOT_THREAT`` or more), second
hand takes with its best card and ruffs with its highest trump.

Why these choices: each was measured in duplicate, ``expert`` against
``expert`` with one choice taken out (200,000 deals, hand-win rate of the
weakened bot): without ruffing 35.3%, without cashing sure winners first
47.6%, without short-suit discards 49.3%, without short-suit leads 49.7%,
without second hand taking sure winners 49.8%, without drawing trumps 49.9%
(and 0.012 points a hand less). Drawing trumps on the defenders' side too,
third hand ruffing partner's unsafe card and fighting a Kot from 4 tricks on
all measured worse; the Kot fight at 6 and the lead for partner's ruff are
rare and neutral (50.0%), kept because they cost nothing.

Speed: the helpers take integers read once from the view and pick cards
with selects and ``max`` over per-suit keys rather than data-dependent
branches.
"""

from hokm_sim.bots.botkit import (
    FULL_DECK,
    V_HAKEM,
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
    ctz,
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
    is_master,
    ruff_threats,
    safest_master,
    seat_voids,
    side_masters,
    suit_key,
    suits_held,
    weighted_trump,
)

DESCRIPTION = "all tips together plus seat-aware following and leads (the strongest built-in)"
PARAMS = {"length": 4.0, "strength": 1.0}

KOT_THREAT = 6
"""Fight for a trick when we have none and the other team has at least this many."""
RUFF_SECOND = 9
"""Second hand ruffs a lead only from this rank up (9 = jack)."""


@njit
def choose_trump(view, params, mem, rng):
    """Highest ``length * cards + strength * honour points`` among the five."""
    return weighted_trump(view[V_HAND], params[0], params[1])


@njit
def _short_key(m, s, eligible):
    """``4 * (13 - cards of suit s) + 3 - s`` if ``eligible``, else -1 (max: fewest, lower)."""
    n = popcount(suit_cards(m, s))
    return ((13 - n) * 4 + 3 - s) if eligible else -1


@njit
def _discard(hand, trump, out):
    """Keep sure winners; holding trumps, discard from the shortest side suit, else lowest."""
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    rest = side & ~side_masters(hand, out, trump)
    if rest == 0:
        return lowest_by_rank(side)
    if suit_cards(hand, trump) == 0:
        return lowest_by_rank(rest)
    has = suits_held(rest)
    k = max(
        max(_short_key(hand, 0, has & 1), _short_key(hand, 1, (has >> 1) & 1)),
        max(_short_key(hand, 2, (has >> 2) & 1), _short_key(hand, 3, (has >> 3) & 1)),
    )
    return lowest(suit_cards(rest, 3 - (k & 3)))


@njit
def _draw(voids, hand, trump, out, lho, rho):
    """The trump to lead to draw the opponents' trumps, or -1."""
    mine = suit_cards(hand, trump)
    if mine == 0:
        return -1
    t_out = suit_cards(out, trump)
    if t_out == 0 or ((seat_voids(voids, lho) & seat_voids(voids, rho)) >> trump) & 1:
        return -1
    top = highest(mine)
    if is_master(top, t_out):
        return top
    if popcount(mine) > popcount(t_out):
        return lowest(mine)
    return -1


@njit
def _lead(hand, trump, out, me, hakem, voids):
    lho = (me + 1) & 3
    partner = (me + 2) & 3
    rho = (me + 3) & 3
    t_out = suit_cards(out, trump)
    danger = ruff_threats(voids, lho, t_out, trump) | ruff_threats(voids, rho, t_out, trump)
    c = safest_master(side_masters(hand, out, trump), out, danger)
    if c >= 0:
        return c
    if (me & 1) == (hakem & 1):
        c = _draw(voids, hand, trump, out, lho, rho)
        if c >= 0:
            return c
    # A suit partner is void in while partner may ruff and the right-hand
    # opponent (last to play) has not shown it can overruff.
    pv = seat_voids(voids, partner)
    if t_out != 0 and not (pv >> trump) & 1:
        pv &= ~ruff_threats(voids, rho, t_out, trump) & suits_held(hand)
        if pv != 0:
            return lowest(suit_cards(hand, ctz(pv)))
    side = hand & ~suit_mask(trump)
    if side == 0:
        return lowest(hand)
    # Holding trumps, the shortest safe side suit (to ruff it later); else the
    # longest; ties to the lower suit. Branch-free: keys compared with max.
    ok = suits_held(side) & ~danger
    if ok == 0:
        mine = suit_cards(hand, trump)
        if mine != 0:
            return lowest(mine)
        return lowest_by_rank(side)
    if suit_cards(hand, trump) != 0:
        # shortest: maximise (13 - n) * 4 + (3 - s)
        k = max(
            max(_short_key(side, 0, ok & 1), _short_key(side, 1, (ok >> 1) & 1)),
            max(_short_key(side, 2, (ok >> 2) & 1), _short_key(side, 3, (ok >> 3) & 1)),
        )
    else:
        k = max(
            max(suit_key(side, 0, ok & 1), suit_key(side, 1, (ok >> 1) & 1)),
            max(suit_key(side, 2, (ok >> 2) & 1), suit_key(side, 3, (ok >> 3) & 1)),
        )
    return lowest(suit_cards(side, 3 - (k & 3)))


@njit
def _follow(follow, led, win, pos, mine, trump, out, lho, voids, kot):
    """Following suit: the card to play (written branch-free: selects, not jumps)."""
    low = lowest(follow)
    out_led = suit_cards(out, led)
    h = highest(follow)
    hb = highest(out_led & ((1 << h) - 1))
    c = lowest(follow & ~((1 << (hb + 1)) - 1))
    higher = follow & above(win)
    not_trumped = (led == trump) | (suit_of(win) != trump)
    lv = voids >> (4 * lho)
    lho_ruffs = (
        (led != trump)
        & ((lv >> led) & 1 != 0)
        & ((lv >> trump) & 1 == 0)
        & (suit_cards(out, trump) != 0)
    )
    beats = c > win
    win_safe = (out_led & above(win)) == 0
    gain = (out_led & above(win) & ~above(c)) != 0
    sure = (out_led & above(c)) == 0
    take_mine = gain & (not win_safe)
    take_opp = (pos == 2) | kot | sure
    take = beats & (not lho_ruffs) & (take_mine if mine else take_opp)
    card = c if take else low
    card4 = lowest(higher) if (higher != 0) & (not mine) else low
    card = card4 if pos == 3 else card
    return card if not_trumped else low


@njit
def _ruff(hand, led, win, pos, mine, trump, out, lho, voids, kot):
    """Void in the led suit: the trump to ruff with, or -1 to discard."""
    trumps = suit_cards(hand, trump)
    if trumps == 0 or mine:
        return -1
    need = trumps & above(win) if suit_of(win) == trump else trumps
    if need == 0:
        return -1
    if kot:
        return highest(need)
    if pos == 1 and rank_of(win) < RUFF_SECOND:
        return -1
    t_out = suit_cards(out, trump)
    if pos < 3 and t_out != 0 and (seat_voids(voids, lho) >> led) & 1:
        # The left-hand opponent may overruff: ruff high enough to be sure.
        sure = need & above(highest(t_out))
        if sure != 0:
            return lowest(sure)
    return lowest(need)


@njit
def play_card(view, params, mem, rng):
    """Leads as above; second hand low, third hand high enough, fourth hand cheapest win.

    Every view field is read here once; the helpers get plain integers.
    """
    hand = view[V_HAND]
    trump = view[V_TRUMP]
    led = view[V_LED]
    me = view[V_SEAT]
    voids = view[V_VOIDS]
    out = FULL_DECK & ~view[V_PLAYED] & ~hand
    if led < 0:
        return _lead(hand, trump, out, me, view[V_HAKEM], voids)
    win = view[V_WIN_CARD]
    win_seat = view[V_WIN_SEAT]
    pos = view[V_NTRICK]
    mine = win_seat == ((me + 2) & 3)
    kot = view[V_TRICKS + (me & 1)] == 0 and view[V_TRICKS + 1 - (me & 1)] >= KOT_THREAT
    lho = (me + 1) & 3
    follow = suit_cards(hand, led)
    if follow != 0:
        return _follow(follow, led, win, pos, mine, trump, out, lho, voids, kot)
    c = _ruff(hand, led, win, pos, mine, trump, out, lho, voids, kot)
    if c >= 0:
        return c
    return _discard(hand, trump, out)
