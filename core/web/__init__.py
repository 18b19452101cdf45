"""The web table (``bezique serve``): its server, its store, its pages and their analysis.

The server (:mod:`bezique.web.app`, on Starlette; the optional extra ``web``) keeps
every table in one SQLite file (:mod:`bezique.web.store`), plays the bots of each table
(:mod:`bezique.web.bots`, the thinking ones in a pool of processes) and sends each seat
its own view only (:mod:`bezique.web.seatview`).  The pages are plain HTML, CSS and
JavaScript in ``static/``, with nothing fetched from outside.  Only :mod:`bezique.web.app`
and :mod:`bezique.web.command` need the extra; the rest imports without it.
"""
