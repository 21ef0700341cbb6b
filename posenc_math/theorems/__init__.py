"""Theorems about positional encodings, each checked step by step by SymPy.

Every theorem is an object (:class:`Theorem`) with a stable id that readers
cite; its conclusions (:class:`Conclusion`) are what the page states, and
:func:`verify` re-checks that the steps establish them (``posenc-math
verify`` on the command line).  Importing this package imports SymPy (about
half a second); the rest of ``posenc_math`` does not need it.

Examples
--------
>>> from posenc_math import theorems
>>> result = theorems.verify(["shift-block"])[0]
>>> result.status, result.scope, result.negative_control
('verified', 'general', 'rejected')
"""

from . import kernel
from .core import (
    SCOPES,
    Chain,
    Conclusion,
    Equal,
    Fact,
    Holds,
    Result,
    StepResult,
    Termwise,
    Theorem,
    Use,
    Witness,
)
from .kernel import TIME_BOUND, Decision, decide_equal, decide_zero
from .registry import all_theorems, dependencies, get, ids, page_of, register, verify, verify_one, verify_theorem

__all__ = [
    "SCOPES",
    "TIME_BOUND",
    "Chain",
    "Conclusion",
    "Decision",
    "Equal",
    "Fact",
    "Holds",
    "Result",
    "StepResult",
    "Termwise",
    "Theorem",
    "Use",
    "Witness",
    "all_theorems",
    "decide_equal",
    "decide_zero",
    "dependencies",
    "get",
    "ids",
    "kernel",
    "page_of",
    "register",
    "verify",
    "verify_one",
    "verify_theorem",
]
