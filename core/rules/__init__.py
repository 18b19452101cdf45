"""A variant's rules resolved: its data joined to its plugins' hooks, once per ruleset.

The ruleset, its hooks by kind and the answers checked at their boundary, the declaring
roles composed, pinned rules (what a record carries), the players' words, the English
of rule sentences (cards, lists, numbers: the rulebook's and the plugins'), and the
plugins described for ``bezique plugins``.
"""
