"""Exact arithmetic: the field Q(zeta_N) and Laurent polynomials over it.

A polynomial is a dict ``{monomial: coefficient}``.  A monomial is a sorted
tuple ``((generator, exponent), ...)``; exponents are integers, or rationals
for exponential generators (``exp(u)**(1/2)`` is ``exp(u/2)``).  A
coefficient is a tuple of rationals, its coordinates in the basis
``1, zeta, ..., zeta**(D - 1)`` of ``Q(zeta_N)``, ``zeta = exp(2 pi i / N)``,
``D = phi(N)``, reduced modulo the cyclotomic polynomial ``Phi_N`` (SymPy's
``cyclotomic_poly``): so two coefficients are equal exactly when their
tuples are.  Every operation here is ring arithmetic; nothing is cancelled
that is not equal.
"""

from __future__ import annotations

from fractions import Fraction

_ZERO = Fraction(0)

__all__ = ["Field", "exponent", "monomial_mul", "padd", "pmul_term", "pneg", "pscale"]


def exponent(value) -> int | Fraction:
    """An exponent in its canonical type: an int when integral, else a Fraction."""
    value = Fraction(value)
    return value.numerator if value.denominator == 1 else value


class Field:
    """``Q(zeta_N)`` for ``N`` a multiple of 4 (so ``i = zeta**(N/4)`` is in it)."""

    def __init__(self, order: int):
        from sympy import Poly, Symbol
        from sympy.polys.specialpolys import cyclotomic_poly

        if order % 4:
            raise ValueError(f"order must be a multiple of 4; got {order}")
        self.order = order
        coefficients = [int(c) for c in Poly(cyclotomic_poly(order, Symbol("z")), Symbol("z")).all_coeffs()]
        self.degree = len(coefficients) - 1
        # zeta**D = -(c_{D-1} zeta**(D-1) + ... + c_0), the cyclotomic polynomial being monic
        self._top = [-Fraction(c) for c in reversed(coefficients[1:])]
        self.zero = (_ZERO,) * self.degree
        self._tail = (_ZERO,) * (self.degree - 1)  # the coordinates of a rational after the first
        self._small = {n: (Fraction(n), *self._tail) for n in range(-8, 9)}
        self.one = self.rational(1)
        self._powers = [self._reduce([Fraction(0)] * k + [Fraction(1)]) for k in range(order)]
        self.i = self._powers[order // 4]
        self._inverses: dict = {}

    def rational(self, value) -> tuple:
        if type(value) is int and -8 <= value <= 8:
            return self._small[value]
        return (value if type(value) is Fraction else Fraction(value), *self._tail)

    def zeta(self, power: int) -> tuple:
        return self._powers[power % self.order]

    def _reduce(self, values: list) -> tuple:
        values = list(values)
        for top in range(len(values) - 1, self.degree - 1, -1):
            c = values[top]
            if c:
                values[top] = Fraction(0)
                for m, r in enumerate(self._top):
                    values[top - self.degree + m] += c * r
        values += [Fraction(0)] * (self.degree - len(values))
        return tuple(values[: self.degree])

    def add(self, a: tuple, b: tuple) -> tuple:
        # a zero coordinate adds nothing: only the nonzero pairs are added (Fraction arithmetic is slow)
        return tuple([(x + y if x else y) if y else x for x, y in zip(a, b, strict=True)])

    def neg(self, a: tuple) -> tuple:
        return tuple([-x if x else x for x in a])

    def mul(self, a: tuple, b: tuple) -> tuple:
        if not any(a[1:]) and not any(b[1:]):
            return (a[0] * b[0], *a[1:])
        if not any(a[1:]):  # a rational times b: coordinate by coordinate
            x = a[0]
            return tuple([x * y if y else y for y in b])
        if not any(b[1:]):
            y = b[0]
            return tuple([x * y if x else x for x in a])
        product = [Fraction(0)] * (2 * self.degree - 1)
        for m, x in enumerate(a):
            if x:
                for n, y in enumerate(b):
                    if y:
                        product[m + n] += x * y
        return self._reduce(product)

    def exact(self, a: tuple) -> Fraction:
        """The rational ``a`` is (``ValueError`` when it is not rational)."""
        value = self.as_rational(a)
        if value is None:
            raise ValueError("not a rational number")
        return value

    def as_rational(self, a: tuple) -> Fraction | None:
        """The rational ``a`` is, or None when it is not rational."""
        return None if any(a[1:]) else a[0]

    def conjugate(self, a: tuple) -> tuple:
        total = self.zero
        for m, x in enumerate(a):
            if x:
                total = self.add(total, tuple(x * c for c in self.zeta(-m)))
        return total

    def is_real(self, a: tuple) -> bool:
        if not any(a[1:]):  # a rational
            return True
        return self.conjugate(a) == a

    def inverse(self, a: tuple) -> tuple:
        """``1/a`` for ``a != 0`` (``ZeroDivisionError`` for 0): SymPy's polynomial ``invert`` modulo Phi_N,
        checked by multiplying back (and remembered)."""
        if not any(a):
            raise ZeroDivisionError("0 has no inverse")
        if self.as_rational(a) is not None:
            return self.rational(1 / a[0])
        known = self._inverses.get(a)
        if known is None:
            known = self._inverses[a] = self._invert(a)
            if self.mul(a, known) != self.one:
                raise ArithmeticError("an inverse in Q(zeta_N) did not multiply back")
        return known

    def _invert(self, a: tuple) -> tuple:
        from sympy import QQ, Poly, Symbol, invert
        from sympy.polys.specialpolys import cyclotomic_poly

        z = Symbol("z")
        inverse = invert(Poly(list(reversed(a)), z, domain=QQ), Poly(cyclotomic_poly(self.order, z), z, domain=QQ))
        coefficients = [Fraction(int(c.numerator), int(c.denominator)) for c in reversed(inverse.all_coeffs())]
        return self._reduce(coefficients)


def monomial_mul(a: tuple, b: tuple) -> tuple:
    """The product of two monomials (sorted ``(generator, exponent)`` tuples); zero exponents dropped."""
    if not a:
        return b
    if not b:
        return a
    merged: dict = dict(a)
    for gen, power in b:
        total = merged.get(gen, 0) + power
        if total:
            merged[gen] = exponent(total)
        else:
            del merged[gen]
    return tuple(sorted(merged.items()))


def padd(field: Field, p: dict, q: dict) -> dict:
    out = dict(p)
    for mono, c in q.items():
        total = field.add(out[mono], c) if mono in out else c
        if any(total):
            out[mono] = total
        else:
            out.pop(mono, None)
    return out


def pneg(field: Field, p: dict) -> dict:
    return {mono: field.neg(c) for mono, c in p.items()}


def pscale(field: Field, p: dict, c: tuple) -> dict:
    if not any(c):
        return {}
    return {mono: field.mul(c, d) for mono, d in p.items()}


def pmul_term(field: Field, p: dict, mono: tuple, c: tuple) -> dict:
    """``p * c * mono`` (no normalisation of special generators: see the translator)."""
    out: dict = {}
    for m, d in p.items():
        product = monomial_mul(m, mono)
        value = field.mul(c, d)
        total = field.add(out[product], value) if product in out else value
        if any(total):
            out[product] = total
        else:
            out.pop(product, None)
    return out
