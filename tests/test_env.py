"""The PettingZoo and Gymnasium environments: the API checkers, the engine's deals, its rates."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from hokm_sim.bots.registry import resolve  # noqa: E402
from hokm_sim.engine import kernels as k  # noqa: E402
from hokm_sim.engine import records as r  # noqa: E402
from hokm_sim.env import HokmEnv, HokmGymEnv  # noqa: E402
from hokm_sim.env.aec import TRUMP_ACTION  # noqa: E402
from hokm_sim.env.table import SeatBot  # noqa: E402
from hokm_sim.errors import InputError  # noqa: E402
from hokm_sim.sim.runner import Runner  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PY_LONGEST = str(ROOT / "examples" / "python_bot.py")  # longest, in plain Python
PYRANDOM = str(ROOT / "tests" / "bots" / "pyrandom.py")  # random, in plain Python


@pytest.mark.parametrize("target", [None, 7])
def test_pettingzoo_api_test_passes(target):
    api_test(HokmEnv(target=target), num_cycles=200)


def _play_out(env: HokmEnv, choose) -> dict:
    """Play the episode with ``choose(agent, obs)``; each agent's summed reward."""
    total = dict.fromkeys(env.possible_agents, 0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        total[agent] += reward
        env.step(None if term or trunc else choose(agent, obs))
    return total


def test_env_plays_the_engines_hands_card_for_card():
    """Every seat driven by ``longest`` (its plain-Python port, which plays the
    compiled bot's cards: tests/test_python_bots.py) through the AEC API: the
    engine's trace rows of that table come out, deal after deal."""
    longest = resolve(PY_LONGEST)
    want = Runner(longest, longest).trace_hands(21, 0, 6)
    env = HokmEnv()
    bot = SeatBot(longest)

    def choose(agent, obs):
        answer = bot.decide(env.table)
        return answer + TRUMP_ACTION if env.table.waiting == "trump" else answer

    for d in range(6):
        env.reset(seed=21) if d == 0 else env.reset()
        total = _play_out(env, choose)
        row = env.table.rows[0]
        assert (row == want[d]).all()
        points = int(row[k.T_POINTS])
        assert total["player_0"] == (points if row[k.T_WINNER] == 0 else -points)
        assert total["player_1"] == -total["player_0"]


def test_match_mode_plays_the_engines_match():
    longest = resolve(PY_LONGEST)
    want = Runner(longest, longest).trace_match(8, 3, 7)
    env = HokmEnv(target=7)
    env.reset(seed=8, options={"deal": 3})
    bot = SeatBot(longest)
    total = _play_out(
        env, lambda a, o: bot.decide(env.table) + (TRUMP_ACTION if o["action_mask"][52] else 0)
    )
    rows = env.table.rows[: env.table.hands_done]
    assert (rows == want).all()
    final = rows[-1, k.T_SCORES : k.T_SCORES + 2]
    assert total["player_0"] == final[0] - final[1]


def test_random_rollout_reproduces_the_engines_random_rates():
    """3,000 hands of uniformly random actions through the AEC API against the
    engine's random-vs-random counts: Hakem win, Kot and Hakem Kot rates agree
    within four standard errors (the vector environment's test plays more hands)."""
    env = HokmEnv()
    rng = np.random.default_rng(5)
    n = 3_000
    hakem_won = kot = hakem_kot = 0
    env.reset(seed=123)
    for i in range(n):
        if i:
            env.reset()
        while env.table.waiting is not None:
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
        row = env.table.rows[0]
        hakem_won += int(row[k.T_WINNER] == (row[k.T_HAKEM] & 1))
        kot += int(row[k.T_KIND] == 1)
        hakem_kot += int(row[k.T_KIND] == 2)
    rnd = resolve("random")
    counts = Runner(rnd, rnd).counts(9, 100_000, duplicate=False, threads=1)
    tricks = counts[r.C_TRICKS : r.C_TRICKS + r.C_TRICKS_SIZE].reshape(2, 8, 8).sum(axis=0)
    m = tricks.sum()
    ref = {
        "hakem won": tricks[7, :].sum() / m,
        "kot": tricks[7, 0] / m,
        "hakem kot": tricks[0, 7] / m,
    }
    got = {"hakem won": hakem_won / n, "kot": kot / n, "hakem kot": hakem_kot / n}
    for name, p in ref.items():
        se = np.sqrt(p * (1 - p) / n + p * (1 - p) / m)
        assert abs(got[name] - p) < 4 * se, (name, got[name], p)


def test_gymnasium_wrapper_passes_the_checker_and_rewards_the_learners_team():
    env = HokmGymEnv(partner=PY_LONGEST, opponents=PYRANDOM, seat=1)
    check_env(env, skip_render_check=True)
    obs, info = env.reset(seed=4)
    assert obs["action_mask"].any() and (info["action_mask"] == obs["action_mask"]).all()
    done, total = False, 0.0
    while not done:
        obs, reward, done, _, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        total += reward
    row = env.table.rows[0]
    points = int(row[k.T_POINTS])
    assert total == (points if row[k.T_WINNER] == 1 else -points)
    obs, info = env.reset()
    bad = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(bad)
    assert done and reward == -3.0 and info["illegal_action"]


def test_environment_inputs_are_checked():
    with pytest.raises(InputError, match="bad seat 5"):
        HokmGymEnv(seat=5)
    with pytest.raises(InputError, match="partner: unknown strategy 'nosuch'"):
        HokmGymEnv(partner="nosuch")
    env = HokmGymEnv(partner=PYRANDOM, opponents="random", illegal="raise")  # compiled seats
    env.reset(seed=1)
    with pytest.raises(InputError, match="action 99 out of range: expected 0..51"):
        env.step(99)
    with pytest.raises(InputError, match="bad match target 0"):
        HokmEnv(target=0)


@pytest.mark.parametrize(
    ("action", "says"),
    [
        (99, "action 99 out of range"),
        (-1, "action -1 out of range"),
        (3.0, "bad action 3.0 (float): expected an integer 0..55"),
        ("52", "bad action '52' (str)"),
        (True, "bad action True (bool)"),
    ],
)
def test_actions_outside_the_space_are_refused_whatever_the_illegal_policy(action, says):
    env = HokmGymEnv(partner=PYRANDOM, opponents=PYRANDOM)  # illegal="end": masked moves end
    env.reset(seed=1)
    with pytest.raises(InputError, match=says.replace("(", r"\(").replace(")", r"\)")):
        env.step(action)
    aec = HokmEnv()
    aec.reset(seed=1)
    with pytest.raises(InputError, match=says.replace("(", r"\(").replace(")", r"\)")):
        aec.step(action)
    legal = int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])[0])
    aec.step(np.int64(legal))  # numpy integers are actions
    legal = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
    aec.step(np.argmax(np.isin(np.arange(56), legal)))  # and so is what argmax gives


@pytest.mark.parametrize(
    ("options", "says"),
    [
        ({"seed": -1}, "bad seed -1: expected a whole number in 0 .. 18446744073709551615"),
        ({"seed": 2**64}, "bad seed 18446744073709551616"),
        ({"seed": 1.5}, "bad seed 1.5"),
        ({"seed": 1, "options": {"deal": -1}}, "bad deal -1"),
        ({"seed": 1, "options": {"deal": 2**62}}, "bad deal"),
        ({"seed": 1, "options": {"deal": 2.0}}, "bad deal 2.0"),
        ({"seed": 1, "options": ["deal", 1]}, "bad options"),
    ],
)
def test_reset_refuses_seeds_and_deals_the_engine_would_take_as_others(options, says):
    for env in (HokmEnv(), HokmGymEnv(partner=PYRANDOM, opponents=PYRANDOM)):
        with pytest.raises(InputError, match=says.replace("(", r"\(")):
            env.reset(**options)


def test_targets_that_are_not_whole_points_are_refused():
    for target in (1.5, True, "7"):
        with pytest.raises(InputError, match="bad match target"):
            HokmEnv(target=target)


def test_the_aec_episode_ends_cleanly_and_infos_hold_only_the_hand_just_ended():
    env = HokmEnv(target=7)
    with pytest.raises(InputError, match="no episode yet: call reset"):
        env.step(0)
    env.reset(seed=2)
    with pytest.raises(InputError, match="action None for player_"):
        env.step(None)
    hands_seen, stale = 0, 0
    for _agent in env.agent_iter():
        obs, _, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        infos = [env.infos[a] for a in env.agents]
        if any("hand" in i for i in infos):
            hands_seen += 1
            assert all("hand" in i for i in infos)
        elif hands_seen and env.table.waiting is not None:
            stale += "hand" in env.infos[env.agent_selection]
    assert hands_seen == env.table.hands_done >= 2 and stale == 0
    for call in (lambda: env.step(0), env.last):
        with pytest.raises(
            InputError, match="the episode is over .every agent is done.: call reset"
        ):
            call()
    env.reset(seed=2)  # and a new one starts
    assert env.last()[0]["action_mask"].any()


def test_both_gymnasium_ids_are_registered():
    import gymnasium

    env = gymnasium.make("Hokm-v0", partner=PYRANDOM, opponents=PYRANDOM)
    assert env.unwrapped.table.target is None
    match = gymnasium.make("hokm_sim.env:HokmMatch-v0", partner=PYRANDOM, opponents=PYRANDOM)
    assert match.unwrapped.table.target == 7
    obs, info = match.reset(seed=3)
    assert info["action_mask"].any()
