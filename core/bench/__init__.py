"""The benchmarks of ``bezique bench``.

Random deals against a straight-line baseline or another variant, the search bot's
iterations, and players' decisions judged against the heuristic's.
"""
