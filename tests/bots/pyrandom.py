"""The per-decision twin of ``pybatch.py``: the same draws from the same streams."""

DESCRIPTION = "plain Python: random trump, random legal card (tests)"


def choose_trump(obs):
    """A uniformly drawn suit."""
    return min(int(obs.rng.random() * 4), 3)


def play_card(obs):
    """A uniformly drawn legal card."""
    cards = obs.legal_cards
    obs.mem[0] += 1
    return cards[min(int(obs.rng.random() * len(cards)), len(cards) - 1)]
