"""Trump from a table learned by `hokm-sim trump-study`; card play of `expert`.

The table (``trump_table.json`` beside this file) maps every abstracted
five-card class -- each suit's count among the five and its top card
bucketed (ace; K or Q; J or T; lower) -- to the suit key that gave the
Hakem's team the most points in the study's counterfactual deals. A class
the study never saw falls back to the longest suit, ties by rank sum. Why:
the players' advice says length beats a lone ace; the table measures by how
much, shape by shape, instead of trusting a rule of thumb.
"""

import json
from pathlib import Path

import numpy as np

from hokm_sim.bots.botkit import V_HAND, njit, popcount, suit_counts_rank_sums
from hokm_sim.strategies.expert import play_card  # noqa: F401  (the card play)

DESCRIPTION = "trump from a table learned by trump-study; plays like expert"

_TABLE = json.loads((Path(__file__).resolve().parent / "trump_table.json").read_text())
CODES = np.array([row[0] for row in _TABLE["classes"]], np.int64)
BEST = np.array([row[1] for row in _TABLE["classes"]], np.int64)


@njit
def _key(five, s):
    bits = (five >> (13 * s)) & 0x1FFF
    n = popcount(bits)
    if n == 0:
        return 0
    top = 63
    while (bits >> top) & 1 == 0:
        top -= 1
    bucket = 3 if top == 12 else (2 if top >= 10 else (1 if top >= 8 else 0))
    return n * 4 + bucket


@njit
def choose_trump(view, params, mem, rng):
    """The table's call for this five-card class; unseen classes: the longest suit."""
    five = view[V_HAND]
    k0 = _key(five, 0)
    k1 = _key(five, 1)
    k2 = _key(five, 2)
    k3 = _key(five, 3)
    a, b, c, d = k0, k1, k2, k3  # sort descending (a network of swaps)
    if a < b:
        a, b = b, a
    if c < d:
        c, d = d, c
    if a < c:
        a, c = c, a
    if b < d:
        b, d = d, b
    if b < c:
        b, c = c, b
    code = ((a * 24 + b) * 24 + c) * 24 + d
    i = np.searchsorted(CODES, code)
    if i < CODES.size and CODES[i] == code:
        best = BEST[i]
        if k0 == best:
            return 0
        if k1 == best:
            return 1
        if k2 == best:
            return 2
        if k3 == best:
            return 3
    suit, _ = suit_counts_rank_sums(five)
    return suit
