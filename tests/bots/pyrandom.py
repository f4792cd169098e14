"""The built-in ``random`` bot in plain Python: the same draws, so the same cards.

``pybatch.py`` is its batched twin.
"""

DESCRIPTION = "plain Python: uniform random trump, uniform random legal card (tests)"


def choose_trump(obs):
    """Any of the four suits with equal chance."""
    return obs.rng.below(4)


def play_card(obs):
    """Any legal card with equal chance; memory counts the seat's cards this hand."""
    obs.mem[0] += 1
    return obs.rng.choice(obs.legal)
