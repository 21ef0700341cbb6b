"""Certificate (ii): both sides, as written, evaluated with interval arithmetic at sampled points.

An evaluator independent of :mod:`.normal`: it reads the same SymPy nodes
but computes *values*, exact rationals (Python's ``Fraction``) while the
inputs and operations allow, else complex intervals (pairs of
:mod:`mpmath.iv` intervals, which enclose the true value whatever the
rounding).  Undefined functions get seeded random values (the same value for
the same arguments), matrix symbols random matrices, permutation symbols
random permutation matrices; sums are written out at the sampled number of
terms; definitions are evaluated from their bodies.

A value is :class:`Undefined` where the expression certainly is (a division
by exactly 0, ``log 0``, ``tan`` at an exact pole) and :class:`Ambiguous`
where the enclosure cannot tell (a divisor whose interval contains 0, a
logarithm whose interval meets its branch cut, a floor of an interval that
contains an integer).

Points (:func:`points`) cover each symbol's declared domain with special
values first (0, +-1, multiples of pi/2, odd and even sizes), then seeded
random ones; each point satisfies the hypotheses (checked here, in
intervals), or it is not used.
"""

from __future__ import annotations

import random
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import permutations
from typing import Any

import mpmath
import sympy
from mpmath import iv, libmp
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.matexpr import MatrixExpr

from .. import language as lang
from .normal import declared_domain

__all__ = ["Ambiguous", "Point", "Undefined", "compare", "evaluate", "points", "relation_at", "working_precision"]

#: Longest sum written out at a point, largest exact exponent, largest determinant expanded.
MAX_TERMS = 200_000
MAX_BITS = 400_000
MAX_DETERMINANT = 7


class Undefined(Exception):
    """The expression is undefined at this point."""


class Ambiguous(Exception):
    """The enclosure cannot decide (a divisor's interval contains 0, ...)."""


@contextmanager
def working_precision(bits: int):
    """Intervals at ``bits`` bits (mpmath's ``iv`` context is global: restored afterwards)."""
    old = iv.prec
    iv.prec = bits
    try:
        yield
    finally:
        iv.prec = old


# --------------------------------------------------------------------------
# values: Fraction (exact real) or (re, im) intervals


_IV_CACHE: dict = {}


def _iv(q: Fraction):
    """The interval of a rational (at the current precision; cached per precision)."""
    key = (q, iv.prec)
    found = _IV_CACHE.get(key)
    if found is None:
        found = iv.mpf(q.numerator) / iv.mpf(q.denominator) if q.denominator != 1 else iv.mpf(q.numerator)
        if len(_IV_CACHE) > 50_000:
            _IV_CACHE.clear()
        _IV_CACHE[key] = found
    return found


ZERO = iv.mpf(0)


@dataclass(frozen=True)
class PiValue:
    """The exact real number ``a + b pi`` (``b != 0``): multiples of pi stay exact, so ``cos(pi/2)`` is 0."""

    a: Fraction
    b: Fraction


EXACT = (Fraction, PiValue)


def _pi(a: Fraction, b: Fraction):
    return PiValue(a, b) if b else a


# A value's kind is tested by its exact type (``type(v) is Fraction``): ``isinstance`` against ``Fraction``, an
# abstract base class, is slow for the interval pairs, and every value here is made by this module.


def _c(v):
    kind = type(v)
    if kind is Fraction:
        return (_iv(v), ZERO)
    if kind is PiValue:
        return (_iv(v.a) + _iv(v.b) * iv.pi, ZERO)
    return v


def _parts(v) -> tuple[Fraction, Fraction]:
    return (v, Fraction(0)) if isinstance(v, Fraction) else (v.a, v.b)


def _is_exact_zero(x) -> bool:
    return x._mpi_[0] == libmp.fzero and x._mpi_[1] == libmp.fzero


def _real(v):
    """The real interval of a value known to be real; Ambiguous when its imaginary part may not be 0."""
    if isinstance(v, EXACT):
        return _c(v)[0]
    re, im = v
    if not _is_exact_zero(im):
        if 0 in im:
            raise Ambiguous("a value that may or may not be real")
        raise Undefined("a real value was needed")
    return re


def add(a, b):
    ta, tb = type(a), type(b)
    if ta is Fraction and tb is Fraction:
        return a + b
    if (ta is Fraction or ta is PiValue) and (tb is Fraction or tb is PiValue):
        (p, q), (r, s) = _parts(a), _parts(b)
        return _pi(p + r, q + s)
    (p, q), (r, s) = _c(a), _c(b)
    if q is ZERO and s is ZERO:  # two real values (0 + 0 is exactly 0)
        return (p + r, ZERO)
    return (p + r, q + s)


def neg(a):
    kind = type(a)
    if kind is Fraction:
        return -a
    if kind is PiValue:
        return PiValue(-a.a, -a.b)
    return (-a[0], ZERO if a[1] is ZERO else -a[1])


def mul(a, b):
    ta, tb = type(a), type(b)
    if ta is Fraction:
        if tb is Fraction:
            return a * b
        if a == 0:
            return Fraction(0)
        if tb is PiValue:
            return PiValue(a * b.a, a * b.b)
    if tb is Fraction:
        if b == 0:
            return Fraction(0)
        if ta is PiValue:
            return PiValue(b * a.a, b * a.b)
    (p, q), (r, s) = _c(a), _c(b)
    if _is_exact_zero(q) and _is_exact_zero(s):
        return (p * r, ZERO)
    return (p * r - q * s, p * s + q * r)


def inv(a):
    if isinstance(a, Fraction):
        if a == 0:
            raise Undefined("division by 0")
        return 1 / a
    p, q = _c(a)
    norm = p**2 + q**2
    if 0 in norm:
        if _is_exact_zero(p) and _is_exact_zero(q):
            raise Undefined("division by 0")
        raise Ambiguous("a divisor whose interval contains 0")
    if _is_exact_zero(q):
        return (1 / p, ZERO)
    return (p / norm, -q / norm)


def ipow(a, n: int):
    if isinstance(a, Fraction):
        bits = max(abs(a.numerator).bit_length(), a.denominator.bit_length())
        if bits * abs(n) <= MAX_BITS:
            if n < 0 and a == 0:
                raise Undefined("0 to a negative power")
            return a**n
        a = _c(a)
    if isinstance(a, PiValue):
        a = _c(a)
    if n < 0:
        return ipow(inv(a), -n)
    result, base = Fraction(1), a
    while n:
        if n & 1:
            result = mul(result, base)
        n >>= 1
        if n:
            base = mul(base, base)
    return result


def exp_(a):
    if isinstance(a, Fraction) and a == 0:
        return Fraction(1)
    re, im = _c(a)
    scale = iv.exp(re)
    if _is_exact_zero(im):
        return (scale, ZERO)
    return (scale * iv.cos(im), scale * iv.sin(im))


def log_(a):
    if isinstance(a, PiValue):
        a = _c(a)
    if isinstance(a, Fraction):
        if a == 0:
            raise Undefined("log 0")
        if a == 1:
            return Fraction(0)
        return (iv.log(_iv(abs(a))), ZERO if a > 0 else iv.pi)
    re, im = a
    if _is_exact_zero(im):
        if re > 0:
            return (iv.log(re), ZERO)
        if re < 0:
            return (iv.log(-re), iv.pi)
        if _is_exact_zero(re):
            raise Undefined("log 0")
        raise Ambiguous("log near 0")
    if 0 in im and not re > 0:
        raise Ambiguous("log near its branch cut")
    return (iv.log(re**2 + im**2) / 2, iv.atan2(im, re))


def _quarter_turns(a) -> int | None:
    """``k`` when ``a`` is exactly ``k pi / 2``, else None."""
    if isinstance(a, PiValue) and a.a == 0 and (2 * a.b).denominator == 1:
        return int(2 * a.b) % 4
    return None


def sin_(a):
    if isinstance(a, Fraction) and a == 0:
        return Fraction(0)
    turns = _quarter_turns(a)
    if turns is not None:
        return Fraction((0, 1, 0, -1)[turns])
    re, im = _c(a)
    if _is_exact_zero(im):
        return (iv.sin(re), ZERO)
    e, f = iv.exp(im), iv.exp(-im)
    return (iv.sin(re) * (e + f) / 2, iv.cos(re) * (e - f) / 2)


def cos_(a):
    if isinstance(a, Fraction) and a == 0:
        return Fraction(1)
    turns = _quarter_turns(a)
    if turns is not None:
        return Fraction((1, 0, -1, 0)[turns])
    re, im = _c(a)
    if _is_exact_zero(im):
        return (iv.cos(re), ZERO)
    e, f = iv.exp(im), iv.exp(-im)
    return (iv.cos(re) * (e + f) / 2, -iv.sin(re) * (e - f) / 2)


def power(a, b):
    """``a**b``, principal value."""
    if isinstance(b, Fraction) and b.denominator == 1:
        return ipow(a, b.numerator)
    if isinstance(a, Fraction) and a == 0:
        re = _real(b) if isinstance(b, EXACT) or _is_exact_zero(b[1]) else None
        if re is not None and re > 0:
            return Fraction(0)
        raise Undefined("0 to a power with real part not positive")
    return exp_(mul(b, log_(a)))


def floor_(a, ceiling=False):
    if isinstance(a, Fraction):
        return Fraction(-((-a.numerator) // a.denominator) if ceiling else a.numerator // a.denominator)
    x = _real(a)
    mode = "c" if ceiling else "f"
    low, high = (libmp.to_int(end, mode) for end in x._mpi_)
    if low != high:
        raise Ambiguous("floor of an interval that contains an integer")
    return Fraction(low)


def compare_real(a, b) -> int | None:
    """-1, 0, 1 for a < b, a = b, a > b; None when the intervals cannot tell."""
    if isinstance(a, Fraction) and isinstance(b, Fraction):
        return (a > b) - (a < b)
    x, y = _real(a), _real(b)
    if x < y:
        return -1
    if x > y:
        return 1
    return None


# --------------------------------------------------------------------------
# points


@dataclass
class Point:
    values: dict  # symbol -> value (Fraction, interval pair, or matrix: list of lists)
    shown: dict  # symbol name -> printable value
    seed: int
    functions: dict = field(default_factory=dict)  # (function, args) -> value, drawn as needed
    memory: dict = field(default_factory=dict)  # remembered values
    function_text: dict = field(default_factory=dict)  # (function, args) -> printable complex value


_PI = sympy.pi
_REALS = [
    (0, "0"),
    (1, "1"),
    (-1, "-1"),
    ("pi/2", "pi/2"),
    ("-pi/2", "-pi/2"),
    (Fraction(3, 7), "3/7"),
    ("pi", "pi"),
    (Fraction(-5, 3), "-5/3"),
    (2, "2"),
    (Fraction(9, 4), "9/4"),
    ("3pi/2", "3*pi/2"),
    (Fraction(-1, 3), "-1/3"),
]
_INTEGERS = [0, 1, -1, 2, -2, 3, -3, 5, 4, -5, 7, 6, -4, 8]
_SIZES = [1, 2, 3, 4, 0, 6, 5, -1, -2, -3]


def _pi_multiple(text: str):
    factor = {"pi/2": Fraction(1, 2), "-pi/2": Fraction(-1, 2), "pi": Fraction(1), "3pi/2": Fraction(3, 2)}[text]
    return PiValue(Fraction(0), factor)


def _sign_ok(value: float, sign: str | None) -> bool:
    return {
        None: True,
        "pos": value > 0,
        "neg": value < 0,
        "nonneg": value >= 0,
        "nonpos": value <= 0,
        "nonzero": value != 0,
    }[sign]


_CANDIDATES: dict = {}


def _remembered_candidates(symbol, size: bool, largest: int) -> list:
    key = (symbol, size, largest, iv.prec)
    if key not in _CANDIDATES:
        if len(_CANDIDATES) > 10_000:
            _CANDIDATES.clear()
        _CANDIDATES[key] = _candidates(symbol, {symbol} if size else set(), largest)
    return _CANDIDATES[key]


def _candidates(symbol, sizes: set, largest: int = 6) -> list:
    """(value, shown) pairs inside ``symbol``'s declared domain, special values first."""
    domain = declared_domain(symbol)
    out: list[tuple[Any, Any]] = []
    if domain.kind == "integer":
        pool = [n for n in _SIZES if n <= largest] if symbol in sizes else _INTEGERS
        for n in pool:
            if (domain.parity == "even" and n % 2) or (domain.parity == "odd" and not n % 2):
                continue
            if _sign_ok(n, domain.sign):
                out.append((Fraction(n), n))
        if not out:  # e.g. an odd size: take odd ones
            for n in range(-9, 10):
                if (
                    (domain.parity != "even" or n % 2 == 0)
                    and (domain.parity != "odd" or n % 2)
                    and _sign_ok(n, domain.sign)
                ):
                    out.append((Fraction(n), n))
        return out
    reals: list[tuple[Any, Any]] = list(_REALS)
    for value, shown in reals:
        if isinstance(value, str):
            if domain.kind == "rational":
                continue
            numeric = {"pi/2": 1.57, "-pi/2": -1.57, "pi": 3.14, "3pi/2": 4.71}[value]
            if _sign_ok(numeric, domain.sign):
                out.append((_pi_multiple(value), shown))
        elif isinstance(value, (int, Fraction)) and _sign_ok(float(value), domain.sign):
            out.append((Fraction(value), shown if not isinstance(value, int) else value))
    if domain.kind == "complex":
        for re, im in (
            (Fraction(1, 2), Fraction(1, 3)),
            (Fraction(-1), Fraction(2, 5)),
            (Fraction(3, 7), Fraction(-1)),
            (Fraction(1), Fraction(4)),  # |Im| > pi: across the branch of log(exp(w))
        ):
            out.insert(1, ((_iv(re), _iv(im)), f"{re} + {im}*I"))
    return out


def _random_value(symbol, rng: random.Random, sizes: set, largest: int = 6):
    domain = declared_domain(symbol)
    for _ in range(200):
        if domain.kind == "integer":
            n = rng.randint(0, largest) if symbol in sizes else rng.randint(-12, 12)
            if domain.parity == "even":
                n = 2 * (n // 2)
            elif domain.parity == "odd":
                n = 2 * (n // 2) + 1
            if _sign_ok(n, domain.sign):
                return Fraction(n), n
            continue
        q = Fraction(rng.randint(-60, 60), rng.randint(1, 13))
        if domain.kind == "complex" and rng.random() < 0.5:
            im = Fraction(rng.randint(-60, 60), rng.randint(1, 13))
            return (_iv(q), _iv(im)), f"{q} + {im}*I"
        if _sign_ok(float(q), domain.sign):
            return q, str(q) if q.denominator != 1 else q.numerator
    raise Undefined(f"no value found in the domain of {symbol}")


def _random_matrix(symbol, rows: int, cols: int, rng: random.Random, cyclic: bool, singular: bool = False):
    if isinstance(symbol, lang.PermutationSymbol):
        order = list(range(rows))
        if cyclic and rows > 1:
            order = order[1:] + order[:1]  # a cycle: not its own inverse for n >= 3
        else:
            rng.shuffle(order)
        matrix = [[Fraction(int(order[i] == j)) for j in range(rows)] for i in range(rows)]
    else:
        matrix = [[Fraction(rng.randint(-9, 9), rng.choice((1, 2, 3, 5))) for _ in range(cols)] for _ in range(rows)]
        if singular and rows > 1:
            matrix[-1] = list(matrix[0])  # two equal rows: a singular matrix
        elif singular:
            matrix = [[Fraction(0)] * cols for _ in range(rows)]
    shown = [[int(v) if v.denominator == 1 else str(v) for v in row] for row in matrix]
    return matrix, shown


def points(
    scalars: list, matrices: list, sizes: set, hypotheses, wanted: int, seed: int = 0, extra: int = 0, largest: int = 6
):
    """Up to ``wanted + extra`` points in the declared domain that satisfy ``hypotheses`` (relationals), made
    as they are asked for (a generator); sizes (sums' numbers of terms, matrix sizes) at most ``largest``."""
    candidates = {s: _remembered_candidates(s, s in sizes, largest) for s in scalars}
    found = 0
    attempt = 0
    while found < wanted + extra and attempt < 10 * (wanted + extra) + (200 if hypotheses else 20):
        rng = random.Random(1_000_003 * seed + attempt)
        values, shown = {}, {}
        try:
            for number, symbol in enumerate(scalars):
                pool = candidates[symbol]
                if attempt < len(pool) + 2 and pool:
                    index = attempt if attempt < 3 else attempt + 2 * number
                    value, show = pool[index % len(pool)]
                else:
                    value, show = _random_value(symbol, rng, sizes, largest)
                values[symbol], shown[str(symbol)] = value, show
            point = Point(values, shown, 1_000_003 * seed + attempt)
            for number, symbol in enumerate(matrices):
                rows, cols = (evaluate(n, point) for n in symbol.shape)
                if not (
                    isinstance(rows, Fraction)
                    and isinstance(cols, Fraction)
                    and rows.denominator == 1 == cols.denominator
                ):
                    raise Undefined("a matrix size that is not an integer")
                if rows < 0 or cols < 0 or rows * cols > 400:
                    raise Undefined("a matrix size out of range")
                matrix, show = _random_matrix(
                    symbol,
                    int(rows),
                    int(cols),
                    rng,
                    cyclic=(attempt + number) % 2 == 0,
                    singular=attempt % 5 == 3 and number % 2 == 0,
                )
                values[symbol], shown[str(symbol)] = matrix, show
            if all(relation_at(h, point) is True for h in hypotheses):
                found += 1
                yield point
        except (Undefined, Ambiguous, ZeroDivisionError, OverflowError):
            pass
        attempt += 1


# --------------------------------------------------------------------------
# evaluation


_REMEMBERED = (sympy.Function, sympy.Pow, sympy.Sum, lang.NamedScalar, lang.NamedMatrix, MatrixExpr)


def _frozen(value):
    if isinstance(value, list):
        return tuple(tuple(_frozen(v) for v in row) for row in value)
    if isinstance(value, tuple):
        return tuple(part._mpi_ for part in value)
    return value


def evaluate(expr, point: Point, env: dict | None = None):
    """The value of ``expr`` at ``point`` (``env``: bound indices and definitions' parameters); values of
    function applications, powers, sums and definitions are remembered for the point."""
    env = env or {}
    if isinstance(expr, _REMEMBERED):
        key = (expr, tuple((k, _frozen(v)) for k, v in env.items()), iv.prec)
        found = point.memory.get(key)
        if found is None:
            found = point.memory[key] = _evaluate(expr, point, env)
        return found
    return _evaluate(expr, point, env)


def _evaluate(expr, point: Point, env: dict):
    fast = _BY_TYPE.get(type(expr))
    if fast is not None:  # the commonest nodes, by their exact type: the same rules as below
        return fast(expr, point, env)
    if isinstance(expr, (sympy.MatrixBase, MatrixExpr)):
        return _matrix(expr, point, env)
    if isinstance(expr, sympy.Symbol):
        return _symbol(expr, point, env)
    if isinstance(expr, sympy.Rational):
        return Fraction(int(expr.p), int(expr.q))
    if isinstance(expr, sympy.Float):  # a binary floating-point number is an exact rational
        sign, mantissa, exponent_, _ = expr._mpf_
        value = Fraction(mantissa) * (Fraction(2) ** exponent_)
        return -value if sign else value
    if expr in (sympy.nan, sympy.zoo):
        raise Undefined(f"{expr}")
    if expr in (sympy.oo, -sympy.oo):
        raise Ambiguous("an infinity is not enclosed")
    if expr is sympy.pi:
        return PiValue(Fraction(0), Fraction(1))
    if expr is sympy.E:
        return (iv.e, ZERO)
    if expr is sympy.I:
        return (ZERO, iv.mpf(1))
    if isinstance(expr, sympy.Add):
        return _add_node(expr, point, env)
    if isinstance(expr, sympy.Mul):
        return _mul_node(expr, point, env)
    if isinstance(expr, sympy.Pow):
        return _pow_node(expr, point, env)
    handler: Any = _FUNCTIONS.get(type(expr))
    if handler is not None:
        return handler(*(evaluate(arg, point, env) for arg in expr.args))
    if isinstance(expr, sympy.UnevaluatedExpr):
        return evaluate(expr.args[0], point, env)
    if isinstance(expr, (sympy.Min, sympy.Max)):
        values = [evaluate(arg, point, env) for arg in expr.args]
        best = values[0]
        for v in values[1:]:
            order = compare_real(v, best)
            if order is None:
                raise Ambiguous("Min/Max of values the intervals cannot order")
            if (order > 0) == isinstance(expr, sympy.Max) and order != 0:
                best = v
        return best
    if isinstance(expr, sympy.Mod):
        a, m = (evaluate(arg, point, env) for arg in expr.args)
        return add(a, neg(mul(m, floor_(mul(a, inv(m))))))
    if isinstance(expr, sympy.sign):
        order = compare_real(evaluate(expr.args[0], point, env), Fraction(0))
        if order is None:
            raise Ambiguous("sign near 0")
        return Fraction(order)
    if isinstance(expr, sympy.Piecewise):
        for value, condition in expr.args:
            holds = relation_at(condition, point, env)
            if holds is None:
                raise Ambiguous(f"cannot tell whether {condition} holds")
            if holds:
                return evaluate(value, point, env)
        raise Undefined("no branch applies")
    if isinstance(expr, sympy.Sum):
        return _sum(expr, point, env)
    if isinstance(expr, sympy.Product):
        return _product(expr, point, env)
    if isinstance(expr, lang.Largest):
        return _largest(expr, point, env)
    if isinstance(expr, lang.NamedScalar):
        return _named(expr, point, env)
    if isinstance(expr, (sympy.Determinant, sympy.Trace)):
        matrix = _matrix(expr.args[0], point, env)
        return _determinant(matrix) if isinstance(expr, sympy.Determinant) else _trace(matrix)
    if isinstance(expr, sympy.matrices.expressions.matexpr.MatrixElement):
        matrix = _matrix(expr.args[0], point, env)
        i, j = (evaluate(arg, point, env) for arg in expr.args[1:])
        return matrix[int(i)][int(j)]
    if isinstance(expr, AppliedUndef) or (isinstance(expr, sympy.Function) and hasattr(type(expr), "kernel_domain")):
        return _undefined(expr, point, env)
    raise Ambiguous(f"{type(expr).__name__} cannot be evaluated")


def _symbol(expr, point: Point, env: dict):
    if expr in env:
        return env[expr]
    if expr in point.values:
        return point.values[expr]
    raise Undefined(f"no value for {expr}")


def _add_node(expr, point: Point, env: dict):
    total = Fraction(0)
    for arg in expr.args:
        total = add(total, evaluate(arg, point, env))
    return total


def _mul_node(expr, point: Point, env: dict):
    total = Fraction(1)
    for arg in expr.args:
        total = mul(total, evaluate(arg, point, env))
    return total


def _pow_node(expr, point: Point, env: dict):
    return power(evaluate(expr.args[0], point, env), evaluate(expr.args[1], point, env))


def _rational_node(expr, point: Point, env: dict):
    return Fraction(int(expr.p), int(expr.q))


def _function_node(handler):
    def apply(expr, point: Point, env: dict):
        return handler(*(evaluate(arg, point, env) for arg in expr.args))

    return apply


def _abs(a):
    if isinstance(a, Fraction):
        return abs(a)
    if isinstance(a, PiValue):
        return a if _c(a)[0] > 0 else neg(a) if _c(a)[0] < 0 else _c(a)
    return (iv.sqrt(a[0] ** 2 + a[1] ** 2), ZERO)


def _tan(a):
    return mul(sin_(a), inv(cos_(a)))


def _atan(a):
    re = _real(a)
    return (iv.atan2(re, iv.mpf(1)), ZERO)


def _asin(a):
    x = _real(a)
    if x > 1 or x < -1:
        raise Ambiguous("asin outside [-1, 1] (principal branch not enclosed here)")
    if not (x >= -1 and x <= 1):
        raise Ambiguous("asin near the ends of [-1, 1]")
    return (iv.atan2(x, iv.sqrt(1 - x**2)), ZERO)


def _gamma(a):
    if isinstance(a, Fraction) and a.denominator == 1:
        if a <= 0:
            raise Undefined("gamma at a pole (a nonpositive integer)")
        if a < 3000:
            return Fraction(_factorial(int(a) - 1))
    x = _real(a)
    if x <= 0 and not x < 0:
        raise Ambiguous("gamma near 0")
    low, high = (libmp.to_int(end, "f") for end in x._mpi_)
    if x < 0 and low != high:
        raise Ambiguous("gamma near a pole")
    return (iv.gamma(x), ZERO)


def _factorial(n: int) -> int:
    if n > 3000:
        raise Ambiguous("too large a factorial")
    result = 1
    for k in range(2, n + 1):
        result *= k
    return result


def _factorial_of(a):
    if isinstance(a, Fraction) and a.denominator == 1:
        if a < 0:
            raise Undefined("factorial of a negative integer")
        return Fraction(_factorial(int(a)))
    return _gamma(add(a, Fraction(1)))


def _binomial(a, b):
    if isinstance(a, Fraction) and isinstance(b, Fraction) and a.denominator == 1 == b.denominator:
        n, k = int(a), int(b)
        if k < 0 or (n >= 0 and k > n):
            return Fraction(0)
        if k > 3000:
            raise Ambiguous("too large a binomial")
        result = Fraction(1)
        for i in range(k):
            result = result * (n - i) / (i + 1)
        return result
    raise Ambiguous("a binomial at non-integers")


def _sinc(a):
    if isinstance(a, Fraction) and a == 0:
        return Fraction(1)
    if _nonzero(a) is not True:
        raise Ambiguous("sinc near 0")
    return mul(sin_(a), inv(a))


_HALF = Fraction(1, 2)
_FUNCTIONS = {
    sympy.atan: _atan,
    sympy.asin: _asin,
    sympy.acos: lambda a: add((iv.pi / 2, ZERO), neg(_asin(a))),
    sympy.gamma: _gamma,
    sympy.factorial: _factorial_of,
    sympy.binomial: _binomial,
    sympy.sinc: _sinc,
    sympy.conjugate: lambda a: a if isinstance(a, EXACT) else (a[0], -a[1]),
    sympy.re: lambda a: a if isinstance(a, EXACT) else (a[0], ZERO),
    sympy.im: lambda a: Fraction(0) if isinstance(a, EXACT) else (a[1], ZERO),
    sympy.exp: exp_,
    sympy.log: log_,
    sympy.sin: sin_,
    sympy.cos: cos_,
    sympy.tan: _tan,
    sympy.cot: lambda a: mul(cos_(a), inv(sin_(a))),
    sympy.sec: lambda a: inv(cos_(a)),
    sympy.csc: lambda a: inv(sin_(a)),
    sympy.sinh: lambda a: mul(_HALF, add(exp_(a), neg(exp_(neg(a))))),
    sympy.cosh: lambda a: mul(_HALF, add(exp_(a), exp_(neg(a)))),
    sympy.tanh: lambda a: mul(add(exp_(a), neg(exp_(neg(a)))), inv(add(exp_(a), exp_(neg(a))))),
    sympy.coth: lambda a: mul(add(exp_(a), exp_(neg(a))), inv(add(exp_(a), neg(exp_(neg(a)))))),
    sympy.Abs: _abs,
    sympy.floor: floor_,
    sympy.ceiling: lambda a: floor_(a, ceiling=True),
}


#: Exact node type -> its rule in :func:`_evaluate` (each the same as the branch there that the type reaches first:
#: no earlier branch applies to these types).
_BY_TYPE: dict = {
    sympy.Add: _add_node,
    sympy.Mul: _mul_node,
    sympy.Pow: _pow_node,
    sympy.Symbol: _symbol,
    sympy.Dummy: _symbol,
    **dict.fromkeys(
        (
            sympy.Integer,
            sympy.Rational,
            type(sympy.S.Zero),
            type(sympy.S.One),
            type(sympy.S.NegativeOne),
            type(sympy.S.Half),
        ),
        _rational_node,
    ),
    **{kind: _function_node(handler) for kind, handler in _FUNCTIONS.items()},
}


def _int(value) -> int:
    if isinstance(value, EXACT) and not (isinstance(value, Fraction) and value.denominator == 1):
        raise Undefined("an integer was needed (a sum over a range that does not end at an integer)")
    if not isinstance(value, Fraction):
        raise Ambiguous("an integer was needed")
    return int(value)


def _sum(expr, point: Point, env: dict):
    function, limits = expr.function, list(expr.limits)
    index, low, high = limits[-1]
    inner = sympy.Sum(function, *limits[:-1]) if len(limits) > 1 else function
    a, b = _int(evaluate(low, point, env)), _int(evaluate(high, point, env))
    sign = 1
    if b < a - 1:  # SymPy's (Karr's) convention
        a, b, sign = b + 1, a - 1, -1
    if b - a + 1 > MAX_TERMS:
        raise Ambiguous("too many terms to write out")
    total = Fraction(0)
    for value in range(a, b + 1):
        total = add(total, evaluate(inner, point, {**env, index: Fraction(value)}))
    return total if sign == 1 else neg(total)


def _product(expr, point: Point, env: dict):
    function, limits = expr.function, list(expr.limits)
    index, low, high = limits[-1]
    inner = sympy.Product(function, *limits[:-1]) if len(limits) > 1 else function
    a, b = _int(evaluate(low, point, env)), _int(evaluate(high, point, env))
    if b < a - 1 or b - a + 1 > MAX_TERMS:
        raise Ambiguous("a reversed or too long product")
    total = Fraction(1)
    for value in range(a, b + 1):
        total = mul(total, evaluate(inner, point, {**env, index: Fraction(value)}))
    return total


def _largest(expr, point: Point, env: dict):
    """The largest value, written out; an enclosure of it when the intervals cannot order two of them."""
    a, b = _int(evaluate(expr.low, point, env)), _int(evaluate(expr.high, point, env))
    if b < a:
        raise Undefined("the largest of no values")
    if b - a + 1 > MAX_TERMS:
        raise Ambiguous("too many values to write out")
    values = [evaluate(expr.body, point, {**env, expr.index: Fraction(k)}) for k in range(a, b + 1)]
    best = values[0]
    for v in values[1:]:
        order = compare_real(v, best)
        if order is None:
            low = max(_real(x).a for x in values)
            high = max(_real(x).b for x in values)
            return (iv.mpf([low, high]), ZERO)
        if order > 0:
            best = v
    return best


def _named(expr, point: Point, env: dict):
    definition = expr.definition
    inner = dict(env)
    for param, arg in zip(definition.params, expr.args, strict=True):
        inner[param] = evaluate(arg, point, env)
    return evaluate(definition.body, point, inner)


def _undefined(expr, point: Point, env: dict):
    args = tuple(evaluate(arg, point, env) for arg in expr.args)
    if not all(isinstance(a, EXACT) for a in args):
        raise Ambiguous("an arbitrary function at an inexact argument")
    key = (type(expr).__name__, args)
    if key not in point.functions:
        domain = getattr(type(expr), "kernel_domain", None)
        if domain is None:
            kwargs = getattr(type(expr), "_kwargs", {}) or {}
            domain = "positive" if kwargs.get("positive") else "real" if kwargs.get("real") else "complex"
        rng = random.Random(f"{point.seed}:{key}")
        value: Any = Fraction(rng.randint(1, 60), rng.randint(1, 13))
        if domain != "positive" and rng.random() < 0.5:
            value = -value
        if domain == "complex":
            imaginary = Fraction(rng.randint(-60, 60), rng.randint(1, 13))
            point.function_text[key] = f"{value} + {imaginary}*I" if imaginary >= 0 else f"{value} - {-imaginary}*I"
            value = (_iv(value), _iv(imaginary))
        point.functions[key] = value
    return point.functions[key]


def relation_at(condition, point: Point, env: dict | None = None) -> bool | None:
    """Whether a relational holds at ``point``: True, False, or None (the intervals cannot tell)."""
    env = env or {}
    if condition is sympy.true:
        return True
    if condition is sympy.false:
        return False
    try:
        a, b = (evaluate(arg, point, env) for arg in condition.args)
        if isinstance(condition, (sympy.Equality, sympy.Unequality)):
            gap = add(a, neg(b))
            if isinstance(gap, EXACT):
                equal = gap == 0
            else:
                re, im = gap
                if 0 not in re or 0 not in im:
                    equal = False
                elif _is_exact_zero(re) and _is_exact_zero(im):
                    equal = True
                else:
                    return None
            return equal if isinstance(condition, sympy.Equality) else not equal
        order = compare_real(a, b)
    except (Undefined, Ambiguous):
        return None
    if order is None:
        return None
    return {
        sympy.StrictLessThan: order < 0,
        sympy.LessThan: order <= 0,
        sympy.StrictGreaterThan: order > 0,
        sympy.GreaterThan: order >= 0,
    }[type(condition)]


# --------------------------------------------------------------------------
# matrices: lists of rows of values


def _matmul(a: list, b: list) -> list:
    if a and b and len(a[0]) != len(b):
        raise Undefined("shapes do not conform")
    columns = len(b[0]) if b else 0
    out = []
    for row in a:
        line = []
        for k in range(columns):
            total = Fraction(0)
            for m, value in enumerate(row):
                other = b[m][k]
                if (isinstance(value, Fraction) and not value) or (isinstance(other, Fraction) and not other):
                    continue
                total = add(total, mul(value, other))
            line.append(total)
        out.append(line)
    return out


def _identity(n: int) -> list:
    return [[Fraction(int(i == j)) for j in range(n)] for i in range(n)]


def _matrix(expr, point: Point, env: dict) -> list:
    if isinstance(expr, sympy.MatrixSymbol):
        if expr in env:
            return env[expr]
        if expr in point.values:
            return point.values[expr]
        raise Undefined(f"no value for {expr}")
    if isinstance(expr, sympy.MatrixBase):
        return [[evaluate(expr[i, j], point, env) for j in range(expr.cols)] for i in range(expr.rows)]
    if isinstance(expr, sympy.MatMul):
        scalar: Any = Fraction(1)
        result: Any = None
        for arg in expr.args:
            if isinstance(arg, (sympy.MatrixBase, MatrixExpr)):
                value = _matrix(arg, point, env)
                result = value if result is None else _matmul(result, value)
            else:
                scalar = mul(scalar, evaluate(arg, point, env))
        return [[mul(scalar, v) for v in row] for row in result]
    if isinstance(expr, sympy.MatAdd):
        parts = [_matrix(arg, point, env) for arg in expr.args]
        if any(len(p) != len(parts[0]) or (p and len(p[0]) != len(parts[0][0])) for p in parts):
            raise Undefined("a sum of matrices of different shapes")
        return [[_sum_values([p[i][j] for p in parts]) for j in range(len(parts[0][0]))] for i in range(len(parts[0]))]
    if isinstance(expr, sympy.Transpose):
        value = _matrix(expr.args[0], point, env)
        return [list(column) for column in zip(*value, strict=True)] if value else []
    if isinstance(expr, sympy.MatPow):
        base = _matrix(expr.args[0], point, env)
        n = _int(evaluate(expr.args[1], point, env))
        if n < 0:
            base, n = _inverse(base), -n
        if n > 4096:
            raise Ambiguous("too large a matrix power")
        result = _identity(len(base))
        for _ in range(n):
            result = _matmul(result, base)
        return result
    if isinstance(expr, sympy.Inverse):
        return _inverse(_matrix(expr.args[0], point, env))
    if isinstance(expr, sympy.Identity):
        return _identity(_int(evaluate(expr.rows, point, env)))
    if isinstance(expr, sympy.ZeroMatrix):
        rows, cols = (_int(evaluate(n, point, env)) for n in expr.shape)
        return [[Fraction(0)] * cols for _ in range(rows)]
    if isinstance(expr, (sympy.BlockMatrix, sympy.BlockDiagMatrix)):
        grid: list[list[Any]]
        if isinstance(expr, sympy.BlockDiagMatrix):
            blocks = [_matrix(b, point, env) for b in expr.args]
            grid = [[blocks[p] if p == q else None for q in range(len(blocks))] for p in range(len(blocks))]
            heights = [len(b) for b in blocks]
            widths = [len(b[0]) if b else 0 for b in blocks]
        else:
            grid = [
                [_matrix(expr.blocks[p, q], point, env) for q in range(expr.blocks.cols)]
                for p in range(expr.blocks.rows)
            ]
            heights = [len(row[0]) for row in grid]
            widths = [len(grid[0][q][0]) if grid[0][q] else 0 for q in range(len(grid[0]))]
        out = []
        for p, height in enumerate(heights):
            for a in range(height):
                line = []
                for q, width in enumerate(widths):
                    block = grid[p][q]
                    if block is not None and (len(block) != height or (block and len(block[0]) != width)):
                        raise Undefined("blocks that do not line up")
                    line += [block[a][b] if block is not None else Fraction(0) for b in range(width)]
                out.append(line)
        return out
    if isinstance(expr, (lang.BlockDiagonal, lang.Stacked)):
        count = _int(evaluate(expr.count, point, env))
        if count < 0 or count > 200:
            raise Undefined("a number of blocks out of range")
        blocks = [_matrix(expr.block, point, {**env, expr.index: Fraction(j)}) for j in range(count)]
        r, c = expr.block.rows, expr.block.cols
        if isinstance(expr, lang.Stacked):
            return [row for block in blocks for row in block]
        out = [[Fraction(0)] * (count * c) for _ in range(count * r)]
        for j, block in enumerate(blocks):
            for a in range(r):
                for b in range(c):
                    out[j * r + a][j * c + b] = block[a][b]
        return out
    if isinstance(expr, lang.RowSoftmax):
        scores = _matrix(expr.argument, point, env)
        out = []
        for row in scores:
            weights = [exp_(v) for v in row]
            total = inv(_sum_values(weights))
            out.append([mul(w, total) for w in weights])
        return out
    if isinstance(expr, lang.NamedMatrix):
        return _named(expr, point, env)
    raise Ambiguous(f"{type(expr).__name__} cannot be evaluated")


def _sum_values(values: list):
    total = Fraction(0)
    for v in values:
        total = add(total, v)
    return total


def _nonzero(v) -> bool | None:
    """Whether a value is certainly nonzero (True), certainly zero (False), or cannot tell (None)."""
    if isinstance(v, Fraction):
        return v != 0
    if isinstance(v, PiValue):
        return True
    re, im = v
    if 0 not in re or 0 not in im:
        return True
    return False if _is_exact_zero(re) and _is_exact_zero(im) else None


def _inverse(matrix: list) -> list:
    """Gauss-Jordan, exact where the entries are, in intervals otherwise (a pivot that may be 0: Ambiguous)."""
    n = len(matrix)
    if any(len(row) != n for row in matrix):
        raise Undefined("the inverse of a matrix that is not square")
    exact = all(isinstance(v, Fraction) for row in matrix for v in row)
    work = [list(row) + [Fraction(int(i == j)) for j in range(n)] for i, row in enumerate(matrix)]
    for column in range(n):
        states = [_nonzero(work[r][column]) for r in range(column, n)]
        pivot = next((column + k for k, state in enumerate(states) if state), None)
        if pivot is None:
            if exact or all(state is False for state in states):
                raise Undefined("a singular matrix has no inverse")
            raise Ambiguous("a pivot that may be 0")
        work[column], work[pivot] = work[pivot], work[column]
        scale = inv(work[column][column])
        work[column] = [mul(v, scale) for v in work[column]]
        for r in range(n):
            if r != column and _nonzero(work[r][column]) is not False:
                factor = work[r][column]
                work[r] = [add(v, neg(mul(factor, w))) for v, w in zip(work[r], work[column], strict=True)]
    return [row[n:] for row in work]


def _determinant(matrix: list):
    n = len(matrix)
    if any(len(row) != n for row in matrix):
        raise Undefined("the determinant of a matrix that is not square")
    if n > MAX_DETERMINANT:
        raise Ambiguous("too large a determinant")
    total = Fraction(0)
    for order in permutations(range(n)):
        sign = 1
        for x in range(n):
            for y in range(x + 1, n):
                if order[x] > order[y]:
                    sign = -sign
        term = Fraction(sign)
        for row, column in enumerate(order):
            term = mul(term, matrix[row][column])
        total = add(total, term)
    return total


def _trace(matrix: list):
    if any(len(row) != len(matrix) for row in matrix):
        raise Undefined("the trace of a matrix that is not square")
    return _sum_values([matrix[i][i] for i in range(len(matrix))])


# --------------------------------------------------------------------------
# comparing the two sides


def _upper(x) -> float:
    return float(x.b)


def _magnitude(v) -> float:
    if isinstance(v, PiValue):
        v = _c(v)
    if isinstance(v, Fraction):
        return abs(float(v)) if abs(v.numerator).bit_length() < 1000 else float("inf")
    return _upper(abs(v[0])) + _upper(abs(v[1]))


def compare(lhs, rhs) -> str:
    """``"equal"`` (within a tight enclosure, or exactly), ``"differ"`` (certified) or ``"unknown"``."""
    if isinstance(lhs, list) or isinstance(rhs, list):
        if not (isinstance(lhs, list) and isinstance(rhs, list)):
            return "differ"
        if len(lhs) != len(rhs) or any(len(a) != len(b) for a, b in zip(lhs, rhs, strict=True)):
            return "differ"
        verdicts = [compare(a, b) for ra, rb in zip(lhs, rhs, strict=True) for a, b in zip(ra, rb, strict=True)]
        if "differ" in verdicts:
            return "differ"
        return "unknown" if "unknown" in verdicts else "equal"
    gap = add(lhs, neg(rhs))
    if isinstance(gap, EXACT):
        return "equal" if gap == 0 else "differ"
    re, im = gap
    if 0 not in re or 0 not in im:
        return "differ"
    scale = _magnitude(lhs) + _magnitude(rhs)
    width = _upper(re.delta) + _upper(im.delta)
    return "equal" if width <= 2.0**-30 * (1 + scale) else "unknown"


def shown(value):
    """A printable form of a value (for reports)."""
    if isinstance(value, PiValue):
        return f"{value.a} + {value.b}*pi" if value.a else f"{value.b}*pi"
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else str(value)
    if isinstance(value, list):
        return [[shown(v) for v in row] for row in value]
    re, im = value
    return (
        f"{mpmath.nstr(re.mid, 15)} + {mpmath.nstr(im.mid, 15)}*I"
        if not _is_exact_zero(im)
        else mpmath.nstr(re.mid, 15)
    )
