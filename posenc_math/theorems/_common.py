"""Symbols and small builders shared by the theorem modules (not public)."""

from __future__ import annotations

import sympy

from .language import undefined_function

#: Positions, offsets and a generic angular frequency: real; w > 0.
t, k, s = sympy.symbols("t k s", real=True)
w = sympy.Symbol("omega", positive=True)
a, b = sympy.symbols("a b", real=True)


def pair(angle):
    """The column (sin angle, cos angle): one sine-cosine pair of PE."""
    return sympy.Matrix([sympy.sin(angle), sympy.cos(angle)])


def rotation_block(angle):
    """The 2 x 2 block [[cos, sin], [-sin, cos]] that shifts a pair by ``angle``."""
    return sympy.Matrix([[sympy.cos(angle), sympy.sin(angle)], [-sympy.sin(angle), sympy.cos(angle)]])


def usin(angle):
    """``sin(angle)`` as written: SymPy does not simplify it while building (``sin(pi - x)`` stays)."""
    return sympy.sin(angle, evaluate=False)


def ucos(angle):
    """``cos(angle)`` as written (see :func:`usin`)."""
    return sympy.cos(angle, evaluate=False)


def block_as_written(angle):
    """:func:`rotation_block` with its entries left as written (``cos(omega*0)`` is not replaced by 1)."""
    return sympy.Matrix([[ucos(angle), usin(angle)], [-usin(angle), ucos(angle)]])


def indexed_function(name: str, **assumptions: bool) -> type:
    """An undefined SymPy function of one index, shown as ``name_{index}`` (``q_{j}``, ``\\omega_{j}``).

    The components of a vector of symbolic length are such functions of their
    index; ``assumptions`` (``real=True``, ``positive=True``) hold for every
    value (see :func:`~posenc_math.theorems.language.undefined_function`).

    Examples
    --------
    >>> q = indexed_function("q", real=True)
    >>> j = sympy.Symbol("j", integer=True)
    >>> sympy.latex(q(j + 1)), q(j).is_real
    ('q_{j + 1}', True)
    """
    unknown = set(assumptions) - {"real", "positive"}
    if unknown:
        raise ValueError(f"assumptions must be real= or positive=; got {sorted(unknown)}")
    return undefined_function(name, real=assumptions.get("real", False), positive=assumptions.get("positive", False))
