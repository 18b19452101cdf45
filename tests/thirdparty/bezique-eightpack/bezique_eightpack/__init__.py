"""Eight-pack bezique for the bezique framework, as an outside distribution ships it.

The rules are a variant file, ``eight-pack.yaml`` (package data), over the Rubicon
plugin that comes with bezique; :mod:`bezique_eightpack.plugin` offers it to bezique
through the ``bezique_variant_files`` hook, registered in the ``bezique`` entry-point
group by this distribution's ``pyproject.toml``.
"""
