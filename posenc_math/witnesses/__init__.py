"""The theorems' numeric witnesses, without SymPy.

A witness evaluates a theorem's conclusion at seeded points with mpmath at 40
significant digits and compares it with the numpy function the theorem
licenses; it returns the largest error found (the theorem's
:class:`~posenc_math.theorems.Witness` holds its tolerance and description).
There is one module per page with theorems, of the same name as the theorem
module (``witnesses.rope`` for ``theorems.rope``), and :data:`WITNESSES` maps
each theorem id to its witness.

Nothing here imports SymPy: numpy, mpmath and the library suffice.  So
``posenc-math verify`` can compute every witness in a process of its own
(:func:`start`) while the main process is still importing SymPy, on a core
that would otherwise wait; the theorems' checks then use the values
(``theorems.verify(..., witness_values=...)``).

Examples
--------
>>> from posenc_math import witnesses
>>> witnesses.compute(["shift-orthogonal"])["shift-orthogonal"] < 1e-12
True
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable

from .. import _processes

__all__ = ["DEADLINE", "MODULES", "WITNESSES", "Background", "compute", "start", "witness"]

#: Theorem id -> its witness (filled as the modules of :data:`MODULES` are imported).
WITNESSES: dict[str, Callable[[], float]] = {}

#: The modules that define witnesses, one per page with theorems, in the
#: order of the theorem index; :mod:`posenc_math.theorems` has a module of each name.
MODULES = (
    "why_positions",
    "binary",
    "sinusoidal",
    "translation",
    "properties",
    "layouts",
    "rope",
    "alibi",
    "relative",
    "context_extension",
    "model_config",
)


def witness(theorem_id: str) -> Callable[[Callable[[], float]], Callable[[], float]]:
    """Register the decorated zero-argument function as the witness of ``theorem_id``."""

    def register(function: Callable[[], float]) -> Callable[[], float]:
        if theorem_id in WITNESSES:
            raise ValueError(f"a witness for {theorem_id!r} is registered twice")
        WITNESSES[theorem_id] = function
        return function

    return register


def _load() -> None:
    for name in MODULES:
        importlib.import_module(f"{__name__}.{name}")


def compute(theorem_ids: Iterable[str] | None = None) -> dict[str, float | str]:
    """Run the witnesses of ``theorem_ids`` (default: all): id -> largest error.

    A witness that raises gives ``"ExceptionType: message"`` instead of a
    number (a failed witness, reported as such by the theorem's check).
    Unknown ids raise ``KeyError``.
    """
    _load()
    wanted = list(WITNESSES) if theorem_ids is None else list(theorem_ids)
    for theorem_id in wanted:
        if theorem_id not in WITNESSES:
            raise KeyError(f"no witness for {theorem_id!r}; known: {', '.join(WITNESSES)}")
    values: dict[str, float | str] = {}
    for theorem_id in wanted:
        try:
            values[theorem_id] = float(WITNESSES[theorem_id]())
        except Exception as error:  # reported, not raised: one broken witness must not hide the others
            values[theorem_id] = f"{type(error).__name__}: {error}"
    return values


class Background:
    """Every witness, computed in a forked process; :meth:`values` collects them.

    Made by :func:`start`.  When the process cannot give its values (it
    died, raised, wrote something that is not its answer, or took longer
    than :data:`DEADLINE`), :meth:`values` returns ``{}``, and each
    theorem's check computes its witness itself.
    """

    def __init__(self, child: _processes.Child):
        self._child = child
        self._values: dict[str, float | str] | None = None

    def values(self) -> dict[str, float | str]:
        """Wait for the process and return its values (``{}`` when it failed)."""
        if self._values is None:
            outcome = self._child.result()
            values = outcome.value if outcome.ok else {}
            self._values = values if isinstance(values, dict) else {}
        return self._values


#: Wall seconds the background process may take before it is stopped (its witnesses are then computed in the
#: main process): far more than they take (a fraction of a second here), a bound on what can go wrong.
DEADLINE = 600.0


def start() -> Background | None:
    """Fork a process that computes every witness; ``None`` where ``fork`` does not exist or other threads run.

    Call it before importing SymPy: the witnesses need only numpy, mpmath
    and the library, so they run while the caller imports.  The process is
    made by ``posenc_math._processes.fork``, the library's one way to fork.
    """
    child = _processes.fork(compute, deadline=DEADLINE)
    return None if child is None else Background(child)
