"""An evaluation independent of the kernel, to confirm its counterexamples (shared by the kernel's tests).

The kernel's numeric certificate is its own interval evaluator; here the
same statement is evaluated by SymPy itself (definitions unfolded,
structured matrices written out at the counterexample's sizes, ``evalf``
at 50 digits) at the point the kernel reported.
"""

from __future__ import annotations

import sympy
from sympy.matrices.expressions.matexpr import MatrixElement

from posenc_math.theorems import language


def _value(text):
    if isinstance(text, list):
        return sympy.ImmutableMatrix([[_value(v) for v in row] for row in text])
    return sympy.sympify(text)


def _explicit(expression, sizes: dict):
    """Named definitions unfolded, block-diagonal matrices, stacks and softmax written out (numeric sizes)."""
    expression = language.unfold(expression)
    if isinstance(expression, sympy.MatrixBase):
        return sympy.ImmutableMatrix(expression.rows, expression.cols, [_explicit(e, sizes) for e in expression])
    if not isinstance(expression, sympy.Basic) or not expression.args:
        return expression
    if isinstance(expression, (language.BlockDiagonal, language.Stacked)):
        count = int(expression.count.xreplace(sizes))
        blocks = [_explicit(expression.block.xreplace({expression.index: j}), sizes) for j in range(count)]
        blocks = [sympy.ImmutableMatrix(b.as_explicit()) for b in blocks]
        if isinstance(expression, language.Stacked):
            return sympy.ImmutableMatrix(sympy.Matrix.vstack(*blocks)) if blocks else sympy.zeros(0, 1)
        return sympy.ImmutableMatrix(sympy.diag(*blocks)) if blocks else sympy.zeros(0, 0)
    if isinstance(expression, language.RowSoftmax):
        scores = sympy.Matrix(_explicit(expression.argument, sizes).as_explicit())
        rows = []
        for i in range(scores.rows):
            total = sum(sympy.exp(scores[i, j]) for j in range(scores.cols))
            rows.append([sympy.exp(scores[i, j]) / total for j in range(scores.cols)])
        return sympy.ImmutableMatrix(rows)
    if isinstance(expression, sympy.Sum):
        return sympy.Sum(_explicit(expression.function, sizes), *expression.limits)
    args = [_explicit(a, sizes) for a in expression.args]
    if isinstance(expression, MatrixElement):
        return sympy.Matrix(args[0].as_explicit())[int(args[1]), int(args[2])]
    return expression.func(*args)


def _apart(difference, scale) -> bool:
    """A difference certainly not 0: exactly, or beyond the last digits of 50-digit arithmetic."""
    if difference.is_Rational:
        return difference != 0
    magnitude = 1 + max(abs(sympy.N(e, 50)) for e in (list(scale) if isinstance(scale, sympy.MatrixBase) else [scale]))
    return abs(sympy.N(difference, 50)) > 1e-40 * magnitude


def confirm_counterexample(lhs, rhs, point: dict, relation: str = "=") -> bool:
    """True when SymPy, evaluating independently at ``point``, finds the two sides apart (or the relation false)."""
    free = set()
    for side in (lhs, rhs):
        free |= set(getattr(side, "free_symbols", set()))
    values = {}
    for symbol in free:
        if str(symbol) in point:
            values[symbol] = _value(point[str(symbol)])
        for n in getattr(symbol, "shape", ()):
            for s in sympy.sympify(n).free_symbols:
                if str(s) in point:
                    values[s] = _value(point[str(s)])
    sizes = {s: v for s, v in values.items() if not isinstance(v, sympy.MatrixBase)}
    functions = {name: value for name, value in point.items() if "(" in name}

    def evaluate(side):
        side = sympy.sympify(side) if not isinstance(side, sympy.MatrixBase) else side
        side = _explicit(language.unfold(side).subs(values), sizes)
        side = side.doit() if hasattr(side, "doit") else side
        if functions:
            replaced = {}
            for node in sympy.preorder_traversal(side):
                if isinstance(node, sympy.Function) and not node.free_symbols:
                    key = f"{type(node).__name__}({', '.join(str(a) for a in node.args)})"
                    if key in functions:
                        replaced[node] = _value(functions[key])
            side = side.xreplace(replaced)
        if isinstance(side, (sympy.MatrixExpr, sympy.MatrixBase)):
            return sympy.Matrix(side.as_explicit())
        return side

    left, right = evaluate(lhs), evaluate(rhs)
    if relation == "=":
        difference = left - right
        entries = list(difference) if isinstance(difference, sympy.MatrixBase) else [difference]
        return any(_apart(e, left) for e in entries)
    gap = sympy.N(right - left, 50)
    left = sympy.N(left, 50)
    return {"<": gap <= 0, "<=": gap < 0, "!=": abs(gap) < 1e-40}[relation]
