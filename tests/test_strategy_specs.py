"""Strategy specs that cannot work: one clear line naming the side, the value and the
valid choices, exit code 2; nothing silently accepted."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from hokm_sim.bots.registry import StrategyError, resolve
from hokm_sim.cli import main


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("pimc(k=-3)", "bad value -3 for pimc parameter k: expected a whole number from 1"),
        ("pimc(k=0)", "bad value 0 for pimc parameter k"),
        ("pimc(k=2.5)", "bad value 2.5 for pimc parameter k"),
        ("weighted(length=nan)", "bad value nan for weighted parameter length: not finite"),
        ("weighted(strength=inf)", "not finite"),
        ("weighted(foo=1)", "unknown parameter 'foo' for weighted; parameters: length, strength"),
        ("weighted(lenght=1)", "did you mean 'length'?"),
        ("weighted(length=x)", "bad value 'x' for weighted parameter length: not a number"),
        ("expret", "unknown strategy 'expret'; did you mean 'expert'?"),
    ],
)
def test_bad_specs_are_refused(spec, message):
    with pytest.raises(StrategyError, match=message.replace("(", r"\(").replace("?", r"\?")):
        resolve(spec)


def test_good_parameters_are_kept():
    s = resolve("pimc(k=3,ms=0.5)")
    assert s.play_params[:4] == (3.0, 200000.0, 0.5, 0.0)  # k, nodes, ms, margin (default)


@pytest.mark.parametrize(
    ("args", "side"), [(["expret", "random"], "A"), (["random", "rndom"], "B")]
)
def test_run_says_which_side_is_unknown(args, side, tmp_path):
    res = CliRunner().invoke(main, ["run", *args, "--hands", "10", "--out", str(tmp_path / "r")])
    assert res.exit_code == 2
    err = res.stderr.strip()
    assert err.startswith(f"Error: {side}: unknown strategy") and "\n" not in err
    assert "did you mean" in err
    assert not (tmp_path / "r").exists()  # nothing written for bad input


def test_bot_files_with_the_wrong_shape(tmp_path):
    plain = tmp_path / "plain.py"
    plain.write_text(
        "def choose_trump(view, params, mem, rng):\n    return 0\n\n"
        "def play_card(view, params, mem, rng):\n    return 0\n"
    )
    with pytest.raises(StrategyError, match=r"choose_trump takes 4 arguments; a Python bot's"):
        resolve(str(plain))
    three = tmp_path / "three.py"
    three.write_text(
        "from hokm_sim.bots.botkit import njit\n\n@njit\ndef choose_trump(view, params, rng):\n"
        "    return 0\n\n@njit\ndef play_card(view, params, mem, rng):\n    return 0\n"
    )
    with pytest.raises(StrategyError, match=r"takes 3 arguments; .* \(view, params, mem, rng\)"):
        resolve(str(three))
