"""Run by each notebook kernel of a site build as it starts (``PYTHONSTARTUP``).

``posenc_docs.figures`` points ``PYTHONSTARTUP`` at this file for the
kernels MyST-NB starts; IPython runs it in the notebook's namespace, so it
leaves no name behind.  It makes every matplotlib figure display twice,
wide and for phones (:mod:`posenc_docs.figure_display`).
"""


def _posenc_install_figure_display() -> None:
    import sys
    from pathlib import Path

    from IPython import get_ipython

    tools = str(Path(__file__).resolve().parents[1])
    sys.path.insert(0, tools)
    try:
        from posenc_docs import figure_display
    finally:
        sys.path.remove(tools)  # the notebook's own imports see the path they always did

    shell = get_ipython()
    if shell is not None:
        figure_display.install(shell)


_posenc_install_figure_display()
del _posenc_install_figure_display
