"""A plain-Python bot: the built-in ``longest`` written without numba, card for card the same.

No ``@njit``, no arrays: ``choose_trump(obs)`` and ``play_card(obs)`` get an
``Observation`` with named fields (card masks are Python ints, bit
``suit * 13 + rank``; see ``hokm_sim.cards``) and return a suit 0..3 or a
card index. Play it like any bot:

    hokm-sim run examples/python_bot.py expert --hands 20k --seed 1

It gives exactly the counts of ``hokm-sim run longest expert`` on the same
seed and size: the engine deals the same cards and asks the same questions.
"""

from hokm_sim.cards import SUIT_MASKS, cards_of, lowest, popcount

DESCRIPTION = "plain Python: longest suit as trump; win cheaply, else play low"
ACES = sum(1 << (13 * s + 12) for s in range(4))


def choose_trump(obs):
    """The longest suit among the five; ties by higher rank sum, then the lower suit."""

    def key(s):
        ranks = [c % 13 for c in cards_of(obs.hand & SUIT_MASKS[s])]
        return (len(ranks), sum(ranks), -s)

    return max(range(4), key=key)


def play_card(obs):
    """Lead aces or from length; follow cheaply to win; ruff cheaply when void."""
    hand, trump, led = obs.hand, obs.trump, obs.led
    if led < 0:
        return _lead(hand, trump)
    win = obs.winning_card
    partner_wins = obs.winning_seat == (obs.seat + 2) % 4
    follow = hand & SUIT_MASKS[led]
    if follow:
        if not partner_wins and win // 13 == led:
            higher = follow & ~((2 << win) - 1)
            if higher:
                return lowest(higher)
        return lowest(follow)
    if not partner_wins:
        trumps = hand & SUIT_MASKS[trump]
        if trumps:
            winning = trumps & ~((2 << win) - 1) if win // 13 == trump else trumps
            if winning:
                return lowest(winning)
    side = hand & ~SUIT_MASKS[trump]
    return _lowest_rank(side or hand)


def _lead(hand, trump):
    side = hand & ~SUIT_MASKS[trump]
    if side & ACES:
        return lowest(side & ACES)
    if not side:
        return lowest(hand)
    longest = max((s for s in range(4) if s != trump), key=lambda s: popcount(hand & SUIT_MASKS[s]))
    return lowest(hand & SUIT_MASKS[longest])


def _lowest_rank(mask):
    """The card of lowest rank; on equal ranks the lower suit."""
    return min(cards_of(mask), key=lambda c: (c % 13, c))
