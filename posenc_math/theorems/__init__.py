"""Theorems about positional encodings, each checked step by step by SymPy.

Every theorem is an object (:class:`Theorem`) with a stable id that readers
cite; :func:`verify` re-checks them (``posenc-math verify`` on the command
line).  Importing this package imports SymPy (about half a second); the rest
of ``posenc_math`` does not need it.

Examples
--------
>>> from posenc_math import theorems
>>> result = theorems.verify(["shift-block"])[0]
>>> result.status, result.negative_control
('verified', 'rejected')
"""

from .check import Decision, decide_equal, decide_zero
from .core import Chain, Equal, Fact, Result, StepResult, Theorem, Witness, verify_theorem
from .registry import all_theorems, get, ids, page_of, register, verify, verify_one

__all__ = [
    "Chain",
    "Decision",
    "Equal",
    "Fact",
    "Result",
    "StepResult",
    "Theorem",
    "Witness",
    "all_theorems",
    "decide_equal",
    "decide_zero",
    "get",
    "ids",
    "page_of",
    "register",
    "verify",
    "verify_one",
    "verify_theorem",
]
