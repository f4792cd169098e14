"""What a seat may see: the layout of the ``view`` array handed to strategies.

The engine keeps one ``int64`` array of ``VIEW_SIZE`` slots up to date as the
hand goes on and passes it to every decision, with the deciding seat's own
fields filled in. It holds only what that seat could know at a real table:
its own cards, the trump, who is Hakem, the cards played so far and by whom,
shown voids and the tricks taken. No other seat's hand is ever in it.

Card masks are ``int64`` with bit ``suit * 13 + rank`` set (see
:mod:`hokm_sim.cards`); cards are indices 0..51; seats are 0..3 and teams
``seat & 1``. The trick's k-th card was played by seat ``(leader + k) % 4``.
"""

from __future__ import annotations

V_HAND = 0
"""Own cards (mask). While choosing trump: the Hakem's first five cards only."""
V_SEAT = 1
"""The deciding seat, 0..3."""
V_HAKEM = 2
"""The Hakem's seat, 0..3."""
V_TRUMP = 3
"""Trump suit 0..3 (C D H S); -1 while trump is being chosen."""
V_LEADER = 4
"""Seat that led the current trick."""
V_NTRICK = 5
"""Cards already in the current trick, 0..3 (0: this seat leads)."""
V_TRICK = 6
"""Slots 6..9: the current trick's cards in play order, -1 where not yet played."""
V_LED = 10
"""Suit led to the current trick, -1 when this seat leads."""
V_WIN_CARD = 11
"""Card winning the current trick so far, -1 when this seat leads."""
V_WIN_SEAT = 12
"""Seat winning the current trick so far, -1 when this seat leads."""
V_PLAYED = 13
"""Mask of every card played before this decision, this trick's included."""
V_PLAYED_BY = 14
"""Slots 14..17: mask of the cards each seat has played."""
V_VOIDS = 18
"""Shown voids: bit ``seat * 4 + suit`` is set once ``seat`` failed to follow ``suit``."""
V_TRICKS = 19
"""Slots 19, 20: tricks won so far by team 0 and team 1."""
V_TRICK_NO = 21
"""Index of the current trick, 0..12."""
V_LEGAL = 22
"""Mask of the cards this seat may play now (all of ``V_HAND`` when leading)."""
V_SCORES = 23
"""Slots 23, 24: match scores of team 0 and team 1 before this hand (0 for single hands)."""
V_TARGET = 25
"""Match target score; 0 for single hands."""
VIEW_SIZE = 32

MEM_SIZE = 16
"""Slots of per-hand memory (``int64``) each seat's strategy gets, zeroed every hand."""
PARAM_SIZE = 16
"""Slots of parameters (``float64``) each strategy gets; unused ones are 0."""
