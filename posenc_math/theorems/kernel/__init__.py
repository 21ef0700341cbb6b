"""The trusted kernel: the only code that marks a step, an instance, a conclusion or a control checked.

Everything else (the theorem modules, the registry, the page renderer, the
site) builds statements and asks this package; a skeptic reads only this
package (de Bruijn's criterion).  Its modules, in the order to read them:

- :mod:`.algebra`: exact arithmetic in ``Q(zeta_N)`` and Laurent polynomials;
- :mod:`.normal`: certificate (i) for scalars: an expression, as written,
  becomes a normal form by identities stated there (field arithmetic, the
  exponent law, Euler's formula, logarithms of positive quantities, sums
  linear in their summand, definitions unfolded), recording every divisor
  that must be nonzero as a *condition*;
- :mod:`.matrices`: certificate (i) for matrices: words in matrix atoms
  (units, symbols, permutations, block-diagonal matrices and stacked
  columns of symbolic size, row softmax), normalised by the rules stated there;
- :mod:`.numeric`: certificate (ii): both sides as written, in interval
  arithmetic, at sampled points of the declared domain;
- :mod:`.decide`: the decisions (:func:`decide`, :func:`check_step`,
  :func:`judge_control`, :func:`established`), :data:`PROCEDURES` and
  :func:`self_test`;
- :mod:`.bound`: one CPU-time bound for every decision.

What it trusts: Python's integers and ``fractions``, SymPy's polynomial
``factor_list`` and ``invert`` (the first is checked by multiplying back)
and ``cyclotomic_poly``, mpmath's interval arithmetic, and the SymPy classes
only as data (``type(node)``, ``node.args``, a symbol's declared
assumptions).  What it does not trust: SymPy's automatic evaluation beyond
building the expression the author wrote, ``simplify``, ``doit``,
``block_collapse``, ``subs``/``xreplace`` on the author's expressions,
SymPy's assumption system on expressions (``is_zero``, ``is_positive``),
and any procedure's "zero" that the intervals contradict.

Examples
--------
>>> from sympy import symbols, sin, cos
>>> a, b = symbols("a b", real=True)
>>> decide_equal(sin(a + b), sin(a) * cos(b) + cos(a) * sin(b)).proved
True
>>> sorted(PROCEDURES)
['matrix words', 'normal form']
"""

from .bound import TIME_BOUND
from .decide import (
    MIN_POINTS,
    PROCEDURES,
    Checked,
    Decision,
    check_fact,
    check_step,
    decide,
    decide_equal,
    decide_zero,
    established,
    instantiate,
    judge_control,
    judge_fact_control,
    one_certificate,
    one_change,
    self_test,
)

__all__ = [
    "MIN_POINTS",
    "PROCEDURES",
    "TIME_BOUND",
    "Checked",
    "Decision",
    "check_fact",
    "check_step",
    "decide",
    "decide_equal",
    "decide_zero",
    "established",
    "instantiate",
    "judge_control",
    "judge_fact_control",
    "one_certificate",
    "one_change",
    "self_test",
]
