"""Figures for the site, built from the library's own tables.

matplotlib is an optional dependency (the ``plot`` extra); it is imported
only here.  Every helper returns the :class:`matplotlib.figure.Figure` it
drew, draws nothing random, and labels its axes.
"""

from .tables import heatmap

__all__ = ["heatmap"]
