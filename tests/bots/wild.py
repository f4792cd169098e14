"""A bot that writes past its arrays or never returns, for the checking-mode and Ctrl-C tests.

``mode`` (a parameter, so that one compiled engine serves every case):

- 0: the lowest legal card, clubs;
- 1: writes ``mem[1000000]``; 2: reads ``params[1000]``; 3: reads ``view[10**6]``;
- 4: as 0, but a trump call in about 1,500 (``rand_below(rng, 1500) == 0``)
  never returns (a loop the engine cannot leave);
- 5: as 4, but names suit 9 instead of looping (which hand that is, by seed).
"""

from hokm_sim.bots.botkit import V_LEGAL, lowest, njit, rand_below

DESCRIPTION = "reads and writes out of bounds, or hangs, on purpose (tests only)"
PARAMS = {"mode": 0}


@njit
def choose_trump(view, params, mem, rng):
    """Clubs; in modes 4 and 5, now and then a hang or suit 9."""
    mode = params[0]
    if mode >= 4 and rand_below(rng, 1500) == 0:
        if mode == 5:
            return 9
        while mem[0] >= 0:  # 2**63 steps: for ever
            mem[0] += 1
    return 0


@njit
def play_card(view, params, mem, rng):
    """The lowest legal card, after the out-of-bounds access the mode asks for."""
    mode = params[0]
    if mode == 1:
        mem[1000000] = 5
    elif mode == 2:
        mem[1] = int(params[1000])
    elif mode == 3:
        mem[1] = view[10**6]
    return lowest(view[V_LEGAL])
