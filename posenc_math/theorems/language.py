"""The words theorems are written in, beyond SymPy's own: named definitions and structured matrices.

These classes carry no mathematics of their own: they are data that the
trusted kernel (:mod:`posenc_math.theorems.kernel`) interprets, and that
the page prints.  Nothing here simplifies, evaluates or proves anything.

- :class:`Definition`: a named abbreviation, ``T(k) := blockdiag(...)``.
  A theorem states ``T(k) PE(t) = PE(t + k)``; the kernel unfolds each name
  into its body (the definition's parameters bound to the arguments, without
  rebuilding any SymPy expression), the page prints the name and, below the
  statement, the definition.  So the statement a reader sees is the object
  that was checked, with its abbreviations spelled out once.
- :class:`BlockDiagonal`, :class:`Stacked`: a block-diagonal matrix and a
  column of blocks, ``count`` blocks given by one explicit block in a bound
  index (``count`` may be symbolic: every width at once).
- :class:`RowSoftmax`: softmax applied to each row.
- :class:`Largest`: the largest of finitely many real values,
  ``max_{a <= l <= b} f(l)``, for a symbolic number of them.
- :class:`PermutationSymbol`: a matrix symbol whose values are the
  permutation matrices of its size.
- :func:`undefined_function`: an arbitrary function of an index (the
  components of a vector of symbolic length), with a declared domain.

Examples
--------
>>> import sympy
>>> i, n = sympy.Symbol("i", integer=True), sympy.Symbol("n", integer=True, positive=True)
>>> D = BlockDiagonal(i, n, sympy.Matrix([[i, 0], [0, 1]]))
>>> D.shape, sorted(map(str, D.free_symbols))
((2*n, 2*n), ['n'])
"""

from __future__ import annotations

from collections.abc import Sequence

import sympy
from sympy.matrices.expressions.matexpr import MatrixExpr

__all__ = [
    "BlockDiagonal",
    "Definition",
    "Largest",
    "NamedMatrix",
    "NamedScalar",
    "PermutationSymbol",
    "RowSoftmax",
    "Stacked",
    "undefined_function",
    "unfold",
]


def _block(block):
    """A block: an explicit matrix, or a matrix expression of numeric shape (a named 2 x 2 matrix)."""
    if isinstance(block, sympy.MatrixBase):
        return sympy.ImmutableMatrix(block)
    if isinstance(block, MatrixExpr) and all(isinstance(n, (int, sympy.Integer)) for n in block.shape):
        return block
    raise TypeError(f"a block must be an explicit matrix or a matrix expression of numeric shape; got {block!r}")


def _bound_free(expression, index) -> set:
    return set(expression.free_symbols) - {index}


class BlockDiagonal(MatrixExpr):
    """``blockdiag(block(index) for index = 0 .. count - 1)``; ``block`` an explicit matrix in ``index``."""

    def __new__(cls, index, count, block):
        if not isinstance(index, sympy.Symbol):
            raise TypeError(f"index must be a sympy Symbol; got {type(index).__name__}")
        return sympy.Basic.__new__(cls, index, sympy.sympify(count), _block(block))

    index = property(lambda self: self.args[0])
    count = property(lambda self: self.args[1])
    block = property(lambda self: self.args[2])

    @property
    def shape(self):
        return (self.count * self.block.rows, self.count * self.block.cols)

    @property
    def free_symbols(self):
        return set(self.count.free_symbols) | _bound_free(self.block, self.index)

    def _latex(self, printer):
        last = printer._print(self.count - 1)
        return (
            rf"\operatorname{{blockdiag}}_{{{printer._print(self.index)} = 0}}^{{{last}}}"
            rf"{printer._print(self.block)}"
        )


class Stacked(MatrixExpr):
    """The column ``(block(0); block(1); ...; block(count - 1))``; ``block`` an explicit column in ``index``."""

    def __new__(cls, index, count, block):
        if not isinstance(index, sympy.Symbol):
            raise TypeError(f"index must be a sympy Symbol; got {type(index).__name__}")
        block = _block(block)
        if block.cols != 1:
            raise ValueError(f"block must be a column; got shape {block.shape}")
        return sympy.Basic.__new__(cls, index, sympy.sympify(count), block)

    index = property(lambda self: self.args[0])
    count = property(lambda self: self.args[1])
    block = property(lambda self: self.args[2])

    @property
    def shape(self):
        return (self.count * self.block.rows, sympy.S.One)

    @property
    def free_symbols(self):
        return set(self.count.free_symbols) | _bound_free(self.block, self.index)

    def _latex(self, printer):
        last = printer._print(self.count - 1)
        return rf"\operatorname{{stack}}_{{{printer._print(self.index)} = 0}}^{{{last}}}{printer._print(self.block)}"


class RowSoftmax(MatrixExpr):
    """Softmax of each row: entry ``(i, j)`` is ``exp(S[i, j]) / sum_l exp(S[i, l])``."""

    def __new__(cls, argument):
        return sympy.Basic.__new__(cls, argument)

    argument = property(lambda self: self.args[0])
    shape = property(lambda self: self.argument.shape)

    def _latex(self, printer):
        return rf"\operatorname{{softmax}}\left({printer._print(self.argument)}\right)"


class Largest(sympy.Expr):
    """``max(body(index) for index = low .. high)``: the largest of ``high - low + 1 >= 1`` real values.

    >>> l, P = sympy.Symbol("l", integer=True), sympy.Symbol("P", integer=True, positive=True)
    >>> print(sympy.latex(Largest(sympy.Abs(l - 1), (l, 0, P - 1))))
    \\max_{0 \\le l \\le P - 1} \\left|{l - 1}\\right|
    """

    is_real = True

    def __new__(cls, body, limits):
        index, low, high = limits
        if not isinstance(index, sympy.Symbol):
            raise TypeError(f"index must be a sympy Symbol; got {type(index).__name__}")
        limits = sympy.Tuple(index, sympy.sympify(low), sympy.sympify(high))
        return sympy.Basic.__new__(cls, sympy.sympify(body), limits)

    body = property(lambda self: self.args[0])
    index = property(lambda self: self.args[1][0])
    low = property(lambda self: self.args[1][1])
    high = property(lambda self: self.args[1][2])

    @property
    def free_symbols(self):
        return _bound_free(self.body, self.index) | set(self.low.free_symbols) | set(self.high.free_symbols)

    def _eval_subs(self, old, new):  # the index is bound
        return self if old == self.index else None

    def _latex(self, printer, exp=None):
        low, index, high = (printer._print(x) for x in (self.low, self.index, self.high))
        text = rf"\max_{{{low} \le {index} \le {high}}} {printer._print(self.body)}"
        return rf"\left({text}\right)^{{{exp}}}" if exp else text


class PermutationSymbol(sympy.MatrixSymbol):
    """An ``n x n`` matrix symbol that stands for every permutation matrix of size ``n``."""


def undefined_function(name: str, *, real: bool = False, positive: bool = False, latex: str | None = None) -> type:
    """An arbitrary function of its arguments, shown as ``name_{argument}``.

    ``real``/``positive`` declare its values' domain (every value is real,
    or positive); the kernel samples it at random values in that domain.

    Examples
    --------
    >>> q = undefined_function("q", real=True)
    >>> j = sympy.Symbol("j", integer=True)
    >>> sympy.latex(q(j + 1)), q.kernel_domain
    ('q_{j + 1}', 'real')
    """
    shown = latex or name

    def _latex(self, printer, exp=None):
        text = f"{shown}_{{{', '.join(printer._print(a) for a in self.args)}}}"
        return f"{text}^{{{exp}}}" if exp else text

    domain = "positive" if positive else "real" if real else "complex"
    attributes: dict[str, object] = {"kernel_domain": domain, "_latex": _latex}
    if positive or real:
        attributes["is_real"] = True
    if positive:
        attributes["is_positive"] = True
    return type(name.lstrip("\\"), (sympy.Function,), attributes)


class _Named:
    """Mixin of an application of a :class:`Definition` (the class attribute ``definition``)."""

    definition: Definition

    @property
    def free_symbols(self):
        inner = set(self.definition.body.free_symbols) - set(self.definition.params)
        return inner | set().union(*(set(a.free_symbols) for a in self.args))  # type: ignore[attr-defined]

    def _latex(self, printer, exp=None):
        text = self.definition.latex.format(*(printer._print(a) for a in self.args))  # type: ignore[attr-defined]
        return f"{text}^{{{exp}}}" if exp else text

    def unfolded(self):
        """The body with the parameters replaced (for independent numeric checks; not used by the kernel)."""
        params, args = self.definition.params, self.args  # type: ignore[attr-defined]
        return self.definition.body.xreplace(dict(zip(params, args, strict=True)))


class NamedScalar(_Named, sympy.Expr):
    """``name(args)`` for a scalar definition."""

    is_commutative = True

    def __new__(cls, *args):
        return sympy.Expr.__new__(cls, *map(sympy.sympify, args))


class NamedMatrix(_Named, MatrixExpr):
    """``name(args)`` for a matrix definition."""

    def __new__(cls, *args):
        return sympy.Basic.__new__(cls, *map(sympy.sympify, args))

    @property
    def shape(self):
        mapping = dict(zip(self.definition.params, self.args, strict=True))
        return tuple(sympy.sympify(n).xreplace(mapping) for n in self.definition.body.shape)


class Definition:
    """``name(params) := body``: an abbreviation that the kernel unfolds and the page prints by name.

    ``latex`` is the printed form of an application, with ``{0}``, ``{1}``
    for the arguments (``r"T({0})"``, ``r"R_{{{0}}}"``); ``words`` an
    optional sentence for the definition line.

    Examples
    --------
    >>> k, w = sympy.Symbol("k", real=True), sympy.Symbol("omega", positive=True)
    >>> B = Definition("B", (k,), sympy.Matrix([[sympy.cos(w * k), sympy.sin(w * k)],
    ...                                           [-sympy.sin(w * k), sympy.cos(w * k)]]), r"B({0})")
    >>> sympy.latex(B(2 * k)), B(k).shape
    ('B(2 k)', (2, 2))
    """

    def __init__(self, name: str, params: Sequence, body, latex: str, words: str = ""):
        self.name, self.params, self.latex, self.words = name, tuple(params), latex, words
        repeated = sorted({str(p) for p in self.params if self.params.count(p) > 1})
        if repeated:
            raise ValueError(f"params of {name}: each parameter once; {', '.join(repeated)} is repeated")
        self.body = sympy.ImmutableMatrix(body) if isinstance(body, sympy.MatrixBase) else body
        base = NamedMatrix if isinstance(self.body, (MatrixExpr, sympy.MatrixBase)) else NamedScalar
        self.application = type(name, (base,), {"definition": self})

    def __call__(self, *args):
        if len(args) != len(self.params):
            raise TypeError(f"{self.name} takes {len(self.params)} argument(s); got {len(args)}")
        return self.application(*args)

    def __repr__(self) -> str:
        return f"Definition({self.name!r})"


def unfold(expression):
    """``expression`` with every named application replaced by its body (repeatedly).

    For independent numeric checks of the kernel's answers (a test evaluates
    the unfolded sides with SymPy); the kernel itself never calls it.
    """
    for _ in range(20):
        named = [node for node in sympy.preorder_traversal(expression) if isinstance(node, _Named)]
        if not named:
            return expression
        expression = expression.xreplace({node: node.unfolded() for node in named})
    raise ValueError("definitions nest more than 20 deep")
