"""The web table: its server, its store, its pages and their analysis.

A game played in the browser is served from here: the server and its routes, the store
that keeps the games between requests, the tables (seats, bots and the game under way),
the pages' data, and the analysis a player may ask of a position or of a finished game
(:mod:`bezique.web.analysis`).  The wing sits on top of the kernel, the players and the
benchmarks, and nothing in the kernel imports it.
"""
