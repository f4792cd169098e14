"""A plain-Python bot whose every card depends on its memory and its draws (tests).

The trump call draws a suit and keeps it in ``mem``; each card is chosen by
the number of the seat's decisions so far, the kept draw and a fresh draw.
Served from outside hokm-sim it plays the same cards only if its memory and
its stream are rebuilt exactly (tests/test_serve.py).
"""

DESCRIPTION = "plain Python: cards from memory and draws (tests)"


def choose_trump(obs):
    """A drawn suit, remembered."""
    suit = obs.rng.below(4)
    obs.mem[1] = suit + 1
    return suit


def play_card(obs):
    """A legal card picked by memory and a draw."""
    obs.mem[0] += 1
    legal = obs.legal_cards
    k = int(obs.mem[0] * 7 + obs.mem[1] * 3 + obs.rng.below(3))
    obs.mem[2] = (obs.mem[2] * 31 + legal[k % len(legal)]) % 1000003
    return legal[(k + int(obs.mem[2])) % len(legal)]
