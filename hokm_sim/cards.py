"""Cards as bits: the card index, 64-bit card masks, and text forms for people.

A card is an integer ``suit * 13 + rank`` with ranks 0..12 for 2..A and suits
0..3 for clubs, diamonds, hearts, spades (``C D H S``). A set of cards is a
``CardMask``: bit ``i`` set means card ``i`` is in the set. Each suit is a
contiguous 13-bit block, so "cards of the led suit" is one AND and "highest
card of a suit" is a bit length. This module is plain Python for people and
tests; the numba side lives in :mod:`hokm_sim.engine.bits`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

CardMask = int
"""A set of cards as a 52-bit integer (bit ``suit * 13 + rank``)."""

SUITS = "CDHS"
RANKS = "23456789TJQKA"
SUIT_SYMBOLS = "♣♦♥♠"
N_CARDS = 52
SUIT_MASK = (1 << 13) - 1
SUIT_MASKS: tuple[CardMask, ...] = tuple(SUIT_MASK << (13 * s) for s in range(4))
FULL_DECK: CardMask = (1 << N_CARDS) - 1

_SYMBOL_TO_SUIT = {sym: SUITS[i] for i, sym in enumerate(SUIT_SYMBOLS)}
# Variation selectors sometimes follow emoji suit symbols (♠️); ignore them.
_IGNORED = {"\ufe0f", "\ufe0e"}


class CardParseError(ValueError):
    """Card text that is not a card; the message names the bad token."""


def suit_of(card: int) -> int:
    """Suit index 0..3 of a card index."""
    return card // 13


def rank_of(card: int) -> int:
    """Rank index 0..12 (2..A) of a card index."""
    return card % 13


def make_card(suit: int, rank: int) -> int:
    """Card index from suit 0..3 and rank 0..12."""
    return suit * 13 + rank


def parse_suit(text: str) -> int:
    """Suit index from ``C D H S`` (any case) or a suit symbol."""
    t = "".join(ch for ch in text.strip() if ch not in _IGNORED)
    t = _SYMBOL_TO_SUIT.get(t, t).upper()
    if len(t) != 1 or t not in SUITS:
        raise CardParseError(f"bad suit {text!r}: expected one of C, D, H, S or ♣ ♦ ♥ ♠")
    return SUITS.index(t)


def parse_card(text: str) -> int:
    """Card index from text such as ``AS``, ``th``, ``10♥`` or ``2C``.

    Raises :class:`CardParseError` naming the token when it is not a card.
    """
    if not isinstance(text, str):
        raise CardParseError(f"bad card {text!r}: expected text such as 'AS' or '10H'")
    t = "".join(ch for ch in text.strip() if ch not in _IGNORED)
    if len(t) >= 2:
        rank_txt, suit_txt = t[:-1].upper(), _SYMBOL_TO_SUIT.get(t[-1], t[-1]).upper()
        if rank_txt == "10":
            rank_txt = "T"
        if len(rank_txt) == 1 and rank_txt in RANKS and suit_txt in SUITS:
            return make_card(SUITS.index(suit_txt), RANKS.index(rank_txt))
    raise CardParseError(
        f"bad card {text!r}: expected rank 2-9, T (or 10), J, Q, K, A then suit C, D, H, S"
        " (or ♣ ♦ ♥ ♠), e.g. 'AS' or '10H'"
    )


def parse_cards(texts: Iterable[str] | str) -> list[int]:
    """Card indices from a list of card texts or one space/comma separated string."""
    if isinstance(texts, str):
        texts = [t for t in texts.replace(",", " ").split() if t]
    return [parse_card(t) for t in texts]


def card_str(card: int) -> str:
    """Two-character text form of a card index: ``AS``, ``TH``, ``2C``."""
    if not 0 <= card < N_CARDS:
        raise ValueError(f"card index {card} out of range 0..51")
    return RANKS[rank_of(card)] + SUITS[suit_of(card)]


def card_symbol(card: int) -> str:
    """Card text with the suit symbol, for people: ``A♠``, ``T♥``."""
    if not 0 <= card < N_CARDS:
        raise ValueError(f"card index {card} out of range 0..51")
    return RANKS[rank_of(card)] + SUIT_SYMBOLS[suit_of(card)]


def mask_of(cards: Iterable[int]) -> CardMask:
    """CardMask holding the given card indices."""
    m = 0
    for c in cards:
        if not 0 <= c < N_CARDS:
            raise ValueError(f"card index {c} out of range 0..51")
        m |= 1 << c
    return m


def cards_of(mask: CardMask) -> list[int]:
    """Card indices in a mask, lowest index first."""
    if mask < 0 or mask > FULL_DECK:
        raise ValueError(f"mask {mask:#x} is not a set of the 52 cards")
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def popcount(mask: CardMask) -> int:
    """Number of cards in a mask."""
    return mask.bit_count()


def lowest(mask: CardMask) -> int:
    """Lowest card index in a non-empty mask."""
    return (mask & -mask).bit_length() - 1


def highest(mask: CardMask) -> int:
    """Highest card index in a non-empty mask."""
    return mask.bit_length() - 1


def highest_in_suit(mask: CardMask, suit: int) -> int:
    """Highest card of ``suit`` in ``mask``, or -1 when the mask holds none."""
    m = mask & SUIT_MASKS[suit]
    return m.bit_length() - 1 if m else -1


class CardSet:
    """A readable, immutable wrapper over a CardMask for people and tests.

    >>> CardSet.parse("AS th 2c")
    {2C, TH, AS}
    """

    __slots__ = ("mask",)

    def __init__(self, mask: CardMask = 0) -> None:
        if mask < 0 or mask > FULL_DECK:
            raise ValueError(f"mask {mask:#x} is not a set of the 52 cards")
        self.mask = mask

    @classmethod
    def parse(cls, texts: Iterable[str] | str) -> CardSet:
        """CardSet from card texts (a list or one separated string)."""
        return cls(mask_of(parse_cards(texts)))

    @classmethod
    def of(cls, cards: Iterable[int]) -> CardSet:
        """CardSet from card indices."""
        return cls(mask_of(cards))

    def __iter__(self) -> Iterator[int]:
        return iter(cards_of(self.mask))

    def __len__(self) -> int:
        return popcount(self.mask)

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < N_CARDS and bool(self.mask >> card & 1)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, CardSet) and other.mask == self.mask

    def __hash__(self) -> int:
        return hash(self.mask)

    def __repr__(self) -> str:
        return "{" + ", ".join(card_str(c) for c in self) + "}"

    def suit(self, suit: int) -> CardSet:
        """The cards of one suit."""
        return CardSet(self.mask & SUIT_MASKS[suit])

    def texts(self) -> list[str]:
        """Text forms, lowest index first."""
        return [card_str(c) for c in self]
