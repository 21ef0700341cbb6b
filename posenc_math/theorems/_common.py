"""Symbols and small builders shared by the theorem modules (not public)."""

from __future__ import annotations

import random

import mpmath
import sympy

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


def seeded(theorem_id: str) -> random.Random:
    """A random generator seeded by the theorem id: the same points every run."""
    return random.Random(theorem_id)


def mp_context(digits: int = 40):
    """An mpmath working precision of ``digits`` significant digits."""
    return mpmath.workdps(digits)
