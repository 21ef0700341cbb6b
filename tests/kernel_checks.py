"""An evaluation independent of the kernel, to confirm its counterexamples (shared by the kernel's tests).

The kernel's numeric certificate is its own interval evaluator; here the
statement is evaluated by :mod:`adversarial.numeric` (an mpmath evaluator
written without reading the kernel), after the theorem language is written
out in plain SymPy at the counterexample's sizes:

- named definitions are unfolded (also those without parameters, ``q``);
- block-diagonal matrices, stacks and block matrices become explicit
  matrices, blocks with their index replaced by ``0, 1, ..., count - 1``;
- matrix symbols take the counterexample's matrices, ``I_n`` and ``0_n``
  their explicit forms, and products, sums, transposes and entries of
  explicit matrices are multiplied out;
- row softmax is written out for the explicit argument;
- an arbitrary function of an index (``q(2 j)``, ``omega(j)``) becomes a
  table of the values the counterexample drew for it (``q(0)``, ``q(1)``,
  ...): a SymPy function that evaluates at exactly those integers, so that
  sums over an index read it wherever the evaluator binds the index.

Where that evaluator has no rule, SymPy itself (``evalf`` at 50 digits)
decides.  Nothing here calls the kernel.
"""

from __future__ import annotations

import sympy
from adversarial import numeric
from sympy.matrices.expressions.matexpr import MatrixElement

from posenc_math.theorems import language

CONFIRMED = ("differ", "lhs undefined", "rhs undefined")


def _value(text):
    if isinstance(text, list):
        return sympy.ImmutableMatrix([[_value(v) for v in row] for row in text])
    return sympy.sympify(text, rational=True)


class MissingValue(LookupError):
    """The point gives no value to an arbitrary function the statement applies."""


def function_names(expression) -> set[str]:
    """The names of the arbitrary functions ``expression`` applies, inside definitions too."""
    found: set[str] = set()
    stack = [expression]
    while stack:
        node = stack.pop()
        if isinstance(node, sympy.MatrixBase):
            stack.extend(node)
            continue
        if not isinstance(node, sympy.Basic):
            continue
        if isinstance(node, language._Named):
            stack.append(node.unfolded())
        if _is_arbitrary_function(node):
            found.add(type(node).__name__)
        stack.extend(node.args)
    return found


def _is_arbitrary_function(expression) -> bool:
    """An application of an arbitrary function: the language's (``kernel_domain``) or SymPy's ``Function('f')``."""
    return isinstance(expression, sympy.core.function.AppliedUndef) or (
        isinstance(expression, sympy.Function) and hasattr(type(expression), "kernel_domain")
    )


def _table(name: str, values: dict) -> type:
    """A SymPy function that is ``values[key]`` at the arguments the key names (``"q(2)"``), else unevaluated."""

    def evaluate(cls, *arguments):
        if all(a.is_Integer for a in arguments):
            key = f"{name}({', '.join(str(a) for a in arguments)})"
            if key in values:
                return values[key]
        return None

    return type(f"{name}_table", (sympy.Function,), {"eval": classmethod(evaluate)})


def _size(value, sizes: dict) -> int:
    size = sympy.sympify(value).xreplace(sizes)
    if not size.is_Integer:
        raise ValueError(f"a size is not an integer at this point: {value} = {size}")
    return int(size)


def _explicit(expression):
    return isinstance(expression, sympy.MatrixBase)


class _WriteOut:
    """The theorem language in plain SymPy at one point's sizes, matrices and function values."""

    def __init__(self, sizes: dict, matrices: dict, functions: dict):
        self.sizes, self.matrices, self.functions = sizes, matrices, functions
        self.tables: dict[str, type] = {}

    def table(self, name: str) -> type:
        if name not in self.tables:
            self.tables[name] = _table(name, self.functions)
        return self.tables[name]

    def blocks(self, expression) -> list:
        count = _size(expression.count, self.sizes)
        written = []
        for j in range(count):
            block = self(expression.block.xreplace({expression.index: sympy.Integer(j)}))
            if not _explicit(block):
                raise ValueError(f"block {j} of {type(expression).__name__} is not explicit: {block!r}")
            written.append(sympy.Matrix(block))
        return written

    def __call__(self, expression):
        if isinstance(expression, sympy.MatrixBase):
            return sympy.ImmutableMatrix(expression.rows, expression.cols, [self(e) for e in expression])
        if isinstance(expression, language._Named):  # before the leaf test: ``q()`` has no arguments
            return self(expression.unfolded())
        if isinstance(expression, sympy.MatrixSymbol):
            return self.matrices.get(expression, expression)
        if isinstance(expression, (sympy.Identity, sympy.ZeroMatrix)):
            rows, cols = (_size(n, self.sizes) for n in expression.shape)
            if isinstance(expression, sympy.Identity):
                return sympy.ImmutableMatrix.eye(rows)
            return sympy.ImmutableMatrix.zeros(rows, cols)
        if not isinstance(expression, sympy.Basic) or not expression.args:
            return expression
        if isinstance(expression, language.Stacked):
            return sympy.ImmutableMatrix(sympy.Matrix.vstack(*self.blocks(expression)))
        if isinstance(expression, language.BlockDiagonal):
            return sympy.ImmutableMatrix(sympy.diag(*self.blocks(expression)))
        if isinstance(expression, sympy.BlockMatrix):
            grid = expression.blocks
            rows = []
            for i in range(grid.rows):
                row = [self(grid[i, j]) for j in range(grid.cols)]
                if not all(map(_explicit, row)):
                    raise ValueError(f"a block of row {i} is not explicit")
                rows.append(sympy.Matrix.hstack(*row))
            return sympy.ImmutableMatrix(sympy.Matrix.vstack(*rows))
        if isinstance(expression, language.RowSoftmax):
            scores = self(expression.argument)
            if not _explicit(scores):
                raise ValueError("the argument of softmax is not explicit")
            rows = []
            for i in range(scores.rows):
                total = sympy.Add(*(sympy.exp(scores[i, j]) for j in range(scores.cols)), evaluate=False)
                rows.append([sympy.exp(scores[i, j]) / total for j in range(scores.cols)])
            return sympy.ImmutableMatrix(rows)
        if _is_arbitrary_function(expression) and self.functions:
            name = type(expression).__name__
            if not any(key.startswith(name + "(") for key in self.functions):
                raise MissingValue(f"the point gives no value to the function {name}")
            return self.table(name)(*(self(a).xreplace(self.sizes) for a in expression.args))
        args = [self(a) for a in expression.args]
        if isinstance(expression, MatrixElement) and _explicit(args[0]):
            return args[0][_size(args[1], self.sizes), _size(args[2], self.sizes)]
        if isinstance(expression, sympy.MatMul) and all(map(_explicit, args)):
            product = sympy.Matrix(args[0])
            for factor in args[1:]:
                product = product * sympy.Matrix(factor)
            return sympy.ImmutableMatrix(product)
        if isinstance(expression, sympy.MatMul) and any(map(_explicit, args)):  # a scalar times a matrix
            scalars = [a for a in args if not _explicit(a)]
            matrices = [sympy.Matrix(a) for a in args if _explicit(a)]
            if all(not isinstance(s, sympy.MatrixExpr) for s in scalars):
                product = matrices[0]
                for factor in matrices[1:]:
                    product = product * factor
                return sympy.ImmutableMatrix(sympy.Mul(*scalars) * product)
        if isinstance(expression, sympy.MatAdd) and all(map(_explicit, args)):
            total = sympy.Matrix(args[0])
            for term in args[1:]:
                total = total + sympy.Matrix(term)
            return sympy.ImmutableMatrix(total)
        if isinstance(expression, sympy.Transpose) and _explicit(args[0]):
            return sympy.ImmutableMatrix(args[0].T)
        if isinstance(expression, (sympy.Add, sympy.Mul, sympy.Pow, sympy.MatMul, sympy.MatAdd)):
            return expression.func(*args, evaluate=False)
        return expression.func(*args)


def _sympy_verdict(lhs, rhs, point: dict, relation: str) -> bool:
    values = {}
    for side in (lhs, rhs):
        for symbol in getattr(side, "free_symbols", set()):
            if str(symbol) in point:
                values[symbol] = _value(point[str(symbol)])
    left, right = (sympy.sympify(side).subs(values, simultaneous=True).doit() for side in (lhs, rhs))
    if relation == "=":
        if isinstance(left, sympy.MatrixBase) or isinstance(right, sympy.MatrixBase):
            difference = sympy.Matrix(left) - sympy.Matrix(right)
            return any(abs(sympy.N(e, 50)) > 1e-40 for e in difference)
        return abs(sympy.N(left - right, 50)) > 1e-40
    gap = sympy.N(right - left, 50)
    return {"<": gap <= 0, "<=": gap < 0, "!=": abs(gap) < 1e-40}[relation]


def _exact_difference(lhs, rhs, point: dict):
    try:
        values = {s: _value(point[str(s)]) for side in (lhs, rhs) for s in side.free_symbols if str(s) in point}
        difference = sympy.sympify(lhs).xreplace(values) - sympy.sympify(rhs).xreplace(values)
    except (TypeError, ValueError, AttributeError):
        return None
    return difference if difference.is_Rational else None


def confirm_counterexample(lhs, rhs, point: dict, relation: str = "=") -> bool:
    """True when an evaluation independent of the kernel finds the statement false at ``point``.

    ``point`` is the kernel's counterexample: symbol names to values (numbers
    as strings or ints, matrices as nested lists) and ``"f(0)"``-style keys
    to the values of arbitrary functions.
    """
    named = {name: value for name, value in point.items() if "(" not in name}
    functions = {name: _value(value) for name, value in point.items() if "(" in name}
    sizes, matrices = {}, {}
    for side in (lhs, rhs):
        for symbol in numeric.free_symbols(side):
            if str(symbol) not in named:
                continue
            if isinstance(symbol, sympy.MatrixSymbol):
                matrices[symbol] = _value(named[str(symbol)])
            else:
                sizes[symbol] = _value(named[str(symbol)])
    write_out = _WriteOut(sizes, matrices, functions)
    left, right = write_out(lhs), write_out(rhs)
    if relation == "=":
        try:
            found = numeric.verdict(left, right, named, 60)
        except (NotImplementedError, numeric.BadPoint, TypeError, ValueError):
            found = None
        if found is not None and found.startswith("unstable"):
            found = found.rsplit(", ", 1)[1].split(" at ")[0]  # the answer at the higher precision
        if found is not None and found != "equal":
            return found in CONFIRMED
        if found == "equal":  # beyond 120 digits: exactly, where both sides are rational there
            exact = _exact_difference(left, right, named)
            return exact is not None and exact != 0
    return _sympy_verdict(left, right, named, relation)
