"""A variant's rules resolved: its data joined to its plugins' hooks, once per ruleset.

The ruleset, its hooks by kind and the answers checked at their boundary, the declaring
roles composed, pinned rules (what a record carries), the players' words, and the
plugins described for ``bezique plugins``.
"""
