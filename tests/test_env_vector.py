"""The vector environment: the engine's deals card for card, its rates, Gymnasium's contract.

Two kernels serve every test: ``longest`` and ``random`` compiled in
(``_M1``: the agent at one seat) and none (``_M0``: the agent at every seat,
or at a team's seats against a plain-Python bot).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

gym = pytest.importorskip("gymnasium")
from click.testing import CliRunner  # noqa: E402
from gymnasium.utils import env_checker, passive_env_checker  # noqa: E402
from gymnasium.vector import AutoresetMode  # noqa: E402
from gymnasium.wrappers.vector import DictInfoToList, RecordEpisodeStatistics  # noqa: E402

from hokm_sim.bots.registry import resolve  # noqa: E402
from hokm_sim.cards import SUITS, parse_card  # noqa: E402
from hokm_sim.cli import main  # noqa: E402
from hokm_sim.engine import records as r  # noqa: E402
from hokm_sim.engine.rules import KIND_NAMES  # noqa: E402
from hokm_sim.engine.view import V_HAND, V_PLAYED_BY, V_SEAT, V_TRICK_NO  # noqa: E402
from hokm_sim.env.vector import HokmVectorEnv  # noqa: E402
from hokm_sim.errors import InputError, StoppedError  # noqa: E402
from hokm_sim.sim.runner import Runner  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PYRANDOM = str(ROOT / "tests" / "bots" / "pyrandom.py")  # random, in plain Python
PYFAULTY = str(ROOT / "tests" / "bots" / "pyfaulty.py")  # faults on purpose, by mode
PROTOBOT = ROOT / "tests" / "bots" / "protobot.py"  # exec: clubs, the lowest card; faults by mode


def _trace(seed: int, a: str, b: str, *extra: str) -> list[dict]:
    """The records ``hokm-sim trace`` writes."""
    res = CliRunner().invoke(main, ["trace", "--seed", str(seed), "--a", a, "--b", b, *extra])
    assert res.exit_code == 0, res.output
    return [json.loads(line) for line in res.output.splitlines()]


def _mask(cards) -> int:
    return sum(1 << parse_card(c) for c in cards)


def _cards_of_seat(rec: dict, seat: int, before: int | None = None) -> list[str]:
    """The cards ``seat`` played in ``rec`` (in its tricks before ``before``)."""
    out = []
    for trick in rec["tricks"][:before]:
        out.append(trick["cards"][(seat - trick["leader"]) % 4])
    return out


def _replay(env: HokmVectorEnv, records: dict, seed: int, key) -> int:
    """Drive ``env`` with the traced cards of the agent's seats: check every observation
    and every finished hand against ``records`` (``key(deal, hand)`` -> record); the number
    of hands checked. Tables whose episode is past the trace play their first legal action."""
    obs, info = env.reset(seed=seed)
    hand_no = np.zeros(env.num_envs, np.int64)
    returns = np.zeros(env.num_envs)
    checked = 0
    last = max(d for d, _ in records)
    for _ in range(10_000):
        deals = info["deal"]
        if (deals > last).all():
            break
        actions = obs["action_mask"].argmax(axis=1)
        live = obs["action_mask"].any(axis=1)  # not a last observation (its action is ignored)
        for i in np.flatnonzero((deals <= last) & live):
            rec = records[key(int(deals[i]), int(hand_no[i]))]
            view, seat = obs["view"][i], int(info["seat"][i])
            if obs["action_mask"][i, 52]:
                assert view[V_HAND] == _mask(rec["first_five"]) and seat == rec["hakem"]
                actions[i] = 52 + SUITS.index(rec["trump"])
            else:
                t = int(view[V_TRICK_NO])
                held = set(rec["hands"][seat]) - set(_cards_of_seat(rec, seat, t))
                assert view[V_HAND] == _mask(held)
                actions[i] = parse_card(_cards_of_seat(rec, seat)[t])
        old = deals.copy()
        obs, reward, terminated, truncated, info = env.step(actions)
        assert not truncated.any()
        for i in np.flatnonzero(info.get("_hand", np.zeros(env.num_envs, bool))):
            if old[i] > last:
                continue
            rec = records[key(int(old[i]), int(hand_no[i]))]
            h = {name: info["hand"][name][i] for name in info["hand"] if name[0] != "_"}
            assert h["hakem"] == rec["hakem"] and SUITS[h["trump"]] == rec["trump"]
            assert list(h["tricks"]) == rec["tricks_won"] and h["winner"] == rec["winner_team"]
            assert h["points"] == rec["points"] and KIND_NAMES[h["kind"]] == rec["kind"]
            actor = int(env.seats[0] if len(env.seats) == 1 else obs["view"][i, V_SEAT])
            sign = 1 if rec["winner_team"] == actor & 1 else -1
            assert reward[i] == sign * rec["points"]
            assert list(info["team_reward"][i]) == [
                rec["points"] * (1 if rec["winner_team"] == team else -1) for team in (0, 1)
            ]
            returns[i] += reward[i]
            hand_no[i] += 1
            checked += 1
            if terminated[i]:
                played = obs["view"][i, V_PLAYED_BY : V_PLAYED_BY + 4]
                assert list(played) == [_mask(_cards_of_seat(rec, s)) for s in range(4)]
                assert not obs["action_mask"][i].any()
                if "scores" in rec:
                    team = actor & 1
                    assert returns[i] == rec["scores"][team] - rec["scores"][1 - team]
                hand_no[i] = 0
                returns[i] = 0
            else:
                assert "scores" in rec  # a match goes on
    return checked


@pytest.mark.parametrize("seat", [0, 3])
def test_one_seat_plays_the_traced_hands_card_for_card(seat):
    """The agent at one seat replaying ``hokm-sim trace``'s cards of that seat, compiled
    ``longest`` and ``random`` in the others: every observation holds the seat's traced
    hand, every hand ends as traced, rewards are the traced points."""
    records = {(rec["hand"], 0): rec for rec in _trace(5, "longest", "random", "--hands", "24")}
    partner, opponents = ("longest", "random") if seat % 2 == 0 else ("random", "longest")
    env = HokmVectorEnv(num_envs=5, partner=partner, opponents=opponents, seat=seat)
    assert _replay(env, records, 5, lambda d, h: (d, 0)) == 24


def test_matches_play_the_traced_matches():
    recs = _trace(8, "longest", "random", "--matches", "4", "--target", "3")
    records = {(rec["match"], rec["hand"]): rec for rec in recs}
    env = HokmVectorEnv(num_envs=3, partner="longest", opponents="random", seat=2, target=3)
    assert _replay(env, records, 8, lambda d, h: (d, h)) == len(recs)


def test_self_play_and_a_team_against_a_python_bot_play_the_traced_hands():
    """Every seat the agent's, and the agent as team 1 against plain-Python ``random``
    (which draws what compiled ``random`` draws): the traced hands again."""
    records = {(rec["hand"], 0): rec for rec in _trace(11, "longest", "random", "--hands", "16")}
    env = HokmVectorEnv(num_envs=4, seat=(0, 1, 2, 3))
    assert _replay(env, records, 11, lambda d, h: (d, 0)) == 16
    records = {(rec["hand"], 0): rec for rec in _trace(12, "random", "longest", "--hands", "16")}
    env = HokmVectorEnv(num_envs=6, opponents=PYRANDOM, seat=(1, 3))
    assert _replay(env, records, 12, lambda d, h: (d, 0)) == 16


@pytest.mark.usefixtures("reap_bots")
def test_a_protocol_bot_plays_the_traced_hands_and_is_sent_bye(tmp_path):
    """``exec:`` opponents: the hands ``hokm-sim trace`` plays with the same bot, asked in
    one message a call for every table waiting for it; close() says bye to it; a bad
    answer is one line, and reset() goes on with a new process."""
    marker = tmp_path / "messages"
    bot = f"exec:{sys.executable} {PROTOBOT} ok {marker}"
    records = {(rec["hand"], 0): rec for rec in _trace(13, PYRANDOM, bot, "--hands", "12")}
    traced = marker.read_text().splitlines()
    env = HokmVectorEnv(num_envs=4, seat=(0, 2), opponents=bot)
    assert _replay(env, records, 13, lambda d, h: (d, 0)) == 12
    env.close()
    got = marker.read_text().splitlines()[len(traced) :]
    assert got[0] == "hello" and got[-1] == "bye" and set(got[1:-1]) == {"decide"}
    faulty = f"exec:{sys.executable} {PROTOBOT} illegal {tmp_path / 'faulty'}"
    env = HokmVectorEnv(num_envs=3, seat=(0, 2), opponents=faulty)
    obs, _ = env.reset(seed=4)
    says = r"protobot.py illegal .*' .*a card it does not hold.* \(seat 1\) at seed 4, hand \d+"
    with pytest.raises(StoppedError, match=says + ", trick 3; call reset"):
        for _ in range(20):
            obs, *_ = env.step(obs["action_mask"].argmax(axis=1))
    obs, _ = env.reset(seed=5)
    env.step(obs["action_mask"].argmax(axis=1))
    env.close()


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """A uniformly random legal action per row."""
    return np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1)


def test_random_rollouts_reproduce_the_engines_random_rates():
    """20,000 hands of uniformly random actions at every seat against the engine's
    random-vs-random counts: Hakem-win, Kot and Hakem-Kot rates agree within four
    standard errors."""
    env = HokmVectorEnv(num_envs=1000, seat=(0, 1, 2, 3))
    rng = np.random.default_rng(3)
    obs, info = env.reset(seed=77)
    n = hakem_won = kot = hakem_kot = 0
    while n < 20_000:
        obs, _, _, _, info = env.step(_random_actions(obs["action_mask"], rng))
        if "hand" in info:
            done = info["_hand"]
            hand = info["hand"]
            n += int(done.sum())
            hakem_won += int((done & (hand["winner"] == hand["hakem"] % 2)).sum())
            kot += int((done & (hand["kind"] == 1)).sum())
            hakem_kot += int((done & (hand["kind"] == 2)).sum())
    rnd = resolve("random")
    counts = Runner(rnd, rnd).counts(9, 100_000, duplicate=False, threads=1)
    tricks = counts[r.C_TRICKS : r.C_TRICKS + r.C_TRICKS_SIZE].reshape(2, 8, 8).sum(axis=0)
    m = tricks.sum()
    ref = {"hakem won": tricks[7, :].sum() / m, "kot": tricks[7, 0] / m,
           "hakem kot": tricks[0, 7] / m}  # fmt: skip
    got = {"hakem won": hakem_won / n, "kot": kot / n, "hakem kot": hakem_kot / n}
    for name, p in ref.items():
        se = np.sqrt(p * (1 - p) / n + p * (1 - p) / m)
        assert abs(got[name] - p) < 4 * se, (name, got[name], p)


def _env(**kw) -> HokmVectorEnv:
    return HokmVectorEnv(**({"num_envs": 6, "partner": "longest", "opponents": "random"} | kw))


def test_spaces_shapes_and_dtypes_are_gymnasiums():
    env = _env()
    assert isinstance(env, gym.vector.VectorEnv)
    assert env.metadata["autoreset_mode"] == AutoresetMode.NEXT_STEP
    assert env.single_action_space == gym.spaces.Discrete(56)
    assert env.action_space == gym.spaces.MultiDiscrete([56] * 6)
    assert env.observation_space == gym.vector.utils.batch_space(env.single_observation_space, 6)
    sync = gym.vector.SyncVectorEnv([lambda: gym.make("Hokm-v0", partner="longest")])
    assert sync.single_observation_space == env.single_observation_space
    sync.close()
    env_checker.check_space_limit(env.observation_space, "observation")
    passive_env_checker.check_observation_space(env.observation_space)
    passive_env_checker.check_action_space(env.action_space)
    env_checker.check_reset_return_type(env)
    env_checker.check_reset_seed_determinism(env)
    env_checker.check_reset_options(env)
    obs, info = env.reset(seed=1)
    for _ in range(12):
        assert obs in env.observation_space
        assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (6, 432)
        assert obs["view"].dtype == np.int64 and obs["action_mask"].dtype == np.int8
        assert (env.action_masks() == obs["action_mask"].astype(bool)).all()
        assert (info["seat"] == 0).all() and info["_seat"].all()
        obs, reward, terminated, truncated, info = env.step(obs["action_mask"].argmax(axis=1))
        assert reward.dtype == np.float64 and reward.shape == (6,)
        assert terminated.dtype == truncated.dtype == np.bool_


def test_seeding_is_deterministic_and_returned_arrays_are_never_reused():
    """The same seed and actions give the same steps; arrays are never handed out twice;
    deal ``d`` starts the same wherever it is played (``options={"deal": d}``)."""
    env = _env()
    runs = []
    for _ in range(2):
        obs, info = env.reset(seed=42)
        run = [(obs, info)]
        for _ in range(25):
            obs, rew, term, trunc, info = env.step(obs["action_mask"].argmax(axis=1))
            run.append((obs, rew, term, info))
        runs.append(run)
    assert env_checker.data_equivalence(runs[0], runs[1], exact=True)
    for a, b in zip(runs[0], runs[0][1:], strict=False):
        assert not passive_env_checker.data_shares_objects(a, b)
    obs, info = env.reset(seed=43)
    assert not (obs["view"] == runs[0][0][0]["view"]).all()
    first = {}  # deal: its first observation in the first run
    for step in runs[0]:
        obs, info = step[0], step[-1]
        for i, d in enumerate(info["deal"].tolist()):
            first.setdefault(d, obs["view"][i])
    assert max(first) >= 8
    obs, info = env.reset(seed=42, options={"deal": 3})  # tables 0..5 take deals 3..8
    assert list(info["deal"]) == list(range(3, 9))
    for i, d in enumerate(range(3, 9)):
        assert (obs["view"][i] == first[d]).all()


def test_autoreset_modes():
    """NEXT_STEP: the step after the last starts the next deal and ignores the action;
    SAME_STEP: the last step returns the next deal's first observation (the last one in
    final_obs); DISABLED: only reset(options={"reset_mask": ...}) starts the next deal."""
    for mode in AutoresetMode:
        env = _env(autoreset_mode=mode)
        assert env.metadata["autoreset_mode"] == mode
        obs, info = env.reset(seed=9)
        seen = set(info["deal"].tolist())
        restarted = np.zeros(6, bool)
        endings = 0
        for _ in range(40):
            actions = obs["action_mask"].argmax(axis=1)
            actions[restarted] = 99 % 56  # ignored: a card these tables may well not hold
            obs, reward, terminated, _, info = env.step(actions)
            new = info["deal"][restarted]
            if mode == AutoresetMode.NEXT_STEP:
                assert (reward[restarted] == 0).all() and not terminated[restarted].any()
                assert seen.isdisjoint(new) and obs["action_mask"][restarted].any(axis=1).all()
            restarted = terminated if mode == AutoresetMode.NEXT_STEP else restarted & False
            endings += int(terminated.sum())
            if mode == AutoresetMode.NEXT_STEP:
                assert not obs["action_mask"][terminated].any()
            if mode == AutoresetMode.SAME_STEP and terminated.any():
                assert info["_final_obs"].tolist() == terminated.tolist()
                for i in np.flatnonzero(terminated):
                    assert not info["final_obs"][i]["action_mask"].any()
                    assert obs["action_mask"][i].any() and info["deal"][i] not in seen
            if mode == AutoresetMode.DISABLED and terminated.any():
                with pytest.raises(InputError, match="autoreset is disabled: reset it"):
                    env.step(actions)
                before = obs["view"][~terminated].copy()
                obs, info = env.reset(options={"reset_mask": terminated})
                assert (obs["view"][~terminated] == before).all()
                assert seen.isdisjoint(info["deal"][terminated])
            seen |= set(info["deal"].tolist())
        assert endings >= 6
        env.close()


def test_gymnasiums_vector_wrappers_and_registration():
    env = DictInfoToList(RecordEpisodeStatistics(_env(illegal="end")))
    obs, infos = env.reset(seed=3)
    assert isinstance(infos, list) and len(infos) == 6
    episodes = []
    for _ in range(30):
        obs, _, _, _, infos = env.step(np.zeros(6, np.int64))  # mostly illegal: ends episodes
        episodes += [i["episode"] for i in infos if "episode" in i]
    assert episodes and all(e["r"] == -3 for e in episodes)
    vec = gym.make_vec("Hokm-v0", num_envs=4, partner="longest", opponents="random")
    assert isinstance(vec, HokmVectorEnv) and vec.num_envs == 4
    vec.close()


def test_close():
    env = _env()
    env.reset(seed=1)
    env.close()
    env.close()
    assert env.closed
    with pytest.raises(InputError, match="closed"):
        env.step(np.zeros(6, np.int64))
    with pytest.raises(InputError, match="closed"):
        env.reset()


def test_illegal_actions_raise_or_end_the_episode():
    env = _env()
    obs, _ = env.reset(seed=2)
    before = obs["view"].copy()
    bad = np.flatnonzero(obs["action_mask"][0] == 0)[0]
    actions = obs["action_mask"].argmax(axis=1)
    actions[0] = bad
    with pytest.raises(InputError, match=rf"^illegal action {bad} at table 0 \(seat 0\): it must"):
        env.step(actions)
    assert (env.action_masks() == obs["action_mask"].astype(bool)).all()
    obs, reward, terminated, _, info = env.step(obs["action_mask"].argmax(axis=1))
    assert not (obs["view"] == before).all()  # nothing was played by the refused step
    env = _env(illegal="end")
    obs, _ = env.reset(seed=2)
    actions[:] = obs["action_mask"].argmax(axis=1)
    actions[0] = bad
    obs, reward, terminated, _, info = env.step(actions)
    assert terminated[0] and reward[0] == -3 and info["illegal_action"][0]
    assert not terminated[1:].any() and not info["illegal_action"][1:].any()


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"num_envs": 0}, "bad num_envs 0: expected a whole number in 1 .. 65536"),
        ({"num_envs": 70_000}, "bad num_envs 70000"),
        ({"num_envs": 2.0}, "bad num_envs 2.0"),
        ({"seat": 4}, r"bad seat 4: expected one seat 0..3, a team \(0, 2\) or \(1, 3\)"),
        ({"seat": (0, 1)}, r"bad seat \(0, 1\)"),
        ({"seat": True}, "bad seat True"),
        ({"partner": "nosuch"}, "partner: unknown strategy 'nosuch'"),
        ({"opponents": "longst"}, "opponents: unknown strategy 'longst'; did you mean 'longest'"),
        ({"target": 0}, "bad match target 0: expected a whole number in 1 .. 1000"),
        ({"first_hakem": "highest-card"}, "first_hakem chooses a match's first Hakem"),
        ({"target": 7, "first_hakem": "best"}, "bad first-Hakem rule 'best'"),
        ({"illegal": "ignore"}, "bad illegal='ignore': expected 'raise' or 'end'"),
        ({"autoreset_mode": "Later"}, "bad autoreset_mode 'Later': expected one of NextStep"),
    ],
)
def test_bad_arguments_are_one_line(kwargs, message):
    with pytest.raises(InputError, match=message) as exc:
        _env(**kwargs)
    assert "\n" not in str(exc.value)


def test_bad_steps_and_resets_are_one_line():
    env = _env()
    with pytest.raises(InputError, match=r"no episode yet: call reset\(\) first"):
        env.step(np.zeros(6, np.int64))
    with pytest.raises(InputError, match="reset_mask with no episodes under way"):
        env.reset(options={"reset_mask": np.ones(6, bool) & (np.arange(6) < 2)})
    obs, _ = env.reset(seed=1)
    ok = obs["action_mask"].argmax(axis=1)
    cases = [
        (ok.astype(np.float64), "bad actions: dtype float64; expected integers 0..55"),
        (ok[:5], r"bad actions shape \(5,\): expected \(6,\), one per table"),
        (ok.reshape(2, 3), r"bad actions shape \(2, 3\)"),
        (np.where(np.arange(6) == 4, 99, ok), "action 99 at table 4 out of range: expected 0..51"),
        (np.where(np.arange(6) == 1, -1, ok), "action -1 at table 1 out of range"),
        (ok.astype(bool), "bad actions: dtype bool"),
        ("52", "bad actions: dtype <U2"),
        (None, "bad actions: dtype object"),
    ]
    for actions, message in cases:
        with pytest.raises(InputError, match=message):
            env.step(actions)
    env.step(list(ok))  # a list of ints is an array of actions
    for seed, message in [(-1, "bad seed -1: expected a whole number in 0 .. 18446744073709551615"),
                          (2**64, "bad seed 18446744073709551616"), (1.5, "bad seed 1.5"),
                          ("7", "bad seed '7'")]:  # fmt: skip
        with pytest.raises(InputError, match=message):
            env.reset(seed=seed)
    bad_options = [
        ({"deal": -3}, "bad deal -3: expected a whole number in 0 .. 4611686018427387903"),
        ({"reset_mask": [True] * 6}, "bad reset_mask: expected a numpy bool array of 6"),
        ({"reset_mask": np.ones(5, bool)}, r"bad reset_mask shape \(5,\): expected \(6,\)"),
        ({"decks": 1}, "bad options {'decks': 1}: expected a dict with 'deal'"),
        ("deal", "bad options 'deal'"),
    ]
    for options, message in bad_options:
        with pytest.raises(InputError, match=message):
            env.reset(options=options)


def test_bot_faults_name_the_strategy_seed_and_hand():
    """A bot's exception and its illegal card each stop the step with one line naming the
    strategy, seat, seed, hand and trick; the environment needs a reset after."""
    for mode, what in [(1, "raised"), (2, "played illegal card")]:
        env = HokmVectorEnv(num_envs=3, seat=(0, 2), opponents=f"{PYFAULTY}(mode={mode})")
        obs, _ = env.reset(seed=4)
        with pytest.raises(StoppedError, match=rf"strategy '.*pyfaulty.py\(mode={mode}\)' {what}"
                           rf".* \(seat 1\) at seed 4, hand \d+, trick 3; call reset"):  # fmt: skip
            for _ in range(20):
                obs, *_ = env.step(obs["action_mask"].argmax(axis=1))
        with pytest.raises(InputError, match="call reset"):
            env.step(np.zeros(3, np.int64))
        env.reset(seed=5)
