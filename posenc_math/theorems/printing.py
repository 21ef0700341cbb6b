"""LaTeX for theorem boxes: SymPy's printer with the house's choices (a leaf: no state, no theorem imports).

Named definitions (:class:`~posenc_math.theorems.language.Definition`) print
by their names; :func:`latex` takes an optional ``notation`` (expression ->
symbol shown instead), which the caller passes; nothing is remembered
between calls.

Examples
--------
>>> from sympy import Matrix, Mul, Symbol
>>> print(latex(Matrix([Symbol("x"), 1])))
\\begin{pmatrix}x\\\\1\\end{pmatrix}
>>> print(latex(Mul(-2, 0, 1 / Symbol("d"), evaluate=False)))
- \\frac{2 \\cdot 0}{d}
>>> from sympy import log
>>> print(latex(3 - log(Symbol("n"), 2)))  # SymPy keeps log(n, 2) as log(n)/log(2)
3 - \\log_{2} n
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import sympy
from sympy.printing.latex import LatexPrinter
from sympy.printing.precedence import PRECEDENCE

__all__ = ["MATRIX_WIDE", "latex", "visible_length"]

#: A matrix wider than this has its long entries written over several lines
#: (its columns, gaps and parentheses print wider than a line of terms).
MATRIX_WIDE = 24
_MATRIX_WIDE = MATRIX_WIDE

#: How SymPy's printer is set for theorem boxes: matrices as pmatrix, ln for the natural logarithm.
_SETTINGS = {"mat_delim": "", "mat_str": "pmatrix", "ln_notation": True}


class _Printer(LatexPrinter):
    """SymPy's LaTeX printer, with two changes for reading on any screen.

    - A matrix wider than a phone's line writes each wide sum in a cell over
      several lines (a term per line), with room between the matrix rows:
      MathJax cannot break a line inside a matrix, so a matrix must fit.
    - A product written unevaluated with more than a leading coefficient
      (``-2 * 0 / d``, ``omega * 0``, ``2**a * 2**b``) joins its factors with
      ``\\cdot``: juxtaposed numbers (``(-2) 0``, ``\\omega 0``) misread; a
      factor 1 in front is left out.
    """

    def _print_matrix_contents(self, expr) -> str:
        rows, cols = expr.shape
        if not self._settings["fold_short_frac"]:
            # e^{s_0} / Z_0 at full size, not a fraction shrunk to a matrix cell
            cell = _Printer(
                {**_SETTINGS, "fold_func_brackets": self._settings["fold_func_brackets"], "fold_short_frac": True}
            )
            return cell._print_matrix_contents(expr)
        cells = [[self._print(expr[i, j]) for j in range(cols)] for i in range(rows)]
        budget = max((_MATRIX_WIDE - 2 * cols) // cols, 8)
        broken = False
        if _matrix_width(cells) > _MATRIX_WIDE and not self._settings["fold_func_brackets"]:
            # as textbooks write a wide matrix: sin k omega, not sin(k omega)
            folded = _Printer({**_SETTINGS, "fold_short_frac": True, "fold_func_brackets": True})
            return folded._print_matrix_contents(expr)
        if _matrix_width(cells) > _MATRIX_WIDE:
            for i in range(rows):
                for j in range(cols):
                    entry = expr[i, j]
                    if isinstance(entry, sympy.Add) and visible_length(cells[i][j]) > budget:
                        lines = _fill([self._print(term) for term in self._as_ordered_terms(entry)], budget)
                        if len(lines) > 1:
                            broken = True
                            cells[i][j] = "\\begin{aligned}&" + "\\\\&".join(lines) + "\\end{aligned}"
        separator = "\\\\[1ex]" if broken else "\\\\"
        return "\\begin{pmatrix}" + separator.join(" & ".join(row) for row in cells) + "\\end{pmatrix}"

    def _print_Mul(self, expr) -> str:
        logarithm = self._logarithm_to_base(expr)
        if logarithm is not None:
            return logarithm
        args: tuple = expr.args if isinstance(expr, sympy.Mul) else ()
        if len(args) > 1 and args[0] is sympy.S.One:  # 1 x is x
            return self._print(sympy.Mul(*args[1:], evaluate=False))
        # the order SymPy prints in: sorted when the product is in canonical form, as written when not
        order = list(args)
        if args and sympy.Mul(*args) == expr:
            coefficient, rest = expr.as_coeff_Mul()
            order = ([coefficient] if coefficient != 1 else []) + list(rest.as_ordered_factors())
        if not any(a.is_Number or (isinstance(a, sympy.Pow) and a.base.is_Number) for a in order[1:]):
            return super()._print_Mul(expr)
        numbers = [factor for factor in order if factor.is_Number]
        negative = sum(bool(number.is_negative) for number in numbers) % 2 == 1
        top, bottom = [], []
        for factor in order:
            if factor.is_Number:
                if factor == -1:
                    continue  # written as the sign
                factor = abs(factor)
                if factor.is_Rational and factor.q != 1:
                    bottom.append(sympy.Integer(factor.q))
                    factor = sympy.Integer(factor.p)
                if factor != 1:
                    top.append(factor)
            elif isinstance(factor, sympy.Pow) and factor.exp.is_Rational and factor.exp.is_negative:
                bottom.append(sympy.Pow(factor.base, -factor.exp, evaluate=False) if factor.exp != -1 else factor.base)
            else:
                top.append(factor)

        def joined(factors):
            if len(factors) == 1:
                return self._print(factors[0])
            return " \\cdot ".join(self._factor(factor) for factor in factors)

        tex = joined(top or [sympy.S.One])
        if len(top) == 1 and not bottom:
            tex = self._factor(top[0])
        if bottom:
            tex = f"\\frac{{{tex}}}{{{joined(bottom)}}}"
        return f"- {tex}" if negative else tex

    def _logarithm_to_base(self, expr) -> str | None:
        """``c ln x / ln b`` (how SymPy stores ``log(x, b)``) as ``c \\log_b x``; None for any other product."""
        if not isinstance(expr, sympy.Mul):
            return None
        coefficient, rest = expr.as_coeff_Mul()
        factors = sympy.Mul.make_args(rest)
        if len(factors) != 2 or not coefficient.is_Rational:
            return None
        logs = [f for f in factors if isinstance(f, sympy.log)]
        inverse = [f for f in factors if isinstance(f, sympy.Pow) and f.exp == -1 and isinstance(f.base, sympy.log)]
        if len(logs) != 1 or len(inverse) != 1 or not inverse[0].base.args[0].is_Integer:
            return None
        base, argument = inverse[0].base.args[0], logs[0].args[0]
        shown = self._factor(argument)
        if shown[:1].isdigit():  # log_2 2^p would read as a product of numbers: log_2 (2^p)
            shown = rf"\left({shown}\right)"
        tex = rf"\log_{{{self._print(base)}}} {shown}"
        if coefficient == 1:
            return tex
        if coefficient == -1:
            return "- " + tex
        return f"{self._print(coefficient)} {tex}"

    def _as_ordered_terms(self, expr, order=None):
        # a sum in SymPy's canonical form prints sorted; a sum written unevaluated prints as written
        if order is None and isinstance(expr, sympy.Add):
            matrix = isinstance(expr, sympy.MatAdd)
            canonical = sympy.MatAdd(*expr.args, evaluate=True) if matrix else sympy.Add(*expr.args)
            if canonical.args != expr.args:
                return list(expr.args)
        terms = list(super()._as_ordered_terms(expr, order=order))
        # a sum starts with a positive term when it has one: n - m, not -m + n
        if order is None and terms and terms[0].could_extract_minus_sign():
            first = next((term for term in terms if not term.could_extract_minus_sign()), None)
            if first is not None:
                terms.remove(first)
                terms.insert(0, first)
        return terms

    def _print_Transpose(self, expr) -> str:
        # a named matrix (T(k), Pi, A_j) is transposed without parentheses: T(k)^T, as textbooks write it;
        # the transpose is \top, as the pages' prose writes it (an italic T read as the matrix T)
        matrix = expr.arg
        if getattr(type(matrix), "definition", None) is not None:
            return f"{self._print(matrix)}^{{\\top}}"
        printed = super()._print_Transpose(expr)
        return printed[: -len("^{T}")] + "^{\\top}" if printed.endswith("^{T}") else printed

    def _print_Identity(self, expr) -> str:
        # the identity matrix is I, as the prose writes it (SymPy prints a double-struck I)
        return "I"

    def _needs_function_brackets(self, expr) -> bool:
        # sin k omega, sin omega (k + l) without brackets: a product of symbols, numbers and sums
        if not all(factor.is_Atom or isinstance(factor, sympy.Add) for factor in sympy.Mul.make_args(expr)):
            return True
        return super()._needs_function_brackets(expr)

    def _factor(self, factor) -> str:
        """A factor of a product, in parentheses when it needs them (a fraction does not)."""
        tex = self._print(factor)
        if tex.startswith("\\frac") and tex.endswith("}"):
            return tex
        return self.parenthesize(factor, PRECEDENCE["Mul"], strict=False)


def _matrix_width(cells: list[list[str]]) -> int:
    """Printed width of a matrix: its widest cell per column, plus the gaps and parentheses."""
    columns = zip(*cells, strict=True)
    return sum(max(visible_length(cell) for cell in column) for column in columns) + 2 * len(cells[0])


def _pack(pieces: list[str], width: int) -> list[str]:
    """``pieces`` in order, on as few lines of at most ``width`` visible characters as they go."""
    lines, current = [], ""
    for piece in pieces:
        if current and visible_length(current + piece) > width:
            lines.append(current)
            current = piece
        else:
            current = f"{current} {piece}".strip()
    lines.append(current)
    return lines


def _fill(pieces: list[str], width: int) -> list[str]:
    """Terms of a sum, on as few lines of at most ``width`` characters as they go (signs kept)."""
    return _pack([pieces[0]] + [piece if piece.startswith("-") else f"+ {piece}" for piece in pieces[1:]], width)


def visible_length(tex: str) -> int:
    r"""A rough count of the characters a LaTeX string prints.

    Function names count with their letters, other commands (Greek letters,
    ``\cdot``) as one character, braces and spacing not at all.

    Examples
    --------
    >>> visible_length(r"\sin{\left(x \right)} + \omega")
    8
    """
    tex = re.sub(r"\\(left|right|begin\{[a-z]*\}|end\{[a-z]*\}|quad|qquad|,|;|!)", "", tex)
    tex = re.sub(r"\\(sin|cos|tan|log|exp|ln|operatorname|text|mathrm)\b", lambda m: m.group(1)[:3], tex)
    tex = re.sub(r"\\[a-zA-Z]+", "#", tex)
    return len(re.sub(r"[{}\s^_&]", "", tex))


def latex(expression, notation: Mapping | None = None) -> str:
    """LaTeX of a side (matrices as ``pmatrix``); ``notation`` maps expressions to the symbols shown instead."""
    if notation:
        if isinstance(expression, sympy.MatrixBase):
            expression = sympy.ImmutableMatrix(expression)  # hashable, so a named matrix is found
        if expression in notation:
            expression = notation[expression]
        elif hasattr(expression, "xreplace"):
            expression = expression.xreplace(dict(notation))
    return _Printer(_SETTINGS).doprint(expression)
