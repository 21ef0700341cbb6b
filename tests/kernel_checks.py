"""An evaluation independent of the kernel, to confirm its counterexamples (shared by the kernel's tests).

The kernel's numeric certificate is its own interval evaluator; here the
statement is evaluated by :mod:`adversarial.numeric` (an mpmath evaluator
written without reading the kernel), after the theorem language is written
out in plain SymPy: definitions unfolded, block-diagonal matrices and stacks
written out at the counterexample's sizes, row softmax written out for
explicit arguments.  Where that evaluator has no rule, SymPy itself
(``evalf`` at 50 digits) decides.
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
    return sympy.sympify(text)


def _written_out(expression, sizes: dict, matrices: dict):
    """The theorem language in plain SymPy: definitions unfolded, structured matrices written out."""
    if isinstance(expression, sympy.MatrixBase):
        return sympy.ImmutableMatrix(
            expression.rows, expression.cols, [_written_out(e, sizes, matrices) for e in expression]
        )
    if not isinstance(expression, sympy.Basic) or not expression.args:
        return expression
    if isinstance(expression, language._Named):
        return _written_out(expression.unfolded(), sizes, matrices)
    if isinstance(expression, (language.BlockDiagonal, language.Stacked)):
        count = int(expression.count.xreplace(sizes))
        blocks = [_written_out(expression.block.xreplace({expression.index: j}), sizes, matrices) for j in range(count)]
        blocks = [sympy.ImmutableMatrix(b.xreplace(matrices).as_explicit()) for b in blocks]
        if isinstance(expression, language.Stacked):
            return sympy.ImmutableMatrix(sympy.Matrix.vstack(*blocks))
        return sympy.ImmutableMatrix(sympy.diag(*blocks))
    if isinstance(expression, language.RowSoftmax):
        scores = sympy.Matrix(_written_out(expression.argument, sizes, matrices).xreplace(matrices).as_explicit())
        rows = []
        for i in range(scores.rows):
            total = sum(sympy.exp(scores[i, j]) for j in range(scores.cols))
            rows.append([sympy.exp(scores[i, j]) / total for j in range(scores.cols)])
        return sympy.ImmutableMatrix(rows)
    args = [_written_out(a, sizes, matrices) for a in expression.args]
    if isinstance(expression, MatrixElement) and isinstance(args[0], sympy.MatrixBase):
        return args[0][int(args[1]), int(args[2])]
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
    """True when an evaluation independent of the kernel finds the statement false at ``point``."""
    sizes, matrices = {}, {}
    for side in (lhs, rhs):
        for symbol in getattr(side, "free_symbols", set()):
            shape = getattr(symbol, "shape", ())
            for s in [symbol, *(sympy.sympify(n) for n in shape)]:
                for free in getattr(s, "free_symbols", set()):
                    if str(free) in point and not isinstance(free, sympy.MatrixSymbol):
                        sizes[free] = _value(point[str(free)])
            if isinstance(symbol, sympy.MatrixSymbol) and str(symbol) in point:
                matrices[symbol] = _value(point[str(symbol)])
    left, right = (_written_out(side, sizes, matrices) for side in (lhs, rhs))
    named = {name: value for name, value in point.items() if "(" not in name}
    functions = {name: value for name, value in point.items() if "(" in name}
    if relation == "=" and not functions:
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
    if functions:  # arbitrary functions: take the values the kernel drew for them
        replaced = {}
        left, right = (side.xreplace(sizes).doit() for side in (left, right))
        for side in (left, right):
            for node in sympy.preorder_traversal(
                sympy.sympify(side) if not isinstance(side, sympy.MatrixBase) else side
            ):
                if isinstance(node, sympy.Function):
                    key = f"{type(node).__name__}({', '.join(str(a.xreplace(sizes)) for a in node.args)})"
                    if key in functions:
                        replaced[node] = _value(functions[key])
        left, right = (side.xreplace(replaced) for side in (left, right))
    return _sympy_verdict(left, right, point, relation)
