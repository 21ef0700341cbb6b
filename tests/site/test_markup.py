"""No source markup shows through in the built text: a LaTeX command that the
bibliography's formatter passed on as letters (``\\texttt scaled_rope``), a
Markdown or reST role left unparsed (``{term}``), doubled backticks.

The text read is every text of the page's ``<article>`` (the bibliography
included, which the number lint skips for its years) and its images' alt
texts, without formulas and code.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

from numberlint import SKIPPED_TAGS as CODE_TAGS  # code, formulas, scripts: where a backslash is meant
from numberlint import VOID


class _ArticleText(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[bool] = []  # per open element: inside code or a formula
        self.article = 0
        self.pieces: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "img" and self.article and attributes.get("alt"):
            self.pieces.append(attributes["alt"])
        if tag in VOID:
            return
        if tag == "article":
            self.article += 1
        code = tag in CODE_TAGS or "math" in (attributes.get("class") or "").split()
        self.stack.append(code or bool(self.stack and self.stack[-1]))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if tag == "article":
            self.article -= 1
        if self.stack:
            self.stack.pop()

    def handle_data(self, data):
        if self.article and not (self.stack and self.stack[-1]):
            self.pieces.append(data)


def article_texts(html: str) -> list[str]:
    """The texts of ``html``'s ``<article>`` outside code and formulas, and its images' alt texts."""
    parser = _ArticleText()
    parser.feed(html)
    return [" ".join(piece.split()) for piece in parser.pieces if piece.strip()]


#: A backslash and letters (a TeX control word), a MyST role, reST's double backticks.
MARKUP = re.compile(r"\\[A-Za-z]+|\{(?:term|ref|doc|cite:?\w*|math|numref|eq)\}|``")


def markup_in(html: str) -> list[str]:
    """The pieces of source markup in ``html``'s article text, each with a few characters around it.

    Examples
    --------
    >>> markup_in('<article><p>Software; \\\\texttt scaled_rope/x.py.</p><code>\\\\frac</code></article>')
    ['Software; \\\\texttt scaled_rope']
    >>> markup_in('<article><p>Run ``make`` or see {term}`head`.</p></article>')
    ['Run ``make`` or se', 'Run ``make`` or see {ter', '`` or see {term}`head`.']
    >>> markup_in('<article><p>A plain sentence, $5 and C:/ aside.</p></article>')
    []
    """
    found = []
    for piece in article_texts(html):
        for match in MARKUP.finditer(piece):
            found.append(piece[max(0, match.start() - 10) : match.end() + 12].strip())
    return found


def test_no_page_shows_source_markup(site_dir, pages):
    problems = {}
    for name in pages:
        found = markup_in((site_dir / name).read_text(encoding="utf-8"))
        if found:
            problems[name] = found
    assert not problems, "\n".join(f"{page}: {found}" for page, found in problems.items())
