"""Your play beside the bots': every card of a game graded double dummy, summed per seat.

Each finished hand is graded by :func:`hokm_sim.api.analyse_hand` (every
card's double-dummy value against the best card's; docs/analysis.md). Here
those grades are summed per seat over a game: tricks lost to double-dummy
play per hand, blunders (a card that turns a won hand into a lost one, or
gives up or concedes a Kot) and mistakes (a card that costs a trick), and
the share of cards that were double-dummy best.
"""

from __future__ import annotations


def seat_accuracy(graded: list[dict]) -> list[dict]:
    """Per seat 0..3 over the graded hands: ``hands``, ``cards``, ``tricks_lost`` (in all),
    ``tricks_lost_per_hand``, ``blunders``, ``mistakes``, ``best_share``."""
    out = []
    for seat in range(4):
        cards = [c for rec in graded for c in rec["cards"] if c["seat"] == seat]
        lost = sum(c["cost"] for c in cards)
        n = len(graded)
        out.append(
            {
                "seat": seat,
                "hands": n,
                "cards": len(cards),
                "tricks_lost": lost,
                "tricks_lost_per_hand": round(lost / n, 3) if n else None,
                "blunders": sum(c["grade"] == "blunder" for c in cards),
                "mistakes": sum(c["grade"] == "mistake" for c in cards),
                "best_share": (
                    round(sum(c["grade"] == "best" for c in cards) / len(cards), 3)
                    if cards
                    else None
                ),
            }
        )
    return out


def teams(partner: str, opponents: str) -> list[str]:
    """The names by team that a graded hand of a game carries."""
    return [f"you + {partner}", opponents]
