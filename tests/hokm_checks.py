"""Shared checks for the engine tests: traced hands and matches against the reference.

Everything here is plain Python built on :mod:`hokm_sim.reference` (the rules
oracle) and on the documented trace layout (:mod:`hokm_sim.engine.kernels`,
:func:`hokm_sim.sim.trace.row_to_record`). It is imported by the test modules
(``tests/`` is on ``sys.path`` under pytest's default import mode).

- :func:`check_row` / :func:`check_record`: one traced hand, card by card;
  :func:`check_row_tail`: nothing but -1 after the hand's last trick.
- :func:`check_partial_plays`: the legal prefix of a hand that a strategy
  broke, and whether the offending card is really illegal.
- :func:`check_match_rows`: succession, scores and stopping of a traced match.
- :class:`Stream` and friends: a slow Python copy of the documented random
  streams (``hokm_sim.engine.rng``), for exact deck and first-Hakem checks.
- :func:`longest_suit`: the longest-suit trump rule, written independently.
- :func:`bot_module`: a bot's decisions as the suite's engine calls them.
- :func:`trump_view` / :func:`bot_trump`: a bot's own ``choose_trump`` asked as
  the engine asks it (the Hakem's first five cards, nothing else).
"""

from __future__ import annotations

import numpy as np

from hokm_sim import reference as ref
from hokm_sim.cards import parse_card, parse_suit, rank_of, suit_of
from hokm_sim.engine import kernels as k
from hokm_sim.engine import rng as engine_rng
from hokm_sim.sim.trace import row_to_record

HAND_FIELDS = {
    "seed",
    "match",
    "hand",
    "hakem",
    "dealer",
    "deck",
    "first_five",
    "trump",
    "hands",
    "tricks",
    "tricks_won",
    "winner_team",
    "points",
    "kind",
}
"""Fields of every trace record (``hokm-sim trace --help``)."""
MATCH_FIELDS = HAND_FIELDS | {"scores", "target"}
"""Fields of a trace record of a hand played in a match."""


# --------------------------------------------------------------------------- one hand


def error_plays(row: np.ndarray) -> list[int]:
    """The cards played before a strategy error, from an error row.

    Their number follows from the error's trick and seat: ``4 * trick`` plus
    the seats before the faulty one in that trick (the leader is the Hakem,
    then the last trick's winner).
    """
    seat, trick = int(row[k.T_ERR_SEAT]), int(row[k.T_ERR_TRICK])
    if trick < 0:  # bad trump: nothing was played
        n = 0
    else:
        leader = int(row[k.T_HAKEM]) if trick == 0 else int(row[k.T_WINNERS + trick - 1])
        n = 4 * trick + (seat - leader) % 4
    plays = [int(c) for c in row[k.T_PLAYS : k.T_PLAYS + n]]
    assert all(c >= 0 for c in plays), plays
    return plays


def played_part(row: np.ndarray) -> np.ndarray:
    """A copy of a trace row with only the hand's own cards and winners.

    The cards of the tricks played (``4 * (tricks_won[0] + tricks_won[1])``)
    and their winners are kept; every slot after them is set to -1, as the
    layout documents. :func:`check_row_tail` checks that the engine does so.
    """
    out = row.copy()
    n = int(row[k.T_TRICKS] + row[k.T_TRICKS + 1])
    out[k.T_PLAYS + 4 * n : k.T_PLAYS + 52] = -1
    out[k.T_WINNERS + n : k.T_WINNERS + 13] = -1
    return out


def check_row_tail(row: np.ndarray) -> None:
    """After the last trick of the hand a trace row holds only -1 (no earlier hand's cards)."""
    n = int(row[k.T_TRICKS] + row[k.T_TRICKS + 1])
    plays = row[k.T_PLAYS + 4 * n : k.T_PLAYS + 52]
    winners = row[k.T_WINNERS + n : k.T_WINNERS + 13]
    assert (plays == -1).all(), f"cards after the hand ended ({n} tricks): {plays.tolist()}"
    assert (winners == -1).all(), f"trick winners after the hand ended: {winners.tolist()}"


def check_row(row: np.ndarray, seed: int, target: int | None = None) -> dict:
    """Check one trace row (layout and rules); returns its checked JSON record.

    The rules are checked on the hand's own tricks (:func:`played_part`);
    whether the slots after them are clean is :func:`check_row_tail`'s job.
    """
    assert row.shape == (k.TRACE_SIZE,)
    assert row[k.T_ERROR] == 0, f"row carries a strategy error: {row[k.T_ERROR : k.T_ERR_CARD + 1]}"
    n_tricks = int(row[k.T_TRICKS] + row[k.T_TRICKS + 1])
    assert 7 <= n_tricks <= 13
    assert (row[k.T_PLAYS : k.T_PLAYS + 4 * n_tricks] >= 0).all(), "a -1 among the cards played"
    assert (row[k.T_WINNERS : k.T_WINNERS + n_tricks] >= 0).all()
    rec = row_to_record(played_part(row), seed, target)
    check_record(rec)
    return rec


def check_record(rec: dict) -> ref.HandReplay:
    """Check one JSON trace record move by move against the reference; return the replay."""
    assert set(rec) == (MATCH_FIELDS if "target" in rec else HAND_FIELDS), sorted(rec)
    deck = [parse_card(c) for c in rec["deck"]]
    hakem = rec["hakem"]
    assert sorted(deck) == list(range(52)), "deck is not a permutation of the 52 cards"
    assert hakem in (0, 1, 2, 3)
    assert rec["dealer"] == ref.dealer_of(hakem)
    assert [parse_card(c) for c in rec["first_five"]] == ref.first_five(deck) == deck[:5]
    dealt = ref.deal(deck, hakem)
    assert [[parse_card(c) for c in h] for h in rec["hands"]] == dealt
    trump = parse_suit(rec["trump"])

    held = [list(h) for h in dealt]
    won = [0, 0]
    leader = hakem
    plays: list[int] = []
    assert rec["tricks"], "no trick played"
    for t, trick in enumerate(rec["tricks"]):
        assert max(won) < ref.TRICKS_TO_WIN, f"trick {t} played after {won}: the hand was over"
        assert trick["leader"] == leader, f"trick {t}: led by {trick['leader']}, not {leader}"
        cards = [parse_card(c) for c in trick["cards"]]
        assert len(cards) == 4, f"trick {t} has {len(cards)} cards"
        for i, card in enumerate(cards):
            seat = (leader + i) % 4
            assert card in held[seat], f"trick {t}: seat {seat} does not hold {trick['cards'][i]}"
            legal = ref.legal_cards(held[seat], cards[:i])
            assert card in legal, f"trick {t}: seat {seat} may not play {trick['cards'][i]}"
            held[seat].remove(card)
        winner = ref.trick_winner(cards, leader, trump)
        assert trick["winner"] == winner, f"trick {t}: winner {trick['winner']}, rules say {winner}"
        won[ref.team_of(winner)] += 1
        leader = winner
        plays.extend(cards)
    assert max(won) == ref.TRICKS_TO_WIN, f"the hand stopped at {won}, before 7"
    assert rec["tricks_won"] == won

    replay = ref.replay_hand(deck, hakem, trump, plays)
    score = ref.score_hand(hakem, won)
    assert replay.tricks_won == won
    assert [tr["winner"] for tr in rec["tricks"]] == replay.trick_winners
    assert rec["winner_team"] == replay.winner_team == score.winner_team
    assert rec["points"] == replay.points == score.points
    assert rec["kind"] == replay.kind == score.kind
    return replay


def check_partial_plays(
    deck: list[int], hakem: int, trump: int, plays: list[int], seat: int, trick: int, card: int
) -> None:
    """Check a hand a strategy broke: ``plays`` are legal, then ``card`` is not.

    ``seat`` and ``trick`` (0-based) are where the engine says the bad card
    was returned; both must be the seat to play and the trick in progress.
    """
    state = ref._HandInPlay(deck, hakem, trump)
    for c in plays:
        state.play(c)  # raises IllegalPlay if the engine let a bad card through
    assert not state.finished
    assert state.to_play == seat
    assert len(state.tricks) == trick
    try:
        state.play(card)
    except (ref.IllegalPlay, ValueError):
        return
    raise AssertionError(f"card {card} by seat {seat} is legal, yet the engine refused it")


# --------------------------------------------------------------------------- matches


def check_match_rows(
    rows: np.ndarray, seed: int, match: int, target: int, first_hakem: int | None = None
) -> list[dict]:
    """Check every hand of a traced match and the match around them; return the records."""
    assert rows.shape[0] >= 1
    recs = []
    for h, row in enumerate(rows):
        assert row[k.T_MATCH] == match and row[k.T_HAND] == h
        recs.append(check_row(row, seed, target))
    if first_hakem is not None:
        assert recs[0]["hakem"] == first_hakem
    # Succession: the Hakem stays after a win of the Hakem's team, else passes right.
    for prev, cur in zip(recs, recs[1:], strict=False):
        s = ref.score_hand(prev["hakem"], prev["tricks_won"])
        assert cur["hakem"] == s.next_hakem, (prev["hakem"], prev["tricks_won"], cur["hakem"])
        assert cur["dealer"] == s.next_dealer == ref.dealer_of(cur["hakem"])
        if prev["winner_team"] == prev["hakem"] % 2:
            assert cur["hakem"] == prev["hakem"]
        else:
            assert cur["dealer"] == prev["hakem"]
            assert cur["hakem"] % 2 != prev["hakem"] % 2
    # Scores after each hand, and the match stops the moment a team reaches the target.
    replay = ref.play_match_results(recs[0]["hakem"], target, [r["tricks_won"] for r in recs])
    assert replay.winner_team is not None, f"match stopped at {replay.final_scores} < {target}"
    for rec, mh in zip(recs, replay.hands, strict=True):
        assert rec["scores"] == mh.scores
        assert rec["target"] == target
        assert (rec["hakem"], rec["dealer"], rec["points"]) == (mh.hakem, mh.dealer, mh.points)
    for rec in recs[:-1]:
        assert max(rec["scores"]) < target
    assert max(recs[-1]["scores"]) >= target
    return recs


# --------------------------------------------------------------------------- trump rule


def longest_suit(five: list[int]) -> int:
    """The longest suit of five cards; ties by higher rank sum (2=0 .. A=12), then C<D<H<S."""
    count = [0, 0, 0, 0]
    rank_sum = [0, 0, 0, 0]
    for c in five:
        count[suit_of(c)] += 1
        rank_sum[suit_of(c)] += rank_of(c)
    return max(range(4), key=lambda s: (count[s], rank_sum[s], -s))


def trump_view(five: list[int], hakem: int) -> np.ndarray:
    """The Hakem's view while naming trump, as the engine fills it (engine/play.py):
    its first five cards and the seat fields, nothing else."""
    from hokm_sim.cards import mask_of
    from hokm_sim.engine import view as vw

    v = np.zeros(vw.VIEW_SIZE, np.int64)
    v[vw.V_HAND] = mask_of(five)
    v[vw.V_SEAT] = v[vw.V_HAKEM] = v[vw.V_LEADER] = hakem
    v[vw.V_TRUMP] = v[vw.V_LED] = v[vw.V_WIN_CARD] = v[vw.V_WIN_SEAT] = -1
    for i in range(4):
        v[vw.V_TRICK + i] = -1
    return v


def bot_module(bot_file):
    """The seat module of a :class:`~hokm_sim.bots.registry.BotFile` for direct calls:
    the bot's own ``choose_trump`` and ``play_card``, compiled once as the suite's
    engine calls them (:func:`~hokm_sim.bots.compiled.seat_module`, cached on disk),
    so a test that asks a bot one decision compiles nothing the engine did not."""
    from hokm_sim.bots.compiled import seat_module

    return seat_module(bot_file, False)


def bot_trump(spec: str, five: list[int], hakem: int = 0) -> int:
    """The suit strategy ``spec`` names holding ``five``: its own ``choose_trump``
    (:func:`bot_module`), with its parameters, a zeroed memory and a fixed stream."""
    from hokm_sim.bots.registry import resolve
    from hokm_sim.engine.view import MEM_SIZE

    s = resolve(spec)
    choose = bot_module(s.trump).choose_trump
    mem = np.zeros(MEM_SIZE, np.int64)
    rng = np.array([1, 2, 3, 4], np.uint64)
    return int(choose(trump_view(five, hakem), s.params_array()[0], mem, rng))


# --------------------------------------------------------------------------- streams

M64 = (1 << 64) - 1
GOLDEN = int(engine_rng.GOLDEN)
HAND_MUL = int(engine_rng.HAND_MUL)
MATCH_MUL = int(engine_rng.MATCH_MUL)


def mix64(z: int) -> int:
    """splitmix64's finaliser."""
    z &= M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
    return z ^ (z >> 31)


class Stream:
    """xoshiro256** stream ``index`` under ``base``, seeded as documented in engine/rng.py."""

    def __init__(self, base: int, index: int) -> None:
        x = mix64(base + index * HAND_MUL)
        self.s = [mix64(x + j * GOLDEN) for j in (1, 2, 3, 4)]

    def next(self) -> int:
        s0, s1, s2, s3 = self.s
        rotl = lambda x, r: ((x << r) | (x >> (64 - r))) & M64  # noqa: E731
        res = (rotl((s1 * 5) & M64, 7) * 9) & M64
        t = (s1 << 17) & M64
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = rotl(s3, 45)
        self.s = [s0, s1, s2, s3]
        return res

    def bounded(self, n: int) -> int:
        """Uniform in [0, n): Lemire's multiply-shift with rejection."""
        m = (self.next() >> 32) * n
        low = m & 0xFFFFFFFF
        if low < n:
            threshold = ((1 << 32) - n) % n
            while low < threshold:
                m = (self.next() >> 32) * n
                low = m & 0xFFFFFFFF
        return m >> 32

    def shuffled_deck(self) -> list[int]:
        """Fisher-Yates from the end over 0..51."""
        deck = list(range(52))
        for i in range(51, 0, -1):
            j = self.bounded(i + 1)
            deck[i], deck[j] = deck[j], deck[i]
        return deck


def expected_deck(base: int, index: int) -> list[int]:
    """The deck of hand ``index`` under stream base ``base`` (the run seed for --hands)."""
    return Stream(base, index).shuffled_deck()


def match_base(seed: int, match: int) -> int:
    """Base of every stream of match ``match`` under run seed ``seed``."""
    return mix64(seed ^ mix64((match + 1) * MATCH_MUL))


def expected_first_hakem(seed: int, match: int, method: str = "first-ace") -> int:
    """The first Hakem of a match: a uniform start seat, then the reference rule ``method``
    (first ace by default) on a shuffled deck."""
    stream = Stream(match_base(seed, match), engine_rng.FIRST_HAKEM_INDEX)
    start = stream.bounded(4)
    return ref.first_hakem_draw(stream.shuffled_deck(), start, method)[0]
