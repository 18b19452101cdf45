"""Many games at once.

Random simulations, tournaments and their ratings, games spread over processes, and
the random-simulation conformance checks of the test kit.
"""
