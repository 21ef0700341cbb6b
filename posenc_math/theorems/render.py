"""Theorems as MyST text for the site: statement, steps, and what was checked.

The site never retypes a derivation: :func:`theorem_myst` writes a
sphinx-proof ``prf:theorem`` (label ``thm-<id>``) and a ``prf:proof`` from
the :class:`~posenc_math.theorems.core.Theorem` object and the
:class:`~posenc_math.theorems.core.Result` of checking it during the build.

Everything written here is deterministic for a given theorem and result
(the time is given as a coarse bound), so two builds of one commit give the
same page.
"""

from __future__ import annotations

import sympy

from .core import Chain, Equal, Fact, Result, Theorem

__all__ = ["index_myst", "label", "seconds_bound", "theorem_myst"]


def label(theorem_id: str) -> str:
    """The stable anchor of a theorem on the site.

    Examples
    --------
    >>> label("shift-block")
    'thm-shift-block'
    """
    return f"thm-{theorem_id}"


def seconds_bound(seconds: float) -> str:
    """A coarse, build-stable bound on a checking time.

    Exact timings differ from build to build; the page states a bound that
    does not, so two builds of one commit stay byte-identical (the exact
    figures are in ``posenc-math verify`` and ``make bench``).

    Examples
    --------
    >>> seconds_bound(0.04), seconds_bound(2.5)
    ('under 1 s', 'under 10 s')
    """
    for bound in (1, 10, 100):
        if seconds < bound:
            return f"under {bound} s"
    return f"{seconds:.0f} s"


def latex(expression) -> str:
    """LaTeX of a side of a step or conclusion (matrices as ``pmatrix``).

    Examples
    --------
    >>> from sympy import Matrix, Symbol
    >>> latex(Matrix([Symbol("x"), 1]))
    '\\begin{pmatrix}x\\\\1\\end{pmatrix}'
    """
    return sympy.latex(expression, mat_delim="", mat_str="pmatrix")


_latex = latex


def _text(value: str) -> str:
    """A justification as LaTeX text (escaping what \\text would misread)."""
    for bad, good in (("\\", r"\backslash "), ("_", r"\_"), ("^", r"\^{}"), ("#", r"\#"), ("%", r"\%"), ("&", r"\&")):
        value = value.replace(bad, good)
    return value


def _statement(latex: str) -> str:
    """A statement with ``\\\\`` line breaks goes in a centred ``gathered`` block."""
    return f"\\begin{{gathered}}{latex}\\end{{gathered}}" if "\\\\" in latex else latex


def _same_when_built(lhs, rhs) -> bool:
    """True when SymPy already evaluated both sides to the same expression
    while building them (the step's work was done by that evaluation)."""
    try:
        return sympy.sympify(lhs) == sympy.sympify(rhs)
    except (TypeError, ValueError, sympy.SympifyError):
        return False


_BUILT = "; SymPy's evaluation while building both sides already agrees"


def _chain_lines(chain: Chain) -> list[str]:
    rows = [f"& {_latex(chain.start)} \\\\"]
    previous = chain.start
    for expression, why in chain.links:
        note = _BUILT if _same_when_built(previous, expression) else ""
        rows.append(f"&= {_latex(expression)} && \\text{{({_text(why + note)})}} \\\\")
        previous = expression
    rows[-1] = rows[-1].removesuffix(" \\\\")
    return ["$$", r"\begin{aligned}", *rows, r"\end{aligned}", "$$"]


def _step_lines(part, first_number: int) -> list[str]:
    count = sum(1 for _ in part.checks())
    numbers = f"Step {first_number}" if count == 1 else f"Steps {first_number}–{first_number + count - 1}"
    if isinstance(part, Chain):
        return [f"{numbers}:", "", *_chain_lines(part), ""]
    if isinstance(part, Equal):
        note = _BUILT if _same_when_built(part.lhs, part.rhs) else ""
        return [
            f"{numbers} ({part.why}{note}):",
            "",
            "$$",
            f"{_latex(part.lhs)} = {_latex(part.rhs)}",
            "$$",
            "",
        ]
    if isinstance(part, Fact):
        why = f" ({part.why})" if part.why else ""
        return [f"{numbers}, checked by computation: {part.claim}{why}.", ""]
    raise TypeError(f"cannot render a step of type {type(part).__name__}")


def _checked_lines(theorem: Theorem, result: Result) -> list[str]:
    if result.ok:
        symbolic = [s for s in result.step_results if s.method != "fact"]
        facts = len(result.step_results) - len(symbolic)
        methods = sorted({s.method for s in symbolic})
        lines = [f"**Checked when this page was built** ({seconds_bound(result.seconds)}):", ""]
        if symbolic:
            lines.append(
                f"- {len(symbolic)} symbolic {'step' if len(symbolic) == 1 else 'steps'}: "
                f"each residual reduced to exactly 0 ({', '.join(methods)});"
            )
        if facts:
            lines.append(
                f"- {facts} {'fact' if facts == 1 else 'facts'} checked by computation "
                "(enumeration, SymPy's assumptions, or the numpy builders within the stated tolerance) held;"
            )
    else:
        lines = ["**FAILED when this page was built**:", ""]
        lines += [f"- {failure}" for failure in result.failures]
    if theorem.witness is not None and result.witness_error is not None:
        licenses = f" against `{theorem.witness.licenses}`" if theorem.witness.licenses else ""
        lines.append(
            f"- numeric witness{licenses}: {theorem.witness.description}; largest error "
            f"{result.witness_error:.2g} (tolerance {theorem.witness.tolerance:.0e});"
        )
    lines.append(f"- negative control {result.negative_control}: {theorem.negative_control_text}.")
    return lines


def theorem_myst(theorem: Theorem, result: Result) -> str:
    """The MyST markdown of one theorem and its checked proof.

    Examples
    --------
    >>> from posenc_math import theorems
    >>> text = theorem_myst(theorems.get("shift-block"), theorems.verify_one("shift-block"))
    >>> ":label: thm-shift-block" in text and "Checked when this page was built" in text
    True
    """
    lines = [
        f":::{{prf:theorem}} {theorem.title}",
        f":label: {label(theorem.id)}",
        "",
        "$$",
        _statement(theorem.statement),
        "$$",
        "",
        f"Theorem id: `{theorem.id}` (cite it; check it with `posenc-math verify {theorem.id}`).",
        "",
        "Assumptions: " + "; ".join(theorem.assumptions) + "." if theorem.assumptions else "",
        ":::",
        "",
        ":::{prf:proof}",
    ]
    number = 1
    for part in theorem.steps:
        lines += _step_lines(part, number)
        number += sum(1 for _ in part.checks())
    lines += [*_checked_lines(theorem, result), "", ":::", ""]
    return "\n".join(lines)


def index_myst(theorems: list[Theorem], results: list[Result]) -> str:
    """Every theorem: a summary table, then each statement with its status.

    Each id links (``prf:ref``) to the theorem's label, on the page that
    derives it step by step.
    """
    lines = [
        "| theorem | status | steps | negative control | checked in |",
        "| --- | --- | ---: | --- | --- |",
    ]
    for result in results:
        lines.append(
            f"| {{prf:ref}}`{result.id} <{label(result.id)}>` | {result.status} | "
            f"{result.steps} | {result.negative_control} | {seconds_bound(result.seconds)} |"
        )
    lines.append("")
    for theorem, result in zip(theorems, results):
        lines += [
            f"**{theorem.title}** ({{prf:ref}}`{theorem.id} <{label(theorem.id)}>`): {result.status}, "
            f"{result.steps} steps, negative control {result.negative_control}, "
            f"checked in {seconds_bound(result.seconds)}.",
            "",
            "$$",
            _statement(theorem.statement),
            "$$",
            "",
        ]
    return "\n".join(lines)
