"""No LaTeX command eaten by a Python escape, and no control character in the pages.

In a Python string that is not raw, ``"\\text"`` is a TAB followed by
``ext``, ``"\\frac"`` a form feed followed by ``rac``, ``"\\nu"`` a newline
followed by ``u``: the page then shows "ext{token}".  That happened once,
in docs/why-positions.md (``h_0 = \\text{token} + \\text{position}``, whose
``\\t`` had become TABs in the page's own text).  This test scans

- every Python string literal that is not raw, in the library, the site's
  tools, ``conf.py`` and the code cells of every page (the cells compute
  the glue values and the Markdown a page shows), for an escape ``\\a \\b
  \\f \\n \\r \\t \\v`` that begins the name of a LaTeX command;
- the text of every page and bibliography for control characters (a TAB,
  a form feed, ...), which is what such an escape leaves behind.
"""

from __future__ import annotations

import io
import re
import tokenize
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: Commands (MathJax / LaTeX) that start with a letter Python reads as an escape.
_COMMAND_NAMES = """
    alpha approx ast angle arccos arcsin arctan arg atop aleph amalg acute
    beta bar begin big bigl bigr bigg biggl biggr bigcup bigcap bigoplus bigotimes binom bm boldsymbol
    bot bullet breve backslash boxed bmod bf bmatrix
    frac forall flat frown footnote fbox
    nabla ne neq nu not neg nleq ngeq nmid notin newline noindent nolimits natural nearrow nwarrow ni
    nexists nonumber
    rho right rangle rfloor rceil rm rightarrow rbrace rbrack ref rvert rVert
    tau theta text textbf textit textrm texttt textsf textstyle tfrac times tilde to top tan tanh
    triangle tbinom tt tag
    varphi vartheta varepsilon varrho varsigma vec vert vee vdots vdash vmatrix
"""
LATEX_COMMANDS = frozenset(_COMMAND_NAMES.split())

#: An unescaped backslash (an even number of backslashes before it) and an escape letter.
_ESCAPE = re.compile(r"(?<!\\)(?:\\\\)*\\([abfnrtv])([A-Za-z]*)")
#: Control characters other than the newline.
_CONTROL = re.compile(r"[\x00-\x09\x0b-\x1f\x7f]")
_CODE_CELL = re.compile(r"^```\{code-cell\}[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
_CELL_OPTIONS = re.compile(r"\A---\n.*?\n---\n|\A(?::[\w-]+:[^\n]*\n)+", re.DOTALL)


def eaten_commands(source: str) -> list[tuple[int, str]]:
    r"""(line, ``\command``) for every LaTeX command a non-raw string literal turns into an escape.

    Examples
    --------
    >>> eaten_commands('label = "$h_0 = \\text{token}$"')
    [(1, '\\text')]
    >>> eaten_commands('label = r"$h_0 = \\text{token}$"\nok = "$\\\\frac{1}{2}$"\nline = "a\\nb"')
    []
    """
    found = []
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type != tokenize.STRING:
            continue
        prefix = re.match(r"[A-Za-z]*", token.string).group(0).lower()
        if "r" in prefix:
            continue
        for match in _ESCAPE.finditer(token.string):
            name = match.group(1) + match.group(2)
            if name in LATEX_COMMANDS:
                found.append((token.start[0], "\\" + name))
    return found


def code_cells(page: str) -> list[tuple[int, str]]:
    """(first line, source) of every ``{code-cell}`` of a MyST page, without its options."""
    cells = []
    for cell in _CODE_CELL.finditer(page):
        body = cell.group(1)
        options = _CELL_OPTIONS.match(body)
        skipped = options.group(0).count("\n") if options else 0
        cells.append((page[: cell.start(1)].count("\n") + 1 + skipped, body[options.end() if options else 0 :]))
    return cells


def python_files() -> list[Path]:
    """Every file whose Python the site runs: the library, the tools, conf.py and the pages' cells."""
    return sorted(
        [*ROOT.glob("posenc_math/**/*.py"), *ROOT.glob("tools/**/*.py"), ROOT / "conf.py", *ROOT.glob("docs/*.md")]
    )


def test_scan_finds_the_bug_that_happened():
    """The checks fail on the text that shipped: a TAB in the page, ``\\t`` in a string."""
    shipped = "h_L = h_0 + \\sum_{l=0}^{L-1} f_l(h_l), \\qquad h_0 = \text{token} + \text{position},"
    assert _CONTROL.findall(shipped) == ["\t", "\t"]
    assert eaten_commands('formula = "h_0 = \\text{token} + \\text{position}"') == [(1, "\\text"), (1, "\\text")]
    assert eaten_commands('f"{x:.2f} \\frac{1}{2} \\nu \\beta \\right)"') == [
        (1, "\\frac"),
        (1, "\\nu"),
        (1, "\\beta"),
        (1, "\\right"),
    ]
    cell = "```{code-cell} ipython3\n:tags: [remove-cell]\n\nglue('x', \"$\\times$\")\n```\n"
    assert [eaten_commands(body) for _, body in code_cells(cell)] == [[(2, "\\times")]]


@pytest.mark.parametrize("path", python_files(), ids=lambda path: path.relative_to(ROOT).as_posix())
def test_no_latex_command_eaten_by_an_escape(path):
    text = path.read_text(encoding="utf-8")
    sources = code_cells(text) if path.suffix == ".md" else [(1, text)]
    found = [(first + line - 1, command) for first, source in sources for line, command in eaten_commands(source)]
    assert not found, f"{path.name}: a non-raw string turns these LaTeX commands into escapes (use r'...'): {found}"


@pytest.mark.parametrize(
    "path",
    sorted([*ROOT.glob("docs/*.md"), *ROOT.glob("docs/*.bib"), *python_files()]),
    ids=lambda path: path.relative_to(ROOT).as_posix(),
)
def test_pages_hold_no_control_characters(path):
    """Pages, bibliographies and the Python that writes pages (the theorems' text is written there): a TAB in
    a raw string is what an editor's ``\\t`` leaves in ``W_K^\\top`` (it showed as ``W_K^ op``)."""
    lines = [
        (number, repr(match.group(0)))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
        for match in _CONTROL.finditer(line)
    ]
    assert not lines, f"{path.name}: control characters (an escape such as \\t eaten from LaTeX?) at {lines}"
