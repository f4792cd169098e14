"""``neural``: its shipped weights fit its network, the numba forward pass is PyTorch's,
and ``experiments/learn.py`` trains seeded and resumes to the same network.

That ``neural`` plays only legal cards, the same twice, is checked with every
built-in bot in ``tests/test_strategies.py``.
"""

import importlib.util
from pathlib import Path

import numpy as np
import pytest

from hokm_sim.bots.registry import resolve
from hokm_sim.strategies import _neural

ROOT = Path(__file__).resolve().parents[1]


def _learn():
    spec = importlib.util.spec_from_file_location("learn", ROOT / "experiments" / "learn.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_shipped_weights_fit_the_network_and_name_their_command():
    path = Path(resolve("neural").play.path).parent / "neural_weights.npz"
    w = np.load(path)
    hidden1, hidden2 = w["b1"].shape[0], w["b2"].shape[0]
    assert w["w1"].shape == (_neural.FEATURES, hidden1)
    assert w["w2"].shape == (hidden2, hidden1)
    assert w["w3"].shape == (_neural.ACTIONS, hidden2) and w["b3"].shape == (_neural.ACTIONS,)
    assert str(w["command"]).startswith("python experiments/learn.py ")
    assert path.stat().st_size < 2_000_000


def test_training_resumes_to_the_same_network_and_numba_scores_as_torch(tmp_path, capsys):
    """A tiny self-play run (no evaluation, so no bot compiled): 2 iterations at once
    equal 1, then 1 more resumed from the checkpoint; plain Deep Monte Carlo runs too.
    Then the trained network, its last layer randomised, scores 56 actions in numba
    as in PyTorch, on views of both kinds (trump calls and cards), and the numba
    bot's choice is the best legal score."""
    torch = pytest.importorskip("torch")
    learn = _learn()
    tiny = ["--mix", "self:8", "--eval-every", "0", "--seed", "3", "--batch", "64"]
    learn.main([*tiny, "--iterations", "2", "--out", str(tmp_path / "a")])
    learn.main([*tiny, "--iterations", "1", "--out", str(tmp_path / "b")])
    with pytest.raises(SystemExit) as exc:
        learn.main([*tiny, "--iterations", "2", "--out", str(tmp_path / "b")])
    assert exc.value.code == 2 and "add --resume" in capsys.readouterr().err
    learn.main([*tiny, "--iterations", "2", "--out", str(tmp_path / "b"), "--resume"])
    a = torch.load(tmp_path / "a" / "checkpoint.pt", weights_only=False)
    b = torch.load(tmp_path / "b" / "checkpoint.pt", weights_only=False)
    assert a["state"]["iteration"] == b["state"]["iteration"] == 2
    assert all(torch.equal(a["net"][k], v) for k, v in b["net"].items())
    torch.manual_seed(3)
    assert not torch.equal(a["net"]["l1.weight"], learn.Net((128, 64)).l1.weight)  # it trained
    learn.main([*tiny, "--iterations", "1", "--out", str(tmp_path / "c"), "--method", "dmc"])
    assert torch.load(tmp_path / "c" / "checkpoint.pt", weights_only=False)["state"]["samples"]

    net = learn.Net((128, 64))
    net.load_state_dict(a["net"])
    torch.manual_seed(0)
    torch.nn.init.normal_(net.l3.weight, std=0.3)  # untrained, the last layer is 0
    w = learn.weights(net)
    args = (w["w1"], w["b1"], np.ascontiguousarray(w["w2"].T), w["b2"], w["w3"], w["b3"])
    views = _some_views()
    x = np.empty((len(views), _neural.FEATURES), np.float32)
    _neural.features(views, x)
    with torch.no_grad():
        expected = net(torch.from_numpy(x)).numpy()
    mem, rng = np.zeros(16, np.int64), np.zeros(4, np.uint64)
    got = np.empty(_neural.ACTIONS, np.float32)
    for view, want in zip(views, expected, strict=True):
        _neural.q_values(view, mem, rng, *args, w["alpha"], got)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)
        best = _neural.best_action(view, mem, rng, *args, w["alpha"])
        allowed = _allowed(view)
        assert best in allowed and want[best] >= want[allowed].max() - 1e-4


def _allowed(view) -> np.ndarray:
    from hokm_sim.engine.view import V_LEGAL, V_TRUMP

    if view[V_TRUMP] < 0:
        return np.arange(52, 56)
    return np.array([c for c in range(52) if (int(view[V_LEGAL]) >> c) & 1])


def _some_views() -> np.ndarray:
    """Views of self-play at 16 tables, random legal actions, from the trump call on."""
    from hokm_sim.env.vector import HokmVectorEnv

    env = HokmVectorEnv(num_envs=16, seat=(0, 1, 2, 3))
    obs, _ = env.reset(seed=11)
    rng = np.random.default_rng(0)
    out = []
    for _ in range(30):
        mask = obs["action_mask"].astype(bool)
        out.append(obs["view"][mask.any(axis=1)])  # not the last views of ended hands
        obs, *_ = env.step(np.where(mask, rng.random(mask.shape), -1).argmax(axis=1))
    env.close()
    return np.concatenate(out)
