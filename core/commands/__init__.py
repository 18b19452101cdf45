"""The ``bezique`` command line and the game at the terminal.

The parser and its bounds, each command run, the table drawn for a player, the log of
what happened at it, and the bibliography told in words.
"""
