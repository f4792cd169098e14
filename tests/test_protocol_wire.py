"""The wire format of hokm-bot/1: requests written from the engine's arrays, answers read.

The numba encoder must write exactly the bytes of the plain-Python request
builder for every kind of decision (a table of the environments' stepper
plays random legal hands and matches; each decision is encoded both ways),
and the answers reader must agree with ``json`` on every line, its one-pass
reading of the plain form included.
"""

from __future__ import annotations

import json

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from hokm_sim.bots.host import write_decide
from hokm_sim.engine import stepper as st
from hokm_sim.engine.view import (
    V_HAKEM,
    V_HAND,
    V_LEGAL,
    V_PLAYED,
    V_SCORES,
    V_SEAT,
    V_TARGET,
    V_TRICKS,
    V_TRUMP,
)
from hokm_sim.env.table import Table
from hokm_sim.protocol import answers as ans
from hokm_sim.protocol import wire
from hokm_sim.protocol.encode import buffer_for

M64 = (1 << 64) - 1


def mix64(z: int) -> int:
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 & M64
    z = (z ^ (z >> 27)) * 0x94D049BB133111EB & M64
    return z ^ (z >> 31)


def seed_of(key: int, tag: int) -> int:
    """docs/protocol.md: the request seed from the seat's stream key and the decision."""
    return mix64(key ^ mix64((tag + 0x2545F4914F6CDD1D) & M64))


def python_request(slots, i: int, rid: int, stream: bool) -> dict:
    v = [int(x) for x in slots.bot_view[i]]
    seat, hakem, trump = v[V_SEAT], v[V_HAKEM], v[V_TRUMP]
    n = bin(v[V_PLAYED]).count("1") if trump >= 0 else 0
    key = int(slots.srng[i, seat, 0])
    five = sum(1 << int(c) for c in slots.deck[i, :5]) if seat == hakem else 0
    plays = [int(c) for c in slots.plays[i, :n]]
    return wire.request(
        rid, seat, hakem, trump, v[V_HAND], v[V_LEGAL], five, plays, v[V_TRICKS : V_TRICKS + 2],
        v[V_SCORES : V_SCORES + 2], v[V_TARGET], seed_of(key, 0 if trump < 0 else n + 1),
        key if stream else None,
    )  # fmt: skip


@pytest.mark.parametrize("target", [None, 3])
def test_encoded_requests_are_the_python_requests(target):
    rng = np.random.default_rng(4)
    table = Table(target=target)
    buf = buffer_for(1)
    seen = set()
    for deal in range(6):
        table.start(seed=9, deal=deal)
        while table.waiting is not None:
            for stream in (False, True):
                n = write_decide(table.slots, np.array([0]), stream, buf)
                req = python_request(table.slots, 0, 0, stream)
                want = wire.dumps({"type": "decide", "requests": [req]})
                assert bytes(buf[:n]) == want
            req = json.loads(want)["requests"][0]
            _sees_only_its_own_cards(req, table)
            seen.add((req["kind"], req["seat"] == req["hakem"], bool(req["plays"]) and
                      len(req["plays"]) % 4 == 0, req["target"] > 0))  # fmt: skip
            if table.waiting == "trump":
                table.act(int(rng.integers(4)))
            else:
                legal = [c for c in range(52) if (table.legal >> c) & 1]
                table.act(int(rng.choice(legal)))
    assert len(seen) >= 5  # trump calls, leads and follows, by the Hakem and others


def _sees_only_its_own_cards(req: dict, table: Table) -> None:
    """A request holds the seat's own cards (during the trump call the Hakem's five) and
    the Hakem's five only for the Hakem; no card another seat holds."""
    seat = req["seat"]
    others = 0
    for s in range(4):
        if s != seat:
            others |= int(table.slots.held[0, s]) if req["kind"] == "card" else 0
    hand = {wire.CARD_INDEX[c] for c in req["hand"]}
    if req["kind"] == "card":
        assert hand == {c for c in range(52) if (int(table.slots.held[0, seat]) >> c) & 1}
    else:
        assert seat == req["hakem"] and hand == {int(c) for c in table.slots.deck[0, :5]}
    five = {wire.CARD_INDEX[c] for c in req["first_five"]}
    assert not five or seat == req["hakem"]
    assert not any((others >> c) & 1 for c in hand | five)


def test_a_batch_is_its_requests_in_order():
    table = Table()
    table.start(seed=1, deal=0)
    slots = st.new_slots(3)
    for mine, one in zip(slots, table.slots, strict=True):
        mine[:] = one[0]
    slots.bot_view[1, V_SEAT] = 2  # three copies of one decision, one with another seat's view
    buf = buffer_for(3)
    n = write_decide(slots, np.array([2, 0, 1]), False, buf)
    msg = json.loads(bytes(buf[:n]))
    assert [r["id"] for r in msg["requests"]] == [0, 1, 2]
    assert [r["seat"] for r in msg["requests"]] == [int(table.slots.bot_view[0, V_SEAT])] * 2 + [2]


def _answers_line(kinds, values, style: int) -> bytes:
    out = []
    for i, (k, v) in enumerate(zip(kinds, values, strict=True)):
        key = "card" if k else "suit"
        a = {"id": i, key: v} if style != 2 else {key: v, "id": i, "note": "x"}
        out.append(a)
    msg = {"type": "answers", "answers": out}
    if style == 0:
        return json.dumps(msg, separators=(",", ":")).encode()
    return json.dumps(msg, indent=1 if style == 3 else None).encode()


texts = hs.sampled_from([*wire.CARD_TEXTS[:6], "AS", "C", "S", "X", "10H", "", "as", "\u00e9"])


@settings(max_examples=150, deadline=None)
@given(hs.lists(hs.tuples(hs.booleans(), texts), min_size=1, max_size=20),
       hs.integers(0, 3))  # fmt: skip
def test_answers_read_the_same_in_every_form(items, style):
    kinds = np.array([int(k) for k, _ in items], np.int64)
    values = [v for _, v in items]
    want = [(wire.CARD_INDEX if k else wire.SUIT_INDEX).get(v, ans.BAD_TEXT) for k, v in items]
    got = ans.read_answers(_answers_line(kinds, values, style), kinds)
    assert got.tolist() == want


def test_plain_answers_are_read_without_json(monkeypatch):
    line = b'{"type":"answers","answers":[{"id":0,"card":"AS"},{"id":1,"suit":"H"}]}'
    monkeypatch.setattr(ans.json, "loads", lambda *a: pytest.fail("json was used"))
    assert ans.read_answers(line, np.array([1, 0])).tolist() == [51, 2]


@pytest.mark.parametrize(
    ("line", "what"),
    [
        (b"not json", "not JSON"),
        (b"[1, 2]", "not a JSON object"),
        (b'{"type": "hello"}', "answered type 'hello'"),
        (b'{"type": "error", "message": "no  idea"}', "answered an error: no idea"),
        (b'{"type": "answers"}', "without an 'answers' list"),
        (b'{"type": "answers", "answers": [{"id": 0, "card": "AS"}]}', "gave 1 answers to 2"),
        (
            b'{"type":"answers","answers":[{"id":0,"card":"AS"},{"id":1,"card":"AS"},7]}',
            "gave 3 answers to 2",
        ),  # fmt: skip
        (
            b'{"type":"answers","answers":[{"id":1,"card":"AS"},{"id":0,"card":"KS"}]}',
            "answer 0 has id 1",
        ),  # fmt: skip
        (b'{"type":"answers","answers":[{"id":0,"card":"AS"},"KS"]}', "answer 1 is not a JSON"),
        (
            b'{"type":"answers","answers":[{"id":0,"card":"AS"},{"id":true,"card":"KS"}]}',
            "answer 1 has id True",
        ),  # fmt: skip
    ],
)
def test_bad_answer_lines_name_their_fault(line, what):
    with pytest.raises(ans.AnswerError, match=what):
        ans.read_answers(line, np.array([1, 1]))


def test_answers_without_the_asked_field():
    line = b'{"type":"answers","answers":[{"id":0,"suit":"H"},{"id":1,"card":7}]}'
    assert ans.read_answers(line, np.array([1, 1])).tolist() == [ans.NO_VALUE, ans.BAD_TEXT]
