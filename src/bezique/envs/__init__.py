"""Research API: Gymnasium, PettingZoo and OpenSpiel adapters over the rules core.

Each adapter is a thin layer over the public core API (``Deal``, ``Match``, ``Observation``,
``Action``); every number an agent sees comes from one seat's ``Deal.observation(seat)``
through :mod:`bezique.envs.encoding`, the one definition of the observation tensor and the
action ids (:data:`~bezique.envs.encoding.ENCODING_VERSION`).

=================================  ===============================================================
module                             what it gives
=================================  ===============================================================
:mod:`bezique.envs.encoding`       ``Encoding(rules)``: observation layout, action ids, masks
:mod:`bezique.envs.common`         episodes (a deal or a match), rewards, bots as players
:mod:`bezique.envs.gymnasium_env`  ``BeziqueEnv``: one seat against bots (``bezique/Bezique-v1``)
:mod:`bezique.envs.pettingzoo_env` ``BeziqueAECEnv``: every seat, turn by turn
:mod:`bezique.envs.openspiel_game` ``python_bezique`` for ``pyspiel.load_game``
:mod:`bezique.envs.openspiel_bot`  OpenSpiel's IS-MCTS as the ``openspiel-ismcts`` bot
=================================  ===============================================================

The frameworks are optional (``pip install bezique[rl]``); importing this package needs only
numpy, and each adapter module imports its framework.  The ``openspiel-ismcts`` bot is known to
:func:`bezique.bots.make` when OpenSpiel is installed: :func:`register_bots` is the package's
``bezique.bots`` entry point, called the first time a bot name is looked up that is not
registered yet.  See ``docs/research.md``.
"""

from __future__ import annotations

import importlib
import importlib.util

from ..bots import Bot, register
from .encoding import ENCODING_VERSION, Encoding

OPENSPIEL_ISMCTS = "openspiel-ismcts"


def _lazy_ismcts(seed: int | None) -> Bot:
    module = importlib.import_module("bezique.envs.openspiel_bot")
    bot: Bot = module.OpenSpielISMCTS(seed)
    return bot


def register_bots() -> bool:
    """Register ``openspiel-ismcts`` with :func:`bezique.bots.register` if OpenSpiel is
    installed (OpenSpiel itself is imported only when such a bot is made); True if it was."""
    if importlib.util.find_spec("pyspiel") is None:
        return False
    register(
        OPENSPIEL_ISMCTS,
        _lazy_ismcts,
        "OpenSpiel's IS-MCTS on python_bezique, random-playout simulations (bezique[rl])",
    )
    return True


__all__ = ["ENCODING_VERSION", "OPENSPIEL_ISMCTS", "Encoding", "register_bots"]
