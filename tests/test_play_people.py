"""``hokm-sim games --by-person``: each person's hands, Kot and double-dummy accuracy.

A shared table's game (two people, two bots, two decisions their bots made for
them) and a game of ``hokm-sim play`` alone are stored as the table stores them;
the figures are checked against the hands and their double-dummy gradings.
"""

from __future__ import annotations

import json

from click.testing import CliRunner

from hokm_sim.api import analyse_hand, strategy
from hokm_sim.cli import main
from hokm_sim.play.game import Game
from hokm_sim.play.people import person_stats
from hokm_sim.play.seats import BotSeat, HumanSeat
from hokm_sim.play.store import Store

SEED = 2024


def _shared_game(store: Store) -> tuple[Game, list[dict]]:
    """A shared table's match to 5: Ali (South) and Maryam (North) played as ``longest``
    would, against ``random``; Ali's bot played his card of trick 1 and Maryam's hers of
    trick 2 of the first hand (the latter booked as stand-ins were before they named
    their trick)."""
    longest, rnd = strategy("longest"), strategy("random")
    seats = [
        HumanSeat("Ali", stand_in=BotSeat("Ali", longest)),
        BotSeat("East", rnd),
        HumanSeat("Maryam", stand_in=BotSeat("Maryam", longest)),
        BotSeat("West", rnd),
    ]
    game = Game(seats, SEED, target=5, names=("Ali", "East", "Maryam", "West"))
    while not game.over:
        if game.hold is not None:
            game.go_on()
            continue
        p = game.seats[game.due()]
        game.act(
            game.bot_answer((p.stand_in if isinstance(p, HumanSeat) else p).decide(game.table))
        )
    gid = store.start(seed=SEED, daily=None, partner="Maryam", opponents="East, West", target=5,
                      first_hakem="first-ace", version="t")  # fmt: skip
    for rec in game.records:
        store.add_hand(gid, rec)
    store.update(gid, result=game.result(), scores=game.final_scores(), hints=[])
    stand_ins = [{"hand": 0, "step": 2, "seat": 0, "kind": "card", "trick": 1, "decided": "?",
                  "why": "timer"},
                 {"hand": 0, "step": 5, "seat": 2, "kind": "card", "why": "left"}]  # fmt: skip
    store.seat_record(
        gid,
        [{"name": n, "kind": "person" if isinstance(p, HumanSeat) else "bot", "strategy": s}
         for n, p, s in zip(game.names, seats, ["longest", "random"] * 2, strict=True)],
        stand_ins,
    )  # fmt: skip
    return game, stand_ins


def _alone(store: Store) -> Game:
    """A game of hokm-sim play alone, to 3, the person playing as ``longest``."""
    longest, rnd = strategy("longest"), strategy("random")
    seats = [HumanSeat("You"), BotSeat("East", rnd), BotSeat("North", longest),
             BotSeat("West", rnd)]  # fmt: skip
    game = Game(seats, SEED + 1, target=3)
    while not game.over:
        if game.hold is not None:
            game.go_on()
            continue
        p = game.seats[game.due()]
        game.act(game.bot_answer((BotSeat("You", longest) if game.due() == 0 else p)
                                 .decide(game.table)))  # fmt: skip
    gid = store.start(seed=SEED + 1, daily=None, partner="longest", opponents="random", target=3,
                      first_hakem="first-ace", version="t")  # fmt: skip
    for rec in game.records:
        store.add_hand(gid, rec)
    store.update(gid, result=game.result(), scores=game.final_scores(), hints=[])
    return game


def _expected(game: Game, seat: int, skip: set[tuple[int, int]]) -> dict:
    """The figures of ``seat``'s person, counted from the records and their gradings;
    ``skip``: (hand, trick) of cards their bot played."""
    recs = [r for r in game.records if "fault" not in r]
    won = [r["winner_team"] == seat % 2 for r in recs]
    kots = [r["kind"] in ("kot", "hakem_kot") for r in recs]
    cards = [c for r in recs for c in analyse_hand(r)["cards"]
             if c["seat"] == seat and (r["hand"], c["trick"]) not in skip]  # fmt: skip
    return {
        "hands": len(recs), "hands_won": sum(won),
        "kot_made": sum(w and k for w, k in zip(won, kots, strict=True)),
        "kot_conceded": sum(not w and k for w, k in zip(won, kots, strict=True)),
        "cards": len(cards), "best": sum(c["grade"] == "best" for c in cards),
        "tricks_lost": sum(c["cost"] for c in cards),
    }  # fmt: skip


def test_stats_per_person_over_a_shared_game_and_a_game_alone(tmp_path):
    store = Store(tmp_path)
    shared, stand_ins = _shared_game(store)
    alone = _alone(store)
    assert all(h["graded"] is None for g in (1, 2) for h in store.hands(g))
    stats = {p["name"]: p for p in person_stats(store)}
    assert sorted(stats) == ["Ali", "Maryam", "You"]
    for name, game, seat, skip in (("Ali", shared, 0, {(0, 1)}), ("Maryam", shared, 2, {(0, 2)}),
                                   ("You", alone, 0, set())):  # fmt: skip
        got = stats[name]
        want = _expected(game, seat, skip)
        assert {k: got[k] for k in want} == want, name
        assert got["games"] == 1 and got["best_share"] == round(got["best"] / got["cards"], 3)
    assert stats["Ali"]["by_bot"] == 1 and stats["You"]["by_bot"] == 0
    # the partners' hands are the same hands: the same won and Kot, their own cards apart
    assert stats["Ali"]["hands_won"] == stats["Maryam"]["hands_won"]
    assert stats["Ali"]["cards"] + stats["Maryam"]["cards"] + 2 == sum(
        c["seat"] in (0, 2) for h in store.hands(1) for c in h["graded"]["cards"]
    )
    # the gradings made are kept
    assert all(h["graded"] is not None for g in (1, 2) for h in store.hands(g))
    store.close()

    cli = CliRunner()
    table = cli.invoke(main, ["games", "--data", str(tmp_path), "--by-person"])
    assert table.exit_code == 0, table.output
    head, *rows = table.output.splitlines()
    assert head.split()[:3] == ["person", "games", "hands"] and len(rows) == 3
    assert {r.split()[0] for r in rows} == {"Ali", "Maryam", "You"}
    as_json = cli.invoke(main, ["games", "--data", str(tmp_path), "--by-person", "--format",
                                "json", "--game", "1"])  # fmt: skip
    assert as_json.exit_code == 0, as_json.output
    assert {p["name"]: p for p in json.loads(as_json.output)} == {
        k: stats[k] for k in ("Ali", "Maryam")}  # fmt: skip
    bad = cli.invoke(main, ["games", "--data", str(tmp_path), "--by-person", "--format", "jsonl"])
    assert bad.exit_code == 2 and "--by-person" in bad.stderr
    assert len([x for x in bad.stderr.splitlines() if x.strip()]) == 1
