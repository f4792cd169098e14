"""A bot's side of a ``decide`` message: each request read and checked field by field.

:func:`read_decide` turns a parsed ``decide`` message into :class:`Request`
records (card sets as masks, suits as indices, ``trump`` -1 while it is
chosen) or raises :class:`RequestError` with one line naming the request,
the field and what is wrong. It checks each field on its own and the fields
against each other as far as a request alone allows (a trump call is the
Hakem's, with five cards; legal cards are held; played cards are not);
whether the plays are a hand that could have happened is for the one who
replays them (:mod:`hokm_sim.serving.replay`). Fields a request does not
define are ignored, as the protocol lets hosts add optional ones.
"""

from __future__ import annotations

from dataclasses import dataclass

from hokm_sim.protocol.wire import CARD_INDEX, KIND_CARD, KIND_TRUMP, STREAM, SUIT_INDEX


class RequestError(ValueError):
    """A message or request that breaks the protocol: one line saying where and how."""


@dataclass(frozen=True)
class Request:
    """One request, checked (see docs/protocol.md for the fields)."""

    id: int
    seat: int
    hakem: int
    trump: int
    """The trump suit 0..3; -1 for a trump call."""
    hand: int
    legal: int
    first_five: int
    plays: tuple[int, ...]
    tricks: tuple[int, int]
    scores: tuple[int, int]
    target: int
    seed: int
    stream: int | None = None
    """The seat's stream key (the optional ``stream`` field), when the host sends it."""

    @property
    def trump_call(self) -> bool:
        """Whether the request asks for a trump suit."""
        return self.trump < 0


def _int(r: dict, field: str, lo: int, hi: int, where: str) -> int:
    v = r.get(field)
    if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
        raise RequestError(f"{where}: {field!r} must be a whole number {lo}..{hi}, got {v!r}")
    return v


def _cards(r: dict, field: str, where: str) -> tuple[tuple[int, ...], int]:
    """The cards of a list field, in order, and their mask."""
    v = r.get(field)
    if not isinstance(v, list):
        raise RequestError(f"{where}: {field!r} must be a list of cards, got {v!r:.40}")
    try:
        cards = tuple([CARD_INDEX[t] for t in v])
    except (KeyError, TypeError):
        bad = next(t for t in v if not isinstance(t, str) or t not in CARD_INDEX)
        raise RequestError(
            f"{where}: {field!r} holds {bad!r:.20}, not a card (rank 2-9, T, J, Q, K, A "
            "then suit C, D, H, S, e.g. 'AS')"
        ) from None
    m = 0
    for c in cards:
        m |= 1 << c
    if m.bit_count() != len(cards):
        raise RequestError(f"{where}: {field!r} names a card twice")
    return cards, m


def _pair(r: dict, field: str, hi: int, where: str) -> tuple[int, int]:
    v = r.get(field)
    if (
        not isinstance(v, list)
        or len(v) != 2
        or any(isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= hi for x in v)
    ):
        raise RequestError(f"{where}: {field!r} must be two whole numbers 0..{hi}, got {v!r:.40}")
    return v[0], v[1]


def read_request(r: object, n: int) -> Request:
    """Request number ``n`` of a message (named in errors), checked."""
    where = f"request {n}"
    if not isinstance(r, dict):
        raise RequestError(f"{where} is not a JSON object")
    rid = r.get("id")
    if isinstance(rid, bool) or not isinstance(rid, int):
        raise RequestError(f"{where}: 'id' must be a whole number, got {rid!r:.40}")
    where = f"request {n} (id {rid})"
    kind = r.get("kind")
    if kind not in (KIND_TRUMP, KIND_CARD):
        raise RequestError(f"{where}: 'kind' must be 'trump' or 'card', got {kind!r:.40}")
    seat = _int(r, "seat", 0, 3, where)
    hakem = _int(r, "hakem", 0, 3, where)
    trump_text = r.get("trump")
    hand, hand_m = _cards(r, "hand", where)
    legal, legal_m = _cards(r, "legal", where)
    five, five_m = _cards(r, "first_five", where)
    plays, plays_m = _cards(r, "plays", where)
    tricks = _pair(r, "tricks", 6, where)
    scores = _pair(r, "scores", 10**6, where)
    target = _int(r, "target", 0, 10**6, where)
    seed = _int(r, "seed", 0, 2**64 - 1, where)
    stream = _int(r, STREAM, 0, 2**64 - 1, where) if r.get(STREAM) is not None else None
    if kind == KIND_TRUMP:
        if trump_text is not None:
            raise RequestError(f"{where}: a trump call has 'trump' null, got {trump_text!r:.20}")
        if seat != hakem:
            raise RequestError(
                f"{where}: a trump call is the Hakem's (seat {hakem}), not seat {seat}'s"
            )
        if len(hand) != 5 or five_m != hand_m:
            raise RequestError(
                f"{where}: a trump call's 'hand' and 'first_five' are the Hakem's five cards"
            )
        if legal or plays or tricks != (0, 0):
            raise RequestError(f"{where}: a trump call has no legal cards, plays or tricks yet")
        trump = -1
    else:
        trump = SUIT_INDEX.get(trump_text, -1) if isinstance(trump_text, str) else -1
        if trump < 0:
            raise RequestError(
                f"{where}: 'trump' must be one of 'C', 'D', 'H', 'S', got {trump_text!r:.20}"
            )
        if not 1 <= len(hand) <= 13:
            raise RequestError(f"{where}: 'hand' must hold 1 to 13 cards, got {len(hand)}")
        if not legal or legal_m & ~hand_m:
            raise RequestError(f"{where}: 'legal' must be some of the cards in 'hand'")
        if plays_m & hand_m:
            raise RequestError(f"{where}: a card of 'hand' is among 'plays'")
        if (len(five) != 5) if seat == hakem else bool(five):
            raise RequestError(
                f"{where}: 'first_five' holds the Hakem's first five cards when the seat is "
                "the Hakem, else nothing"
            )
    return Request(rid, seat, hakem, trump, hand_m, legal_m, five_m, plays, tricks, scores,
                   target, seed, stream)  # fmt: skip


def read_decide(msg: dict) -> list[Request]:
    """The requests of a ``decide`` message, checked, ids distinct."""
    reqs = msg.get("requests")
    if not isinstance(reqs, list) or not reqs:
        raise RequestError("a decide message needs a non-empty 'requests' list")
    out = [read_request(r, n) for n, r in enumerate(reqs)]
    if len({r.id for r in out}) != len(out):
        raise RequestError("two requests of the message have the same 'id'")
    return out
