r"""Theorem titles and scope notes as plain text, for the command line.

A title or scope note may hold inline LaTeX between dollars
(``from $2^{-8/n}$``): the page typesets it, and ``posenc-math verify`` and
``posenc-math list`` print :func:`plain_text` of it: the dollars dropped,
Greek letters and relations as their Unicode characters, ``\frac{a}{b}`` as
``a/b``, a one-character power or index as a superscript or subscript
(``2ʲ``) and a longer one in parentheses (``2^(-8/n)``).

Why not pylatexenc's ``LatexNodes2Text``: it writes ``2^{-8/n}`` as
``2^-8/n`` and ``\frac{x + 1}{2}`` as ``x + 1/2``, which read as
``(2^-8)/n`` and ``x + 0.5``; here a group keeps its parentheses.
"""

from __future__ import annotations

import re

__all__ = ["plain_text"]

#: LaTeX commands and the characters they print.
_SYMBOLS = {
    "alpha": "α",
    "beta": "β",
    "gamma": "γ",
    "delta": "δ",
    "epsilon": "ε",
    "zeta": "ζ",
    "eta": "η",
    "theta": "θ",
    "lambda": "λ",
    "mu": "μ",
    "pi": "π",
    "rho": "ρ",
    "sigma": "σ",
    "tau": "τ",
    "phi": "φ",
    "omega": "ω",
    "Delta": "Δ",
    "Pi": "Π",
    "Sigma": "Σ",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "ne": "≠",
    "neq": "≠",
    "approx": "≈",
    "cdot": "·",
    "times": "×",
    "to": "→",
    "infty": "∞",
    "in": "∈",
    "pm": "±",
    "sum": "Σ",
    "ldots": "…",
    "dots": "…",
    "cdots": "⋯",
    "lfloor": "⌊",
    "rfloor": "⌋",
    "langle": "⟨",
    "rangle": "⟩",
    "top": "ᵀ",
    "ln": "ln",
    "log": "log",
    "sin": "sin",
    "cos": "cos",
    "exp": "exp",
    "min": "min",
    "max": "max",
    "bmod": "mod",
    "mod": "mod",
}

_SUPERSCRIPTS = dict(zip("0123456789+-=()ijknd", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁼⁽⁾ⁱʲᵏⁿᵈ", strict=True))
_SUBSCRIPTS = dict(zip("0123456789+-=()ijkn", "₀₁₂₃₄₅₆₇₈₉₊₋₌₍₎ᵢⱼₖₙ", strict=True))

_GROUP = r"\{((?:[^{}]|\{[^{}]*\})*)\}"  # one brace group (one level of nesting inside)


def _script(body: str, marks: dict[str, str], caret: str) -> str:
    """A power or an index: in small characters when each has one, else in parentheses after ``caret``."""
    body = body.strip()
    if body and all(char in marks for char in body) and len(body) <= 3:
        return "".join(marks[char] for char in body)
    if body.isalnum():
        return caret + body
    return f"{caret}({body})"


def _math(tex: str) -> str:
    """One inline formula as plain text."""
    text = tex
    for _ in range(4):  # nested \frac and \text
        text = re.sub(r"\\(?:text|mathrm|operatorname|mathit|mathbf)\s*" + _GROUP, r"\1", text)
        text = re.sub(r"\\[dt]?frac\s*" + _GROUP + r"\s*" + _GROUP, _fraction, text)
    text = re.sub(r"\\sqrt\s*" + _GROUP, lambda match: "√" + _wrapped(match.group(1).strip()), text)
    text = re.sub(r"\\(?:left|right|big|Big)\b", "", text)
    text = text.replace("\\{", "\x00").replace("\\}", "\x01")  # escaped braces print; the others group
    text = re.sub(r"\\[,;:! ]", " ", text)
    text = re.sub(r"\\([A-Za-z]+)", lambda match: _SYMBOLS.get(match.group(1), match.group(1)), text)
    for _ in range(3):  # scripts inside scripts
        text = re.sub(r"\^" + _GROUP, lambda match: _script(match.group(1), _SUPERSCRIPTS, "^"), text)
        text = re.sub(r"_" + _GROUP, lambda match: _script(match.group(1), _SUBSCRIPTS, "_"), text)
    text = re.sub(r"\^(\w)", lambda match: _script(match.group(1), _SUPERSCRIPTS, "^"), text)
    text = re.sub(r"_(\w)", lambda match: _script(match.group(1), _SUBSCRIPTS, "_"), text)
    text = text.replace("{", "").replace("}", "").replace("\x00", "{").replace("\x01", "}")
    return re.sub(r"\s+", " ", text).strip()


def _wrapped(part: str) -> str:
    """``part`` in parentheses unless it is one term."""
    return f"({part})" if re.search(r"[-+ /]", part.lstrip("-")) else part


def _fraction(match: re.Match) -> str:
    return f"{_wrapped(match.group(1).strip())}/{_wrapped(match.group(2).strip())}"


def plain_text(text: str) -> str:
    r"""``text`` with each inline formula ``$...$`` written in plain Unicode text.

    Parameters
    ----------
    text : str
        A theorem's title or scope note.

    Returns
    -------
    str
        The same words, no dollars and no backslashes.

    Examples
    --------
    >>> plain_text(r"from $2^{-8/n}$ with ratio $2^{-8/n}$")
    'from 2^(-8/n) with ratio 2^(-8/n)'
    >>> plain_text(r"The wavelengths run from $2\pi$ to $2\pi b^{(d-2)/d}$, not to $2\pi b$")
    'The wavelengths run from 2π to 2π b^((d-2)/d), not to 2π b'
    >>> plain_text(r"frequency $\pi / 2^j$, checked for $j \le 16$ and $\frac{x + 1}{2}$")
    'frequency π / 2ʲ, checked for j ≤ 16 and (x + 1)/2'
    >>> plain_text(r"norm $\sqrt{d/2}$, $B \in \{8, 16\}$, $\mu_{\mathrm{all}}$")
    'norm √(d/2), B ∈ {8, 16}, μ_all'
    >>> plain_text("no formula here")
    'no formula here'
    """
    if not isinstance(text, str):
        raise TypeError(f"text must be a str, got {type(text).__name__}")
    if text.count("$") % 2:
        raise ValueError(f"text has an unpaired $ (each formula is $...$): {text!r}")
    return re.sub(r"\$([^$]*)\$", lambda match: _math(match.group(1)), text)
