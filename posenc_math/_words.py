"""Numbers written as a reader reads them, for text the library writes.

Alt text, the lists and tables the pages print and the command line's
tables quote computed numbers; Python's ``f"{x:.4g}"`` writes ``1.833e+05``
and ``10000.0``, which read as program output.  :func:`number_words` is the
one place that turns a number into words; every writer of reader-facing
text calls it.  Nothing here is public API.
"""

from __future__ import annotations

import math

__all__ = ["number_words", "superscript"]

#: Unicode superscripts for an exponent (``10⁻⁷``).
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def superscript(exponent: int | str) -> str:
    """An integer exponent in Unicode superscripts.

    Examples
    --------
    >>> superscript(-7), superscript("+031")
    ('⁻⁷', '³¹')
    """
    return str(int(exponent)).translate(_SUPERSCRIPT)


def number_words(value: float, digits: int = 2) -> str:
    """``value`` as a reader reads it.

    An integer below 10,000 in full; otherwise ``digits`` significant digits:
    thousands with separators (``52,000``), millions and billions in words
    (``1.7 million``), and very small or very large numbers as a power of ten
    in Unicode (``1.2 × 10⁻⁷``), never Python's ``e``-notation or a trailing
    ``.0``.

    Parameters
    ----------
    value : float
        The number (an int, a float or a numpy scalar).
    digits : int
        Significant digits kept when the number is not a small integer.

    Returns
    -------
    str

    Examples
    --------
    >>> number_words(3.0), number_words(8192), number_words(0.7416), number_words(-0.004567, 3)
    ('3', '8,192', '0.74', '-0.00457')
    >>> number_words(51861.67), number_words(1659573.58), number_words(65536.0, 6), number_words(127.8)
    ('52,000', '1.7 million', '65,536', '130')
    >>> number_words(10000.0, 6), number_words(183_345.2, 4), number_words(3712.9, 3), number_words(1e6, 6)
    ('10,000', '183,300', '3,710', '1 million')
    >>> number_words(1.234e-7, 3), number_words(-2.5e-5), number_words(4.5e13, 3), number_words(0.0)
    ('1.23 × 10⁻⁷', '-2.5 × 10⁻⁵', '4.5 × 10¹³', '0')
    >>> number_words(999_999_999.0), number_words(999.96, 4), number_words(127.8, 4)
    ('1 billion', '1,000', '127.8')
    """
    value = float(value)
    if not math.isfinite(value):
        return str(value)
    if value == round(value) and abs(value) < 10_000:
        return f"{round(value):,}"
    magnitude = abs(float(f"{value:.{digits}g}"))  # as rounded: 999,999,999 is 1 billion, not 1,000 million
    if magnitude < 1e-4 or magnitude >= 1e12:
        mantissa, exponent = f"{value:.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".") if "." in mantissa else mantissa
        return f"{mantissa} × 10{superscript(exponent)}"
    if magnitude >= 1e9:
        return f"{value / 1e9:.{digits}g} billion"
    if magnitude >= 1e6:
        return f"{value / 1e6:.{digits}g} million"
    rounded = f"{value:.{digits}g}"
    if magnitude >= 1000 or "e" in rounded:  # 52,000 and 130, not 5.2e+04 and 1.3e+02
        return f"{float(rounded):,.0f}"
    return rounded
