"""JSON Schemas shipped with bezique (package data, read with importlib.resources)."""
