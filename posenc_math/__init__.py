"""posenc-math: transformer positional encodings, with checked derivations.

The numpy encodings (:mod:`posenc_math.encodings`) are importable from here;
so are the modules :mod:`~posenc_math.conventions`,
:mod:`~posenc_math.precision` and :mod:`~posenc_math.pretrained`.
:mod:`posenc_math.theorems` (the SymPy theorems that license the encodings)
and :mod:`posenc_math.plotting` (matplotlib) are imported on first use,
``posenc_math.theorems`` included: ``import sympy`` is slow, and matplotlib
is an optional extra.
"""

from __future__ import annotations

import importlib
from types import ModuleType
from typing import TYPE_CHECKING

from . import analysis, conventions, encodings, precision, pretrained
from .encodings import *  # noqa: F403  (the names are encodings.__all__, listed once there)

if TYPE_CHECKING:
    from . import plotting as plotting
    from . import theorems as theorems

#: The version of this package.
__version__ = "0.1.0"

#: Submodules imported on first access (``posenc_math.theorems``).
_LAZY = ("plotting", "theorems")

__all__ = ["__version__", "analysis", "conventions", "precision", "pretrained", *encodings.__all__]


def __getattr__(name: str) -> ModuleType:
    """Import :data:`_LAZY` submodules when first used (PEP 562)."""
    if name in _LAZY:
        return importlib.import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
