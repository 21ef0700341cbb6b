"""Certificate (i): an exact normal form of an expression, read as written.

:class:`Translator` walks a SymPy expression and builds its value as a
fraction ``num / den`` of Laurent polynomials over ``Q(zeta_N)``
(:mod:`.algebra`) in *generators*: the free symbols, pi, and one generator
for each atom it cannot open (a logarithm, an arbitrary function, a sum
over a symbolic range, ...).  It never asks SymPy to simplify, evaluate,
substitute or decide anything: it reads ``type(node)`` and ``node.args``.
Each rule below is an identity that holds at every point where its left
side is defined:

- field arithmetic; ``x**n`` for integers ``n``; a division records that its
  divisor is nonzero (a *condition*, unless shown nonzero here);
- ``exp(a + b) = exp(a) exp(b)``; ``exp(n u) = exp(u)**n`` (n integer), so
  ``exp(r m)`` for rational ``r`` is a rational power of one generator
  ``exp(m)``; ``exp(i pi p/q)`` is the root of unity ``zeta**(pN/2q)``;
  ``exp(i pi m)**2 = 1`` for an integer ``m``; ``exp(n log f) = f**n``;
- Euler: ``sin z = (e^{iz} - e^{-iz}) / 2i``, ``cos z = (e^{iz} + e^{-iz}) / 2``
  (and sinh, cosh; tan, cot, sec, csc and tanh as quotients, whose
  denominators become conditions).  So no angle-addition rule is used: it
  follows from the exponent law;
- for ``f > 0`` (shown here): ``log(f g) = log f + log g``,
  ``log(f**r) = r log f`` (r real), ``log(exp(m)) = m`` (m real),
  ``f**e = exp(e log f)``; ``|f| = f``, ``|-f| = f``;
- ``floor(n + r) = n + floor(r)`` for an integer-valued ``n``;
  ``Mod(a, m) = a - m floor(a/m)``; ``Min``/``Max``/``Piecewise``/``sign``
  choose a branch only when its condition is shown here;
- a sum over ``count`` terms: written out when ``count`` is a number (at
  most :data:`MAX_TERMS`), else linear in its summand (one sum per monomial
  in the index; factors free of the index move out) when ``count`` is shown
  to be an integer ``>= 0``;
- a named definition (:class:`~posenc_math.theorems.language.Definition`)
  is its body with the parameters bound to the arguments.

"Shown here" means by :meth:`Translator.sign`: signs of generators from
their declared domains (a symbol's own assumptions as the author declared
them, never SymPy's inference about an expression) and the hypotheses
passed in, combined by the rules of signs for sums and products.

Anything else raises :class:`Refused`: an unknown function, a Float, an
infinity, a sum whose number of terms is not shown to be an integer
``>= 0``, a condition that would mention a bound index.
"""

from __future__ import annotations

import math
from contextlib import contextmanager
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

import sympy
from sympy.core.function import AppliedUndef
from sympy.matrices.expressions.matexpr import MatrixExpr

from .. import language as lang
from .algebra import Field, exponent, monomial_mul, padd, pmul_term, pneg, pscale

__all__ = ["MAX_TERMS", "NeedSplit", "Refused", "Translator", "declared_domain", "field_for"]

#: A sum over a numeric range is written out up to this many terms.
MAX_TERMS = 400
#: Largest power ``k`` of a bound index summed in closed form (Faulhaber: sum of ``j**k``).
MAX_FAULHABER = 8
#: Largest power of a sum that is multiplied out.
MAX_POWER = 40
#: Largest number of bits of an exact rational power.
MAX_BITS = 100_000


class Refused(Exception):
    """The expression is outside what the kernel reads (the reason says what)."""


class NeedResidue(Exception):
    """A floor depends on an integer symbol's residue modulo ``modulus``: decide each residue in turn."""

    def __init__(self, symbol, modulus: int):
        super().__init__(f"{symbol} mod {modulus}")
        self.symbol, self.modulus = symbol, modulus


class NeedSplit(Exception):
    """A branch condition is undecided: decide both cases (``relational`` true, then false)."""

    def __init__(self, relational):
        super().__init__(str(relational))
        self.relational = relational


# --------------------------------------------------------------------------
# Declared domains: read from the assumptions the author gave a symbol


#: Declared facts that make a symbol finite (SymPy: each implies ``finite``; ``extended_real`` alone does not).
_FINITE = frozenset(
    {"real", "complex", "integer", "rational", "finite", "positive", "negative", "nonnegative", "nonpositive"}
    | {"nonzero", "even", "odd"}
)
#: The declared assumptions the kernel reads; a symbol declared with any other is refused.
_KNOWN = _FINITE | {"commutative", "extended_real"}


@dataclass(frozen=True)
class Domain:
    kind: str  # "complex", "real", "rational", "integer"
    sign: str | None  # "pos", "nonneg", "neg", "nonpos", "nonzero" or None
    parity: str | None  # "even", "odd" or None


def declared_domain(symbol) -> Domain:
    """The domain the author declared for ``symbol`` (``Refused`` for assumptions the kernel does not read)."""
    known = _DOMAINS.get(id(symbol))
    if known is not None and known[0] is symbol:
        return known[1]
    domain = _declared_domain(symbol)
    if len(_DOMAINS) > 10_000:
        _DOMAINS.clear()
    _DOMAINS[id(symbol)] = (symbol, domain)  # the symbol kept alive, so its id is not reused
    return domain


#: Domains read so far, by the symbol object itself (not by equality: SymPy counts symbols equal whose declared
#: assumptions differ, e.g. ``positive=True`` and ``positive=True, real=True``); a symbol never changes.
_DOMAINS: dict = {}


def _declared_domain(symbol) -> Domain:
    declared = {k: v for k, v in getattr(symbol, "_assumptions_orig", {}).items() if v is not None}
    unknown = set(declared) - _KNOWN
    if unknown or declared.get("commutative", True) is False or declared.get("finite", True) is False:
        raise Refused(f"symbol {symbol} has assumptions the kernel does not read: {sorted(declared)}")
    for fact in ("real", "complex", "integer", "rational", "even", "odd", "extended_real"):
        if declared.get(fact) is False:
            raise Refused(f"symbol {symbol} is declared {fact}=False, which the kernel does not read")
    if declared.get("extended_real") and not any(declared.get(fact) for fact in _FINITE):
        # SymPy's extended reals include +oo and -oo (where t - t is nan): not a domain the kernel reads
        raise Refused(f"symbol {symbol} is declared extended_real, which admits +oo and -oo: declare it real")
    parity = "even" if declared.get("even") else "odd" if declared.get("odd") else None
    if declared.get("even") is False or declared.get("odd") is False:
        raise Refused(f"symbol {symbol}: even=False / odd=False are not read")
    kind = "complex"
    if declared.get("integer") or parity:
        kind = "integer"
    elif declared.get("rational"):
        kind = "rational"
    elif (
        declared.get("real")
        or declared.get("extended_real")  # with a fact that makes it finite (above)
        or any(declared.get(s) for s in ("positive", "negative", "nonnegative", "nonpositive"))
    ):
        kind = "real"
    sign = None
    for fact, value in (("positive", "pos"), ("negative", "neg"), ("nonnegative", "nonneg"), ("nonpositive", "nonpos")):
        if declared.get(fact) is True:
            sign = value
    for fact, value in (("positive", "nonpos"), ("negative", "nonneg")):
        if declared.get(fact) is False and declared.get("real", kind != "complex"):
            sign = sign or value
    if declared.get("nonzero") is True:
        sign = {"nonneg": "pos", "nonpos": "neg"}.get(sign or "", sign or "nonzero")
    if kind == "complex" and sign not in (None, "nonzero"):
        kind = "real"
    return Domain(kind, sign, parity)


def _walk(expr):
    """Every node of ``expr``, descending into definitions' bodies and structured blocks."""
    stack, seen = [expr], set()
    while stack:
        node = stack.pop()
        if not isinstance(node, sympy.Basic) or id(node) in seen:
            continue
        seen.add(id(node))
        yield node
        stack.extend(node.args)
        if isinstance(node, lang._Named):
            stack.append(node.definition.body)


def field_for(*expressions) -> Field:
    """``Q(zeta_N)`` with ``zeta_N`` holding ``exp(i pi r)`` for each rational ``r`` multiplying pi."""
    order = 4
    for expr in expressions:
        for node in _walk(expr):
            if isinstance(node, sympy.Mul) and sympy.pi in node.args:
                for factor in node.args:
                    if isinstance(factor, sympy.Rational) and _small_field(math.lcm(order, 2 * int(factor.q))):
                        order = math.lcm(order, 2 * int(factor.q))
            if isinstance(node, sympy.Pow) and isinstance(node.base, sympy.Rational) and node.exp == sympy.S.Half:
                for prime in _square_free_primes(Fraction(int(node.base.p), int(node.base.q))):
                    wider = math.lcm(order, 8 if prime == 2 else 4 * prime)
                    if prime <= _SQRT_PRIMES and _small_field(wider):
                        order = wider
    field_ = _FIELDS.get(order)
    if field_ is None:
        field_ = _FIELDS[order] = Field(order)
    return field_


#: One :class:`Field` per order, made once (its arithmetic holds no state but a table of checked inverses).
_FIELDS: dict[int, Field] = {}


def _small_field(order: int) -> bool:
    """Q(zeta_order) small enough to compute in: degree at most 48, and i a basis element."""
    degree = int(sympy.totient(order))
    return (degree <= 48 and order // 4 < degree) or order == 4


#: Square roots of rationals whose square-free part has only primes up to this are exact in Q(zeta_N).
_SQRT_PRIMES = 23


def _square_free_primes(q: Fraction) -> list:
    """The primes dividing the square-free part of ``|q|``'s numerator times denominator."""
    value = abs(q.numerator) * q.denominator
    return [p for p, e in _factor(value) if e % 2] if 0 < value < 10**12 else []


# --------------------------------------------------------------------------
# Generators


@dataclass
class Gen:
    key: tuple
    kind: str
    real: bool = False
    integer: bool = False
    sign: str | None = None  # context-free: from a declaration
    bound: frozenset = frozenset()  # the bound-index depths it depends on
    data: Any = None
    special: str | None = None
    nonzero: bool = False
    den: dict | None = None  # exp(m / den): the denominator of its argument


ONE_MONO: tuple = ()


@dataclass
class Frac:
    num: dict
    den: dict = field(default_factory=dict)  # {} stands for 1

    def key(self) -> tuple:
        return (tuple(sorted(self.num.items())), tuple(sorted(self.den.items())))


#: The signs of a term that the rules of signs for a sum can use.
_KNOWN_TERM_SIGNS = ("pos", "neg", "nonneg", "nonpos")

_SIGN_OF_NEGATION = {
    "pos": "neg",
    "neg": "pos",
    "nonneg": "nonpos",
    "nonpos": "nonneg",
    "nonzero": "nonzero",
    "zero": "zero",
}


class Translator:
    """Translate SymPy expressions into normal forms (one translator per decision: generators are shared).

    ``facts`` are hypotheses ``(relational, poly, kind)`` (kind ``"pos"``,
    ``"nonneg"`` or ``"nonzero"``), built with :meth:`fact`.
    """

    def __init__(self, field_: Field, matrices=None):
        self.field = field_
        self.matrices = matrices
        self.gens: list[Gen] = []
        self._ids: dict = {}
        self.facts: list = []
        self.conditions: list = []  # (written sympy expression, poly): written != 0
        self.depth = 0  # bound indices open
        self.opaque = 0  # inside a definition or a sum: conditions cannot be stated
        self.one = {ONE_MONO: field_.one}
        self.matrix_atoms: dict = {}
        self.pi: int = self.gen(("pi",), kind="pi", real=True, sign="pos", nonzero=True)
        #: symbol -> (D, r): in this case the integer symbol is D q + r, q an integer (see :class:`NeedResidue`)
        self.residues: dict = {}

    # -- generators and constructors ---------------------------------------
    def gen(self, key: tuple, **info) -> int:
        found = self._ids.get(key)
        if found is None:
            found = len(self.gens)
            self.gens.append(Gen(key, **info))
            self._ids[key] = found
        return found

    def const(self, value) -> Frac:
        c = self.field.rational(value)
        return Frac({ONE_MONO: c} if any(c) else {})

    def coefficient(self, c: tuple) -> Frac:
        return Frac({ONE_MONO: c} if any(c) else {})

    def var(self, gen: int, power=1) -> Frac:
        return Frac({((gen, exponent(power)),): self.field.one})

    def poly(self, p: dict) -> Frac:
        return Frac(p)

    # -- polynomial arithmetic with the special generators normalised ------
    def pmul(self, p: dict, q: dict) -> dict:
        if len(p) > len(q):
            p, q = q, p
        out: dict = {}
        for mono, c in p.items():
            out = padd(self.field, out, pmul_term(self.field, q, mono, c))
        return self.normalise(out)

    def normalise(self, p: dict) -> dict:
        """Apply the relations of the special generators (roots of unity, signs, exp(n log f) = f**n), and
        write the exponentials of a monomial with a fractional exponent as one canonical product."""
        if not any(self.gens[g].special for mono in p for g, _ in mono):
            return p
        out: dict = {}
        for mono, c in p.items():
            if not self._building and any(self.gens[g].special == "fraction" for g, _ in mono):
                merged = self._merge_exponentials(mono, c)
                if merged is not None:
                    out = padd(self.field, out, merged)
                    continue
            rest, factor, changed = [], {ONE_MONO: c}, False
            for g, e in mono:
                gen = self.gens[g]
                turn = Fraction(e) * self.field.order / 2
                if gen.special == "root of unity" and turn.denominator == 1:
                    factor = pscale(self.field, factor, self.field.zeta(int(turn)))  # exp(i pi e) = zeta**(eN/2)
                    changed = True
                elif gen.special == "sign" and isinstance(e, int) and e not in (0, 1):
                    changed = True
                    if e % 2:
                        rest.append((g, 1))
                elif gen.special == "exp log" and isinstance(e, int) and (e >= 0 or len(gen.data) == 1):
                    base = gen.data
                    power = base if e >= 0 else self._monomial_inverse(base)
                    for _ in range(abs(e)):
                        factor = (
                            self.pmul(factor, power) if len(factor) * len(power) > 1 else pmul1(self, factor, power)
                        )
                    changed = True
                else:
                    rest.append((g, e))
            if not changed:
                out = padd(self.field, out, {mono: c})
                continue
            for mono2, c2 in factor.items():
                out = padd(self.field, out, self.normalise({monomial_mul(mono2, tuple(rest)): c2}))
        return out

    def _merge_exponentials(self, mono: tuple, c: tuple) -> dict | None:
        """``c * mono`` with all its exponentials merged into ``exp(their total exponent)``, or None when that
        is what it already is."""
        total, others = Frac({}), []
        for g, e in mono:
            gen = self.gens[g]
            if gen.key[0] == "exp":
                _, k, m, _ = gen.key
                term = Frac({m: self.field.mul(self.field.zeta(k), self.field.rational(e))}, dict(gen.den or {}))
                total = self.add(total, self._clean(term))
            else:
                others.append((g, e))
        merged = self.exp(total)
        if len(merged.num) == 1 and not merged.den:
            ((new, factor),) = merged.num.items()
            exponentials = tuple((g, e) for g, e in mono if self.gens[g].key[0] == "exp")
            if new == exponentials and factor == self.field.one:
                return None
        return pmul1(self, merged.num, {tuple(others): c})

    def _monomial_inverse(self, p: dict) -> dict:
        ((mono, c),) = p.items()
        return {tuple((g, exponent(-e)) for g, e in mono): self.field.inverse(c)}

    # -- fractions ------------------------------------------------------------
    def add(self, a: Frac, b: Frac) -> Frac:
        if a.den == b.den:
            return self._clean(Frac(padd(self.field, a.num, b.num), a.den))
        da, db = a.den or self.one, b.den or self.one
        return self._clean(Frac(padd(self.field, self.pmul(a.num, db), self.pmul(b.num, da)), self.pmul(da, db)))

    def neg(self, a: Frac) -> Frac:
        return Frac(pneg(self.field, a.num), a.den)

    def sub(self, a: Frac, b: Frac) -> Frac:
        return self.add(a, self.neg(b))

    def mul(self, a: Frac, b: Frac) -> Frac:
        if not a.num or not b.num:
            return Frac({})
        den = self.pmul(a.den, b.den) if a.den and b.den else (a.den or b.den)
        return self._clean(Frac(self.pmul(a.num, b.num), den))

    def scale(self, a: Frac, c: tuple) -> Frac:
        return self._clean(Frac(pscale(self.field, a.num, c), a.den))

    def _clean(self, a: Frac) -> Frac:
        if not a.num:
            return Frac({})
        if not a.den or a.den == self.one:
            return Frac(a.num)
        if len(a.den) == 1:  # every denominator was shown nonzero or made a condition (see inverse)
            return Frac(self.pmul(a.num, self._monomial_inverse(a.den)))
        num, den = self._cancel(a.num, a.den)
        if len(den) == 1:
            return Frac(self.pmul(num, self._monomial_inverse(den)))
        a = Frac(num, den)
        first = min(a.den)
        inverse = self.field.inverse(a.den[first])
        if inverse != self.field.one:
            return Frac(pscale(self.field, a.num, inverse), pscale(self.field, a.den, inverse))
        if a.num == a.den:
            return Frac(dict(self.one))
        return a

    def _cancel(self, num: dict, den: dict) -> tuple[dict, dict]:
        """``num/den`` in lowest terms: SymPy's polynomial ``gcd`` and ``exquo``, checked by multiplying back.

        (Sound once ``den != 0`` is shown or a condition: see :meth:`inverse`.)
        """
        if any(self.field.as_rational(c) is None for part in (num, den) for c in part.values()):
            return num, den
        if any(not isinstance(e, int) for part in (num, den) for mono in part for _, e in mono):
            return num, den
        gens = sorted({g for part in (num, den) for mono in part for g, _ in mono})
        if not gens:
            return num, den
        low = {g: min(0, *(dict(mono).get(g, 0) for part in (num, den) for mono in part)) for g in gens}
        shift = tuple((g, -e) for g, e in sorted(low.items()) if e)
        if shift:
            num, den = (pmul_term(self.field, part, shift, self.field.one) for part in (num, den))
        names = sympy.symbols(f"c0:{len(gens)}")
        place = dict(zip(gens, range(len(gens)), strict=True))

        def to_poly(part):
            terms = {}
            for mono, c in part.items():
                powers = [0] * len(gens)
                for g, e in mono:
                    powers[place[g]] = e
                q = self.field.exact(c)
                terms[tuple(powers)] = sympy.Rational(q.numerator, q.denominator)
            return sympy.Poly.from_dict(terms, *names, domain=sympy.QQ)

        def back(poly):
            out = {}
            for powers, coeff in poly.terms():
                mono = tuple((g, int(e)) for g, e in zip(gens, powers, strict=True) if e)
                out[mono] = self.field.rational(Fraction(int(coeff.numerator), int(coeff.denominator)))
            return out

        p, q = to_poly(num), to_poly(den)
        g = p.gcd(q)
        if g.is_ground:
            return num, den
        common = back(g)
        top, bottom = back(p.exquo(g)), back(q.exquo(g))
        if pmul1(self, top, common) != num or pmul1(self, bottom, common) != den:
            raise Refused("internal: a greatest common divisor did not multiply back")
        return top, bottom

    def inverse(self, a: Frac, written) -> Frac:
        """``1/a``; records ``written != 0`` as a condition unless it is shown here."""
        if not a.num:
            raise Refused(f"division by zero: {_short(written)} is identically 0")
        self.require_nonzero(a.num, written)
        num = a.den or dict(self.one)
        return self._clean(Frac(dict(num), a.num))

    def power(self, a: Frac, n: int, written) -> Frac:
        """``a**n`` for an integer n."""
        if n < 0:
            return self.power(self.inverse(a, written), -n, written)
        if n == 0:
            return Frac(dict(self.one))
        if len(a.num) > 1 and n > MAX_POWER:
            raise Refused(f"a power {n} of a sum is too large to multiply out")
        for c in [*a.num.values(), *a.den.values()]:
            q = self.field.as_rational(c)
            if (
                q is not None
                and q not in (1, -1)
                and n * (abs(q.numerator).bit_length() + q.denominator.bit_length()) > MAX_BITS
            ):
                raise Refused(f"the exact power {n} has too many digits")
        result, base = Frac(dict(self.one)), a
        while n:
            if n & 1:
                result = self.mul(result, base)
            n >>= 1
            if n:
                base = self.mul(base, base)
        return result

    def _even_power_root(self, b: Frac, e: Frac) -> Frac | None:
        """``(c m**2k)**r = c**r |m|**(2kr)`` for a real monomial ``m``, ``c > 0`` rational with ``c**r`` rational,
        a rational ``r`` and ``2kr`` an integer (so ``sqrt(x**2) = |x|``); None when that does not apply."""
        if b.den or len(b.num) != 1 or e.den or (e.num and list(e.num) != [ONE_MONO]):
            return None
        r = self.field.as_rational(e.num[ONE_MONO]) if e.num else Fraction(0)
        ((mono, c),) = b.num.items()
        q = self.field.as_rational(c)
        if r is None or q is None or q <= 0 or not mono:
            return None
        top, bottom = _rational_root(q.numerator, r), _rational_root(q.denominator, r)
        if top is None or bottom is None:
            return None
        result = self.const(Fraction(top, bottom))
        for g, k in mono:
            if not (isinstance(k, int) and k % 2 == 0 and self.gens[g].real and (k * r).denominator == 1):
                return None
            modulus = self.var(g) if self.gen_sign(g) == "pos" else _abs_of(self, self.var(g))
            result = self.mul(result, self.power(modulus, int(k * r), None))
        return result

    def raise_power(self, b: Frac, e: Frac, written) -> Frac:
        """``b**e`` (principal value) for an exponent that is not a numeric integer.

        ``b > 0``: ``exp(e log b)``.  ``b = c exp(m)`` with ``c`` rational or a root
        of unity and ``e`` integer-valued: ``exp(e (log c + m))`` (exact: ``e`` is
        an integer).  Otherwise an opaque power, with ``b != 0`` as a condition
        unless ``e`` is shown a nonnegative integer.  ``written`` is the base as
        written (None: no condition can be stated).
        """
        if self.frac_sign(b) == "pos":
            return self.exp(self.mul(e, self.log(b, written)))
        if not b.num and self.frac_sign(e) == "pos" and self.real_poly(e.num) and not e.den:
            return Frac({})  # 0**e = 0 for e > 0
        even = self._even_power_root(b, e)
        if even is not None:
            return even
        integral = not e.den and self.integer_valued(e.num)
        if integral and not b.den and len(b.num) == 1:
            ((mono, c),) = b.num.items()
            if all(self.gens[g].key[0] == "exp" for g, _ in mono):
                logs = Frac({})
                for g, power in mono:  # log(exp(zeta**k m / D)**r) = r zeta**k m / D
                    _, k, m, _ = self.gens[g].key
                    term = Frac(
                        {m: self.field.mul(self.field.zeta(k), self.field.rational(power))},
                        dict(self.gens[g].den or {}),
                    )
                    logs = self.add(logs, self._clean(term))
                c_log = _log_root(self, c)
                if c_log is not None:
                    return self.exp(self.mul(e, self.add(logs, c_log)))
        if written is not None:
            # the principal power: b**e = exp(e log b) for b != 0 (log the principal logarithm)
            return self.exp(self.mul(e, self.log(b, written)))
        if (not integral or self.poly_sign(e.num) not in ("pos", "nonneg", "zero")) and not self.nonzero_poly(b.num):
            raise Refused("a power whose base is not shown nonzero")
        g = self.gen(("power", b.key(), e.key()), kind="power", bound=self._bound_of(b) | self._bound_of(e))
        return self.var(g)

    # -- signs ------------------------------------------------------------------
    def fact(self, relational) -> list:
        """Hypotheses ``(relational, poly, kind)`` from a relational (``Lt``, ``Le``, ``Gt``, ``Ge``, ``Ne``)."""
        kinds = {
            sympy.StrictLessThan: "pos",
            sympy.LessThan: "nonneg",
            sympy.StrictGreaterThan: "pos",
            sympy.GreaterThan: "nonneg",
            sympy.Unequality: "nonzero",
        }
        kind = kinds.get(type(relational))
        if kind is None:
            raise Refused(f"a hypothesis must be <, <=, >, >= or !=; got {relational}")
        lhs, rhs = relational.args
        if isinstance(relational, (sympy.StrictLessThan, sympy.LessThan)):
            lhs, rhs = rhs, lhs  # rhs > lhs becomes lhs - rhs > 0 below, with the sides swapped
        value = self.sub(self.scalar(lhs, {}), self.scalar(rhs, {}))
        if value.den:
            raise Refused(f"a hypothesis with a denominator is not read: {relational}")
        facts = [(relational, value.num, kind)]
        if kind == "pos" and self.integer_valued(value.num):
            facts.append((relational, padd(self.field, value.num, {ONE_MONO: self.field.rational(-1)}), "nonneg"))
        return facts

    def integer_valued(self, p: dict) -> bool:
        for mono, c in p.items():
            q = self.field.as_rational(c)
            if q is None or q.denominator != 1:
                return False
            if not all(self.gens[g].integer and isinstance(e, int) and e > 0 for g, e in mono):
                return False
        return True

    def real_poly(self, p: dict) -> bool:
        """Real at every point: each term real, or the polynomial equal to its complex conjugate."""
        if all(self.field.is_real(c) and all(self.gen_real(g, e) for g, e in mono) for mono, c in p.items()):
            return True
        conjugate = self._conjugate(p)
        return conjugate is not None and conjugate == p

    def _conjugate(self, p: dict) -> dict | None:
        """The complex conjugate, when every generator is real or ``exp(i M)`` with ``M`` real (conjugate
        ``exp(-i M)``); else None."""
        i_index = next(k for k, x in enumerate(self.field.i) if x)
        out: dict = {}
        for mono, c in p.items():
            new = []
            for g, e in mono:
                gen = self.gens[g]
                if self.gen_real(g, e):
                    new.append((g, e))
                elif (
                    gen.key[0] == "exp"
                    and gen.key[1] == i_index
                    and self.field.i[i_index] == 1
                    and (not gen.den or self.real_poly(gen.den))
                    and all(self.gen_real(h, f) for h, f in gen.key[2])
                ):
                    new.append((g, exponent(-e)))
                else:
                    return None
            out = padd(self.field, out, {tuple(sorted(new)): self.field.conjugate(c)})
        return out

    def gen_real(self, g: int, e) -> bool:
        gen = self.gens[g]
        return gen.real and (isinstance(e, int) or gen.kind == "exp")

    def gen_sign(self, g: int, depth: int = 0) -> str | None:
        gen = self.gens[g]
        sign = gen.sign
        if gen.kind == "log" and sign is None:  # log f with f > 0: its sign is that of f - 1
            sign = self.poly_sign(padd(self.field, gen.data, {ONE_MONO: self.field.rational(-1)}), depth + 1)
            sign = None if sign == "zero" else sign
        if gen.kind == "abs" and self.nonzero_poly(gen.data, depth + 1):
            sign = "pos"
        if sign in ("pos", "neg") or depth > 1 or not self.facts:
            return sign
        key = (g, depth, self.facts_version, len(self.facts))
        memo = self.__dict__.setdefault("_gen_signs", {})
        if key not in memo:
            memo[key] = _stronger(sign, self._sign_from_facts({((g, 1),): self.field.one}, depth))
        return memo[key]

    def _term_sign(self, mono: tuple, c: tuple, depth: int) -> str | None:
        q = self.field.as_rational(c)
        if q is None:
            return (
                "nonzero"
                if all(self.gens[g].nonzero or self.gen_sign(g, depth) in ("pos", "neg", "nonzero") for g, _ in mono)
                else None
            )
        key = (mono, depth, self.facts_version, len(self.facts))
        memo = self.__dict__.setdefault("_monomial_signs", {})
        if key not in memo:
            memo[key] = self._monomial_sign(mono, depth)
        shape = memo[key]
        if shape is None:
            return None
        flips, weak = shape
        negative = (q < 0) != flips
        return ("nonpos" if weak else "neg") if negative else ("nonneg" if weak else "pos")

    def _monomial_sign(self, mono: tuple, depth: int) -> tuple[bool, bool] | None:
        """Whether the monomial's factors flip the sign of its coefficient, and whether the product may be 0
        (``(flips, weak)``); None when a factor's sign is not known."""
        flips, weak = False, False
        for g, e in mono:
            gen = self.gens[g]
            sign = self.gen_sign(g, depth)
            if isinstance(e, int) and e % 2 == 0 and self.gen_real(g, e):
                weak = weak or (sign not in ("pos", "neg", "nonzero") and not gen.nonzero)
                continue
            if sign == "pos":
                continue
            if sign == "neg" and isinstance(e, int):
                flips = not flips
            elif sign == "nonneg" and (not isinstance(e, int) or e > 0):
                weak = True
            elif sign == "nonpos" and isinstance(e, int) and e > 0:
                flips, weak = not flips, True
            else:
                return None
        return flips, weak

    #: Bumped whenever the hypotheses change: the signs remembered are for one set of hypotheses.
    facts_version = 0

    def poly_sign(self, p: dict, depth: int = 0) -> str | None:
        """``"pos"``, ``"nonneg"``, ``"neg"``, ``"nonpos"``, ``"nonzero"``, ``"zero"`` or None (not shown)."""
        if not p:
            return "zero"
        found = self._signs_of_terms(p, depth)
        if found in ("pos", "neg") or depth > 1 or not self.facts or not self.real_poly(p):
            return found  # the hypotheses are about real quantities: none decides the sign of a complex one
        # the search through the hypotheses is the costly part: remembered for these hypotheses
        key = (tuple(sorted(p.items())), depth, self.facts_version, len(self.facts))
        memo = self.__dict__.setdefault("_signs", {})
        if key not in memo:
            memo[key] = _stronger(found, self._sign_from_facts(p, depth))
        return memo[key]

    def _signs_of_terms(self, p: dict, depth: int) -> str | None:
        """The sign of ``p`` from the signs of its terms alone (the rules of signs for a sum)."""
        signs = [self._term_sign(mono, c, depth) for mono, c in p.items()]
        if all(s in ("pos", "nonneg") for s in signs):
            return "pos" if "pos" in signs else "nonneg"
        if all(s in ("neg", "nonpos") for s in signs):
            return "neg" if "neg" in signs else "nonpos"
        if len(signs) == 1 and signs[0] == "nonzero":
            return "nonzero"
        return None

    def _sign_from_facts(self, p: dict, depth: int) -> str | None:
        """A sign of ``p`` from one hypothesis ``f``: ``p - lam f`` (or ``p + lam f``) of known sign, ``lam > 0``
        a rational or a monomial of known positive (for ``f != 0``: nonzero) or nonnegative sign."""
        best = None
        # Below the top only rational multiples of a fact are tried, and the rest's sign is read term by term:
        # a term of p whose sign is not known and whose monomial the fact lacks stays in every rest unchanged,
        # so that fact can decide nothing (skipping it changes no answer).
        unknown = (
            [mono for mono, c in p.items() if self._term_sign(mono, c, depth + 1) not in _KNOWN_TERM_SIGNS]
            if depth
            else []
        )
        for _, f, kind in self.facts:
            if any(mono not in f for mono in unknown):
                continue
            multipliers = self._monomial_multipliers(p, f, kind) if depth == 0 else []
            for lam in [*_ratios(self.field, p, f), *multipliers]:
                for direction in (1, -1):
                    if isinstance(lam, Fraction):
                        scaled = pscale(self.field, f, self.field.rational(-direction * lam))
                    else:
                        scaled = pneg(self.field, self.pmul(f, lam)) if direction == 1 else self.pmul(f, lam)
                    rest = padd(self.field, p, scaled)
                    sign = self.poly_sign(rest, depth + 1)
                    if kind == "nonzero":
                        if sign == "zero":
                            return "nonzero"
                        continue
                    if direction == 1 and sign in ("zero", "pos", "nonneg"):
                        best = _stronger(best, "pos" if kind == "pos" or sign == "pos" else "nonneg")
                    if direction == -1 and sign in ("zero", "neg", "nonpos"):
                        best = _stronger(best, "neg" if kind == "pos" or sign == "neg" else "nonpos")
                    if best in ("pos", "neg"):
                        return best
        return best

    def _monomial_multipliers(self, p: dict, f: dict, kind: str) -> list:
        """``c m_p / m_f`` for terms ``c_p m_p`` of ``p`` and ``c_f m_f`` of ``f`` with ``m_f`` dividing ``m_p``,
        ``c = |c_p / c_f|`` rational, and the quotient a monomial of a sign that keeps the fact's kind (positive
        for ``>``; nonnegative for ``>=``; nonzero for ``!=``): ``|S| (M - D) >= 0`` from ``M - D >= 0``."""
        found: list = []
        for mono_p, c_p in p.items():
            for mono_f, c_f in f.items():
                have = dict(mono_p)
                for g, e in mono_f:
                    if not isinstance(e, int) or not isinstance(have.get(g), int) or have[g] < e:
                        break
                    have[g] -= e
                else:
                    quotient: tuple = tuple(sorted((g, e) for g, e in have.items() if e))
                    a, b = self.field.as_rational(c_p), self.field.as_rational(c_f)
                    if not quotient or a is None or not b or not a:
                        continue
                    sign = self._term_sign(quotient, self.field.one, 2)
                    if sign == "pos" or (sign == "nonneg" and kind == "nonneg"):
                        candidate = {quotient: self.field.rational(abs(a / b))}
                        if candidate not in found:
                            found.append(candidate)
        return found[:3]

    def nonzero_poly(self, p: dict, depth: int = 0) -> bool:
        if not p:
            return False
        if self._two_exponentials(p):
            return True
        if len(p) == 1:
            ((mono, c),) = p.items()
            if any(c) and all(
                self.gens[g].nonzero or self.gen_sign(g, depth) in ("pos", "neg", "nonzero") for g, _ in mono
            ):
                return True
        return self.poly_sign(p, depth) in ("pos", "neg", "nonzero")

    def _two_exponentials(self, p: dict) -> bool:
        """``c1 m G**a + c2 m G**b != 0`` for ``a != b``, ``m`` nonzero, ``G = exp(zeta**k M)`` with ``M`` a
        nonzero product of integers: ``G**(a-b) = exp((a-b) zeta**k M)`` is transcendental
        (Hermite-Lindemann: ``exp`` of a nonzero algebraic number), so it is not the algebraic ``-c2/c1``."""
        if len(p) != 2:
            return False
        (first, _), (second, _) = p.items()
        one, other = dict(first), dict(second)
        differing = [g for g in set(one) | set(other) if one.get(g, 0) != other.get(g, 0)]
        if len(differing) != 1:
            return False
        gen = self.gens[differing[0]]
        if gen.key[0] != "exp" or gen.den or not gen.key[2]:
            return False
        for g, e in gen.key[2]:
            inner = self.gens[g]
            if inner.kind not in ("symbol", "bound") or not inner.integer or not isinstance(e, int):
                return False
            if not (inner.nonzero or self.gen_sign(g) in ("pos", "neg", "nonzero")):
                return False
        return all(
            self.gens[g].nonzero or self.gen_sign(g) in ("pos", "neg", "nonzero")
            for g in one
            if g not in differing and one[g] == other.get(g)
        )

    def written_sign(self, expr, env: dict | None = None) -> str | None:
        """The sign of ``expr`` from its written structure first (a square of a real nonzero number is
        positive, signs multiply, sums of positives are positive), then from its normal form."""
        env = env or {}
        if isinstance(expr, sympy.Add):
            signs = [self.written_sign(arg, env) for arg in expr.args]
            if all(x in ("pos", "nonneg", "zero") for x in signs):
                return "pos" if "pos" in signs else "zero" if all(x == "zero" for x in signs) else "nonneg"
            if all(x in ("neg", "nonpos", "zero") for x in signs):
                return "neg" if "neg" in signs else "zero" if all(x == "zero" for x in signs) else "nonpos"
        elif isinstance(expr, sympy.Mul):
            signs = [self.written_sign(arg, env) for arg in expr.args]
            if "zero" in signs:
                return "zero"
            if all(x in ("pos", "neg") for x in signs):
                return "neg" if sum(x == "neg" for x in signs) % 2 else "pos"
            if all(x in ("pos", "neg", "nonneg", "nonpos") for x in signs):
                return "nonpos" if sum(x in ("neg", "nonpos") for x in signs) % 2 else "nonneg"
        elif isinstance(expr, sympy.Pow) and isinstance(expr.exp, sympy.Integer) and expr.exp > 0 and expr.exp % 2 == 0:
            base = self.scalar(expr.base, env)
            if self.real_poly(base.num) and (not base.den or self.real_poly(base.den)):
                return "pos" if self.nonzero_poly(base.num) else "nonneg"
        value = self.scalar(expr, env)
        if not self.real_poly(value.num) or (value.den and not self.real_poly(value.den)):
            return "nonzero" if value.num and self.nonzero_poly(value.num) else None
        return self.frac_sign(value)

    def frac_sign(self, a: Frac) -> str | None:
        top = self.poly_sign(a.num)
        if not a.den:
            return top
        bottom = self.poly_sign(a.den)
        if top == "zero":
            return "zero"
        if bottom == "pos":
            return top
        if bottom == "neg":
            return _SIGN_OF_NEGATION.get(top) if top else None
        return "nonzero" if top in ("pos", "neg", "nonzero") and bottom == "nonzero" else None

    def require_nonzero(self, p: dict, written) -> None:
        """``p != 0`` is needed: shown here, or recorded as the condition ``written != 0``."""
        if not p:
            raise Refused(f"division by zero: {_short(written)} is identically 0")
        if self.nonzero_poly(p):
            return
        if self.opaque or self.depth:
            raise Refused(
                f"cannot show {_short(written)} != 0 (inside a sum or a definition, no condition can be stated)"
            )
        if all(existing is not p and existing != p for _, existing in self.conditions):
            self.conditions.append((written, p))

    # -- scalar expressions -------------------------------------------------------
    def scalar(self, expr, env: dict) -> Frac:
        if isinstance(expr, (sympy.MatrixBase, MatrixExpr)):
            value = self.matrix(expr, env)
            if value.one_by_one() is None:
                raise Refused(f"a matrix where a scalar is expected: {_short(expr)}")
            return value.one_by_one()
        if not isinstance(expr, sympy.Basic):
            if isinstance(expr, (int, Fraction)) and not isinstance(expr, bool):
                return self.const(expr)
            raise Refused(f"not a SymPy expression: {type(expr).__name__}")
        if isinstance(expr, sympy.Symbol):
            if expr in env:
                return env[expr]
            return self.symbol(expr)
        handler = _SCALAR.get(type(expr))
        if handler is None:
            for cls, candidate in _SCALAR_BASES:
                if isinstance(expr, cls):
                    handler = candidate
                    break
        if handler is None and isinstance(expr, sympy.Function) and hasattr(type(expr), "kernel_domain"):
            handler = _apply
        if handler is None:
            raise Refused(f"{type(expr).__name__} is not in the kernel's language: {_short(expr)}")
        return handler(self, expr, env)

    def symbol(self, s) -> Frac:
        domain = declared_domain(s)
        if s in self.residues:  # every integer is D q + r for one r in 0 .. D - 1 and an integer q
            modulus, residue = self.residues[s]
            sign = {"pos": "nonneg", "nonneg": "nonneg", "neg": "neg"}.get(domain.sign or "")
            q = self.gen(("residue", s, modulus), kind="residue", real=True, integer=True, sign=sign)
            return self.add(self.scale(self.var(q), self.field.rational(modulus)), self.const(residue))
        if domain.parity:  # d even is 2h, n odd is 2h + 1, with h an integer
            if domain.parity == "even":
                sign = domain.sign
            else:
                sign = {"pos": "nonneg", "nonneg": "nonneg", "neg": "neg", "nonpos": "neg"}.get(domain.sign or "")
            known = ("half", s) in self._ids
            half = self.gen(
                ("half", s),
                kind="symbol",
                real=True,
                integer=True,
                sign=sign,
                nonzero=sign in ("pos", "neg", "nonzero"),
            )
            if not known and sign in ("pos", "neg"):
                unit = {((half, 1),): self.field.rational(1 if sign == "pos" else -1)}
                self.facts.append((None, padd(self.field, unit, {ONE_MONO: self.field.rational(-1)}), "nonneg"))
                self.facts_version += 1
            value = self.scale(self.var(half), self.field.rational(2))
            return value if domain.parity == "even" else self.add(value, self.const(1))
        known = ("symbol", s) in self._ids
        g = self.gen(
            ("symbol", s),
            kind="symbol",
            real=domain.kind != "complex",
            integer=domain.kind == "integer",
            sign=domain.sign,
            nonzero=domain.sign in ("pos", "neg", "nonzero"),
        )
        if not known and domain.kind == "integer" and domain.sign in ("pos", "neg"):
            # a positive integer is at least 1 (a negative one at most -1)
            one = self.field.rational(1)
            unit = {((g, 1),): one} if domain.sign == "pos" else {((g, 1),): self.field.rational(-1)}
            self.facts.append((None, padd(self.field, unit, {ONE_MONO: self.field.rational(-1)}), "nonneg"))
            self.facts_version += 1
        return self.var(g)

    def exp(self, a: Frac) -> Frac:
        """``exp(a)``: a product of powers of exponential generators (the exponent law).

        ``a = Q + R/D`` (``Q`` a polynomial, ``R`` reduced modulo ``D`` by division, so the split is unique):
        one generator ``exp(zeta**k m)`` per term ``c m`` of ``Q`` and basis direction ``k``, raised to the
        rational coordinate of ``c``; likewise ``exp(zeta**k m / D)`` for the terms of ``R``.
        """
        quotient, rest = self._split_exponent(a)
        self._building += 1
        try:
            result = Frac(dict(self.one))
            for part, den in ((quotient, {}), (rest.num if rest else {}, rest.den if rest else {})):
                for mono, c in part.items():
                    for k, r in enumerate(c):
                        if r:
                            g = self._exp_gen(mono, k, den)
                            result = self.mul(result, Frac(self.normalise({((g, exponent(r)),): self.field.one})))
        finally:
            self._building -= 1
        return result

    _building = 0

    def _exp_gen(self, mono: tuple, k: int, den: dict) -> int:
        i_index = next(j for j, x in enumerate(self.field.i) if x)
        plain_i = self.field.i[i_index] == 1 and sum(1 for x in self.field.i if x) == 1
        real = k == 0 and (not den or self.real_poly(den)) and all(self.gen_real(g, e) for g, e in mono)
        special, data = ("fraction" if den else None), None
        if not den and k == i_index and plain_i:
            if mono == ((self.pi, 1),):
                special = "root of unity"
            elif dict(mono).get(self.pi) == 1 and all(
                g == self.pi or (self.gens[g].integer and isinstance(e, int) and e > 0) for g, e in mono
            ):
                special = "sign"
        if (
            not den
            and k == 0
            and len(mono) == 1
            and mono[0][1] == 1
            and self.gens[mono[0][0]].kind in ("log", "principal log")
            and self.gens[mono[0][0]].data is not None
        ):
            special, data = "exp log", self.gens[mono[0][0]].data
        bound = frozenset().union(*(self.gens[h].bound for h, _ in mono)) | self._bound_of(Frac({}, den))
        return self.gen(
            ("exp", k, mono, tuple(sorted(den.items()))),
            kind="exp",
            real=real,
            sign="pos" if real else None,
            nonzero=True,
            special=special,
            data=data,
            bound=bound,
            den=den or None,
        )

    def _split_exponent(self, a: Frac) -> tuple[dict, Frac | None]:
        """``a = Q + R/D`` with ``R`` the remainder of ``a.num`` divided by ``D = a.den`` (SymPy's ``div``,
        lex order of the generators, checked by multiplying back); ``(a.num, None)`` without a denominator."""
        if not a.den:
            return a.num, None
        parts = (a.num, a.den)
        if any(not isinstance(e, int) or e < 0 for part in parts for mono in part for _, e in mono):
            return {}, a
        if any(self.field.as_rational(c) is None for c in a.den.values()):
            return {}, a
        gens = sorted({g for part in parts for mono in part for g, _ in mono})
        names = sympy.symbols(f"c0:{len(gens)}")
        place = {g: n for n, g in enumerate(gens)}

        def to_poly(terms):
            out = {}
            for mono, q in terms.items():
                powers = [0] * len(gens)
                for g, e in mono:
                    powers[place[g]] = e
                out[tuple(powers)] = sympy.Rational(q.numerator, q.denominator)
            return sympy.Poly.from_dict(out, *names, domain=sympy.QQ) if out else sympy.Poly(0, *names, domain=sympy.QQ)

        def back(poly, coordinate):
            out = {}
            for powers, coeff in poly.terms():
                if coeff:
                    mono = tuple((g, int(e)) for g, e in zip(gens, powers, strict=True) if e)
                    value = [Fraction(0)] * self.field.degree
                    value[coordinate] = Fraction(int(coeff.numerator), int(coeff.denominator))
                    out[mono] = tuple(value)
            return out

        divisor = to_poly({m: self.field.as_rational(c) for m, c in a.den.items()})
        quotient: dict = {}
        remainder: dict = {}
        for coordinate in range(self.field.degree):
            terms = {m: c[coordinate] for m, c in a.num.items() if c[coordinate]}
            if not terms:
                continue
            q, r = to_poly(terms).div(divisor)
            quotient = padd(self.field, quotient, back(q, coordinate))
            remainder = padd(self.field, remainder, back(r, coordinate))
        if padd(self.field, pmul1(self, quotient, a.den), remainder) != a.num:
            raise Refused("internal: a division did not multiply back")
        return quotient, (Frac(remainder, a.den) if remainder else None)

    def log(self, a: Frac, written) -> Frac:
        """The principal logarithm of ``a``."""
        if a.den:
            if self.poly_sign(a.num) == "pos" and self.poly_sign(a.den) == "pos":
                return self.sub(self.log(Frac(a.num), written), self.log(Frac(a.den), written))
            return self._principal_log(a, written)
        if self.poly_sign(a.num) == "pos":
            return self._log_positive(a.num)
        if self.poly_sign(a.num) == "neg":  # log(-r) = log r + i pi for r > 0
            return self.add(self.log(Frac(pneg(self.field, a.num)), written), Frac({((self.pi, 1),): self.field.i}))
        return self._principal_log(a, written)

    def _principal_log(self, a: Frac, written) -> Frac:
        self.require_nonzero(a.num, written)
        data = a.num if not a.den else None
        g = self.gen(("log", a.key()), kind="principal log", data=data, bound=self._bound_of(a))
        return self.var(g)

    def _log_rational(self, q: Fraction) -> Frac:
        total = Frac({})
        for value, sign in ((q.numerator, 1), (q.denominator, -1)):
            for prime, power in _factor(value):
                g = self.gen(
                    ("log", prime),
                    kind="log",
                    real=True,
                    data={ONE_MONO: self.field.rational(prime)},
                    sign="pos" if prime > 1 else None,
                    nonzero=prime > 1,
                )
                total = self.add(total, self.scale(self.var(g), self.field.rational(sign * power)))
        return total

    def _log_positive(self, p: dict) -> Frac:
        """``log p`` for ``p`` shown positive: split into logarithms of its factors where they are positive."""
        if len(p) == 1:
            ((mono, c),) = p.items()
            q = self.field.as_rational(c)
            pieces = [self._log_rational(q)] if q is not None and q > 0 else None
            for g, e in mono:
                gen = self.gens[g]
                if pieces is None:
                    break
                if gen.kind == "exp" and gen.real:  # log(exp(m)**r) = r m, m real
                    argument = self._clean(Frac({gen.key[2]: self.field.one}, dict(gen.den or {})))
                    pieces.append(self.scale(argument, self.field.rational(e)))
                elif self.gen_sign(g) == "pos" and isinstance(e, int):
                    log_g = self.gen(
                        ("log", ((((g, 1),), self.field.one),)),
                        kind="log",
                        real=True,
                        data={((g, 1),): self.field.one},
                        bound=gen.bound,
                    )
                    pieces.append(self.scale(self.var(log_g), self.field.rational(e)))
                else:
                    pieces = None
            if pieces is not None:
                total = Frac({})
                for piece in pieces:
                    total = self.add(total, piece)
                return total
        content = self._content(p) if len(p) > 1 else None  # a monomial is its own content: no progress
        if content is not None:  # p = m * q, m a monomial (shown positive), q without a monomial factor
            monomial, rest = content
            return self.add(self._log_positive(monomial), self._log_positive(rest))
        factors = self._factor_positive(p)
        if factors is not None:
            total = Frac({})
            for factor, power in factors:
                total = self.add(total, self.scale(self._log_positive(factor), self.field.rational(power)))
            return total
        g = self.gen(
            ("log", (tuple(sorted(p.items())), ())),
            kind="log",
            real=True,
            data=p,
            bound=frozenset().union(*(self.gens[h].bound for mono in p for h, _ in mono)),
        )
        return self.var(g)

    def _content(self, p: dict) -> tuple[dict, dict] | None:
        """``(m, q)`` with ``p = m q``, ``m`` the common monomial and positive rational content of the terms
        (shown positive), or None when there is none."""
        common = None
        for mono in p:
            powers = dict(mono)
            common = powers if common is None else {g: min(e, powers[g]) for g, e in common.items() if g in powers}
        common = {g: e for g, e in (common or {}).items() if e}
        coefficients = [self.field.as_rational(c) for c in p.values()]
        scale = Fraction(1)
        exact = [q for q in coefficients if q is not None]
        if len(exact) == len(coefficients):
            top = math.gcd(*(q.numerator for q in exact))
            bottom = math.lcm(*(q.denominator for q in exact))
            scale = Fraction(top, bottom)
        if not common and scale == 1:
            return None
        monomial = {tuple(sorted(common.items())): self.field.rational(scale)}
        if self.poly_sign(monomial) != "pos":
            return None
        rest = self.pmul(p, self._monomial_inverse(monomial))
        return monomial, rest

    def _factor_positive(self, p: dict) -> list | None:
        """``p = c * f_1**e_1 * ...`` (SymPy's ``factor_list``, checked by multiplying back), every
        factor shown positive; None when that is not so or there is nothing to split."""
        if any(self.field.as_rational(c) is None for c in p.values()):
            return None
        if any(not isinstance(e, int) or e < 0 for mono in p for _, e in mono):
            return None
        gens = sorted({g for mono in p for g, _ in mono})
        if not gens:
            return None
        names = sympy.symbols(f"g0:{len(gens)}")
        where = dict(zip(gens, names, strict=True))
        expr = sympy.Add(
            *[
                sympy.Rational(self.field.exact(c).numerator, self.field.exact(c).denominator)
                * sympy.Mul(*[where[g] ** e for g, e in mono])
                for mono, c in p.items()
            ]
        )
        content, factors = sympy.factor_list(expr, *names)
        if len(factors) == 1 and factors[0][1] == 1 and content == 1:
            return None
        back = {n: g for g, n in where.items()}
        pieces, product = [], self.const(Fraction(int(content.p), int(content.q)))
        if content <= 0:
            return None
        pieces.append((self.const(Fraction(int(content.p), int(content.q))).num, 1))
        for factor, power in factors:
            poly = sympy.Poly(factor, *names)
            mine = {}
            for monom, coeff in poly.terms():
                mono = tuple(sorted((back[n], int(k)) for n, k in zip(names, monom, strict=True) if k))
                mine[mono] = self.field.rational(Fraction(int(coeff.p), int(coeff.q)))
            if self.poly_sign(mine) != "pos":
                mine = pneg(self.field, mine)
                if self.poly_sign(mine) != "pos":
                    return None
            pieces.append((mine, int(power)))
            product = self.mul(product, self.power(Frac(mine), int(power), None))
        if product.num != p and Frac(pneg(self.field, product.num)).num != p:
            raise Refused("internal: a factorisation did not multiply back")  # never happens if SymPy is right
        if product.num != p:
            return None
        return pieces

    def _bound_of(self, a: Frac) -> frozenset:
        return frozenset().union(*(self.gens[g].bound for part in (a.num, a.den) for mono in part for g, _ in mono))

    def apply(self, cls, domain: str, args: tuple) -> int:
        """The generator ``cls(args)`` of an arbitrary function with values in ``domain``."""
        return self.gen(
            ("apply", cls, tuple(a.key() for a in args)),
            kind="apply",
            real=domain != "complex",
            sign="pos" if domain == "positive" else None,
            nonzero=domain == "positive",
            bound=frozenset().union(*(self._bound_of(a) for a in args)),
            data=(cls, domain, args),
        )

    # -- sums, definitions -----------------------------------------------------------
    @contextmanager
    def bound_index(self, low: Frac, high: Frac):
        self.depth += 1
        g = self.gen(("bound", self.depth), kind="bound", real=True, integer=True, bound=frozenset({self.depth}))
        j = self.var(g)
        added = [(None, self.sub(j, low).num, "nonneg"), (None, self.sub(high, j).num, "nonneg")]
        self.facts += added
        self.facts_version += 1
        try:
            yield g
        finally:
            self.facts = [f for f in self.facts if all(f is not a for a in added)]
            self.facts_version += 1
            self.depth -= 1

    def integer_frac(self, a: Frac, what) -> Frac:
        if a.den or not self.integer_valued(a.num):
            raise Refused(f"{what} is not shown to be an integer")
        return a

    def summation(self, expr, env: dict) -> Frac:
        return self._summation(expr, expr.function, expr.limits, env)

    def _summation(self, expr, function, limits: tuple, env: dict) -> Frac:
        """``Sum(function, *limits)``: the last limit is the outermost sum (SymPy folds nested sums into one)."""
        if len(limits) > 1:
            return self._sum_over(
                expr, limits[-1], env, lambda inner: self._summation(expr, function, limits[:-1], inner)
            )
        return self._sum_over(expr, limits[0], env, lambda inner: self.scalar(function, inner))

    def _sum_over(self, expr, limit: tuple, env: dict, summand) -> Frac:
        index, low, high = limit
        a = self.integer_frac(self.scalar(low, env), f"the lower limit {low}")
        b = self.integer_frac(self.scalar(high, env), f"the upper limit {high}")
        count = self.add(self.sub(b, a), self.const(1))
        if not count.num or list(count.num) == [ONE_MONO]:
            terms = int(self.field.exact(count.num[ONE_MONO])) if count.num else 0
            if terms < 0:
                raise Refused(f"a sum with upper limit below lower limit - 1 ({_short(expr)})")
            if terms > MAX_TERMS:
                raise Refused(f"a sum of {terms} terms is too long to write out")
            total = Frac({})
            for t in range(terms):
                total = self.add(total, summand({**env, index: self.add(a, self.const(t))}))
            return total
        if self.poly_sign(count.num) not in ("pos", "nonneg", "zero"):
            raise Refused(f"the number of terms {low} .. {high} is not shown to be >= 0")
        self.opaque += 1
        try:
            with self.bound_index(a, b) as g:
                depth = self.depth
                body = summand({**env, index: self.var(g)})
        finally:
            self.opaque -= 1
        return self._sum_atoms(body, depth, a, b, count)

    def _sum_atoms(self, body: Frac, depth: int, a: Frac, b: Frac, count: Frac) -> Frac:
        def mentions(g):
            return depth in self.gens[g].bound

        limits = (a.key(), b.key())
        if any(mentions(g) for mono in body.den for g, _ in mono):
            g = self.gen(
                ("sum", body.key(), limits),
                kind="sum",
                bound=self._bound_of(body) - {depth} | self._bound_of(a) | self._bound_of(b),
            )
            return self.var(g)
        total = Frac({})
        for mono, c in body.num.items():
            inside = tuple((g, e) for g, e in mono if mentions(g))
            outside = tuple((g, e) for g, e in mono if not mentions(g))
            power = inside[0][1] if len(inside) == 1 and self.gens[inside[0][0]].kind == "bound" else None
            if not inside:
                term = self.mul(Frac({outside: c}), count)
            elif isinstance(power, int) and 1 <= power <= MAX_FAULHABER:
                # sum_{j=a}^{b} j**k = S_k(b) - S_k(a - 1), S_k the Faulhaber polynomial (S_k(n) - S_k(n-1) = n**k)
                closed = self.sub(_faulhaber(self, power, b), _faulhaber(self, power, self.sub(a, self.const(1))))
                term = self.mul(Frac({outside: c}), closed)
            else:
                term = self.mul(Frac({outside: c}), self._sum_of_monomial(inside, depth, a, b))
            total = self.add(total, term)
        if body.den:
            total = self.mul(total, Frac(dict(self.one), body.den))
        return total

    def _sum_of_monomial(self, inside: tuple, depth: int, a: Frac, b: Frac) -> Frac:
        """``sum_{j=a}^{b} m(j)`` for a monomial ``m`` in the bound index.

        When ``m`` depends on ``j`` only through arbitrary functions at ``j + c`` (``c`` integer constants), the
        sum is written over a canonical range: the arguments shifted so the least ``c`` is 0, the range shifted
        the other way, then ``[0, N - 1]`` (``N`` the non-constant part of ``b + 1``) with the terms at the ends
        added or taken away one by one (``sum_a^b = sum_a^{c} + sum_{c+1}^b``: Karr's convention, which SymPy's
        sums follow, makes these exact for all integer limits).  So ``sum_j h_{j+1} S_{j+1}`` and
        ``sum_j h_j S_j`` meet, as summation by parts needs.  Otherwise one sum generator for ``m``.
        """
        shifted = self._shift_monomial(inside, depth)
        if shifted is not None:
            low_constant = a.num.get(ONE_MONO, self.field.zero) if not a.den else None
            high = self.add(b, self.const(1))
            high_constant = high.num.get(ONE_MONO, self.field.zero) if not high.den else None
            offset, canonical = shifted
            if (
                low_constant is not None
                and high_constant is not None
                and len(a.num) <= 1
                and self.field.as_rational(low_constant) is not None
                and self.field.as_rational(high_constant) is not None
                and any(m != ONE_MONO for m in high.num)
            ):
                start = self.field.exact(low_constant) + offset  # the shifted range is [start, stop - 1]
                stop = self.field.exact(high_constant) + offset
                size = Frac({m: c for m, c in high.num.items() if m != ONE_MONO})  # N
                if start.denominator == 1 == stop.denominator and abs(start) + abs(stop) <= MAX_TERMS:
                    total = self._canonical_sum(canonical, depth, size)
                    # sum_{start}^{N + stop - 1} = sum_0^{N - 1} - sum_0^{start - 1} + sum_N^{N + stop - 1}
                    for k in range(int(start)) if start > 0 else ():
                        total = self.sub(total, self._at(canonical, depth, self.const(k)))
                    for k in range(int(start), 0) if start < 0 else ():
                        total = self.add(total, self._at(canonical, depth, self.const(k)))
                    for k in range(int(stop)) if stop > 0 else ():
                        total = self.add(total, self._at(canonical, depth, self.add(size, self.const(k))))
                    for k in range(int(stop), 0) if stop < 0 else ():
                        total = self.sub(total, self._at(canonical, depth, self.add(size, self.const(k))))
                    return total
        real = all(self.gen_real(g, e) for g, e in inside)
        bound = frozenset().union(*(self.gens[g].bound for g, _ in inside)) - {depth}
        s = self.gen(
            ("sum", inside, (a.key(), b.key())),
            kind="sum",
            real=real,
            bound=bound | self._bound_of(a) | self._bound_of(b),
        )
        return self.var(s)

    def _shift_monomial(self, inside: tuple, depth: int) -> tuple | None:
        """``(c, m')``: ``m(j) = m'(j + c)`` with the least argument offset of ``m'`` equal to 0, when the index
        enters ``m`` only as arguments ``j + c`` of arbitrary functions; else None."""
        bound_gen = self._ids[("bound", depth)]
        offsets = []
        for g, _ in inside:
            gen = self.gens[g]
            if gen.kind != "apply" or gen.data is None:
                return None
            for argument in gen.data[2]:
                if depth not in self._bound_of(argument):
                    continue
                rest = self.sub(argument, self.var(bound_gen))
                if rest.den or (rest.num and list(rest.num) != [ONE_MONO]):
                    return None
                offset = self.field.as_rational(rest.num[ONE_MONO]) if rest.num else Fraction(0)
                if offset is None or offset.denominator != 1:
                    return None
                offsets.append(offset)
        if not offsets:
            return None
        least = min(offsets)
        moved = []
        for g, e in inside:
            cls, domain, args = self.gens[g].data
            moved.append(
                (
                    self.apply(
                        cls,
                        domain,
                        tuple(self.sub(x, self.const(least)) if depth in self._bound_of(x) else x for x in args),
                    ),
                    e,
                )
            )
        return least, tuple(sorted(moved))

    def _canonical_sum(self, monomial: tuple, depth: int, size: Frac) -> Frac:
        real = all(self.gen_real(g, e) for g, e in monomial)
        bound = frozenset().union(*(self.gens[g].bound for g, _ in monomial)) - {depth}
        s = self.gen(
            ("sum", monomial, (self.const(0).key(), self.sub(size, self.const(1)).key())),
            kind="sum",
            real=real,
            bound=bound | self._bound_of(size),
        )
        return self.var(s)

    def _at(self, monomial: tuple, depth: int, value: Frac) -> Frac:
        """The monomial (arbitrary functions of ``j + c``) at ``j = value``."""
        bound_gen = self._ids[("bound", depth)]
        total = Frac(dict(self.one))
        for g, e in monomial:
            cls, domain, args = self.gens[g].data
            moved = tuple(
                self.add(self.sub(x, self.var(bound_gen)), value) if depth in self._bound_of(x) else x for x in args
            )
            total = self.mul(total, self.power(self.var(self.apply(cls, domain, moved)), int(e), None))
        return total

    def largest(self, expr, env: dict) -> Frac:
        """``max_{a <= l <= b} f(l)``: an atom, real, nonnegative when ``f`` is; refused unless ``b >= a`` is
        shown (the largest of no values is undefined) and ``f`` is real.  What the kernel knows of it beyond
        that is the rule of :func:`.decide._termwise`: ``f(j) <= max`` for ``a <= j <= b``."""
        a = self.integer_frac(self.scalar(expr.low, env), f"the lower limit {expr.low}")
        b = self.integer_frac(self.scalar(expr.high, env), f"the upper limit {expr.high}")
        if self.poly_sign(self.sub(b, a).num) not in ("pos", "nonneg", "zero"):
            raise Refused(f"the largest of {_short(expr)}: the range is not shown to be nonempty")
        self.opaque += 1
        try:
            with self.bound_index(a, b) as g:
                depth = self.depth
                body = self.scalar(expr.body, {**env, expr.index: self.var(g)})
                if not self.real_poly(body.num) or (body.den and not self.real_poly(body.den)):
                    raise Refused(f"the largest of values not shown real: {_short(expr)}")
                sign = self.poly_sign(body.num, 2) if not body.den else None  # declared signs only: cheap
        finally:
            self.opaque -= 1
        g = self.gen(
            ("largest", body.key(), (a.key(), b.key())),
            kind="largest",
            real=True,
            sign="pos" if sign == "pos" else "nonneg" if sign in ("nonneg", "zero") else None,
            bound=self._bound_of(body) - {depth} | self._bound_of(a) | self._bound_of(b),
        )
        return self.var(g)

    def named(self, expr, env: dict):
        definition = expr.definition
        inner = dict(env)
        for param, arg in zip(definition.params, expr.args, strict=True):
            inner[param] = self.matrix(arg, env) if isinstance(param, sympy.MatrixSymbol) else self.scalar(arg, env)
        self.opaque += 1
        try:
            if isinstance(definition.body, (sympy.MatrixBase, MatrixExpr)):
                return self.matrix(definition.body, inner)
            return self.scalar(definition.body, inner)
        finally:
            self.opaque -= 1

    # -- branches -------------------------------------------------------------------
    def truth(self, condition, env: dict) -> bool | None:
        """Whether a relational holds (shown here), fails (shown here), or None."""
        if condition is sympy.true or condition == True:  # noqa: E712 - SymPy's true
            return True
        if condition is sympy.false or condition == False:  # noqa: E712
            return False
        comparisons = {
            sympy.StrictLessThan: ("pos", 1),
            sympy.LessThan: ("nonneg", 1),
            sympy.StrictGreaterThan: ("pos", -1),
            sympy.GreaterThan: ("nonneg", -1),
        }
        if type(condition) in comparisons:
            wanted, direction = comparisons[type(condition)]
            lhs, rhs = condition.args
            gap = self.sub(self.scalar(rhs, env), self.scalar(lhs, env))
            if direction == -1:
                gap = self.neg(gap)
            if not self.real_poly(gap.num) or (gap.den and not self.real_poly(gap.den)):
                raise Refused(f"a comparison of expressions not shown real: {condition}")
            sign = self.frac_sign(gap)
            if wanted == "pos":
                return True if sign == "pos" else False if sign in ("zero", "neg", "nonpos") else None
            return True if sign in ("pos", "nonneg", "zero") else False if sign == "neg" else None
        if isinstance(condition, (sympy.Equality, sympy.Unequality)):
            gap = self.sub(self.scalar(condition.args[0], env), self.scalar(condition.args[1], env))
            is_equal = True if not gap.num else False if self.nonzero_poly(gap.num) else None
            if is_equal is None:
                return None
            return is_equal if isinstance(condition, sympy.Equality) else not is_equal
        raise Refused(f"a condition the kernel does not read: {condition}")

    def piecewise(self, expr, env: dict) -> Frac:
        for value, condition in expr.args:
            holds = self.truth(condition, env)
            if holds is None:
                if self.opaque or self.depth or not (condition.free_symbols.isdisjoint(env)):
                    raise Refused(f"cannot decide the branch condition {condition} here")
                raise NeedSplit(condition)
            if holds:
                return self.scalar(value, env)
        raise Refused(f"no branch of {_short(expr)} applies")

    def extremum(self, expr, env: dict, largest: bool) -> Frac:
        values = [self.scalar(arg, env) for arg in expr.args]
        for v in values:
            if not self.real_poly(v.num) or (v.den and not self.real_poly(v.den)):
                raise Refused(f"Min/Max of an expression not shown real: {_short(expr)}")
        # the comparisons are the costly part, and a definition unfolded again asks the same: remembered for
        # these values under these hypotheses
        key = (largest, tuple(v.key() for v in values), self.facts_version, len(self.facts))
        memo = self.__dict__.setdefault("_extrema", {})
        if key not in memo:
            memo[key] = self._extremum(values, largest)
        return memo[key]

    def _extremum(self, values: list, largest: bool) -> Frac:
        keep = list(range(len(values)))
        signs: dict = {}  # (a, b) -> the sign of values[b] - values[a]; that of values[a] - values[b] is its negation
        for a in range(len(values)):
            for b in keep:
                if a == b or a not in keep:
                    continue
                if (b, a) in signs:
                    found = signs[(b, a)]
                    sign = _SIGN_OF_NEGATION.get(found) if found else None
                else:
                    sign = signs[(a, b)] = self.frac_sign(self.sub(values[b], values[a]))
                if sign in ("pos", "nonneg", "zero") if largest else sign in ("neg", "nonpos", "zero"):
                    keep.remove(a)  # values[b] is at least (at most) values[a]
                    break
        kept = [values[a] for a in keep]
        if len(kept) == 1:
            return kept[0]
        kind = "max" if largest else "min"
        g = self.gen(
            (kind, tuple(sorted(v.key() for v in kept))),
            kind=kind,
            real=True,
            bound=frozenset().union(*(self._bound_of(v) for v in kept)),
        )
        return self.var(g)

    def floor(self, a: Frac, ceiling: bool = False) -> Frac:
        if not self.real_poly(a.num) or (a.den and not self.real_poly(a.den)):
            raise Refused("floor/ceiling of an expression not shown real")
        whole, rest = Frac({}), Frac({})
        if not a.den:
            for mono, c in a.num.items():
                q = self.field.as_rational(c)
                integral = (
                    q is not None
                    and q.denominator == 1
                    and all(self.gens[g].integer and isinstance(e, int) and e > 0 for g, e in mono)
                )
                if integral:
                    whole = self.add(whole, Frac({mono: c}))
                else:
                    rest = self.add(rest, Frac({mono: c}))
        else:
            rest = a
        if not rest.num:
            return whole
        if list(rest.num) == [ONE_MONO] and not rest.den:
            q = self.field.exact(rest.num[ONE_MONO])
            return self.add(whole, self.const(math.ceil(q) if ceiling else math.floor(q)))
        self._split_residues(rest)
        g = self.gen(
            ("ceiling" if ceiling else "floor", rest.key()),
            kind="floor",
            real=True,
            integer=True,
            bound=self._bound_of(rest),
        )
        return self.add(whole, self.var(g))

    def _split_residues(self, rest: Frac) -> None:
        """Raise :class:`NeedResidue` when ``rest`` is a polynomial with rational coefficients in free integer
        symbols (no parity declared) whose denominators divide ``D <= 12``: with each symbol written
        ``D q + r``, the floor of ``rest`` is exact in every case."""
        if rest.den or self.depth or self.opaque:
            return
        modulus, candidates = 1, []
        for mono, c in rest.num.items():
            q = self.field.as_rational(c)
            if q is None:
                return
            modulus = math.lcm(modulus, q.denominator)
            for g, e in mono:
                gen = self.gens[g]
                if not isinstance(e, int) or e < 0 or not gen.integer or gen.kind not in ("symbol", "residue"):
                    return
                if gen.key[0] == "symbol" and gen.key[1] not in candidates:
                    candidates.append(gen.key[1])
        if 1 < modulus <= 12 and candidates:
            raise NeedResidue(candidates[0], modulus)

    # -- matrices ----------------------------------------------------------------------
    #: The reader of matrix expressions (:mod:`.matrices`, given by whoever makes the translator: the
    #: matrices module builds on this one, so this one does not import it).
    matrices: Any = None

    def matrix(self, expr, env: dict):
        if self.matrices is None:
            raise Refused(f"a matrix expression, and no matrix reader: {_short(expr)}")
        return self.matrices.translate_matrix(self, expr, env)


def _faulhaber_coefficients(k: int) -> list[Fraction]:
    """The coefficients ``c_0 .. c_{k+1}`` of ``S_k(n) = sum_{j=1}^{n} j**k``: by interpolation at
    ``n = 0 .. k + 1`` (exact rationals), checked on ``S_k(n) - S_k(n - 1) = n**k`` at ``n = -k-2 .. k+2``
    (a polynomial of degree ``k`` agreeing at more than ``k + 1`` points is that polynomial)."""
    points = list(range(k + 2))
    values = [Fraction(sum(j**k for j in range(1, n + 1))) for n in points]
    size = k + 2
    rows = [[Fraction(n) ** e for e in range(size)] + [v] for n, v in zip(points, values, strict=True)]
    for column in range(size):  # Gauss-Jordan on a Vandermonde matrix of distinct points
        pivot = next(r for r in range(column, size) if rows[r][column])
        rows[column], rows[pivot] = rows[pivot], rows[column]
        rows[column] = [x / rows[column][column] for x in rows[column]]
        for r in range(size):
            if r != column and rows[r][column]:
                factor = rows[r][column]
                rows[r] = [x - factor * y for x, y in zip(rows[r], rows[column], strict=True)]
    coefficients = [row[-1] for row in rows]

    def value(n):
        return sum(c * Fraction(n) ** e for e, c in enumerate(coefficients))

    if any(value(n) - value(n - 1) != Fraction(n) ** k for n in range(-k - 2, k + 3)):
        raise Refused("internal: a Faulhaber polynomial did not check")
    return coefficients


_FAULHABER: dict = {}


def _faulhaber(t: Translator, k: int, n: Frac) -> Frac:
    if k not in _FAULHABER:
        _FAULHABER[k] = _faulhaber_coefficients(k)
    total = Frac({})
    for coefficient in reversed(_FAULHABER[k]):  # Horner
        total = t.add(t.mul(total, n), t.const(coefficient))
    return total


def pmul1(translator: Translator, p: dict, q: dict) -> dict:
    """Product of polynomials of which one has one term (no special generators to normalise again)."""
    out: dict = {}
    for mono, c in p.items():
        out = padd(translator.field, out, pmul_term(translator.field, q, mono, c))
    return translator.normalise(out)


def _stronger(a: str | None, b: str | None) -> str | None:
    order = {"pos": 3, "neg": 3, "nonneg": 1, "nonpos": 1, "nonzero": 2, None: 0}
    if a is None:
        return b
    if b is None:
        return a
    if {a, b} == {"nonneg", "nonzero"}:
        return "pos"
    if {a, b} == {"nonpos", "nonzero"}:
        return "neg"
    return a if order[a] >= order[b] else b


def _ratios(field_: Field, p: dict, f: dict) -> list:
    """Positive rationals ``lam`` worth trying in ``p - lam f``: ratios of shared coefficients, and 1."""
    found = [Fraction(1)]
    for mono, c in f.items():
        if mono in p:
            a, b = field_.as_rational(p[mono]), field_.as_rational(c)
            if a is not None and b:
                ratio = abs(a / b)
                if ratio and ratio not in found:
                    found.append(ratio)
    return found[:4]


def _factor(n: int) -> list:
    """``n``'s prime factors with multiplicity, by trial division up to 10**5 (the rest kept as one factor)."""
    out, p = [], 2
    while p * p <= n and p < 100_000:
        power = 0
        while n % p == 0:
            n //= p
            power += 1
        if power:
            out.append((p, power))
        p += 1 if p == 2 else 2
    if n > 1:
        out.append((n, 1))
    return out


def _short(expr) -> str:
    """A printed expression, at most 80 characters, never raising (huge integers included)."""
    try:
        text = sympy.sstr(expr)
    except (ValueError, RecursionError):
        text = f"<{type(expr).__name__}>"
    return text if len(text) <= 80 else text[:77] + "..."


# --------------------------------------------------------------------------
# The scalar rules, by node type


def _number(t: Translator, expr, env) -> Frac:
    return t.const(Fraction(int(expr.p), int(expr.q)))


def _refuse_number(t: Translator, expr, env) -> Frac:
    if isinstance(expr, sympy.Float):
        raise Refused(f"inexact number {_short(expr)} (a Float); write exact numbers")
    raise Refused(f"undefined or infinite: {_short(expr)}")


def _add(t: Translator, expr, env) -> Frac:
    total = Frac({})
    for arg in expr.args:
        total = t.add(total, t.scalar(arg, env))
    return total


def _mul(t: Translator, expr, env) -> Frac:
    total = Frac(dict(t.one))
    for arg in expr.args:
        total = t.mul(total, t.scalar(arg, env))
    return total


def _sqrt_rational(t: Translator, q: Fraction) -> Frac | None:
    """``sqrt(q)`` for a rational ``q > 0`` as an element of ``Q(zeta_N)``, when ``N`` allows: ``sqrt 2 =
    zeta_8 + zeta_8**-1``; for an odd prime ``p`` the Gauss sum ``g = sum_a (a/p) zeta_p**a`` is ``sqrt p``
    (``p = 1 mod 4``) or ``i sqrt p`` (``p = 3 mod 4``)."""
    if q <= 0:
        return None
    square_free = _square_free_primes(q)
    value = abs(q.numerator) * q.denominator
    if value >= 10**12:
        return None
    root = t.field.one
    for prime in square_free:
        step = 8 if prime == 2 else 4 * prime
        if prime > _SQRT_PRIMES or t.field.order % step:
            return None
        if prime == 2:
            unit = t.field.order // 8
            factor = t.field.add(t.field.zeta(unit), t.field.zeta(-unit))
        else:
            unit = t.field.order // prime
            factor = t.field.zero
            for a in range(1, prime):
                symbol = 1 if pow(a, (prime - 1) // 2, prime) == 1 else -1
                factor = t.field.add(factor, t.field.mul(t.field.rational(symbol), t.field.zeta(a * unit)))
            if prime % 4 == 3:
                factor = t.field.mul(t.field.neg(t.field.i), factor)
        root = t.field.mul(root, factor)
    # sqrt(q) = sqrt(square-free part) * (the rest, a rational), with value = numerator * denominator
    rest = 1
    for prime, power in _factor(value):
        rest *= prime ** (power // 2)
    return t.coefficient(t.field.mul(root, t.field.rational(Fraction(rest, q.denominator))))


def _pow(t: Translator, expr, env) -> Frac:
    base, power = expr.args
    if isinstance(base, sympy.Rational) and power == sympy.S.Half:
        exact = _sqrt_rational(t, Fraction(int(base.p), int(base.q)))
        if exact is not None:
            return exact
    e = t.scalar(power, env)
    if not e.num or (list(e.num) == [ONE_MONO] and not e.den and t.field.as_rational(e.num[ONE_MONO]) is not None):
        q = t.field.exact(e.num[ONE_MONO]) if e.num else Fraction(0)
        if q.denominator == 1:
            return t.power(t.scalar(base, env), int(q), base)
    return t.raise_power(t.scalar(base, env), e, base)


def _log_root(t: Translator, c: tuple) -> Frac | None:
    """``log c`` for a positive rational, a negative one, or a root of unity ``c`` (modulo 2 pi i); else None."""
    q = t.field.as_rational(c)
    if q is not None and q > 0:
        return t._log_rational(q)
    if q is not None and q < 0:
        return t.add(t._log_rational(-q), Frac({((t.pi, 1),): t.field.i}))
    for k in range(t.field.order):
        if t.field.zeta(k) == c:  # zeta**k = exp(2 pi i k / N)
            return Frac({((t.pi, 1),): t.field.mul(t.field.i, t.field.rational(Fraction(2 * k, t.field.order)))})
    return None


def _exp(t: Translator, expr, env) -> Frac:
    return t.exp(t.scalar(expr.args[0], env))


def _euler(t: Translator, a: Frac) -> tuple[Frac, Frac]:
    """``(exp(i a), exp(-i a))``."""
    ia = t.scale(a, t.field.i)
    return t.exp(ia), t.exp(t.neg(ia))


def _sin_value(t: Translator, a: Frac) -> Frac:
    plus, minus = _euler(t, a)
    return t.scale(t.sub(plus, minus), t.field.mul(t.field.rational(Fraction(-1, 2)), t.field.i))  # 1/(2i) = -i/2


def _cos_value(t: Translator, a: Frac) -> Frac:
    plus, minus = _euler(t, a)
    return t.scale(t.add(plus, minus), t.field.rational(Fraction(1, 2)))


def _sinh_value(t: Translator, a: Frac) -> Frac:
    return t.scale(t.sub(t.exp(a), t.exp(t.neg(a))), t.field.rational(Fraction(1, 2)))


def _cosh_value(t: Translator, a: Frac) -> Frac:
    return t.scale(t.add(t.exp(a), t.exp(t.neg(a))), t.field.rational(Fraction(1, 2)))


def _trig(t: Translator, expr, env) -> Frac:
    argument = expr.args[0]
    a = t.scalar(argument, env)
    kind = type(expr)
    values: dict[Any, tuple[Any, Any]] = {
        sympy.sin: (_sin_value, None),
        sympy.cos: (_cos_value, None),
        sympy.sinh: (_sinh_value, None),
        sympy.cosh: (_cosh_value, None),
        sympy.tan: (_sin_value, _cos_value),
        sympy.cot: (_cos_value, _sin_value),
        sympy.sec: (None, _cos_value),
        sympy.csc: (None, _sin_value),
        sympy.tanh: (_sinh_value, _cosh_value),
        sympy.coth: (_cosh_value, _sinh_value),
    }
    top, bottom = values[kind]
    if bottom is None:
        return top(t, a)
    written = {_cos_value: sympy.cos, _sin_value: sympy.sin, _cosh_value: sympy.cosh, _sinh_value: sympy.sinh}[bottom]
    denominator = t.inverse(bottom(t, a), written(argument, evaluate=False))
    return denominator if top is None else t.mul(top(t, a), denominator)


def _log(t: Translator, expr, env) -> Frac:
    if len(expr.args) != 1:
        raise Refused("log with a base: write log(x)/log(b)")
    return t.log(t.scalar(expr.args[0], env), expr.args[0])


def _abs(t: Translator, expr, env) -> Frac:
    return _abs_of(t, t.scalar(expr.args[0], env))


def _abs_of(t: Translator, a: Frac) -> Frac:
    """``|a|``: ``a`` or ``-a`` when its sign is shown; ``|c exp(m) exp(i m')| = |c| exp(m)`` for real ``m``,
    ``m'`` (and ``c`` rational); else an atom (with ``|-a| = |a|``)."""
    if t.real_poly(a.num) and (not a.den or t.real_poly(a.den)):
        sign = t.frac_sign(a)
        if sign in ("pos", "nonneg", "zero"):
            return a
        if sign in ("neg", "nonpos"):
            return t.neg(a)
    if not a.den and len(a.num) == 1:
        ((mono, c),) = a.num.items()
        q = t.field.as_rational(c)
        i_index = next(k for k, x in enumerate(t.field.i) if x)
        kept = []
        for g, e in mono:
            gen = t.gens[g]
            if gen.key[0] != "exp" or gen.den or not all(t.gen_real(h, f) for h, f in gen.key[2]):
                break
            if gen.key[1] == 0:
                kept.append((g, e))
            elif gen.key[1] != i_index or t.field.i[i_index] != 1:
                break
        else:
            if q is not None:
                return Frac({tuple(kept): t.field.rational(abs(q))})
    leading = t.field.as_rational(a.num[min(a.num)]) if a.num else None
    if leading is not None and leading < 0:
        a = t.neg(a)  # |-a| = |a|
    g = t.gen(
        ("abs", a.key()), kind="abs", real=True, sign="nonneg", data=a.num if not a.den else {}, bound=t._bound_of(a)
    )
    return t.var(g)


def _rational_root(n: int, r: Fraction) -> int | None:
    """``n**r`` when it is an integer (``n >= 1``), else None."""
    if r.numerator < 0:
        return None
    root = round(n ** (1 / r.denominator)) if n < 10**300 else None
    if root is None:
        return None
    for candidate in (root - 1, root, root + 1):
        if candidate >= 0 and candidate**r.denominator == n:
            return candidate**r.numerator
    return None


def _gamma_of(t: Translator, a: Frac) -> Frac:
    """``Gamma(a)``: a positive integer's factorial; else ``Gamma(r + c0) * prod (r + c0 + i)`` with
    ``a = r + c``, ``c0 = c - floor(c)``, by ``Gamma(x + 1) = x Gamma(x)``, when ``r + c0 > 0`` is shown (so no
    pole is crossed); refused otherwise."""
    if not a.den and (not a.num or list(a.num) == [ONE_MONO]):
        q = t.field.exact(a.num[ONE_MONO]) if a.num else Fraction(0)
        if q.denominator == 1:
            if q <= 0:
                raise Refused("Gamma at a pole (a nonpositive integer)")
            if q > 2000:
                raise Refused("too large a factorial")
            return t.const(math.factorial(int(q) - 1))
    constant = t.field.as_rational(a.num.get(ONE_MONO, t.field.zero)) if not a.den else None
    if constant is None:
        constant = Fraction(0)
    if not t.real_poly(a.num) or (a.den and not t.real_poly(a.den)):
        raise Refused("Gamma of an argument not shown real")
    for shift in range(math.floor(constant), math.floor(constant) - 4, -1):  # the largest shift that stays > 0
        base = t.sub(a, t.const(shift))
        if t.frac_sign(base) == "pos":
            break
    else:
        raise Refused("Gamma of an argument not shown positive")
    if shift < 0 and t.frac_sign(a) != "pos":
        raise Refused("Gamma of an argument not shown positive")
    g = t.gen(("gamma", base.key()), kind="gamma", real=True, sign="pos", nonzero=True, bound=t._bound_of(base))
    result = t.var(g)
    for i in range(min(shift, 0), max(shift, 0)):
        factor = t.add(base, t.const(i))
        result = t.mul(result, factor) if shift > 0 else t.mul(result, Frac(dict(t.one), factor.num))
    return result


def _gamma(t: Translator, expr, env) -> Frac:
    return _gamma_of(t, t.scalar(expr.args[0], env))


def _factorial(t: Translator, expr, env) -> Frac:
    return _gamma_of(t, t.add(t.scalar(expr.args[0], env), t.const(1)))


def _binomial(t: Translator, expr, env) -> Frac:
    numbers = []
    for x in (t.scalar(arg, env) for arg in expr.args):
        value = None
        if not x.den and (not x.num or list(x.num) == [ONE_MONO]):
            value = t.field.as_rational(x.num[ONE_MONO]) if x.num else Fraction(0)
        if value is None or value.denominator != 1:
            raise Refused("a binomial coefficient of symbols is not in the kernel's language")
        numbers.append(int(value))
    top, bottom = numbers
    if not 0 <= bottom <= 2000:
        raise Refused("a binomial coefficient with a negative or very large lower index")
    falling = math.prod(top - i for i in range(bottom))  # C(n, k) = n (n-1) ... (n-k+1) / k!
    return t.const(Fraction(falling, math.factorial(bottom)))


def _floor(t: Translator, expr, env) -> Frac:
    return t.floor(t.scalar(expr.args[0], env), ceiling=isinstance(expr, sympy.ceiling))


def _mod(t: Translator, expr, env) -> Frac:
    a, m = (t.scalar(arg, env) for arg in expr.args)
    quotient = t.mul(a, t.inverse(m, expr.args[1]))
    return t.sub(a, t.mul(m, t.floor(quotient)))


def _sign(t: Translator, expr, env) -> Frac:
    a = t.scalar(expr.args[0], env)
    if t.real_poly(a.num) and (not a.den or t.real_poly(a.den)):
        sign = t.frac_sign(a)
        if sign in ("pos", "neg", "zero"):
            return t.const({"pos": 1, "neg": -1, "zero": 0}[sign])
    g = t.gen(("sign", a.key()), kind="sign", bound=t._bound_of(a))
    return t.var(g)


def _apply(t: Translator, expr, env) -> Frac:
    cls = type(expr)
    domain = getattr(cls, "kernel_domain", None)
    if domain is None and isinstance(expr, AppliedUndef):
        kwargs = getattr(cls, "_kwargs", {}) or {}
        domain = "positive" if kwargs.get("positive") else "real" if kwargs.get("real") else "complex"
    if domain is None:
        raise Refused(f"the function {cls.__name__} is not in the kernel's language")
    return t.var(t.apply(cls, domain, tuple(t.scalar(arg, env) for arg in expr.args)))


def _unevaluated(t: Translator, expr, env) -> Frac:
    return t.scalar(expr.args[0], env)


def _determinant(t: Translator, expr, env) -> Frac:
    return t.matrices.determinant(t, t.matrix(expr.args[0], env))


def _trace(t: Translator, expr, env) -> Frac:
    return t.matrices.trace(t, t.matrix(expr.args[0], env))


def _element(t: Translator, expr, env) -> Frac:
    return t.matrices.element(t, t.matrix(expr.args[0], env), t.scalar(expr.args[1], env), t.scalar(expr.args[2], env))


_SCALAR = {
    sympy.Add: _add,
    sympy.Mul: _mul,
    sympy.Pow: _pow,
    sympy.exp: _exp,
    sympy.log: _log,
    sympy.Abs: _abs,
    sympy.floor: _floor,
    sympy.ceiling: _floor,
    sympy.Mod: _mod,
    sympy.sign: _sign,
    sympy.Max: lambda t, e, env: t.extremum(e, env, True),
    sympy.Min: lambda t, e, env: t.extremum(e, env, False),
    sympy.Piecewise: lambda t, e, env: t.piecewise(e, env),
    sympy.Sum: lambda t, e, env: t.summation(e, env),
    sympy.gamma: _gamma,
    sympy.factorial: _factorial,
    sympy.binomial: _binomial,
    sympy.UnevaluatedExpr: _unevaluated,
    sympy.Determinant: _determinant,
    sympy.Trace: _trace,
    **dict.fromkeys(
        (
            sympy.sin,
            sympy.cos,
            sympy.tan,
            sympy.cot,
            sympy.sec,
            sympy.csc,
            sympy.sinh,
            sympy.cosh,
            sympy.tanh,
            sympy.coth,
        ),
        _trig,
    ),
}
_SCALAR_BASES = [
    (sympy.Rational, _number),
    (sympy.Float, _refuse_number),
    (sympy.core.numbers.NaN, _refuse_number),
    (sympy.core.numbers.ComplexInfinity, _refuse_number),
    (sympy.core.numbers.Infinity, _refuse_number),
    (sympy.core.numbers.NegativeInfinity, _refuse_number),
    (sympy.core.numbers.Pi, lambda t, e, env: t.var(t.pi)),
    (sympy.core.numbers.Exp1, lambda t, e, env: t.exp(t.const(1))),
    (sympy.core.numbers.ImaginaryUnit, lambda t, e, env: t.coefficient(t.field.i)),
    (lang.NamedScalar, lambda t, e, env: t.named(e, env)),
    (lang.Largest, lambda t, e, env: t.largest(e, env)),
    (sympy.matrices.expressions.matexpr.MatrixElement, _element),
    (AppliedUndef, _apply),
]
