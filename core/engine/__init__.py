"""What a game is made of, under :mod:`bezique.game`'s phase machine.

The state and what plugins keep in it, the deal and the draw, turns, scores, the
notation, what a seat sees, why an action is refused, random play, and a saved state
read back and checked.
"""
