"""Theorems as MyST text for the site: the theorem box a reader sees.

:func:`theorem_myst` writes, from the :class:`~posenc_math.theorems.core.Theorem`
object and the :class:`~posenc_math.theorems.core.Result` of checking it
while the page is built:

- a sphinx-proof ``prf:theorem`` (label ``thm-<id>``): the optional lead,
  the statement *rendered from the conclusions* with the quantified symbols
  and their domain, and one line with the status ("verified"; no time:
  checking times vary with the machine's load, and a page must not), the
  scope label and note, and a link to the page "How the proofs
  are checked" (``checking``);
- the human proof (``posenc-proof``): prose and the displayed steps, each a
  checked step;
- the whole numbered machine chain in a fold (``posenc-machine-proof``,
  an HTML ``<details class="machine-proof">``, closed on load).

Chains are aligned multi-line displays, one step per line with its
justification on the line below, so they fit a phone's width.  Everything
written here is deterministic for a given theorem and result (no time is
shown; ``posenc-math verify`` prints them), so two builds of one commit give
the same page.
"""

from __future__ import annotations

import contextvars
import itertools

import sympy

from .core import Chain, Conclusion, Equal, Fact, Holds, Result, Termwise, Theorem, Use
from .kernel.normal import Refused, declared_domain
from .language import Definition, PermutationSymbol, _Named, unfold
from .printing import _SETTINGS, _Printer, visible_length
from .printing import latex as _latex

__all__ = [
    "CHECKING_PAGE",
    "dependency_graph_svg",
    "domain_text",
    "index_myst",
    "label",
    "latex",
    "statement_latex",
    "theorem_myst",
]

#: The docname of "How the proofs are checked".
CHECKING_PAGE = "checking"

#: A line wider than about this many printed characters is broken (a 390 px
#: phone shows about 30 characters of display math).
_WIDE = 30
#: A justification's line, in characters of text (a formula counts one and a half per character): at 34,
#: "(multiply out: the imaginary parts" did not fit a phone's proof box and MathJax broke it again.
_WHY_WIDE = 31


def label(theorem_id: str) -> str:
    """The stable anchor of a theorem on the site.

    Examples
    --------
    >>> label("shift-block")
    'thm-shift-block'
    """
    return f"thm-{theorem_id}"


#: The notation of the theorem being rendered (set by :func:`theorem_myst` for its duration).
_NOTATION: contextvars.ContextVar = contextvars.ContextVar("posenc_render_notation", default=None)


def _print(expression) -> str:
    """LaTeX without the theorem's notation."""
    return _latex(expression)


def _spelled(value) -> bool:
    """Whether the statement spells out what a notation stands for: not for a
    matrix of computed entries (its name, such as ``X M X^T``, is the formula)."""
    if isinstance(value, sympy.MatrixBase):
        return all(entry.is_Atom for entry in value)
    return True


def latex(expression) -> str:
    """LaTeX of a side of a step or conclusion (matrices as ``pmatrix``), with the notation of the theorem
    being rendered.

    Examples
    --------
    >>> from sympy import Matrix, Symbol
    >>> print(latex(Matrix([Symbol("x"), 1])))
    \\begin{pmatrix}x\\\\1\\end{pmatrix}
    """
    return _latex(expression, _NOTATION.get())


def _text(value: str) -> str:
    """Plain words as LaTeX ``\\text`` content (escaping what it would misread)."""
    for bad, good in (("\\", r"\backslash "), ("_", r"\_"), ("^", r"\^{}"), ("#", r"\#"), ("%", r"\%"), ("&", r"\&")):
        value = value.replace(bad, good)
    return value


_RELATION = {"=": "=", "<": "<", "<=": r"\le", "!=": r"\ne"}


def _aligned(rows: list[str]) -> str:
    return "\\begin{aligned}\n" + " \\\\\n".join(rows) + "\n\\end{aligned}"


def _terms(expression) -> list:
    """The terms of a sum in the order the printer writes them."""
    return list(_Printer(_SETTINGS)._as_ordered_terms(expression))


def _factors(expression) -> tuple[object, list]:
    """A product as (its number in front, the other factors: reciprocals, the rest in printed order, sums).

    The number is the product of every numeric factor when the factors
    commute, and the sums come last (so ``(a - b) \\cdot \\frac{1}{2i}`` reads ``-\\frac{i}{2} (a - b)``:
    a number left at the end of a broken line would start the next line and
    read as a subtraction); factors that do not commute keep their order."""
    factors = list(expression.args)
    if not expression.is_commutative:
        return sympy.S.One, factors
    if sympy.Mul(*factors) == expression:  # canonical: in the order the printer writes it
        factors = list(expression.as_ordered_factors())
    numbers = [factor for factor in factors if factor.is_number]
    others = [factor for factor in factors if not factor.is_number]
    sums = [factor for factor in others if isinstance(factor, sympy.Add)]
    reciprocals = [factor for factor in others if isinstance(factor, sympy.Pow) and factor.exp.is_negative]
    rest = [factor for factor in others if factor not in sums and factor not in reciprocals]
    return sympy.Mul(*numbers), reciprocals + rest + sums


def _numerator(tex: str) -> str | None:
    """The numerator when ``tex`` is one ``\\frac{...}{...}`` (a sign in front allowed), else None.

    Examples
    --------
    >>> _numerator(r"- \\frac{a b}{s}"), _numerator(r"\\frac{1}{2} \\left(a + b\\right)")
    ('a b', None)
    """
    tex = tex.removeprefix("- ")
    if not tex.startswith("\\frac{"):
        return None
    depth, groups, start = 0, 0, len("\\frac{")
    for index, character in enumerate(tex):
        if character == "{":
            depth += 1
        elif character == "}":
            depth -= 1
            if depth == 0:
                groups += 1
                if groups == 1:
                    numerator = tex[start:index]
                if groups == 2:
                    return numerator if index == len(tex) - 1 else None
    return None


def _rows(expression, width: int = _WIDE) -> list[str]:
    """LaTeX of ``expression`` on rows of about ``width`` printed characters, broken where a reader breaks it.

    A sum breaks before a top-level sign, a sum over an index inside its
    summand; a product between its factors (its
    number first), the next row starting with ``\\cdot`` (not for matrices); a factor that is
    itself a wide sum is broken inside ``\\bigl( \\bigr)`` the same way.  Each
    level of breaking indents its continuation rows by a ``\\quad`` more, so the
    rows show what belongs to what.  MathJax breaks a row that is still too wide
    at the width of the screen, where it can (inside parentheses too): rows cut
    here at the terms keep that rare.  An expression that is neither a sum nor a
    product stays whole, and so does a product printed as one fraction whose numerator fits.

    Examples
    --------
    >>> from sympy import Mul, Rational, symbols
    >>> a, b, c, d, x = symbols("alpha beta gamma delta x", real=True)
    >>> wide = (a + b + x) * (b + c + x) - (c + d + x) * (a + d + x)
    >>> for row in _rows(Mul(wide, -Rational(1, 2), evaluate=False), width=12):
    ...     print(row)
    - \\frac{1}{2} \\bigl(\\left(\\alpha + \\beta + x\\right)
    \\quad \\quad \\cdot \\left(\\beta + \\gamma + x\\right)
    \\quad - \\left(\\alpha + \\delta + x\\right)
    \\quad \\quad \\cdot \\left(\\delta + \\gamma + x\\right)\\bigr)
    """
    whole = latex(expression)
    if visible_length(whole) <= width:
        return [whole]
    numerator = _numerator(whole)
    narrow_fraction = numerator is not None and visible_length(numerator) <= width  # it prints as wide as its top
    pieces: list[list[str]] = []  # each piece: its rows (one when it is not broken)
    lead = None  # a product's number in front
    joint = ""  # what starts a row that breaks between two pieces
    if isinstance(expression, sympy.Add) and not isinstance(expression, sympy.MatAdd):
        for index, term in enumerate(_terms(expression)):
            first, *more = _rows(term, width)
            if index and not first.startswith("-"):
                first = f"+ {first}"
            pieces.append([first, *more])
    elif isinstance(expression, sympy.Mul) and len(expression.args) > 1 and not narrow_fraction:
        joint = "\\cdot" if expression.is_commutative else ""  # matrices: side by side, as before
        number, factors = _factors(expression)
        if number != 1:
            lead = "-" if number == -1 else latex(number)  # stays with what follows it
            pieces.append([lead])
        for factor in factors:
            if isinstance(factor, sympy.Add):
                first, *more = _rows(factor, width - 2)
                if not more:
                    pieces.append([f"\\left({first}\\right)"])
                else:
                    *middle, last = (f"\\quad {row}" for row in more)
                    pieces.append([f"\\bigl({first}", *middle, f"{last}\\bigr)"])
            else:
                tex = latex(factor)
                pieces.append([f"\\left({tex}\\right)" if tex.startswith("-") else tex])
    elif isinstance(expression, sympy.Sum) and len(expression.limits) == 1:
        # a sum over an index: its sign, then its summand broken inside \\bigl( \\bigr)
        index, low, high = expression.limits[0]
        sign = f"\\sum_{{{latex(index)}={latex(low)}}}^{{{latex(high)}}}"
        first, *more = _rows(expression.function, width - 2)
        if not whole.startswith(sign) or not more:
            return [whole]
        *middle, last = (f"\\quad {row}" for row in more)
        return [f"{sign} \\bigl({first}", *middle, f"{last}\\bigr)"]
    else:
        return [whole]
    rows, current = [], ""
    for piece in pieces:
        first = piece[0]
        # a term broken over rows starts a row of its own; a product's bracket may follow its number
        broken_term = len(piece) > 1 and not joint
        if current and current != lead and (broken_term or visible_length(f"{current} {first}") > width):
            rows.append(current)
            current = f"\\quad {joint}" if joint else ""
        juxtaposed = current and current != lead and not current.endswith(joint)
        if joint and juxtaposed and first[:1].isdigit():  # 2^a 2^b reads as one number: 2^a \cdot 2^b
            first = f"{joint} {first}"
        current = f"{current} {first}".strip()
        if len(piece) > 1:
            rows += [current, *piece[1:-1]]
            current = piece[-1]
    rows.append(current)
    return rows


def _side_rows(expression, prefix: str) -> list[str]:
    """``prefix`` + the expression, on as many aligned rows as its width needs."""
    whole = latex(expression)
    if visible_length(whole) <= _WIDE:
        return [f"{prefix}{whole}"]
    rows = _rows(expression)
    if len(rows) == 1 and "\\begin{aligned}" in whole and prefix.strip("& "):
        # a matrix with entries over several lines starts its own row, under its relation
        return [prefix.rstrip(), f"&\\quad {whole}"]
    return [f"{prefix}{rows[0]}"] + [f"&\\quad {row}" for row in rows[1:]]


def _why_tokens(why: str) -> list[tuple[str, bool]]:
    """Words and ``$...$`` formulas of a justification, each with whether a space came before it."""
    import re

    return [
        (match.group(), match.start() > 0 and why[match.start() - 1].isspace())
        for match in re.finditer(r"\$[^$]*\$|[^\s$]+", why)
    ]


def _why_line(tokens: list[tuple[str, bool]]) -> str:
    """One line of a justification: words in ``\\text``, formulas as math, spaces kept between them."""
    out, words = [], ""
    for index, (token, spaced) in enumerate(tokens):
        space = " " if spaced and index else ""
        if token.startswith("$"):
            if words or space:
                out.append(f"\\text{{{_text(words + space)}}}")
            words = ""
            out.append("{" + token.strip("$") + "}")
        else:
            words += space + token
    if words:
        out.append(f"\\text{{{_text(words)}}}")
    return "".join(out)


def _why_rows(why: str) -> list[str]:
    """A justification on its own line(s) under the step, wrapped to the phone's width.

    Words are set as text and ``$...$`` as math, so a formula in a
    justification reads as one (never ``e^(-ln x)`` in text).  Lines break
    at spaces only: a parenthesis or a colon stays with the formula it
    touches (a lone ``(`` on a line of its own read as a stray bracket).
    """
    words: list[list[tuple[str, bool]]] = []  # tokens with no space between them
    for token, spaced in _why_tokens(f"({why})"):
        if spaced or not words:
            words.append([])
        words[-1].append((token, spaced))
    lines: list[list[tuple[str, bool]]] = [[]]
    used = 0
    for word in words:
        # a formula prints wider than its letters: italics, spacing around relations
        size = sum(
            round(1.5 * visible_length(token.strip("$"))) if token.startswith("$") else len(token) for token, _ in word
        )
        if lines[-1] and used + size + 1 > _WHY_WIDE:
            lines.append([])
            used = 0
            word = [(word[0][0], False), *word[1:]]
        lines[-1] += word
        used += size + (1 if word[0][1] else 0)
    return [f"&\\quad{_why_line(line)}" for line in lines]


def _relation_rows(lhs: str, relation: str, rhs: str) -> list[str]:
    """One ``lhs relation rhs``: on one line, or broken before the relation when wide."""
    if visible_length(lhs) + visible_length(rhs) <= _WIDE:
        return [f"{lhs} &{relation} {rhs}"]
    return [f"&{lhs}", f"&{relation} {rhs}"]


def _relation_rows_of(lhs, relation: str, rhs) -> list[str]:
    """Like :func:`_relation_rows`, from expressions: long sides are broken at their terms."""
    left, right = latex(lhs), latex(rhs)
    if visible_length(left) + visible_length(right) <= _WIDE:
        return [f"{left} &{relation} {right}"]
    return _broken_rows(lhs, relation, rhs)


def _broken_rows(lhs, relation: str, rhs) -> list[str]:
    """A relation too wide for one line: each side on its own rows, long sides broken at their terms."""
    return [*_side_rows(lhs, "&"), *_side_rows(rhs, f"&{relation} ")]


def _hypotheses_latex(conclusion, shared: tuple = ()) -> str:
    """``b > 1, j \\le P`` for a conclusion's hypotheses, after the theorem's own (``shared``); empty when there
    are none."""
    return ", ".join(latex(h) for h in (*shared, *getattr(conclusion, "assuming", ())))


def statement_latex(conclusions, shared: tuple = ()) -> str:
    """The statement: the conclusions, aligned at their relations.

    Examples
    --------
    >>> from sympy import Symbol, sin, cos
    >>> x = Symbol("x", real=True)
    >>> print(statement_latex([Conclusion(sin(2 * x), 2 * sin(x) * cos(x), over=(x,))]))
    \\begin{aligned}
    \\sin{\\left(2 x \\right)} &= 2 \\sin{\\left(x \\right)} \\cos{\\left(x \\right)}
    \\end{aligned}
    """
    rows = []
    for conclusion in conclusions:
        rows += _relation_rows_of(conclusion.lhs, _RELATION[conclusion.relation], conclusion.rhs)
        hypotheses = _hypotheses_latex(conclusion, shared)
        if hypotheses:
            rows.append(f"&\\quad\\text{{if }} {hypotheses}")
    return _aligned(rows)


def _statement_lines(conclusions, shared: tuple = ()) -> list[str]:
    """One display per conclusion (a statement with several reads as a list); when there are several, each
    one's own condition (``where``) stands under it, not in one run with the others'.  ``shared``: the
    theorem's own hypotheses, which every conclusion carries."""
    lines = []
    several = len(conclusions) > 1
    for conclusion in conclusions:
        lines += _display(statement_latex([conclusion], shared))
        if several and conclusion.where:
            lines += [_sentence(conclusion.where), ""]
    return lines


def _sentence(text: str) -> str:
    """A conclusion's ``where`` as the sentence under its display.

    Examples
    --------
    >>> _sentence("a query $k$ or more positions after its key")
    'Here, a query $k$ or more positions after its key.'
    """
    text = text.strip()
    return "Here, " + (text if text.endswith((".", "?", "!")) else text + ".")


#: How a domain's sign reads before its kind ("positive real", "nonzero integer").
_SIGN_WORDS = {
    "pos": "positive",
    "neg": "negative",
    "nonneg": "nonnegative",
    "nonpos": "nonpositive",
    "nonzero": "nonzero",
}


def _describe(symbol) -> str:
    """The symbol's domain as the kernel reads it (parity, sign, kind): the box says what was checked."""
    if isinstance(symbol, PermutationSymbol):
        return f"${latex(symbol.rows)} \\times {latex(symbol.cols)}$ permutation matrix"
    if isinstance(symbol, sympy.MatrixSymbol):
        rows, cols = symbol.shape
        if cols == 1:
            return f"column of length ${latex(rows)}$"
        return f"${latex(rows)} \\times {latex(cols)}$ matrix"
    try:
        domain = declared_domain(symbol)
    except Refused:
        return "(declared as the kernel does not read)"
    words = [domain.parity] if domain.parity else []
    if domain.sign:
        words.append(_SIGN_WORDS[domain.sign])
    return " ".join([*words, domain.kind])


def domain_text(conclusions) -> str:
    """ "for all ..." over the quantified symbols, grouped by their declared domain.

    Examples
    --------
    >>> from sympy import Symbol, sin
    >>> x, w = Symbol("x", real=True), Symbol("omega", positive=True)
    >>> domain_text([Conclusion(sin(w * x), sin(w * x), over=(w, x))])
    'for every positive real $\\\\omega$ and real $x$'
    """
    groups: dict[str, list] = {}
    for conclusion in conclusions:
        for symbol in conclusion.over:
            names = groups.setdefault(_describe(symbol), [])
            if symbol not in names:
                names.append(symbol)
    if not groups:
        return ""
    parts = []
    for description, symbols in groups.items():
        # one formula per symbol: a phone breaks the line between them
        listed = ", ".join(f"${latex(symbol)}$" for symbol in symbols)
        if "matrix" in description or "column" in description:
            parts.append(f"{listed} {_article(description)} {description}")
        else:
            parts.append(f"{description} {listed}")
    text = parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]
    return "for every " + text


def _article(description: str) -> str:
    """``a`` or ``an`` as the description is read aloud: an $n \\times n$ matrix, a $w \\times w$ matrix."""
    text = description.lstrip("$")
    first = text[:1].lower()
    return "an" if first in "aefhilmnorsx8" and first else "a"


def definitions(expressions) -> list[Definition]:
    """The definitions the expressions use, those inside definitions too, in order of first use."""
    found: list = []
    stack = list(expressions)[::-1]
    while stack:
        node = stack.pop()
        if isinstance(node, sympy.MatrixBase):
            stack.extend(reversed(list(node)))
            continue
        if not isinstance(node, sympy.Basic):
            continue
        if isinstance(node, _Named) and node.definition not in found:
            found.append(node.definition)
            stack.append(node.definition.body)
        stack.extend(reversed(node.args))
    return found


def _definition_latex(definition: Definition) -> str:
    name = definition.latex.format(*(latex(p) for p in definition.params))
    return f"{name} = {latex(definition.body)}"


def _where(conclusions) -> list[str]:
    seen = []
    for conclusion in conclusions:
        if conclusion.where and conclusion.where not in seen:
            seen.append(conclusion.where)
    return seen


def _display(body: str) -> list[str]:
    return ["", "$$", body, "$$", ""]


def _step_rows(check, context=None) -> list[str]:
    """Aligned rows for one check: ``lhs = rhs`` with the justification below it."""
    lhs, relation, rhs = check.sides(context)
    left, right = latex(lhs), latex(rhs)
    if visible_length(left) + visible_length(right) <= _WIDE:
        # aligned at the left, like the justification under it (aligned at the relation, a short
        # step would push its justification to the middle of the line)
        return [f"&{left} {_RELATION[relation]} {right}", *_why_rows(check.why)]
    return [*_broken_rows(lhs, _RELATION[relation], rhs), *_why_rows(check.why)]


def _chain_display(chain: Chain) -> str:
    rows = _side_rows(chain.start, "&")
    for expression, why in chain.links:
        rows += [*_side_rows(expression, "&= "), *_why_rows(why)]
    return _aligned(rows)


def _part_lines(part) -> list[str]:
    """A step of the human proof, displayed."""
    if isinstance(part, Chain):
        return _display(_chain_display(part))
    if isinstance(part, (Equal, Termwise, Holds, Use)):
        return _display(_aligned(_step_rows(part)))
    if isinstance(part, Fact):
        why = f" ({part.why})" if part.why else ""
        return ["", f"Computed: {part.claim}{why}.", ""]
    raise TypeError(f"cannot render a step of type {type(part).__name__}")


def _machine_lines(theorem: Theorem, result: Result) -> list[str]:
    """The numbered machine chain and what the checker said, for the fold."""
    lines = []
    if definitions([side for c in theorem.conclusions for side in (c.lhs, c.rhs)]):
        lines += ["As the kernel reads it, every definition unfolded:"]
        for conclusion in theorem.conclusions:
            unfolded = Conclusion(
                unfold(conclusion.lhs),
                unfold(conclusion.rhs),
                conclusion.over,
                conclusion.relation,
                assuming=conclusion.assuming,
            )
            lines += _display(statement_latex([unfolded], tuple(theorem.assuming)))
    number = 1
    for part in theorem.steps:
        count = len(list(part.checks()))
        numbers = f"Step {number}" if count == 1 else f"Steps {number}–{number + count - 1}"
        kind = {
            Chain: "each equals sign checked",
            Equal: "checked equation",
            Termwise: "sums equal term by term (summands proved equal for an arbitrary index)",
            Use: f"instance of {getattr(part, 'theorem_id', '')}, re-checked here",
            Holds: "checked inequality",
            Fact: "computed",
        }[type(part)]
        if isinstance(part, Fact):
            lines += [f"{numbers} ({kind}): {part.claim}" + (f" ({part.why})" if part.why else "") + ".", ""]
        elif isinstance(part, Chain):
            lines += [f"{numbers} ({kind}):", *_display(_chain_display(part))]
        else:
            lines += [f"{numbers} ({kind}):", *_display(_aligned(_step_rows(part)))]
        number += count
    methods = sorted({step.method for step in result.step_results if step.proved})
    if result.ok:
        lines.append(
            f"All {result.steps} steps proved, {result.trivial_steps} trivial; every residual reduced to exactly 0 "
            f"or the step was decided as stated (methods: {', '.join(methods)})."
        )
    else:
        lines += ["FAILED when this page was built:", ""] + [f"- {failure}" for failure in result.failures]
    lines.append("")
    if theorem.witness is not None:
        error = "" if result.witness_error is None else f"; largest error {result.witness_error:.2g}"
        lines += [
            f"Numeric witness against `{theorem.witness.licenses}`: {theorem.witness.description}{error} "
            f"(tolerance {theorem.witness.tolerance:.0e}): {result.witness}.",
            "",
        ]
    control = theorem.negative_control
    if isinstance(control, Conclusion):
        where = ""
        if result.control_counterexample:
            values = ", ".join(
                f"{name} = {value}"
                for name, value in result.control_counterexample.items()
                if not isinstance(value, list)
            )
            where = f" (certified by interval arithmetic at {values})" if values else ""
        lines += [
            f"Negative control ({result.negative_control}): the wrong variant",
            *_display(statement_latex([control], tuple(theorem.assuming))),
            f"is not proved by the checker and is shown false at a point of its domain{where}.",
            "",
        ]
    elif isinstance(control, Fact):
        lines += [f"Negative control ({result.negative_control}), computed: {control.claim}.", ""]
    return lines


def theorem_myst(theorem: Theorem, result: Result, checking: str = CHECKING_PAGE) -> str:
    """The MyST markdown of one theorem box: statement, scope, human proof, machine fold.

    Examples
    --------
    >>> from posenc_math import theorems
    >>> text = theorem_myst(theorems.get("shift-block"), theorems.verify_one("shift-block"))
    >>> ":label: thm-shift-block" in text and "posenc-machine-proof" in text
    True
    """
    token = _NOTATION.set(dict(theorem.notation))
    try:
        return _theorem_myst(theorem, result, checking)
    finally:
        _NOTATION.reset(token)


def _theorem_myst(theorem: Theorem, result: Result, checking: str) -> str:
    status = "verified" if result.ok else "FAILED"
    scope = f"scope **{theorem.scope}**" + (f": {theorem.scope_note}" if theorem.scope_note else "")
    where = _where(theorem.conclusions) if len(theorem.conclusions) == 1 else []
    lines = [
        f"::::{{prf:theorem}} {theorem.title}",
        f":label: {label(theorem.id)}",
        "",
    ]
    if theorem.lead:
        lines += [theorem.lead, ""]
    lines += _statement_lines(theorem.conclusions, tuple(theorem.assuming))
    named = definitions([side for c in theorem.conclusions for side in (c.lhs, c.rhs)])
    domain = domain_text(theorem.conclusions)
    names = [f"${_print(symbol)} = {_print(value)}$" for value, symbol in theorem.notation.items() if _spelled(value)]
    named_notation = f", where {', '.join(names)}" if names else ""
    lines += [domain + named_notation + (f"; {'; '.join(where)}" if where else "") + ".", ""]
    if named:
        lines += ["where", ""]
        for definition in named:
            lines += _display(_aligned([_definition_latex(definition).replace(" = ", " &= ", 1)]))
    uses = ", ".join(f"{{prf:ref}}`{label(used)}`" for used in theorem.uses)  # "Theorem 4", as the page numbers it
    lines += [
        f"**{status}** when this page was built; {scope}. "
        f"Id `{theorem.id}`" + (f"; uses {uses}" if uses else "") + f". {{doc}}`How this is checked <{checking}>`",
        "",
        "::::",
        "",
        f"::::{{posenc-proof}} {theorem.id}",
    ]
    for item in theorem.proof:
        lines += ["", item, ""] if isinstance(item, str) else _part_lines(item)
    if theorem.remarks:
        lines += ["", theorem.remarks, ""]
    lines += [
        "",
        f":::{{posenc-machine-proof}} {result.steps} machine-checked step{'' if result.steps == 1 else 's'}",
        *_machine_lines(theorem, result),
        ":::",
        "::::",
        "",
    ]
    return "\n".join(lines)


def index_myst(theorems: list[Theorem], results: list[Result], checking: str = CHECKING_PAGE) -> str:
    """Every theorem: a table with status and scope, linked to the page that proves it."""
    lines = [
        "| theorem | status | scope | steps | uses |",
        "| --- | --- | --- | ---: | --- |",
    ]
    for theorem, result in zip(theorems, results, strict=True):
        status = "verified" if result.ok else "FAILED"
        uses = ", ".join(theorem.uses) or "–"
        lines.append(
            f"| {{prf:ref}}`{result.id} <{label(result.id)}>` | {status} | {result.scope} | {result.steps} | {uses} |"
        )
    general = sum(result.scope == "general" for result in results)
    lines += [
        "",
        f"{general} of {len(results)} theorems are general; {{doc}}`the scope labels <{checking}>` say what that "
        "means.",
        "",
    ]
    return "\n".join(lines)


def _layers(graph: dict[str, list[str]]) -> dict[str, int]:
    """Depth of each theorem: 0 for one that uses nothing, else 1 + the deepest it uses."""
    depth: dict[str, int] = {}

    def visit(node, trail=()):
        if node in depth:
            return depth[node]
        if node in trail:
            raise ValueError(f"uses form a cycle through {node!r}")
        used = [u for u in graph.get(node, ()) if u in graph]
        depth[node] = 1 + max((visit(u, (*trail, node)) for u in used), default=-1)
        return depth[node]

    for node in graph:
        visit(node)
    return depth


_SCOPE_COLOURS = {"general": "#e6f2e6", "instances": "#fff1cc", "computation": "#fbe0e0"}


def _ordered_layers(graph: dict[str, list[str]], depth: dict[str, int]) -> dict[int, list[str]]:
    """Nodes per layer, ordered to keep arrows short and uncrossed (:func:`_ordered_layers_from`), from
    the graph's own order and then from seeded shuffles of it until an order has no crossing; the
    order with the fewest crossings wins (the first such).

    From the registry's order alone the search stopped at two crossings: shift-full's arrow to
    blockdiag-blockwise crossed two arrows to angle-addition, and no move of one node lowered the
    count (shift-full, its waypoint and shift-block had to move together).
    """
    import random

    best: tuple[int, dict[int, list[str]]] | None = None
    nodes = list(graph)
    for attempt in range(_ORDER_ATTEMPTS):
        if attempt:
            random.Random(attempt).shuffle(nodes)
        layers = _ordered_layers_from({node: graph[node] for node in nodes}, depth)
        count = _crossings(graph, depth, layers)
        if best is None or count < best[0]:
            best = (count, layers)
        if count == 0:
            break
    assert best is not None
    return best[1]


#: Orders :func:`_ordered_layers` starts from, at most.
_ORDER_ATTEMPTS = 24


def _crossings(graph: dict[str, list[str]], depth: dict[str, int], layers: dict[int, list[str]]) -> int:
    """How many pairs of arrows cross when each layer is drawn in the order of ``layers`` (arrows join
    adjacent layers: longer ones go through waypoints)."""
    row = {node: index for nodes in layers.values() for index, node in enumerate(nodes)}
    edges = [(node, target) for node, used in graph.items() for target in used if target in row]
    spans = [(depth[a], row[a], row[b]) if depth[a] > depth[b] else (depth[b], row[b], row[a]) for a, b in edges]
    return sum(
        1
        for (level, top, bottom), (other_level, other_top, other_bottom) in itertools.combinations(spans, 2)
        if level == other_level and (top - other_top) * (bottom - other_bottom) < 0
    )


def _ordered_layers_from(graph: dict[str, list[str]], depth: dict[str, int]) -> dict[int, list[str]]:
    """Nodes per layer, ordered to keep arrows short and uncrossed: each node at the mean place of its
    neighbours in both directions (what it uses and what uses it), in sweeps down and up the layers,
    starting from the order of ``graph``.

    Ordering a layer by what its nodes use alone put shift-full's waypoint to blockdiag-blockwise
    at the far end of its layer and shift-full half-way between: two long arrows across the graph.
    """
    layers: dict[int, list[str]] = {}
    for node in graph:
        layers.setdefault(depth[node], []).append(node)
    neighbours: dict[str, set[str]] = {node: set() for node in graph}
    for node, used in graph.items():
        for target in used:
            if target in neighbours:
                neighbours[node].add(target)
                neighbours[target].add(node)
    levels = sorted(layers)
    for _ in range(4):
        for level in [*levels[1:], *levels[::-1]]:
            # places as fractions of their layer's height, so layers of different sizes compare
            place = {node: (row + 0.5) / len(nodes) for nodes in layers.values() for row, node in enumerate(nodes)}

            def centre(node: str, place: dict[str, float] = place) -> float:
                near = [place[other] for other in neighbours[node]]
                return sum(near) / len(near) if near else place[node]

            layers[level].sort(key=centre)
    # then swap neighbours in a layer while that removes crossings (layers hold a few nodes)

    def crossings() -> int:
        return _crossings(graph, depth, layers)

    # moves of one node to another place in its layer, kept when they do not add crossings (a move that
    # keeps the count can open the way to one that lowers it); the best order seen wins
    best, best_layers = crossings(), {level: list(nodes) for level, nodes in layers.items()}
    for _ in range(12):
        if best == 0:
            break
        for nodes in layers.values():
            for node in list(nodes):
                start = nodes.index(node)
                counts = []
                for index in range(len(nodes)):
                    nodes.remove(node)
                    nodes.insert(index, node)
                    counts.append((crossings(), abs(index - start), index))
                nodes.remove(node)
                nodes.insert(min(counts)[2], node)
                if min(counts)[0] < best:
                    best, best_layers = min(counts)[0], {level: list(row) for level, row in layers.items()}
    return best_layers


def _with_waypoints(graph: dict[str, list[str]]) -> tuple[dict[str, list[str]], dict[str, int]]:
    """``graph`` with every arrow that skips layers passing through a waypoint in each layer it
    crosses (named by a NUL, the user, a NUL, the used, a NUL, the layer), and the layer of every
    node and waypoint.

    Examples
    --------
    >>> chained, depth = _with_waypoints({"a": [], "b": ["a"], "c": ["b", "a"]})
    >>> [name.split(chr(0)) for name in chained["c"]], depth[chained["c"][1]]
    ([['b'], ['', 'c', 'a', '1']], 1)
    """
    depth = _layers(graph)
    chained: dict[str, list[str]] = {node: [] for node in graph}
    for node, used in graph.items():
        for target in used:
            previous = target
            for level in range(depth[target] + 1, depth[node]):
                waypoint = f"\0{node}\0{target}\0{level}"
                chained[waypoint] = [previous]
                depth[waypoint] = level
                previous = waypoint
            chained[node].append(previous)
    return chained, depth


def dependency_graph_svg(
    graph: dict[str, list[str]], pages: dict[str, str] | None = None, scopes: dict[str, str] | None = None
) -> str:
    """The ``uses`` graph drawn as an SVG (matplotlib): layers by depth, arrows to what is used.

    Drawn to fit a phone: each connected group of theorems is laid out on
    its own, one below the other, left to right by depth; ids are broken
    at their hyphens into lines of at most 11 characters, so a column is
    about an inch wide and three columns fit a 358 px text column at their
    own size (9 pt text, 12 CSS px).  Boxes are coloured by scope when
    ``scopes`` is given and link to their theorem when ``pages`` is given.
    Theorems that use none and that none uses are drawn too, when given;
    the site's index lists them beside the graph instead.

    Examples
    --------
    >>> svg = dependency_graph_svg({"angle-addition": [], "shift-block": ["angle-addition"]})
    >>> svg.startswith("<svg") and "shift-" in svg and "block" in svg
    True
    """
    import io

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.patches
    import matplotlib.pyplot as plt

    def wrapped(node: str, width: int = 11) -> str:
        lines: list[str] = []
        for part in node.split("-"):
            if lines and len(lines[-1]) + 1 + len(part) <= width:
                lines[-1] += "-" + part
            else:
                if lines:
                    lines[-1] += "-"
                lines.append(part)
        return "\n".join(lines)

    # connected groups, in the order of their first theorem
    neighbours: dict[str, set[str]] = {node: set() for node in graph}
    for node, used in graph.items():
        for target in used:
            if target in graph:
                neighbours[node].add(target)
                neighbours[target].add(node)
    groups: list[list[str]] = []
    seen: set[str] = set()
    for start in graph:
        if start in seen:
            continue
        group, stack = [], [start]
        seen.add(start)
        while stack:
            node = stack.pop()
            group.append(node)
            for other in sorted(neighbours[node] - seen):
                seen.add(other)
                stack.append(other)
        groups.append([node for node in graph if node in set(group)])

    def settle(layer: list[str], neighbours: dict[str, list[str]], row: dict[str, float]) -> None:
        """Rows of one layer, in its order: each node at the mean row of its neighbours already
        placed, one row apart at least, shifted back towards where they wanted to be.  The order is
        :func:`_ordered_layers`' (sorting by the wanted rows again undid its uncrossing)."""
        wanted, previous_row = [], -1.0
        for node in layer:
            near = [row[other] for other in neighbours[node] if other in row]
            wanted.append(sum(near) / len(near) if near else previous_row + 1)
            previous_row = wanted[-1]
        order = list(range(len(wanted)))
        settled: list[float] = []
        for index in order:
            settled.append(max(wanted[index], settled[-1] + 1) if settled else wanted[index])
        shift = sum(wanted[index] - value for index, value in zip(order, settled, strict=True)) / len(order)
        layer[:] = [layer[index] for index in order]
        for position, value in enumerate(settled):
            row[layer[position]] = value + shift

    # Each group: layers by depth; an arrow that skips layers passes through a
    # free place in each layer it crosses (a "waypoint"), so no arrow runs
    # through a box; rows ordered by barycentres (_ordered_layers).
    place: dict[str, tuple[float, float]] = {}
    top, columns = 0.0, 1
    for group in groups:
        chained, depth = _with_waypoints({node: [u for u in graph[node] if u in graph] for node in group})
        layers = _ordered_layers(chained, depth)
        columns = max(columns, len(layers))
        users: dict[str, list[str]] = {node: [] for node in chained}
        for node, used in chained.items():
            for target in used:
                users[target].append(node)

        row: dict[str, float] = {}
        widest = max(layers, key=lambda level: (len(layers[level]), -level))
        for position, node in enumerate(layers[widest]):
            row[node] = float(position)
        for level in range(widest - 1, -1, -1):
            settle(layers[level], users, row)
        for level in range(widest + 1, len(layers)):
            settle(layers[level], chained, row)
        lowest = min(row.values())
        row = {node: value - lowest for node, value in row.items()}
        for node in chained:
            place[node] = (depth[node], top + row[node])
        top += max(row.values(), default=0) + 1.4
    height = max(top - 0.4, 1.0)
    column_step = 1.35  # inches from one column to the next: a box about 0.9 in wide and its arrow
    with plt.rc_context({"svg.hashsalt": "posenc-math", "svg.fonttype": "none", "font.size": 9}):
        figure, axes = plt.subplots(figsize=(column_step * (columns - 1) + 1.0, 0.62 * height + 0.3))
        boxes = {}
        for node in graph:
            x, y = place[node]
            boxes[node] = axes.text(
                x,
                y,
                wrapped(node),
                ha="center",
                va="center",
                linespacing=1.1,
                bbox={
                    "boxstyle": "round,pad=0.3",
                    "fc": _SCOPE_COLOURS.get((scopes or {}).get(node, ""), "white"),
                    "ec": "0.3",
                    "lw": 0.8,
                },
                url=None if pages is None else f"{pages[node]}.html#{label(node)}",
            )
        for node, used in graph.items():
            for target in used:
                if target not in boxes:
                    continue
                waypoints = sorted(
                    (place[key] for key in place if key.startswith(f"\0{node}\0{target}\0")), reverse=True
                )
                if waypoints:  # a line through the free places, the arrow's head on the last stretch
                    # level through each free place, across the width of a box: a slanted line to
                    # its centre cut through the box above or below it (shift-full's through
                    # single-sine-not-linear)
                    xs = [place[node][0] - 0.3, *(x + side for x, _ in waypoints for side in (0.36, -0.36))]
                    ys = [place[node][1], *(y for _, y in waypoints for _side in (0, 1))]
                    axes.plot(xs, ys, color="0.3", lw=0.8)
                    tail: tuple[float, float] = (xs[-1], ys[-1])
                    tail_coords: object = "data"
                else:
                    tail, tail_coords = (0.0, 0.5), boxes[node]
                axes.annotate(
                    "",
                    xy=(1, 0.5),
                    xycoords=boxes[target],
                    xytext=tail,
                    textcoords=tail_coords,  # type: ignore[arg-type]
                    arrowprops={
                        "arrowstyle": "-|>",
                        "color": "0.3",
                        "mutation_scale": 14,  # heads a reader sees where several arrows meet
                        "shrinkA": 0 if waypoints else 3,
                        "shrinkB": 3,
                        "lw": 0.8,
                    },
                )
        axes.set_xlim(-0.45, columns - 1 + 0.45)
        axes.set_ylim(height - 0.5, -0.6)
        axes.axis("off")
        if scopes:
            handles = [
                matplotlib.patches.Patch(facecolor=colour, edgecolor="0.3", label=scope)
                for scope, colour in _SCOPE_COLOURS.items()
                if scope in {scopes.get(node) for node in graph}
            ]
            figure.legend(handles=handles, loc="outside lower center", ncols=len(handles), frameon=False, title="scope")
        buffer = io.StringIO()
        figure.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
        plt.close(figure)
    text = buffer.getvalue()
    return text[text.index("<svg") :]
