"""Chicago for game-AI research: a fixed action space, a numeric observation, environments.

- :mod:`chicago.env.actions`: every action as an integer (113 ids) and back, legal masks;
- :mod:`chicago.env.observation`: a seat's view as a fixed-size ``float32`` vector;
- :mod:`chicago.env.batch`: many games at once, numpy observations and legal masks;
- :mod:`chicago.env.pettingzoo`: the PettingZoo AEC environment ``chicago_v0`` (extra ``rl``);
- :mod:`chicago.env.openspiel`: the OpenSpiel game ``python_chicago`` with explicit chance
  nodes for every card dealt or drawn (extra ``openspiel``).

All of them are built on the engine (:class:`chicago.Game`) and its views; none repeats a
rule. ``docs/ENVIRONMENTS.md`` documents the action table and the observation layout.
"""

from chicago.extras import MissingExtra

try:  # the one package all of chicago.env needs; the environments check their own
    import numpy  # noqa: F401
except ImportError as exc:
    raise MissingExtra("rl", "chicago.env (action masks, observation vectors)",
                       ["numpy"]) from exc

from chicago.env.actions import NUM_ACTIONS, action_mask, action_to_index, index_to_action
from chicago.env.observation import OBSERVATION_SIZE, encode_view

__all__ = [
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "action_mask",
    "action_to_index",
    "encode_view",
    "index_to_action",
]
