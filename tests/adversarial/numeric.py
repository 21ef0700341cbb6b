"""An evaluator of SymPy expressions *as written*, with mpmath, independent of the checker.

The adversarial suite must confirm on its own that a false identity is false
and that a true one is true, and it must confirm the counterexamples the
checker gives.  SymPy itself cannot be the judge: ``xreplace``/``subs``
re-evaluate (``tan(x).subs(x, pi/2 + pi*n)`` is 0 for an integer ``n``),
``doit`` integrates and sums with wrong results.  So this module walks the
expression tree and computes each node with mpmath, never calling SymPy's
evaluation.  Comparisons are made to ``digits`` digits while the arithmetic
runs at ``2 * digits + 20``: a value is zero when it is below
``10**-digits`` (the points are exact, so a pole lands about
``10**(-2 * digits)`` from zero, while cancellation of large terms, e.g.
``cosh(x)**2 - sinh(x)**2``, keeps its error far below ``10**-digits``).  A
node that is undefined at the point (division by zero, a pole of tan, cot,
gamma, log 0, a singular inverse, a sum with a non-integer number of terms)
raises :class:`Undefined`.

Conventions, those of SymPy's objects: principal branches (``(-8)**(1/3)``
is ``1 + i sqrt 3``), ``0**0 = 1``, ``sign(0) = 0``; ``Sum`` and ``Product``
follow Karr's convention for reversed integer ranges (SymPy's documented
one) and are undefined when the number of terms is not an integer.

Examples
--------
>>> import sympy
>>> x = sympy.Symbol("x", real=True)
>>> compare(sympy.tan(x) * sympy.cos(x), sympy.sin(x), {x: sympy.pi / 2}, 50)
'lhs undefined'
>>> compare(sympy.sin(2 * x), 2 * sympy.sin(x) * sympy.cos(x), {x: sympy.Rational(1, 3)}, 50)
'equal'
"""

from __future__ import annotations

import contextlib
import random
import sys
from collections.abc import Iterable, Iterator, Mapping
from typing import Any

import mpmath
import sympy
from mpmath import mp

#: The most terms a finite Sum/Product may have to be written out here.
MAX_TERMS = 2_000_000


class Undefined(ArithmeticError):
    """The expression has no value at the point."""


class BadPoint(ValueError):
    """The point does not give a value to every symbol, or gives a value of the wrong shape."""


def name_of(key: Any) -> str:
    """The name of a symbol, or the string itself."""
    return key if isinstance(key, str) else getattr(key, "name", str(key))


@contextlib.contextmanager
def deep_recursion(limit: int = 60_000) -> Iterator[None]:
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def determinant(m: Any) -> Any:
    """Determinant by Gaussian elimination with partial pivoting, 0 for a singular matrix.

    (mpmath 1.3's ``det`` fails with a TypeError inside its LU decomposition when
    a pivot column is zero, i.e. exactly for the singular matrices counterexamples
    use.)
    """
    rows = [[m[i, j] for j in range(m.cols)] for i in range(m.rows)]
    size, result = len(rows), mpmath.mpf(1)
    for column in range(size):
        pivot = max(range(column, size), key=lambda r: abs(rows[r][column]))
        if rows[pivot][column] == 0:
            return mpmath.mpf(0)
        if pivot != column:
            rows[column], rows[pivot] = rows[pivot], rows[column]
            result = -result
        result *= rows[column][column]
        for r in range(column + 1, size):
            factor = rows[r][column] / rows[column][column]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column], strict=True)]
    return result


class Evaluator:
    """Evaluate expressions at ``point`` (symbol or name -> value); zero means below ``10**-digits``.

    Use it inside ``mpmath.workdps(working_digits(digits))``.
    """

    def __init__(self, point: Mapping[Any, Any], digits: int) -> None:
        self.digits = digits
        self.raw = {name_of(key): value for key, value in point.items()}
        self.cache: dict[str, Any] = {}
        self.bound: dict[sympy.Basic, Any] = {}
        self.eps = mpmath.mpf(10) ** (-digits)

    # -- helpers -------------------------------------------------------------
    def zero(self, value: Any) -> bool:
        return bool(abs(value) <= self.eps)

    def integer(self, value: Any, what: str) -> int:
        """``value`` as a Python int, or Undefined when it is not an integer."""
        if isinstance(value, int):
            return value
        if isinstance(value, mpmath.mpc):
            if not self.zero(value.imag):
                raise Undefined(f"{what} is not real")
            value = value.real
        nearest = mpmath.nint(value)
        if abs(value - nearest) > self.eps * max(1, abs(value)):
            raise Undefined(f"{what} is not an integer: {value}")
        return int(nearest)

    def real(self, value: Any, what: str) -> Any:
        if isinstance(value, mpmath.mpc):
            if not self.zero(value.imag):
                raise Undefined(f"{what} is not real")
            return value.real
        return value

    def value_of(self, name: str) -> Any:
        if name not in self.cache:
            if name not in self.raw:
                raise BadPoint(f"the point gives no value to {name!r} (it has {sorted(self.raw)})")
            self.cache[name] = self.convert(self.raw[name])
        return self.cache[name]

    def convert(self, value: Any) -> Any:
        """A value of a point: int, str, float, SymPy or mpmath number, nested list (a matrix)."""
        if isinstance(value, bool):
            raise BadPoint(f"a truth value is not a number: {value!r}")
        if isinstance(value, int):
            return mpmath.mpf(value)
        if isinstance(value, float):
            return mpmath.mpf(value)
        if isinstance(value, complex):
            return mpmath.mpc(value)
        if isinstance(value, mpmath.mpf | mpmath.mpc):
            return value
        if isinstance(value, str):
            try:
                return mpmath.mpf(value)
            except (ValueError, TypeError):
                return self.ev(sympy.sympify(value, rational=True))
        if isinstance(value, list | tuple):
            rows = [list(row) if isinstance(row, list | tuple) else [row] for row in value]
            return mpmath.matrix([[self.convert(entry) for entry in row] for row in rows])
        if isinstance(value, mpmath.matrix):
            return value
        if isinstance(value, sympy.MatrixBase):
            return self.ev(value)
        if isinstance(value, sympy.Basic):
            return self.ev(value)
        raise BadPoint(f"cannot read the value {value!r} ({type(value).__name__})")

    # -- scalars ----------------------------------------------------------------
    def ev(self, e: Any) -> Any:
        if isinstance(e, int):
            return mpmath.mpf(e)
        if isinstance(e, sympy.MatrixBase):
            return mpmath.matrix([[self.ev(e[i, j]) for j in range(e.cols)] for i in range(e.rows)])
        if isinstance(e, sympy.MatrixExpr):
            return self.matrix_expression(e)
        if e in self.bound:
            return self.bound[e]
        if isinstance(e, sympy.Symbol):
            return self.value_of(e.name)
        if isinstance(e, sympy.Integer):
            return mpmath.mpf(int(e))
        if isinstance(e, sympy.Rational):
            return mpmath.mpf(int(e.p)) / int(e.q)
        if isinstance(e, sympy.Float):
            return mpmath.mpf(e._mpf_)
        constants = {
            sympy.pi: lambda: +mp.pi,
            sympy.E: lambda: +mp.e,
            sympy.I: lambda: mpmath.mpc(0, 1),
            sympy.GoldenRatio: lambda: +mp.phi,
            sympy.EulerGamma: lambda: +mp.euler,
        }
        if e in constants:
            return constants[e]()
        if e in (sympy.zoo, sympy.nan, sympy.oo, -sympy.oo):
            raise Undefined(f"{e} is not a number")
        if isinstance(e, sympy.Add):
            return mpmath.fsum([self.ev(a) for a in e.args])
        if isinstance(e, sympy.Mul):
            return self.product(e.args)
        if isinstance(e, sympy.Pow):
            return self.power(e.base, e.exp)
        if isinstance(e, sympy.Sum):
            return self.sum(e)
        if isinstance(e, sympy.Product):
            return self.product_expression(e)
        if isinstance(e, sympy.Integral):
            return self.integral(e)
        if isinstance(e, sympy.Derivative):
            return self.derivative(e)
        if isinstance(e, sympy.Piecewise):
            for value, condition in e.args:
                if self.truth(condition):
                    return self.ev(value)
            raise Undefined("no piece of the Piecewise applies")
        if isinstance(e, sympy.Determinant):
            return determinant(self.square(self.ev(e.arg), "Determinant"))
        if isinstance(e, sympy.Trace):
            m = self.square(self.ev(e.arg), "Trace")
            return mpmath.fsum(m[i, i] for i in range(m.rows))
        if isinstance(e, sympy.UnevaluatedExpr):
            return self.ev(e.args[0])
        if isinstance(e, sympy.Function) and not type(e).__module__.startswith("sympy"):
            return self.defined_elsewhere(e)
        if isinstance(e, sympy.Function):
            return self.function(e)
        raise NotImplementedError(f"the evaluator does not know {type(e).__name__}: {e!r}")

    def defined_elsewhere(self, e: sympy.Function) -> Any:
        """A function the author defined (an index map, a clipped index): its ``doit()`` is its definition.

        When ``doit`` leaves it as it is, the function is called at its arguments' values (integers
        exactly, other numbers as Floats at the working precision) and must give a number.
        """
        written_out = e.doit(deep=False)
        if written_out != e:
            return self.ev(written_out)
        values = []
        for argument in e.args:
            value = self.ev(argument)
            try:
                values.append(sympy.Integer(self.integer(value, "an argument")))
            except Undefined:
                values.append(sympy.Float(mpmath.nstr(value, mp.dps), mp.dps))
        result = e.func(*values)
        if not result.is_number:
            raise NotImplementedError(f"the evaluator cannot evaluate {e.func.__name__} at {values}")
        return self.ev(result)

    def product(self, factors: Iterable[Any]) -> Any:
        values = [self.ev(f) for f in factors]
        result: Any = mpmath.mpf(1)
        matrices = [v for v in values if isinstance(v, mpmath.matrix)]
        if matrices:
            return self.matmul(values)
        for v in values:
            result = result * v
        return result

    def power(self, base: Any, exponent: Any) -> Any:
        b = self.ev(base)
        if isinstance(b, mpmath.matrix):
            return self.matrix_power(b, exponent)
        if isinstance(exponent, sympy.Integer):
            n = int(exponent)
            if self.zero(b):
                if n < 0:
                    raise Undefined("0 to a negative power")
                return mpmath.mpf(1) if n == 0 else mpmath.mpf(0)
            return b**n
        p = self.ev(exponent)
        if self.zero(b):
            if self.zero(p):
                return mpmath.mpf(1)
            if mpmath.re(p) > 0:
                return mpmath.mpf(0)
            raise Undefined("0 to a power with real part <= 0")
        return mpmath.power(b, p)

    def function(self, e: sympy.Function) -> Any:
        f = e.func
        if f in (sympy.Max, sympy.Min):
            values = [self.real(self.ev(a), "Max/Min argument") for a in e.args]
            return max(values) if f is sympy.Max else min(values)
        if f is sympy.atan2:
            y, x = (self.real(self.ev(a), "atan2 argument") for a in e.args)
            if self.zero(x) and self.zero(y):
                raise Undefined("atan2(0, 0)")
            return mpmath.atan2(y, x)
        if f is sympy.binomial:
            n, k = (self.ev(a) for a in e.args)
            return mpmath.binomial(n, k)
        if f is sympy.RisingFactorial:
            x, k = (self.ev(a) for a in e.args)
            return mpmath.rf(x, k)
        if f is sympy.Mod:
            a, b = (self.real(self.ev(a), "Mod argument") for a in e.args)
            if self.zero(b):
                raise Undefined("Mod by 0")
            return a - b * self.floor(a / b)
        if f is sympy.log and len(e.args) == 2:
            x, base = (self.ev(a) for a in e.args)
            return self.log(x) / self.log(base)
        if len(e.args) != 1:
            raise NotImplementedError(f"the evaluator does not know the function {f.__name__}")
        a = self.ev(e.args[0])
        if f is sympy.sin:
            return mpmath.sin(a)
        if f is sympy.cos:
            return mpmath.cos(a)
        if f is sympy.tan:
            return mpmath.sin(a) / self.nonzero(mpmath.cos(a), "tan at a pole")
        if f is sympy.cot:
            return mpmath.cos(a) / self.nonzero(mpmath.sin(a), "cot at a pole")
        if f is sympy.sec:
            return 1 / self.nonzero(mpmath.cos(a), "sec at a pole")
        if f is sympy.csc:
            return 1 / self.nonzero(mpmath.sin(a), "csc at a pole")
        if f is sympy.sinc:
            return mpmath.mpf(1) if self.zero(a) else mpmath.sin(a) / a
        if f is sympy.exp:
            return mpmath.exp(a)
        if f is sympy.log:
            return self.log(a)
        if f is sympy.Abs:
            return abs(a)
        if f is sympy.sign:
            return mpmath.mpf(0) if self.zero(a) else a / abs(a)
        if f is sympy.floor:
            return self.floor(self.real(a, "floor argument"))
        if f is sympy.ceiling:
            return -self.floor(-self.real(a, "ceiling argument"))
        if f is sympy.re:
            return mpmath.re(a)
        if f is sympy.im:
            return mpmath.im(a)
        if f is sympy.conjugate:
            return mpmath.conj(a)
        if f is sympy.arg:
            if self.zero(a):
                raise Undefined("arg(0)")
            return mpmath.arg(a)
        if f is sympy.atan:
            if isinstance(a, mpmath.mpc) and self.zero(a.real) and self.zero(abs(a.imag) - 1):
                raise Undefined("atan(+-i)")
            return mpmath.atan(a)
        if f is sympy.acot:
            if self.zero(a):
                return mpmath.pi / 2  # SymPy's acot(0)
            return mpmath.atan(1 / a)
        if f is sympy.asin:
            return mpmath.asin(a)
        if f is sympy.acos:
            return mpmath.acos(a)
        if f is sympy.sinh:
            return mpmath.sinh(a)
        if f is sympy.cosh:
            return mpmath.cosh(a)
        if f is sympy.tanh:
            return mpmath.sinh(a) / self.nonzero(mpmath.cosh(a), "tanh at a pole")
        if f is sympy.gamma:
            self.not_pole(a, 0, "gamma")
            return mpmath.gamma(a)
        if f is sympy.factorial:
            self.not_pole(a, -1, "factorial")
            return mpmath.gamma(a + 1)
        if f is sympy.harmonic:
            self.not_pole(a, -1, "harmonic")
            return mpmath.harmonic(a)
        raise NotImplementedError(f"the evaluator does not know the function {f.__name__}")

    def nonzero(self, value: Any, why: str) -> Any:
        if self.zero(value):
            raise Undefined(why)
        return value

    def not_pole(self, value: Any, last: int, what: str) -> None:
        """Undefined when ``value`` is an integer <= ``last`` (poles of gamma at 0, -1, ...)."""
        if isinstance(value, mpmath.mpc):
            if not self.zero(value.imag):
                return
            value = value.real
        nearest = mpmath.nint(value)
        if nearest <= last and self.zero(value - nearest):
            raise Undefined(f"{what} at a pole ({nearest})")

    def log(self, value: Any) -> Any:
        if self.zero(value):
            raise Undefined("log(0)")
        return mpmath.log(value)

    def floor(self, value: Any) -> Any:
        nearest = mpmath.nint(value)
        if abs(value - nearest) <= self.eps * max(1, abs(value)):
            return nearest
        return mpmath.floor(value)

    # -- truth ----------------------------------------------------------------
    def truth(self, condition: Any) -> bool:
        if condition is sympy.true or condition is True:
            return True
        if condition is sympy.false or condition is False:
            return False
        if isinstance(condition, sympy.And):
            return all(self.truth(c) for c in condition.args)
        if isinstance(condition, sympy.Or):
            return any(self.truth(c) for c in condition.args)
        if isinstance(condition, sympy.Not):
            return not self.truth(condition.args[0])
        if isinstance(condition, sympy.Eq | sympy.Ne):
            lhs, rhs = (self.ev(a) for a in condition.args)
            equal = same(lhs, rhs, self.eps)
            return equal if isinstance(condition, sympy.Eq) else not equal
        if isinstance(condition, sympy.Rel):
            lhs, rhs = (self.real(self.ev(a), "an inequality's side") for a in condition.args)
            difference = lhs - rhs
            if isinstance(condition, sympy.StrictLessThan):
                return difference < 0 and not self.zero(difference)
            if isinstance(condition, sympy.LessThan):
                return difference < 0 or self.zero(difference)
            if isinstance(condition, sympy.StrictGreaterThan):
                return difference > 0 and not self.zero(difference)
            if isinstance(condition, sympy.GreaterThan):
                return difference > 0 or self.zero(difference)
        if isinstance(condition, sympy.Contains):
            element, domain = condition.args
            value = self.ev(element)
            if domain == sympy.S.Integers:
                try:
                    self.integer(value, "element")
                except Undefined:
                    return False
                return True
            if domain == sympy.S.Reals:
                return not isinstance(value, mpmath.mpc) or self.zero(value.imag)
        raise NotImplementedError(f"the evaluator cannot decide {condition!r}")

    # -- sums, products, integrals, derivatives --------------------------------
    def _range(self, limits: tuple) -> tuple[sympy.Basic, Any, Any]:
        (index, low, high) = limits
        a = -mpmath.inf if low == -sympy.oo else self.integer(self.ev(low), "a lower limit")
        b = mpmath.inf if high == sympy.oo else self.integer(self.ev(high), "an upper limit")
        return index, a, b

    def _terms(self, function: Any, index: sympy.Basic, a: int, b: int) -> list[Any]:
        if b - a + 1 > MAX_TERMS:
            raise NotImplementedError(f"{b - a + 1} terms is more than this evaluator writes out")
        return [self.at(function, index, mpmath.mpf(j)) for j in range(a, b + 1)]

    def at(self, function: Any, variable: sympy.Basic, value: Any) -> Any:
        saved = self.bound.get(variable, None)
        had = variable in self.bound
        self.bound[variable] = value
        try:
            return self.ev(function)
        finally:
            if had:
                self.bound[variable] = saved
            else:
                del self.bound[variable]

    def sum(self, e: sympy.Sum) -> Any:
        # the last limit is the outermost sum; the rest stay one Sum (SymPy would fold Sum(Sum(...), outer) back)
        function = sympy.Sum(e.function, *e.limits[:-1]) if len(e.limits) > 1 else e.function
        index, a, b = self._range(e.limits[-1])
        if mpmath.isinf(a) or mpmath.isinf(b):
            return mpmath.nsum(lambda j: self.at(function, index, j), [a, b])
        if b >= a:
            return mpmath.fsum(self._terms(function, index, a, b))
        if b == a - 1:
            return mpmath.mpf(0)
        return -mpmath.fsum(self._terms(function, index, b + 1, a - 1))

    def product_expression(self, e: sympy.Product) -> Any:
        if len(e.limits) != 1:
            raise NotImplementedError("nested products")
        index, a, b = self._range(e.limits[0])
        if mpmath.isinf(a) or mpmath.isinf(b):
            return mpmath.nprod(lambda j: self.at(e.function, index, j), [a, b])

        def multiply(terms: list[Any]) -> Any:
            result: Any = mpmath.mpf(1)
            for t in terms:
                result *= t
            return result

        if b >= a - 1:
            return multiply(self._terms(e.function, index, a, b))
        return 1 / self.nonzero(multiply(self._terms(e.function, index, b + 1, a - 1)), "a reversed product of 0")

    def integral(self, e: sympy.Integral) -> Any:
        if len(e.limits) != 1 or len(e.limits[0]) != 3:
            raise NotImplementedError("only one definite integral")
        variable, low, high = e.limits[0]
        a = -mpmath.inf if low == -sympy.oo else self.real(self.ev(low), "a limit")
        b = mpmath.inf if high == sympy.oo else self.real(self.ev(high), "a limit")

        # The integrand counts almost everywhere: a node where it is undefined (atan(tan x) at nodes
        # within 1e-100 of pi/2) counts 0.  The integrands of the cases are bounded near such points;
        # a non-integrable singularity would need more than this.
        def integrand(value: Any) -> Any:
            try:
                return self.at(e.function, variable, value)
            except Undefined:
                return mpmath.mpf(0)

        points = [a, b] if mpmath.isinf(a) or mpmath.isinf(b) else [a, (a + b) / 2, b]
        return mpmath.quad(integrand, points)

    def derivative(self, e: sympy.Derivative) -> Any:
        if len(e.variable_count) != 1 or e.variable_count[0][1] != 1:
            raise NotImplementedError("only first derivatives in one variable")
        variable = e.variable_count[0][0]
        x0 = self.real(self.ev(variable), "the point of a derivative")

        def g(t: Any) -> Any:
            return self.at(e.expr, variable, t)

        left = mpmath.diff(g, x0, direction=-1)
        right = mpmath.diff(g, x0, direction=1)
        if abs(left - right) > mpmath.mpf(10) ** (-(self.digits // 3)) * max(1, abs(left)):
            raise Undefined(f"one-sided derivatives differ: {left} and {right}")
        return (left + right) / 2

    # -- matrices -----------------------------------------------------------------
    def square(self, m: Any, what: str) -> Any:
        if not isinstance(m, mpmath.matrix) or m.rows != m.cols:
            raise BadPoint(f"{what} of a value that is not a square matrix")
        return m

    def matmul(self, values: list[Any]) -> Any:
        scalar: Any = mpmath.mpf(1)
        result = None
        for v in values:
            if isinstance(v, mpmath.matrix):
                if result is None:
                    result = v
                else:
                    if result.cols != v.rows:
                        raise BadPoint(f"shapes {result.rows}x{result.cols} and {v.rows}x{v.cols} do not multiply")
                    result = result * v
            else:
                scalar = scalar * v
        if result is None:
            return scalar
        return result * scalar

    def invert(self, m: Any) -> Any:
        m = self.square(m, "Inverse")
        scale = max([abs(m[i, j]) for i in range(m.rows) for j in range(m.cols)] + [mpmath.mpf(1)])
        if abs(mpmath.det(m)) <= self.eps * scale**m.rows:
            raise Undefined("the inverse of a singular matrix")
        return mpmath.inverse(m)

    def matrix_power(self, m: Any, exponent: Any) -> Any:
        n = self.integer(self.ev(exponent), "a matrix power")
        m = self.square(m, "a power")
        if n < 0:
            m, n = self.invert(m), -n
        return m**n if n else mpmath.eye(m.rows)

    def size(self, dimension: Any) -> int:
        return self.integer(self.ev(dimension), "a matrix size")

    def matrix_expression(self, e: sympy.MatrixExpr) -> Any:
        if isinstance(e, sympy.MatrixSymbol):
            value = self.value_of(e.name)
            rows, cols = (self.size(d) for d in e.shape)
            if not isinstance(value, mpmath.matrix) or (value.rows, value.cols) != (rows, cols):
                raise BadPoint(f"{e.name} must be a {rows} x {cols} matrix at this point, not {value!r}")
            return value
        if isinstance(e, sympy.Identity):
            return mpmath.eye(self.size(e.rows))
        if isinstance(e, sympy.ZeroMatrix):
            return mpmath.zeros(self.size(e.rows), self.size(e.cols))
        if isinstance(e, sympy.MatMul):
            return self.matmul([self.ev(a) for a in e.args])
        if isinstance(e, sympy.MatAdd):
            values = [self.ev(a) for a in e.args]
            total = values[0]
            for v in values[1:]:
                total = total + v
            return total
        if isinstance(e, sympy.MatPow):
            return self.matrix_power(self.ev(e.base), e.exp)
        if isinstance(e, sympy.Inverse):
            return self.invert(self.ev(e.arg))
        if isinstance(e, sympy.Transpose):
            return self.ev(e.arg).T
        if isinstance(e, sympy.BlockDiagMatrix):
            blocks = [self.ev(b) for b in e.args]
            n = sum(b.rows for b in blocks)
            c = sum(b.cols for b in blocks)
            out = mpmath.zeros(n, c)
            r0 = c0 = 0
            for b in blocks:
                for i in range(b.rows):
                    for j in range(b.cols):
                        out[r0 + i, c0 + j] = b[i, j]
                r0, c0 = r0 + b.rows, c0 + b.cols
            return out
        if isinstance(e, sympy.BlockMatrix):
            grid = e.blocks
            values = [[self.ev(grid[i, j]) for j in range(grid.cols)] for i in range(grid.rows)]
            heights = [row[0].rows for row in values]
            widths = [b.cols for b in values[0]]
            out = mpmath.zeros(sum(heights), sum(widths))
            r0 = 0
            for i, row in enumerate(values):
                c0 = 0
                for j, b in enumerate(row):
                    if (b.rows, b.cols) != (heights[i], widths[j]):
                        raise BadPoint("blocks of a BlockMatrix do not line up at this point")
                    for r in range(b.rows):
                        for c in range(b.cols):
                            out[r0 + r, c0 + c] = b[r, c]
                    c0 += widths[j]
                r0 += heights[i]
            return out
        raise NotImplementedError(f"the evaluator does not know the matrix expression {type(e).__name__}")


def working_digits(digits: int) -> int:
    """The precision the arithmetic runs at when results are compared to ``digits`` digits."""
    return 2 * digits + 20


def evaluate(expr: Any, point: Mapping[Any, Any], digits: int) -> Any:
    """The value of ``expr`` at ``point``, good to about ``digits`` digits (raises :class:`Undefined`)."""
    with mpmath.workdps(working_digits(digits)), deep_recursion():
        return Evaluator(point, digits).ev(expr)


def same(lhs: Any, rhs: Any, eps: Any) -> bool:
    """Equal up to ``eps`` relative to the larger magnitude (matrices entry by entry, same shape)."""
    lhs_matrix, rhs_matrix = isinstance(lhs, mpmath.matrix), isinstance(rhs, mpmath.matrix)
    if lhs_matrix != rhs_matrix:
        if lhs_matrix and (lhs.rows, lhs.cols) == (1, 1):
            return same(lhs[0, 0], rhs, eps)
        if rhs_matrix and (rhs.rows, rhs.cols) == (1, 1):
            return same(lhs, rhs[0, 0], eps)
        return False
    if lhs_matrix:
        if (lhs.rows, lhs.cols) != (rhs.rows, rhs.cols):
            return False
        return all(same(lhs[i, j], rhs[i, j], eps) for i in range(lhs.rows) for j in range(lhs.cols))
    return bool(abs(lhs - rhs) <= eps * max(1, abs(lhs), abs(rhs)))


def compare(lhs: Any, rhs: Any, point: Mapping[Any, Any], digits: int) -> str:
    """``"equal"``, ``"differ"``, ``"lhs undefined"``, ``"rhs undefined"`` or ``"both undefined"``.

    Equal means equal to ``digits`` digits relative to the larger side (an
    absolute ``10**-digits`` for sides below 1).
    """
    with mpmath.workdps(working_digits(digits)), deep_recursion():
        values = []
        for side in (lhs, rhs):
            try:
                values.append(Evaluator(point, digits).ev(side))
            except Undefined:
                values.append(None)
            except ZeroDivisionError:
                values.append(None)
        if values[0] is None and values[1] is None:
            return "both undefined"
        if values[0] is None:
            return "lhs undefined"
        if values[1] is None:
            return "rhs undefined"
        return "equal" if same(values[0], values[1], mpmath.mpf(10) ** (-digits)) else "differ"


def verdict(lhs: Any, rhs: Any, point: Mapping[Any, Any], digits: int) -> str:
    """:func:`compare` at ``digits`` and at twice as many; the answer when both agree, else "unstable"."""
    first = compare(lhs, rhs, point, digits)
    second = compare(lhs, rhs, point, 2 * digits)
    return first if first == second else f"unstable ({first} at {digits} digits, {second} at {2 * digits})"


# -- points of a declared domain ------------------------------------------------------
#: Special values tried first: the edges where SymPy's shortcuts go wrong.
REAL_SPECIAL = (
    0,
    1,
    -1,
    sympy.Rational(1, 2),
    sympy.pi / 2,
    -sympy.pi / 2,
    sympy.pi,
    3 * sympy.pi / 2,
    sympy.pi / 4,
    sympy.pi / 7,
    2 * sympy.pi,
)
INTEGER_SPECIAL = (0, 1, -1, 2, -2, 3, -3, 4, 5, 7)


def free_symbols(*exprs: Any) -> set[Any]:
    """Free symbols, with the sizes of matrix symbols (SymPy leaves those out)."""
    found: set[Any] = set()
    with deep_recursion():
        for expr in exprs:
            for symbol in getattr(expr, "free_symbols", set()):
                found.add(symbol)
                if isinstance(symbol, sympy.MatrixSymbol):
                    for size in symbol.shape:
                        found |= getattr(size, "free_symbols", set())
    return found


def in_domain(symbol: sympy.Symbol, value: Any) -> bool:
    """Whether a numeric ``value`` satisfies the assumptions of ``symbol`` (checked numerically)."""
    with mpmath.workdps(working_digits(40)):
        ev = Evaluator({}, 40)
        v = ev.convert(value)
        if isinstance(v, mpmath.matrix):
            return False
        if (symbol.is_real or symbol.is_integer) and isinstance(v, mpmath.mpc):
            if not ev.zero(v.imag):
                return False
            v = v.real
        if symbol.is_integer:
            try:
                n = ev.integer(v, "value")
            except Undefined:
                return False
            if (symbol.is_even and n % 2) or (symbol.is_odd and not n % 2):
                return False
        if symbol.is_positive and not (v > 0 and not ev.zero(v)):
            return False
        if symbol.is_nonnegative and not (v >= 0 or ev.zero(v)):
            return False
        if symbol.is_negative and not (v < 0 and not ev.zero(v)):
            return False
        if symbol.is_nonpositive and not (v <= 0 or ev.zero(v)):
            return False
        return not (symbol.is_nonzero and ev.zero(v))


def _draw(symbol: sympy.Symbol, rng: random.Random, special: bool) -> Any:
    """One exact value in the domain of ``symbol`` (assumptions: integer, even, odd, positive, ...)."""
    for _ in range(1000):
        if symbol.is_integer:
            value: Any = sympy.Integer(rng.choice(INTEGER_SPECIAL) if special else rng.randint(-40, 40))
            if symbol.is_even and value % 2:
                value += 1
            if symbol.is_odd and not value % 2:
                value += 1
        elif symbol.is_real:
            value = (
                sympy.sympify(rng.choice(REAL_SPECIAL))
                if special
                else sympy.Rational(rng.randint(-4000, 4000), rng.randint(100, 1000))
            )
        else:
            value = sympy.Rational(rng.randint(-4000, 4000), rng.randint(100, 1000)) + sympy.I * sympy.Rational(
                rng.randint(-4000, 4000), rng.randint(100, 1000)
            )
        if in_domain(symbol, value):
            return value
    raise ValueError(f"could not draw a value for {symbol} with assumptions {symbol.assumptions0}")


def sample_points(exprs: Iterable[Any], count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` points of the declared domain of the free symbols; the first half at special values."""
    exprs = list(exprs)
    symbols = sorted(free_symbols(*exprs), key=lambda s: (isinstance(s, sympy.MatrixSymbol), s.name))
    rng = random.Random(seed)
    points = []
    for k in range(count):
        special = k < count // 2
        point: dict[str, Any] = {}
        for s in symbols:
            if isinstance(s, sympy.MatrixSymbol):
                sizes = Evaluator(point, 30)
                rows, cols = (sizes.size(d) for d in s.shape)
                point[s.name] = [
                    [sympy.Rational(rng.randint(-50, 50), rng.randint(1, 9)) for _ in range(cols)] for _ in range(rows)
                ]
            elif s.is_integer and s.is_positive and any(s in free_symbols(m) for m in _matrix_symbols(exprs)):
                point[s.name] = sympy.Integer(rng.randint(1, 3))  # a matrix size
            else:
                point[s.name] = _draw(s, rng, special)
        points.append(point)
    return points


def _matrix_symbols(exprs: Iterable[Any]) -> list[Any]:
    return [s for s in free_symbols(*exprs) if isinstance(s, sympy.MatrixSymbol)]
