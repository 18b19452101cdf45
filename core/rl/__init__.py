"""Bezique for learning agents: a fixed action space, observations, and environments.

* :mod:`bezique.rl.actions`: every action a variant can ever offer, numbered 0..N-1,
  and the mask of the legal ones at every decision;
* :mod:`bezique.rl.observation`: a seat's view as a fixed-shape numeric array, field by
  field, never holding a card the seat has not seen;
* :mod:`bezique.rl.pettingzoo`: a PettingZoo AEC environment of every variant;
* :mod:`bezique.rl.openspiel`: the game as an OpenSpiel Python game;
* :mod:`bezique.rl.bench`: environment steps a second against the game's own loop.

The numeric parts need numpy, the environments PettingZoo (with gymnasium) and
OpenSpiel: the optional extra ``rl`` installs them.
"""
