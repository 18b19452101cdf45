"""Rule texts compared by simulation.

The games on the same seeds, their statistics, tables, plot and page, and the
speed of a comparison in one process or several.
"""
