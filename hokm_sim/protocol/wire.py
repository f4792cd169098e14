"""The messages of ``hokm-bot/1`` and their text forms (docs/protocol.md).

Cards are two characters, rank then suit (``"TH"``, ``"AS"``), suits one
(``"C" "D" "H" "S"``), exactly as :mod:`hokm_sim.cards` writes them. Every
message is one JSON object on one line; hokm-sim writes them compactly, with
the fields of a request in the order the protocol lists them.

Beyond the protocol's own fields hokm-sim knows one optional extension, which
a bot asks for in its ``hello`` (``"extensions": ["stream"]``): each request
then also carries ``"stream"``, the key of the deciding seat's own random
stream for the hand (:mod:`hokm_sim.engine.rng`, counter 0 when the hand
starts), so that a bot that is itself hokm-sim (``hokm-sim serve``) draws the
numbers it would draw at a table of its own. A host never sends it unasked.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from hokm_sim.cards import RANKS, SUITS
from hokm_sim.version import __version__

PROTOCOL = "hokm-bot/1"
"""The protocol string of ``hello``."""
STREAM = "stream"
"""The name of the optional extension (and of the request field) described above."""
HOST = f"hokm-sim {__version__}"
"""What hokm-sim says it is in its ``hello``."""

CARD_TEXTS: tuple[str, ...] = tuple(r + s for s in SUITS for r in RANKS)
"""Text of card index ``i`` (``suit * 13 + rank``)."""
CARD_INDEX = {t: i for i, t in enumerate(CARD_TEXTS)}
"""Card index of each protocol card text (only the exact protocol forms)."""
SUIT_INDEX = {s: i for i, s in enumerate(SUITS)}
"""Suit index of each protocol suit text."""

KIND_TRUMP = "trump"
KIND_CARD = "card"

FIELDS = (
    "id",
    "kind",
    "seat",
    "hakem",
    "trump",
    "hand",
    "legal",
    "first_five",
    "plays",
    "tricks",
    "scores",
    "target",
    "seed",
)
"""The fields of a request, in the order hokm-sim writes them."""


def dumps(message: dict) -> bytes:
    """One message as a line: compact JSON and a newline."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode() + b"\n"


def hello(host: str = HOST) -> dict:
    """The host's ``hello``."""
    return {"type": "hello", "protocol": PROTOCOL, "host": host}


def cards_text(cards: Sequence[int]) -> list[str]:
    """Protocol texts of card indices, in the order given."""
    return [CARD_TEXTS[c] for c in cards]


def mask_text(mask: int) -> list[str]:
    """Protocol texts of the cards of a mask, lowest index first (as hokm-sim sends them)."""
    return [CARD_TEXTS[c] for c in range(52) if (mask >> c) & 1]


def request(
    id: int,  # noqa: A002 - the protocol's field name
    seat: int,
    hakem: int,
    trump: int,
    hand: int,
    legal: int,
    first_five: int,
    plays: Sequence[int],
    tricks: Sequence[int],
    scores: Sequence[int],
    target: int,
    seed: int,
    stream: int | None = None,
) -> dict:
    """A request as a dict, card masks as ints and ``trump`` -1 while it is chosen;
    ``json.dumps`` of it with :func:`dumps` gives the bytes :mod:`.encode` writes."""
    out = {
        "id": id,
        "kind": KIND_TRUMP if trump < 0 else KIND_CARD,
        "seat": seat,
        "hakem": hakem,
        "trump": None if trump < 0 else SUITS[trump],
        "hand": mask_text(hand),
        "legal": mask_text(legal),
        "first_five": mask_text(first_five),
        "plays": cards_text(plays),
        "tricks": list(tricks),
        "scores": list(scores),
        "target": target,
        "seed": seed,
    }
    if stream is not None:
        out[STREAM] = stream
    return out
