"""Result layouts: one hand's outcome, and the integer counts runs aggregate.

Runs never keep per-hand rows in memory: each chunk of deals adds into a flat
``int64`` counts array whose slots are laid out below, and chunks are merged
by integer addition, so a merge is exact and order-independent and memory is
flat whatever the number of hands. Every statistic that ``run`` reports is a
function of these counts.

Who is who: strategy ``A`` is the first strategy of a run, ``B`` the second.
``who`` indices are 0 for A and 1 for B.
"""

from __future__ import annotations

from numba import njit

from hokm_sim.inlining import HELPERS

# --- one hand's outcome: int64[RES_SIZE] -------------------------------------
R_HAKEM = 0  # Hakem seat
R_TRUMP = 1  # trump suit 0..3
R_TRICKS = 2  # slots 2, 3: tricks of team 0 and team 1 when the hand stopped
R_WINNER = 4  # winning team
R_POINTS = 5  # points to the winning team (1, 2 or 3)
R_KIND = 6  # KIND_NORMAL, KIND_KOT or KIND_HAKEM_KOT
R_NCARDS = 7  # cards played (4 x tricks)
R_TRUMP_LEN = 8  # trumps among the Hakem's 13 cards
R_FIVE_LEN = 9  # trumps among the Hakem's first five cards
R_ERROR = 10  # 0, or ERR_ILLEGAL_CARD / ERR_BAD_TRUMP
R_ERR_SEAT = 11  # seat whose strategy erred
R_ERR_TRICK = 12  # trick index (0-based) of the error; -1 for trump choice
R_ERR_CARD = 13  # the card (or suit) the strategy returned
R_CHOICE = 14  # the suit the Hakem's strategy chose (before any forced trump)
RES_SIZE = 16

ERR_NONE = 0
ERR_ILLEGAL_CARD = 1
ERR_BAD_TRUMP = 2

# --- counts: int64[N_COUNTS] -------------------------------------------------
# Hands: [who is Hakem][Hakem team's tricks 0..7][defenders' tricks 0..7].
# Win, Kot, Hakem Kot, points, tricks distribution and "Hakem keeps the role"
# all follow from it.
C_TRICKS = 0
C_TRICKS_SIZE = 2 * 8 * 8
# Trump length: [who is Hakem][trumps among 13 cards 0..13][among first five
# 0..5][Hakem team won 0/1].
C_TRUMP = C_TRICKS + C_TRICKS_SIZE
C_TRUMP_SIZE = 2 * 14 * 6 * 2
# Trump suit called: [who is Hakem][suit 0..3].
C_SUIT = C_TRUMP + C_TRUMP_SIZE
C_SUIT_SIZE = 2 * 4
# Duplicate deal pairs: [A's signed points when A is Hakem][... when A defends],
# index of points x in -3..-1, 1..3 is POINT_INDEX (0..5).
C_PAIR = C_SUIT + C_SUIT_SIZE
C_PAIR_SIZE = 6 * 6
# The same pairs by copy: [A's signed points in copy 0 (A on team 0)][... in
# copy 1 (teams swapped)], for the variance-reduction factor of docs/statistics.md.
C_PAIR_COPY = C_PAIR + C_PAIR_SIZE
# Matches: [A won 0/1][loser's final score 0..MAX_SCORE-1 (clipped)][winner's
# final score minus target 0..2].
MAX_SCORE = 32
C_MATCH = C_PAIR_COPY + C_PAIR_SIZE
C_MATCH_SIZE = 2 * MAX_SCORE * 3
# Match length in hands, clipped at MAX_MATCH_LEN - 1: [A won][hands].
MAX_MATCH_LEN = 64
C_MATCH_LEN = C_MATCH + C_MATCH_SIZE
C_MATCH_LEN_SIZE = 2 * MAX_MATCH_LEN
# Exact sum of hands over all matches (the histogram above is clipped).
C_MATCH_HANDS = C_MATCH_LEN + C_MATCH_LEN_SIZE
# Duplicate match pairs: [A won copy 0][A won copy 1].
C_MATCH_PAIR = C_MATCH_HANDS + 1
C_MATCH_PAIR_SIZE = 4
N_COUNTS = C_MATCH_PAIR + C_MATCH_PAIR_SIZE

POINT_VALUES = (-3, -2, -1, 1, 2, 3)


@njit(inline="always")
def point_index(x):
    """Slot 0..5 of a signed point value in -3..-1, 1..3."""
    return x + 3 if x < 0 else x + 2


@njit(inline="always")
def signed_points(res, team):
    """Points of ``team`` in a finished hand: positive if it won, negative if not."""
    if res[R_WINNER] == team:
        return res[R_POINTS]
    return -res[R_POINTS]


@njit(inline=HELPERS)
def add_hand(counts, res, a_team):
    """Add one finished hand to ``counts``; strategy A played for ``a_team``."""
    hakem_team = res[R_HAKEM] & 1
    who = 0 if hakem_team == a_team else 1
    ht = res[R_TRICKS + hakem_team]
    dt = res[R_TRICKS + 1 - hakem_team]
    counts[C_TRICKS + (who * 8 + ht) * 8 + dt] += 1
    won = 1 if res[R_WINNER] == hakem_team else 0
    counts[C_TRUMP + ((who * 14 + res[R_TRUMP_LEN]) * 6 + res[R_FIVE_LEN]) * 2 + won] += 1
    counts[C_SUIT + who * 4 + res[R_TRUMP]] += 1


@njit(inline=HELPERS)
def add_pair(counts, res0, res1):
    """Add one duplicate deal pair: A on team 0 in ``res0``, on team 1 in ``res1``."""
    x0 = signed_points(res0, 0)
    x1 = signed_points(res1, 1)
    counts[C_PAIR_COPY + point_index(x0) * 6 + point_index(x1)] += 1
    if (res0[R_HAKEM] & 1) == 0:  # A is Hakem in copy 0
        counts[C_PAIR + point_index(x0) * 6 + point_index(x1)] += 1
    else:
        counts[C_PAIR + point_index(x1) * 6 + point_index(x0)] += 1


@njit(inline=HELPERS)
def add_match(counts, a_won, loser_score, winner_score, target, n_hands):
    """Add one finished match from A's point of view."""
    ls = min(loser_score, MAX_SCORE - 1)
    over = min(winner_score - target, 2)
    counts[C_MATCH + (a_won * MAX_SCORE + ls) * 3 + over] += 1
    counts[C_MATCH_LEN + a_won * MAX_MATCH_LEN + min(n_hands, MAX_MATCH_LEN - 1)] += 1
    counts[C_MATCH_HANDS] += n_hands


@njit(inline=HELPERS)
def add_finished_match(counts, a_team, score0, score1, target, n_hands):
    """Add one finished match (A played for ``a_team``); 1 if A won, else 0."""
    a_score = score1 if a_team else score0
    b_score = score0 if a_team else score1
    a_won = 1 if a_score >= target else 0
    if a_won:
        add_match(counts, 1, b_score, a_score, target, n_hands)
    else:
        add_match(counts, 0, a_score, b_score, target, n_hands)
    return a_won
