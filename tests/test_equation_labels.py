"""Every equation a page refers to has a label, and so a stable anchor.

A reference by number or by position ("equation (3)", "the equation above")
breaks silently when the page changes; ``{eq}`label``` does not (an unknown
label fails the ``-nW`` build).  A numbered display (``equation``, ``align``,
... without the star) needs a label too: unlabelled ones get anchors that
change from build to build.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(DOCS.glob("*.md"))

BY_POSITION = re.compile(
    r"\b(?:equations?|eqs?\.)\s*\(?\d+\)?|\bthe (?:equation|formula|display)s? (?:above|below)\b", re.IGNORECASE
)
NUMBERED = re.compile(r"\\begin\{(equation|align|gather|multline|flalign|alignat)\}(.*?)\\end\{\1\}", re.S)


def prose(text: str) -> str:
    return re.sub(r"```.*?```", "", text, flags=re.S)


def labels(text: str) -> set[str]:
    found = set(re.findall(r"^\$\$\s*\(([\w:-]+)\)\s*$", text, re.M))  # $$ ... $$ (label)
    found |= set(re.findall(r"^:label:\s*([\w:-]+)", text, re.M))  # {math} directive
    found |= set(re.findall(r"\\label\{([\w:-]+)\}", text))  # amsmath
    return found


def test_the_checks_catch_what_they_look_for():
    assert BY_POSITION.search("as equation (3) shows") and BY_POSITION.search("the formula above")
    assert not BY_POSITION.search("an equation holds")
    assert NUMBERED.search("\\begin{align}a\\end{align}") and not NUMBERED.search("\\begin{align*}a\\end{align*}")
    assert labels("$$\nx\n$$ (eq-x)\n") == {"eq-x"}


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_equations_are_referred_to_by_label(page):
    text = page.read_text(encoding="utf-8")
    assert not BY_POSITION.findall(prose(text)), "refer to a labelled equation with {eq}`label`"
    referenced = set(re.findall(r"\{eq\}`([^`]+)`", text))
    defined = set().union(*(labels(other.read_text(encoding="utf-8")) for other in PAGES))
    assert referenced <= defined, f"equations referred to without a label: {sorted(referenced - defined)}"
    unlabelled = [body[:60] for _, body in NUMBERED.findall(text) if "\\label{" not in body]
    assert not unlabelled, f"numbered displays without a label: {unlabelled}"
