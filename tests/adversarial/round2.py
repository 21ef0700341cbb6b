"""Adversarial round 2: false and true statements for the kernel, written without reading it.

A standalone script (not collected by pytest: its name does not start with ``test_``).  Run it with
``nice -n 10 .venv/bin/python tests/adversarial/round2.py [NAME ...]``; it prints one line per case and a
summary.  Each case runs in a forked child under a wall-clock cap (``CAP`` seconds) so that a hang is seen
as a hang, not as a stuck script.

Classes of hole (the ones ``cases.py`` and ``test_kernel_adversarial.py`` cover least):

``h``  partial functions whose poles the author cancelled (half-angle forms, ``tan`` written as a
       quotient that is 0/0 at one point), branch cuts met only on a set of measure zero (the negative real
       axis for ``conjugate(log z)``), inverse functions true on half the domain (``atan x + atan 1/x``,
       ``acosh(cosh x)``, ``LambertW(x e^x)``), principal roots of negative numbers in Cardano's formula;
``i``  ``Piecewise``, ``Min``/``Max``, ``Heaviside`` (SymPy's ``Heaviside(0) = 1/2``): identities that fail at
       one point (a branch selected by ``Eq``), or on half the domain;
``j``  integers: ``floor``/``Mod`` at negatives, Fermat's little theorem at a composite (341 is a base-2
       pseudoprime: the identity holds at n = 2), identities that fail first at a huge integer (10**30,
       the Pell denominator 470832), sums and products with a symbolic upper limit below the lower one;
``k``  matrices: non-square factors (det(AB) = det(BA) for 2x3 and 3x2), symbolic size p, non-commuting
       explicit matrices;
``l``  inequalities of the wrong strictness (``decide(..., "<")``) that fail at one point, and hypotheses that
       do not imply the claim;
``m``  near misses of 1e-60 to 1e-150 built from huge integers and algebraic numbers;
``n``  work without bound (a power tower, 10**(10**8), factorial(10**10)): refused within the time bound.

Each case: ``(name, hole, lhs, rhs, relation, hypotheses, point, digits, note)``; ``point`` is ``None`` for a
true statement, a dict (symbol -> value, matrix symbols -> explicit matrices) for a false one, or the string
``"by construction"`` where no evaluation can reach it (class ``n``).  Every point of a false case is
confirmed below with SymPy's ``evalf`` (mpmath arithmetic) at ``digits`` and ``2 * digits`` digits.

Reading a verdict: a false statement is *proved* (serious) when ``.proved`` is True and no condition in
``.conditions`` is false at ``point``; *conditional* when the conditions exclude ``point`` (sound);
*refused* otherwise.  A true statement is *proved* (no conditions), *conditional* (proved under conditions:
weaker), or *refused*.
"""

from __future__ import annotations

import multiprocessing
import sys
import time
from typing import Any, NamedTuple

import sympy
from sympy import (
    Abs,
    Add,
    Eq,
    Heaviside,
    I,
    ImmutableMatrix,
    LambertW,
    MatPow,
    MatrixSymbol,
    Max,
    Min,
    Mod,
    Mul,
    Piecewise,
    Pow,
    Product,
    Rational,
    Sum,
    Symbol,
    acosh,
    atan,
    binomial,
    ceiling,
    conjugate,
    cos,
    det,
    exp,
    factorial,
    floor,
    log,
    pi,
    re,
    real_root,
    sign,
    sin,
    sqrt,
    tan,
)

from posenc_math.theorems import (
    Chain,
    Conclusion,
    Equal,
    Holds,
    Termwise,
    Theorem,
    Use,
    Witness,
    get,
    verify_theorem,
)
from posenc_math.theorems.kernel import decide

CAP = 60.0  # wall seconds per case before it counts as a hang (the kernel's bound is 5 CPU seconds)
TIME_BOUND = 5.0


class Case(NamedTuple):
    name: str
    hole: str
    lhs: Any
    rhs: Any
    relation: str
    hypotheses: tuple
    point: Any
    digits: int
    note: str


x, y = sympy.symbols("x y", real=True)
xn = Symbol("xn", real=True, nonzero=True)
yn = Symbol("yn", real=True, nonzero=True)
r = Symbol("r", real=True)
z, w = sympy.symbols("z w")  # complex
u = Symbol("u", positive=True)
n = Symbol("n", integer=True)
p = Symbol("p", integer=True, positive=True)
q = Symbol("q", integer=True, nonnegative=True)
j = Symbol("j", integer=True)
c = Symbol("c", real=True)
te = Symbol("t", extended_real=True)  # SymPy: +-oo are in its domain (te.is_finite is None)
i2 = Symbol("i", integer=True)
nz = Symbol("nz", integer=True, nonzero=True)


def over(top: Any, bottom: Any) -> Any:
    """``top / bottom`` as written."""
    return Mul(top, Pow(bottom, -1, evaluate=False), evaluate=False)


def rot(angle: Any) -> ImmutableMatrix:
    return ImmutableMatrix([[cos(angle), -sin(angle)], [sin(angle), cos(angle)]])


def F(name, hole, lhs, rhs, point, note, relation="=", hypotheses=(), digits=50) -> Case:
    return Case(name, hole, lhs, rhs, relation, tuple(hypotheses), point, digits, note)


def T(name, hole, lhs, rhs, note, relation="=", hypotheses=()) -> Case:
    return Case(name, hole, lhs, rhs, relation, tuple(hypotheses), None, 50, note)


A23, B32 = MatrixSymbol("A", 2, 3), MatrixSymbol("B", 3, 2)
A, B, C = (MatrixSymbol(s, 2, 2) for s in "ABC")
A3 = MatrixSymbol("A", 3, 3)
Ap, Bp, Cp = (MatrixSymbol(s, p, p) for s in "ABC")
D2 = ImmutableMatrix([[1, 0], [0, 2]])
PELL_Q200 = int(sympy.expand((1 + sqrt(2)) ** 200 + (1 - sqrt(2)) ** 200))
PELL_Q20 = int(sympy.expand((1 + sqrt(2)) ** 20 + (1 - sqrt(2)) ** 20))
BIG = 10**20
# 3**K just below 2**(10**20): K = floor(10**20 * log 2 / log 3), computed (not typed) at 60 digits
K3 = int(sympy.floor(sympy.N(BIG * log(2) / log(3), 60)))

FALSE: list[Case] = [
    # -- h: poles cancelled by the author, branch cuts of measure zero, half-domain inverses
    F(
        "half-angle-tangent-0-over-0",
        "h",
        tan(x / 2),
        over(1 - cos(x), sin(x)),
        {x: 0},
        "rhs is 0/0 at x = 0, lhs is 0",
    ),
    F("sine-over-versine", "h", over(sin(x), 1 - cos(x)), over(1 + cos(x), sin(x)), {x: pi}, "lhs 0 at pi, rhs 0/0"),
    F(
        "cosine-over-one-minus-sine",
        "h",
        over(cos(x), 1 - sin(x)),
        over(1 + sin(x), cos(x)),
        {x: -pi / 2},
        "lhs 0 at -pi/2, rhs 0/0",
    ),
    F(
        "double-angle-quotient-is-tangent",
        "h",
        over(1 - cos(2 * x), sin(2 * x)),
        tan(x),
        {x: 0},
        "lhs 0/0 at 0, tan 0 = 0",
    ),
    F("atan-plus-atan-reciprocal", "h", atan(xn) + atan(over(1, xn)), pi / 2, {xn: -1}, "-pi/2 for negative x"),
    F(
        "atan-addition-formula",
        "h",
        atan(x) + atan(y),
        atan(over(x + y, 1 - x * y)),
        {x: 2, y: 2},
        "off by pi when xy > 1",
    ),
    F("acosh-of-cosh", "h", acosh(sympy.cosh(x)), x, {x: -1}, "|x|"),
    F("lambert-w-of-x-exp-x", "h", LambertW(x * exp(x)), x, {x: -2}, "principal branch is >= -1"),
    F("conjugate-of-log", "h", conjugate(log(z)), log(conjugate(z)), {z: -1}, "differs only on the negative real axis"),
    F("conjugate-of-sqrt", "h", conjugate(sqrt(z)), sqrt(conjugate(z)), {z: -4}, "negative real axis only"),
    F("sqrt-of-a-quotient-real", "h", sqrt(over(x, yn)), over(sqrt(x), sqrt(yn)), {x: 1, yn: -1}, "i vs -i"),
    F(
        "cube-root-of-a-product-real",
        "h",
        Pow(x * y, Rational(1, 3)),
        Pow(x, Rational(1, 3)) * Pow(y, Rational(1, 3)),
        {x: -1, y: -1},
        "1 vs exp(2 i pi/3)",
    ),
    F("square-to-a-real-power", "h", Pow(x**2, r), Pow(x, 2 * r), {x: -1, r: Rational(1, 4)}, "1 vs i"),
    F("exp-to-a-complex-power", "h", Pow(exp(z), w), exp(z * w), {z: 2 * pi * I, w: Rational(1, 2)}, "1 vs -1"),
    F(
        "sum-of-cubes-over-quadratic-complex",
        "h",
        over(z**3 + 1, z**2 - z + 1),
        z + 1,
        {z: Rational(1, 2) + I * sqrt(3) / 2},
        "lhs 0/0 at a complex root of the denominator",
    ),
    F(
        "cardano-principal-roots",
        "h",
        Pow(2 + sqrt(5), Rational(1, 3)) + Pow(2 - sqrt(5), Rational(1, 3)),
        1,
        {},
        "principal cube root of the negative 2 - sqrt 5 is complex",
    ),
    F("denesting-with-the-wrong-sign", "h", sqrt(5 - 2 * sqrt(6)), sqrt(2) - sqrt(3), {}, "negative rhs"),
    F("modulus-of-exp-i-z-complex", "h", Abs(exp(I * z)), 1, {z: I}, "exp(-1)"),
    F("real-part-of-a-product", "h", re(z * w), re(z) * re(w), {z: I, w: I}, "-1 vs 0"),
    # -- i: Piecewise, Min/Max, Heaviside
    F("heaviside-squared", "i", Heaviside(x) ** 2, Heaviside(x), {x: 0}, "1/4 vs 1/2 (SymPy: H(0) = 1/2)"),
    F("heaviside-times-reflection", "i", Heaviside(x) * Heaviside(-x), 0, {x: 0}, "1/4 at 0"),
    F("step-piecewise-is-heaviside", "i", Piecewise((1, x > 0), (0, True)), Heaviside(x), {x: 0}, "0 vs 1/2"),
    F(
        "piecewise-undefined-at-zero",
        "i",
        Piecewise((x, x > 0), (-x, x < 0)),
        Abs(x),
        {x: 0},
        "no branch at 0: undefined",
    ),
    F(
        "piecewise-branch-at-a-third",
        "i",
        Piecewise((0, Eq(x, Rational(1, 3))), (1, True)),
        1,
        {x: Rational(1, 3)},
        "differs at one point only",
    ),
    F(
        "piecewise-branch-at-pi",
        "i",
        Piecewise((2, Eq(x, pi)), (cos(x) ** 2 + sin(x) ** 2, True)),
        1,
        {x: pi},
        "the other branch is 1 only after Pythagoras",
    ),
    F("max-squared", "i", Max(x, y) ** 2, Max(x**2, y**2), {x: -2, y: 1}, "1 vs 4"),
    F(
        "max-with-square-as-piecewise",
        "i",
        Max(x, x**2),
        Piecewise((x**2, x > 1), (x, True)),
        {x: -1},
        "x**2 wins for negative x",
    ),
    F(
        "piecewise-of-integer-parity",
        "i",
        Piecewise((0, Eq(Mod(n, 2), 0)), (1, True)),
        Mod(n, 2) + Mod(n, 3) * 0 + Piecewise((1, Eq(n, 7)), (0, True)),
        {n: 7},
        "differs at n = 7 only",
    ),
    # -- j: integers
    F("mod-of-negation", "j", Mod(-n, 3), 3 - Mod(n, 3), {n: 0}, "0 vs 3 at multiples of 3"),
    F("floor-of-negated-third", "j", floor(-n / 3), -floor(n / 3), {n: 1}, "-1 vs 0"),
    F("floor-of-abs", "j", floor(Abs(n)), n, {n: -1}, "1 vs -1"),
    F("square-mod-successor-at-zero", "j", Mod(q**2, q + 1), 1, {q: 0}, "Mod(0, 1) = 0"),
    F("fermat-at-four", "j", Mod(n**4 - n, 4), 0, {n: 2}, "14 mod 4 = 2"),
    F(
        "fermat-at-the-pseudoprime-341",
        "j",
        Mod(n**341 - n, 341),
        0,
        {n: 3},
        "341 = 11*31 is a base-2 pseudoprime: holds at n = 2",
    ),
    F("floor-below-ten-to-the-thirty", "j", floor(q / 10**30), 0, {q: 10**30}, "first fails at 10**30"),
    F(
        "beatty-sqrt2-vs-pell-ratio",
        "j",
        floor(p * sqrt(2)),
        floor(p * Rational(665857, 470832)),
        {p: 470832},
        "665856 vs 665857",
    ),
    F("mod-a-huge-modulus-is-identity", "j", Mod(p, 10**20 + 39), p, {p: 10**20 + 39}, "first fails at 10**20+39"),
    F(
        "binomial-row-sum-negative-n",
        "j",
        Sum(binomial(n, j), (j, 0, n)),
        2**n,
        {n: -1},
        "empty (or Karr) sum 0 vs 1/2",
    ),
    F("abs-sum-symmetric-negative-n", "j", Sum(Abs(j), (j, -n, n)), n * (n + 1), {n: -2}, "upper below lower"),
    F("product-with-a-late-zero", "j", Product(j - 5, (j, 1, p)), 0, {p: 1}, "-4 at p = 1"),
    F(
        "geometric-squares-product-at-one",
        "j",
        Product(1 + x ** (2**j), (j, 0, p - 1)),
        over(1 - x ** (2**p), 1 - x),
        {x: 1, p: 1},
        "lhs 2, rhs 0/0",
    ),
    # -- k: matrices
    F(
        "det-ab-is-det-ba-nonsquare",
        "k",
        det(A23 * B32),
        det(B32 * A23),
        {A23: ImmutableMatrix([[1, 0, 0], [0, 1, 0]]), B32: ImmutableMatrix([[1, 0], [0, 1], [0, 0]])},
        "det(BA) = 0 for a 3x3 of rank 2",
    ),
    F("det-of-a-multiple-symbolic-size", "k", det(c * Ap), c * det(Ap), {p: 2, c: 2, Ap: sympy.eye(2)}, "4 vs 2"),
    F("det-of-negation-odd-size", "k", det(-A3), det(A3), {A3: sympy.eye(3)}, "-1 vs 1"),
    F(
        "trace-of-abc-is-trace-bac",
        "k",
        sympy.Trace(A * B * C),
        sympy.Trace(B * A * C),
        {
            A: ImmutableMatrix([[0, 1], [0, 0]]),
            B: ImmutableMatrix([[0, 0], [1, 0]]),
            C: ImmutableMatrix([[1, 0], [0, 0]]),
        },
        "1 vs 0",
    ),
    F(
        "square-of-a-product",
        "k",
        MatPow(A * B, 2),
        A**2 * B**2,
        {A: ImmutableMatrix([[0, 1], [0, 0]]), B: ImmutableMatrix([[0, 0], [1, 0]])},
        "AB AB vs 0",
    ),
    F("normal-matrix", "k", A.T * A, A * A.T, {A: ImmutableMatrix([[0, 1], [0, 0]])}, "diag(0,1) vs diag(1,0)"),
    F(
        "binomial-square-rotation-and-diagonal",
        "k",
        MatPow(rot(x) + D2, 2, evaluate=False),
        rot(x) ** 2 + 2 * rot(x) * D2 + D2**2,
        {x: pi / 2},
        "R and diag(1, 2) do not commute",
    ),
    # -- l: inequalities
    F("square-positive", "l", 0, x**2, {x: 0}, "0 < x**2 fails at 0", relation="<"),
    F("exp-above-tangent-line-strict", "l", 1 + x, exp(x), {x: 0}, "equal at 0", relation="<"),
    F("sine-plus-cosine-strict", "l", sin(x) + cos(x), sqrt(2), {x: pi / 4}, "equal at pi/4", relation="<"),
    F("log-below-tangent-strict", "l", log(u), u - 1, {u: 1}, "equal at 1", relation="<"),
    F(
        "tiny-square-strict",
        "l",
        2 * x / 10**20,
        x**2 + Rational(1, 10**40),
        {x: Rational(1, 10**20)},
        "(x - 1e-20)**2 > 0 fails at 1e-20",
        relation="<",
    ),
    F("sine-below-x-all-real", "l", sin(x), x, {x: -1}, "sin(-1) > -1", relation="<="),
    F("am-gm-strict", "l", 2, u + 1 / u, {u: 1}, "equal at 1", relation="<"),
    F("am-gm-real-nonzero", "l", 2, xn + 1 / xn, {xn: -1}, "-2 < 2", relation="<="),
    F("cosine-below-one-strict", "l", cos(x), 1, {x: 0}, "equal at 0", relation="<"),
    F("triangle-strict", "l", Abs(x + y), Abs(x) + Abs(y), {x: 1, y: 1}, "equal", relation="<"),
    F("sine-nonzero", "l", sin(x), 0, {x: 0}, "", relation="!="),
    F("square-plus-one-nonzero-complex", "l", z**2 + 1, 0, {z: I}, "", relation="!="),
    F("max-with-reciprocal-at-least-one", "l", 1, Max(xn, 1 / xn), {xn: -1}, "-1 for x = -1", relation="<="),
    F("square-root-of-one-hypothesis", "l", x, 1, {x: -1}, "x**2 = 1 allows -1", hypotheses=(Eq(x**2, 1),)),
    F(
        "cube-below-x-hypothesis",
        "l",
        x,
        0,
        {x: Rational(1, 2)},
        "x**3 < x on (0, 1) too",
        relation="<",
        hypotheses=(sympy.Lt(x**3, x),),
    ),
    F(
        "nonnegative-hypothesis-strict",
        "l",
        0,
        x**2,
        {x: 0},
        "x >= 0 allows 0",
        relation="<",
        hypotheses=(sympy.Ge(x, 0),),
    ),
    F("hypothesis-on-another-symbol", "l", y, 0, {x: 0, y: 1}, "x = 0 says nothing of y", hypotheses=(Eq(x, 0),)),
    F(
        "power-tower-comparison",
        "l",
        Pow(3, K3, evaluate=False),
        Pow(2, BIG, evaluate=False),
        "by construction",
        "3**K < 2**(10**20): the claim is the reverse",
        relation="<=",
    ),
    # -- m: near misses
    F(
        "sqrt-of-a-googol-plus-one",
        "m",
        sqrt(10**100 + 1) - 10**50,
        Rational(1, 2 * 10**50),
        {},
        "differs by 1.25e-151",
        digits=250,
    ),
    F("log-one-plus-tiny", "m", log(1 + Rational(1, 10**60)), Rational(1, 10**60), {}, "differs by 5e-121", digits=200),
    F("exp-of-tiny", "m", exp(Rational(1, 10**60)), 1 + Rational(1, 10**60), {}, "differs by 5e-121", digits=200),
    F("cosine-of-tiny", "m", cos(Rational(1, 10**40)), 1, {}, "differs by 5e-81", digits=150),
    F(
        "sine-of-a-googol-rounded",
        "m",
        sin(sympy.Integer(10) ** 100),
        sympy.Rational(str(sympy.N(sin(sympy.Integer(10) ** 100), 70))),
        {},
        "a 70-digit rational: off by ~1e-70",
        digits=150,
    ),
    F(
        "pell-power-is-an-integer",
        "m",
        Pow(1 + sqrt(2), 200, evaluate=False),
        PELL_Q200,
        {},
        "off by (sqrt(2) - 1)**200 ~ 1e-77",
        digits=200,
    ),
    F("exp-pi-sqrt-58", "m", exp(pi * sqrt(58)), 396**4 - 104, {}, "off by 1.8e-7"),
    F(
        "power-with-exponent-one-plus-tiny",
        "m",
        Pow(u, Rational(10**50 + 1, 10**50)),
        u,
        {u: 2},
        "off by 2 log 2 / 10**50",
        digits=120,
    ),
    F(
        "tower-plus-vanishing-tail",
        "m",
        exp(exp(exp(exp(x)))),
        exp(exp(exp(exp(x)))) + exp(-exp(exp(exp(x)))),
        {x: -3},
        "tail ~0.057 at x = -3, below 1e-1.6e6 at x = 1",
        digits=50,
    ),
    # -- n: unbounded work
    F(
        "sine-of-ten-to-the-ten-to-the-eight",
        "n",
        sin(Pow(10, 10**8, evaluate=False), evaluate=False),
        0,
        "by construction",
        "10**(10**8) is not a multiple of pi",
    ),
    F(
        "factorial-of-ten-to-the-ten",
        "n",
        factorial(10**10, evaluate=False),
        factorial(10**10, evaluate=False) + 1,
        "by construction",
        "differ by 1 by construction; evaluation must not be attempted",
    ),
    F(
        "double-power-tower",
        "n",
        Pow(2, Pow(2, 100, evaluate=False), evaluate=False),
        Pow(2, Pow(2, 100, evaluate=False), evaluate=False) + 1,
        "by construction",
        "differ by 1",
    ),
    F("max-of-2000-shifts-off-by-one", "n", Max(*[x + i for i in range(2000)]), x + 2000, {x: 0}, "1999 vs 2000"),
    F(
        "rotation-to-a-huge-power-wrong-angle",
        "n",
        MatPow(rot(x), 10**30, evaluate=False),
        rot((10**30 + 1) * x),
        {x: 1},
        "off by one turn of x",
        digits=80,
    ),
    # -- o: declared domains: extended reals (SymPy's extended_real admits +-oo), names shared by two symbols
    F("extended-real-minus-itself", "o", Add(te, -te, evaluate=False), 0, {te: sympy.oo}, "oo - oo is undefined"),
    F("extended-real-times-zero", "o", Mul(0, te, evaluate=False), 0, {te: sympy.oo}, "0 * oo is undefined"),
    F(
        "extended-real-exp-times-exp",
        "o",
        Mul(exp(te), exp(-te), evaluate=False),
        1,
        {te: sympy.oo},
        "oo * 0 is undefined",
    ),
    F("extended-real-pythagoras", "o", sin(te) ** 2 + cos(te) ** 2, 1, {te: sympy.oo}, "sin(oo) is undefined"),
    F(
        "extended-real-quotient-by-itself",
        "o",
        over(te, te),
        1,
        {te: sympy.oo},
        "oo/oo is undefined; the condition t != 0 does not exclude it",
    ),
    F(
        "extended-real-tanh",
        "o",
        over(exp(te) - exp(-te), exp(te) + exp(-te)),
        sympy.tanh(te),
        {te: sympy.oo},
        "oo/oo vs 1",
    ),
    F(
        "same-name-real-vs-positive",
        "o",
        Abs(x),
        Symbol("x", positive=True),
        "by construction",
        "two symbols named x: the counterexample keyed by name cannot say which is which",
    ),
    F("mod-by-itself-unevaluated", "j", Mod(n, n, evaluate=False), 0, {n: 0}, "Mod(0, 0) is undefined"),
    F("mod-square-by-itself-unevaluated", "j", Mod(n**2, n, evaluate=False), 0, {n: 0}, "Mod(0, 0)"),
    F("mod-of-a-real-by-itself", "j", Mod(x, x, evaluate=False), 0, {x: 0}, "Mod(0, 0)"),
    F("square-mod-8-is-parity", "j", Mod(n**2, 8), Mod(n, 2), {n: 2}, "4 vs 0"),
    F("square-mod-huge-prime", "j", Mod(n**2, 10**30 + 57), Mod(n, 10**30 + 57) ** 2, {n: -1}, "1 vs (10**30+56)**2"),
    F("floor-is-additive", "j", floor(x + y), floor(x) + floor(y), {x: Rational(1, 2), y: Rational(1, 2)}, "1 vs 0"),
    F("mod-one-is-homogeneous", "j", Mod(n * x, 1), n * Mod(x, 1), {n: 2, x: Rational(1, 2)}, "0 vs 1"),
    F("alternating-sum-is-zero", "j", Sum((-1) ** j, (j, 0, p)), 0, {p: 2}, "1 at even p"),
    F(
        "nested-sum-a-third",
        "j",
        Sum(Sum(i2, (i2, 0, j)), (j, 0, p)),
        p * (p + 1) * (p + 2) / 3,
        {p: 1},
        "the true value has / 6",
    ),
    F(
        "nested-sum-swapped-wrongly",
        "j",
        Sum(Sum(i2 * j**2, (i2, 0, j)), (j, 0, p)),
        Sum(Sum(i2 * j**2, (j, 0, i2)), (i2, 0, p)),
        {p: 2},
        "j runs from i to p after the swap",
    ),
    F(
        "trace-reversed",
        "k",
        sympy.Trace(Ap * Bp * Cp),
        sympy.Trace(Cp * Bp * Ap),
        {
            p: 2,
            Ap: ImmutableMatrix([[0, 1], [0, 0]]),
            Bp: ImmutableMatrix([[0, 0], [1, 0]]),
            Cp: ImmutableMatrix([[1, 0], [0, 0]]),
        },
        "1 vs 0",
    ),
    F(
        "trace-one-transpose",
        "k",
        sympy.Trace(Ap * Bp),
        sympy.Trace(Ap.T * Bp),
        {p: 2, Ap: ImmutableMatrix([[0, 1], [0, 0]]), Bp: ImmutableMatrix([[0, 0], [1, 0]])},
        "1 vs 0",
    ),
    F("det-of-identity-shift", "k", det(Ap + sympy.Identity(p)), det(Ap) + 1, {p: 2, Ap: sympy.eye(2)}, "4 vs 2"),
    F("inverse-of-double", "k", sympy.Inverse(2 * A), 2 * sympy.Inverse(A), {A: sympy.eye(2)}, "1/2 vs 2"),
    F(
        "trace-of-a-square-nonnegative",
        "l",
        0,
        sympy.Trace(A * A),
        {A: ImmutableMatrix([[0, -1], [1, 0]])},
        "-2",
        relation="<=",
    ),
    F("sqrt-of-real-nonnegative", "l", 0, sqrt(x), {x: -1}, "sqrt(-1) = i is not comparable", relation="<="),
    F(
        "cube-root-of-real-nonnegative",
        "l",
        0,
        Pow(x, Rational(1, 3)),
        {x: -1},
        "principal root is complex",
        relation="<=",
    ),
    F("floor-strictly-below", "l", floor(x), x, {x: 0}, "equal at integers", relation="<"),
    F("integer-square-strictly-above", "l", n, n**2, {n: 0}, "equal at 0 and 1", relation="<"),
    F(
        "floor-on-closed-interval",
        "l",
        floor(x),
        0,
        {x: 1},
        "x = 1 is allowed",
        hypotheses=(sympy.Ge(x, 0), sympy.Le(x, 1)),
    ),
    F(
        "ceiling-on-closed-interval",
        "l",
        ceiling(x),
        1,
        {x: 0},
        "x = 0 is allowed",
        hypotheses=(sympy.Ge(x, 0), sympy.Le(x, 1)),
    ),
    F(
        "sqrt-square-shifted-hypothesis",
        "l",
        sqrt(x**2 - 2 * x + 1),
        x - 1,
        {x: Rational(1, 2)},
        "x > 0 is too weak",
        hypotheses=(sympy.Gt(x, 0),),
    ),
    F(
        "sqrt-square-minus-abs-hypothesis",
        "l",
        sqrt(x**2),
        x,
        {x: -1, y: 2},
        "x > -|y| allows x < 0",
        hypotheses=(sympy.Gt(x, -Abs(y)),),
    ),
    F(
        "reciprocal-below-one-closed",
        "l",
        1 / x,
        1,
        {x: 1},
        "x >= 1 allows 1",
        relation="<",
        hypotheses=(sympy.Ge(x, 1),),
    ),
    F(
        "sum-positive-hypotheses",
        "l",
        sqrt(x**2),
        x,
        {x: -1, y: 2},
        "x + y > 0 and y > 0 allow x < 0",
        hypotheses=(sympy.Gt(x + y, 0), sympy.Gt(y, 0)),
    ),
]

TRUE: list[Case] = [
    T("sum-of-cubes-over-quadratic-real", "h", over(x**3 + 1, x**2 - x + 1), x + 1, "the denominator has no real root"),
    T("half-angle-tangent-sine-form", "h", tan(x / 2), over(sin(x), 1 + cos(x)), "both undefined at odd pi"),
    T("atan-plus-atan-reciprocal-positive", "h", atan(u) + atan(1 / u), pi / 2, "u > 0"),
    T("log-of-sqrt", "h", log(sqrt(z)), log(z) / 2, "principal sqrt is exp(log/2); both undefined at 0"),
    T("cardano-real-roots", "h", real_root(2 + sqrt(5), 3) + real_root(2 - sqrt(5), 3), 1, "Cardano, real roots"),
    T("denesting", "h", sqrt(5 + 2 * sqrt(6)), sqrt(2) + sqrt(3), "(sqrt 2 + sqrt 3)**2"),
    T("tangent-of-pi-over-12", "h", tan(pi / 12), 2 - sqrt(3), "half angle of pi/6"),
    T("cos4-minus-sin4", "h", cos(x) ** 4 - sin(x) ** 4, cos(2 * x), "difference of squares"),
    T("hermite-floor-real", "i", floor(x / 2) + floor((x + 1) / 2), floor(x), "Hermite with n = 2, y = x/2"),
    T("max-plus-min", "i", Max(x, y) + Min(x, y), x + y, ""),
    T("max-of-sine-cosine", "i", Max(sin(x), cos(x)), (sin(x) + cos(x) + Abs(sin(x) - cos(x))) / 2, ""),
    T("heaviside-plus-reflection", "i", Heaviside(x) + Heaviside(-x), 1, "H(0) = 1/2 in SymPy"),
    T("sign-times-abs", "i", sign(x) * Abs(x), x, ""),
    T("ceiling-half-is-floor", "j", ceiling(n / 2), floor((n + 1) / 2), ""),
    T("three-consecutive", "j", Mod(n**3 - n, 6), 0, ""),
    T("nicomachus", "j", Sum(j**3, (j, 1, p)), (p * (p + 1) / 2) ** 2, ""),
    T("telescoping-product", "j", Product(1 - over(1, j**2), (j, 2, p)), (p + 1) / (2 * p), "true at p = 1 too"),
    T(
        "cayley-hamilton-2x2",
        "k",
        ImmutableMatrix([[x, y], [c, r]]) ** 2
        - (x + r) * ImmutableMatrix([[x, y], [c, r]])
        + (x * r - y * c) * sympy.eye(2),
        sympy.zeros(2, 2),
        "",
    ),
    T("trace-nonsquare-cyclic", "k", sympy.Trace(A23 * B32), sympy.Trace(B32 * A23), "tr(AB) = tr(BA) for 2x3, 3x2"),
    T("det-ab-det-ba-symbolic-size", "k", det(Ap * MatrixSymbol("B", p, p)), det(MatrixSymbol("B", p, p) * Ap), ""),
    T(
        "commuting-rotations-square",
        "k",
        MatPow(rot(x) + rot(y), 2, evaluate=False),
        rot(x) ** 2 + 2 * rot(x) * rot(y) + rot(y) ** 2,
        "rotations commute",
    ),
    T("rotation-to-a-huge-power", "n", MatPow(rot(x), 10**30, evaluate=False), rot(10**30 * x), "de Moivre"),
    T(
        "pell-sum-is-an-integer",
        "m",
        Pow(1 + sqrt(2), 20, evaluate=False) + Pow(1 - sqrt(2), 20, evaluate=False),
        PELL_Q20,
        "",
    ),
    T("square-nonnegative", "l", 0, x**2, "", relation="<="),
    T("exp-above-tangent-line", "l", 1 + x, exp(x), "", relation="<="),
    T("sine-plus-cosine", "l", sin(x) + cos(x), sqrt(2), "", relation="<="),
    T("am-gm", "l", 2, u + 1 / u, "", relation="<="),
    T("triangle", "l", Abs(x + y), Abs(x) + Abs(y), "", relation="<="),
    T("square-positive-off-zero", "l", 0, x**2, "", relation="<", hypotheses=(sympy.Ne(x, 0),)),
    T("mod-of-square-is-parity", "j", Mod(n**2, 4), Mod(n, 2), ""),
    T("korselt-2730", "j", Mod(n**13 - n, 2730), 0, "every prime p with p - 1 | 12 divides n**13 - n"),
    T("carmichael-561", "j", Mod(n**561 - n, 561), 0, "561 is a Carmichael number"),
    T("floor-and-mod-huge-modulus", "j", floor(n / 10**30) * 10**30 + Mod(n, 10**30), n, "division with remainder"),
    T("nested-sum", "j", Sum(Sum(i2, (i2, 0, j)), (j, 0, p)), p * (p + 1) * (p + 2) / 6, "tetrahedral numbers"),
    T(
        "nested-sum-swapped",
        "j",
        Sum(Sum(i2 * j**2, (i2, 0, j)), (j, 0, p)),
        Sum(Sum(i2 * j**2, (j, i2, p)), (i2, 0, p)),
        "Fubini on a triangle",
    ),
    T("trace-cyclic-three", "k", sympy.Trace(Ap * Bp * Cp), sympy.Trace(Cp * Ap * Bp), ""),
    T("det-of-a-multiple", "k", det(2 * Ap), 2**p * det(Ap), ""),
    T(
        "difference-of-squares-with-identity",
        "k",
        (A + sympy.Identity(2)) * (A - sympy.Identity(2)),
        A**2 - sympy.Identity(2),
        "A commutes with I",
    ),
    T("trace-gram-nonnegative", "l", 0, sympy.Trace(A * A.T), "sum of squares", relation="<="),
    T("det-gram-nonnegative", "l", 0, det(A * A.T), "det(A)**2", relation="<="),
    T("floor-at-most-x", "l", floor(x), x, "", relation="<="),
    T("integer-square-at-least-n", "l", n, n**2, "n(n - 1) >= 0 on the integers", relation="<="),
    T("sine-of-a-positive-integer", "l", sin(p), 0, "pi is irrational", relation="!="),
    T("floor-on-half-open-interval", "l", floor(x), 0, "", hypotheses=(sympy.Ge(x, 0), sympy.Lt(x, 1))),
    T("sqrt-square-with-x-above-abs-y", "l", sqrt(x**2), x, "", hypotheses=(sympy.Gt(x, Abs(y)),)),
    T("sqrt-square-with-cube-nonnegative", "l", sqrt(x**2), x, "x**3 >= 0 iff x >= 0", hypotheses=(sympy.Ge(x**3, 0),)),
    T("mod-by-itself-nonzero-integer", "j", Mod(nz, nz, evaluate=False), 0, "nz != 0"),
]


# -- confirming the points: SymPy evalf (mpmath arithmetic) at digits and 2 * digits ---------------------------
def _value(expr: Any, point: dict, digits: int) -> Any:
    """The side at ``point`` to ``digits`` digits, or None when undefined there."""
    try:
        return _value_unguarded(expr, point, digits)
    except ZeroDivisionError:  # Mod(0, 0) and friends: undefined
        return None


def _value_unguarded(expr: Any, point: dict, digits: int) -> Any:
    e = sympy.sympify(expr)
    symbols = {k: v for k, v in point.items() if not isinstance(k, MatrixSymbol)}
    matrices = {k: v for k, v in point.items() if isinstance(k, MatrixSymbol)}
    if matrices:
        # size symbols first (a p x p symbol becomes 2 x 2), then the matrix symbols by name
        e = e.subs(symbols)
        by_name = {m.name: v for m, v in matrices.items()}
        e = e.replace(lambda s: isinstance(s, MatrixSymbol) and s.name in by_name, lambda s: by_name[s.name])
        e = e.replace(lambda s: isinstance(s, sympy.Identity), lambda s: ImmutableMatrix(sympy.eye(int(s.rows))))
    else:
        e = e.subs(symbols)
    try:
        e = e.doit()
    except (ZeroDivisionError, ValueError):
        return None
    if isinstance(e, sympy.MatrixBase) or getattr(e, "is_Matrix", False):
        e = ImmutableMatrix(e.as_explicit() if hasattr(e, "as_explicit") else e)
        values = [_scalar(v, digits) for v in e]
        return None if any(v is None for v in values) else values
    v = _scalar(e, digits)
    return v


def _scalar(e: Any, digits: int) -> Any:
    if e.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo) or e.has(sympy.AccumBounds):
        return None
    v = sympy.N(e, digits, maxn=10 * digits)
    if v.has(sympy.nan, sympy.zoo, sympy.oo, -sympy.oo):
        return None
    return v


def _differ(a: Any, b: Any, digits: int) -> bool:
    if (a is None) != (b is None):
        return True
    if a is None:
        return False
    aa, bb = (a, b) if isinstance(a, list) else ([a], [b])
    tol = sympy.Float(10) ** (-(digits - 10))
    return any(Abs(s - t) > tol * (1 + Abs(s)) for s, t in zip(aa, bb, strict=True))


def confirm(case: Case) -> str:
    """'confirmed' when the statement is false at its point at digits and 2*digits, else why not."""
    if case.point == "by construction":
        return "by construction"
    outcomes = []
    for d in (case.digits, 2 * case.digits):
        hyps_ok = all(bool(sympy.sympify(h).subs(case.point)) for h in case.hypotheses)
        if not hyps_ok:
            return "point violates the hypotheses"
        a, b = _value(case.lhs, case.point, d), _value(case.rhs, case.point, d)
        if case.relation == "=":
            outcomes.append(_differ(a, b, d))
        elif a is None or b is None:
            outcomes.append(True)
        elif not (sympy.im(a) == 0 and sympy.im(b) == 0):
            outcomes.append(True)  # a side is not real: no order holds
        else:
            diff = sympy.N(b - a, d)  # rhs - lhs
            tol = sympy.Float(10) ** (-(d - 10))
            outcomes.append({"<": diff <= tol, "<=": diff < -tol, "!=": Abs(diff) <= tol}[case.relation])
    return "confirmed" if all(outcomes) else f"NOT CONFIRMED {outcomes}"


# -- false theorems from the public classes ------------------------------------------------------------------------
WITNESS = Witness("none: the statement is what is attacked", lambda: 0.0, 0.0, licenses="numpy.sin")


def _thm(tid, goal, steps, control, **extra) -> Theorem:
    extra.setdefault("witness", WITNESS)
    return Theorem(
        id=tid, title=tid.replace("-", " "), conclusions=(goal,), steps=steps, negative_control=control, **extra
    )


def thm_half_angle_chain() -> Theorem:
    """tan(x/2) = (1 - cos x)/sin x by multiplying by sin(x/2)/sin(x/2): false at x = 0."""
    goal = Conclusion(tan(x / 2), over(1 - cos(x), sin(x)), over=(x,))
    chain = Chain(
        tan(x / 2),
        [
            (over(sin(x / 2), cos(x / 2)), "tan is sin over cos"),
            (over(2 * sin(x / 2) ** 2, 2 * sin(x / 2) * cos(x / 2)), "multiply by 2 sin(x/2) above and below"),
            (goal.rhs, "double angles"),
        ],
    )
    return _thm("adv2-half-angle-chain", goal, (chain,), Conclusion(tan(x / 2), over(1 + cos(x), sin(x)), over=(x,)))


def lemma_atan_reciprocal() -> Theorem:
    goal = Conclusion(atan(u) + atan(1 / u), pi / 2, over=(u,))
    return _thm(
        "adv2-atan-reciprocal",
        goal,
        (Equal(goal.lhs, goal.rhs, "complementary angles"),),
        Conclusion(goal.lhs, pi / 4, over=(u,)),
    )


def thm_use_at_a_negative() -> Theorem:
    """The lemma for positive u, used at u = -u' (negative)."""
    v = Symbol("v", positive=True)
    goal = Conclusion(atan(-v) + atan(1 / (-v)), pi / 2, over=(v,))
    return _thm(
        "adv2-use-at-negative",
        goal,
        (Use("adv2-atan-reciprocal", {u: -v}, "the lemma at u = -v"),),
        Conclusion(goal.lhs, pi / 4, over=(v,)),
        uses=("adv2-atan-reciprocal",),
    )


def thm_hypothesis_too_weak() -> Theorem:
    """sqrt(x**2) = x assuming x >= -1."""
    hyp = (sympy.Ge(x, -1),)
    goal = Conclusion(sqrt(x**2), x, over=(x,), assuming=hyp)
    return _thm(
        "adv2-weak-hypothesis",
        goal,
        (Equal(goal.lhs, goal.rhs, "x >= -1", assuming=hyp),),
        Conclusion(goal.lhs, -x, over=(x,), assuming=hyp),
        assuming=hyp,
    )


def thm_strictness() -> Theorem:
    goal = Conclusion(sympy.Integer(0), x**2, over=(x,), relation="<")
    return _thm(
        "adv2-strictness",
        goal,
        (Holds(sympy.Lt(0, x**2, evaluate=False), "a square"),),
        Conclusion(x**2, sympy.Integer(0), over=(x,), relation="<"),
    )


def thm_termwise_one_term_differs() -> Theorem:
    k = Symbol("k", integer=True, nonnegative=True)
    lhs = Sum(Piecewise((0, Eq(k, 0)), (1, True)), (k, 0, p))
    rhs = Sum(1, (k, 0, p))
    goal = Conclusion(lhs, rhs, over=(p,))
    return _thm(
        "adv2-termwise-first-term",
        goal,
        (Termwise(lhs, rhs, "each term is 1"),),
        Conclusion(lhs, Sum(2, (k, 0, p)), over=(p,)),
    )


def thm_piecewise_point() -> Theorem:
    lhs = Piecewise((0, Eq(x, Rational(1, 3))), (1, True))
    goal = Conclusion(lhs, sympy.Integer(1), over=(x,))
    return _thm(
        "adv2-piecewise-point", goal, (Equal(lhs, 1, "the branch is 1"),), Conclusion(lhs, sympy.Integer(2), over=(x,))
    )


def thm_det_nonsquare() -> Theorem:
    goal = Conclusion(det(A23 * B32), det(B32 * A23), over=(A23, B32))
    return _thm(
        "adv2-det-nonsquare",
        goal,
        (Equal(goal.lhs, goal.rhs, "det(AB) = det(BA)"),),
        Conclusion(goal.lhs, -det(B32 * A23), over=(A23, B32)),
    )


def thm_chain_through_heaviside() -> Theorem:
    goal = Conclusion(Heaviside(x) ** 2, Heaviside(x), over=(x,))
    chain = Chain(
        Heaviside(x) ** 2,
        [
            (Piecewise((1, x > 0), (0, True)) ** 2, "H is the step"),
            (Piecewise((1, x > 0), (0, True)), "0 and 1 are idempotent"),
            (Heaviside(x), "the step is H"),
        ],
    )
    return _thm("adv2-heaviside-chain", goal, (chain,), Conclusion(goal.lhs, 2 * Heaviside(x), over=(x,)))


def thm_extended_real() -> Theorem:
    """exp(t) exp(-t) = 1 for an extended real t: false at t = oo (oo * 0)."""
    goal = Conclusion(Mul(exp(te), exp(-te), evaluate=False), sympy.Integer(1), over=(te,))
    return _thm(
        "adv2-extended-real",
        goal,
        (Equal(goal.lhs, goal.rhs, "exponentials multiply"),),
        Conclusion(goal.lhs, sympy.Integer(2), over=(te,)),
    )


def thm_mod_pseudoprime() -> Theorem:
    goal = Conclusion(Mod(n**341 - n, 341), sympy.Integer(0), over=(n,))
    return _thm(
        "adv2-pseudoprime",
        goal,
        (Equal(goal.lhs, goal.rhs, "Fermat"),),
        Conclusion(goal.lhs, sympy.Integer(1), over=(n,)),
    )


LEMMAS = {"adv2-atan-reciprocal": lemma_atan_reciprocal}


def context(tid: str) -> Theorem:
    return LEMMAS[tid]() if tid in LEMMAS else get(tid)


THEOREMS = [
    thm_half_angle_chain,
    thm_use_at_a_negative,
    thm_hypothesis_too_weak,
    thm_strictness,
    thm_termwise_one_term_differs,
    thm_piecewise_point,
    thm_det_nonsquare,
    thm_chain_through_heaviside,
    thm_mod_pseudoprime,
    thm_extended_real,
]
TRUE_THEOREMS = [lemma_atan_reciprocal]


# -- running ---------------------------------------------------------------------------------------------------
def _run_case(index: int, queue: Any) -> None:
    case = (FALSE + TRUE)[index]
    start = time.perf_counter()
    try:
        d = decide(case.lhs, case.rhs, case.relation, case.hypotheses, time_bound=TIME_BOUND)
        out = {
            "proved": bool(d.proved),
            "method": str(d.method)[:70],
            "conditions": tuple(d.conditions or ()),
            "cex": None if d.counterexample is None else str(d.counterexample)[:60],
        }
        if d.counterexample is not None and not d.proved:
            try:
                out["cex_check"] = check_counterexample(case, dict(d.counterexample))
            except Exception as exc:
                out["cex_check"] = f"cex check failed: {type(exc).__name__}"
    except Exception as exc:
        out = {"crash": f"{type(exc).__name__}: {exc}"[:200]}
    out["seconds"] = time.perf_counter() - start
    queue.put(out)


def _run_theorem(index: int, queue: Any) -> None:
    builder = (THEOREMS + TRUE_THEOREMS)[index]
    start = time.perf_counter()
    try:
        res = verify_theorem(builder(), context=context)
        out = {
            "status": res.status,
            "control": res.negative_control,
            "failures": "; ".join(str(f) for f in res.failures)[:150],
        }
    except Exception as exc:
        out = {"crash": f"{type(exc).__name__}: {exc}"[:200]}
    out["seconds"] = time.perf_counter() - start
    queue.put(out)


def _in_child(target: Any, index: int) -> dict:
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    proc = ctx.Process(target=target, args=(index, queue))
    start = time.perf_counter()
    proc.start()
    proc.join(CAP)
    if proc.is_alive():
        proc.kill()
        proc.join()
        return {"hang": True, "seconds": time.perf_counter() - start}
    try:
        return queue.get(timeout=5)
    except Exception:
        return {"crash": f"child died, exit code {proc.exitcode}", "seconds": time.perf_counter() - start}


def _confirm_in_child(index: int, queue: Any) -> None:
    try:
        queue.put({"confirm": confirm(FALSE[index])})
    except Exception as exc:
        queue.put({"confirm": f"check failed: {type(exc).__name__}: {exc}"[:120]})


def verdict(case: Case, out: dict) -> str:
    if "hang" in out:
        return "HANG"
    if "crash" in out:
        return "CRASH"
    if not out["proved"]:
        return "refused"
    if not out["conditions"]:
        return "proved"
    if case.point is None:
        return "conditional"
    if isinstance(case.point, dict):
        for cond in out["conditions"]:
            if _condition_fails(cond, case.point):
                return "conditional"
    return "proved"  # conditions that do not exclude the failing point


def _condition_fails(cond: Any, point: dict) -> bool:
    """True when the condition (Ne(a, b), or another relational) is false at ``point``, checked at 60 digits."""
    try:
        if isinstance(cond, sympy.Ne):
            value = _value(cond.lhs - cond.rhs, point, 60)
            return value is not None and Abs(value) < sympy.Float(10) ** -50
        return bool(sympy.sympify(cond).subs(point) is sympy.false)
    except Exception:
        return False


def _cex_point(case: Case, cex: dict) -> dict:
    """The kernel's counterexample (names -> values) as a point for every symbol of that name in the case."""
    exprs = [sympy.sympify(case.lhs), sympy.sympify(case.rhs)]
    free = set().union(*(e.free_symbols for e in exprs))
    free |= {m for e in exprs for m in e.atoms(MatrixSymbol)}
    point: dict = {}
    for name, value in cex.items():
        v = ImmutableMatrix(value) if isinstance(value, list) else sympy.sympify(value)
        for s in free:
            if getattr(s, "name", None) == name:
                point[s] = v
    return point


def check_counterexample(case: Case, cex: dict) -> str:
    """Whether the kernel's own counterexample is one (independently: evalf at 50 and 100 digits)."""
    if case.relation == "!=" or case.hypotheses:
        return ""
    point = _cex_point(case, cex)
    fake = case._replace(point=point)
    verdict_ = confirm(fake)
    return "cex ok" if verdict_ == "confirmed" else f"CEX NOT A COUNTEREXAMPLE at {point}"


def main(names: list[str]) -> int:
    counts: dict[str, int] = {}
    serious = []
    cases = FALSE + TRUE
    for i, case in enumerate(cases):
        if names and case.name not in names:
            continue
        kind = "false" if case.point is not None else "true"
        out = _in_child(_run_case, i)
        v = verdict(case, out)
        check = ""
        if kind == "false":
            check = _in_child(_confirm_in_child, i).get("confirm", "check hung")
        counts[f"{kind} {v}"] = counts.get(f"{kind} {v}", 0) + 1
        detail = out.get("crash") or out.get("method", "")
        if out.get("conditions"):
            detail += f" | conditions {out['conditions']}"
        if out.get("cex"):
            detail += f" | cex {out['cex']} {out.get('cex_check', '')}"
        print(f"{kind:5} {case.hole} {case.name:42} {v:11} {out['seconds']:6.2f}s  {detail}  [{check}]", flush=True)
        if (kind == "false" and v == "proved") or v in ("HANG", "CRASH"):
            serious.append(case.name)
    for i, builder in enumerate(THEOREMS + TRUE_THEOREMS):
        if names and builder.__name__ not in names:
            continue
        kind = "false" if builder in THEOREMS else "true"
        out = _in_child(_run_theorem, i)
        v = "HANG" if "hang" in out else "CRASH" if "crash" in out else out["status"]
        counts[f"{kind} theorem {v}"] = counts.get(f"{kind} theorem {v}", 0) + 1
        print(
            f"{kind:5} T {builder.__name__:42} {v:11} {out['seconds']:6.2f}s  "
            f"{out.get('crash') or out.get('failures', '')} control={out.get('control')}",
            flush=True,
        )
        if (kind == "false" and v == "verified") or v in ("HANG", "CRASH"):
            serious.append(builder.__name__)
    print("\nsummary:", dict(sorted(counts.items())))
    print("serious:", serious)
    return 1 if serious else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
