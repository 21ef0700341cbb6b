"""The number lint: every number a reader sees was computed, or is allowed for a stated reason.

Numbers in a page's prose, captions and alt text drift when the code
changes and nobody retypes them.  On the built site, a number is fine when

- it comes from a computation on the page: a glued value (MyST-NB's
  ``pasted-text`` / ``pasted-inline`` spans), a cell's output, a formula
  typeset from code or TeX (math is mathematics, not a measurement), code;
- Sphinx or an extension generated it: figure, table, theorem and equation
  numbers (``caption-number``, ``eqno``), citations and the bibliography
  (``bibtex-citation``, ``citation``);
- or it sits on the allowlist, ``docs/numbers.toml``, with its reason:
  groups of exact phrases, each phrase containing the number as the
  reader sees it (``"Llama 3"``, ``"RoFormer (2021)"``), for every page
  (``pages = ["*"]``) or for named pages.  A phrase that matches nothing
  is an error too, so the list does not outlive the text it excuses.

A number is a run of digits (with ``.``/``,`` inside, an exponent
``e-12``) that does not continue a word: ``float16``, ``x86_64`` and
``Qwen2`` are names, ``GPT-2`` and ``Llama 3`` are numbers the allowlist
must name.  ``python tests/site/numberlint.py [SITE]`` prints every number
not accounted for, as allowlist entries to paste (reason "to be glued");
``--update`` rewrites ``docs/numbers.toml``: the groups with other reasons
stay (less their phrases that match nothing), and the "to be glued" groups
are made afresh from the numbers still not accounted for.
"""

from __future__ import annotations

import re
import sys
import tomllib
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

#: The allowlist beside the pages.
ALLOWLIST = Path(__file__).resolve().parents[2] / "docs" / "numbers.toml"

#: A number as a reader sees one; not the digits inside a word.
NUMBER = re.compile(r"(?<![\w.])[-+−]?\d+(?:[.,]\d+)*(?:[eE][-+−]?\d+)?")

#: The text of a numbered cross-reference that Sphinx writes ("Theorem 22", "Fig. 3", "Exercise 17").
NUMBERED_REFERENCE = re.compile(
    r"\s*(Fig\.|Figure|Table|Theorem|Lemma|Corollary|Proposition|Definition|Exercise|Solution|Section|"
    r"Equation|Eq\.|Listing)\s+\(?[\d.]+\)?\s*"
)

#: Elements whose text is not hand-typed prose (their whole subtree is skipped).
SKIPPED_TAGS = {"script", "style", "pre", "code", "kbd", "samp", "svg", "math", "mjx-container", "nav", "template"}
SKIPPED_CLASSES = {
    "math",  # formulas (typeset from TeX or from code)
    "pasted-text",  # glue: a value computed on the page
    "pasted-inline",
    "cell_output",  # what a cell printed or drew
    "caption-number",  # "Fig. 3", "Theorem 4": numbered by Sphinx
    "eqno",  # equation numbers
    "headerlink",
    "bibtex-citation",  # "[Vaswani et al., 2017]": from the bibliography
    "citation",  # the bibliography's entries
    "machine-proof",  # the checker's chain: rendered from the theorem objects
    "posenc-measured",  # tables read from make bench's records (posenc_docs.measurements)
    "posenc-generated",  # written from the theorem registry (the theorem index's table)
    "reader-version",  # "posenc-math 0.1.0": the release, from conf.py
    "py",  # autodoc's descriptions of the library's objects (the API page): its docstrings, with the code
    "posenc-math-wide",
    "posenc-math-narrow",
}


#: HTML elements that have no end tag.
VOID = frozenset({"img", "br", "hr", "input", "meta", "link", "source", "wbr", "col", "area", "base", "embed", "track"})


@dataclass
class Text:
    """The checked text of one page: its prose and its images' alt texts, white space made single spaces."""

    prose: str = ""
    alts: list[str] = field(default_factory=list)


class _Extractor(HTMLParser):
    """Collects the text of ``<article>`` that the lint checks."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, bool]] = []  # (tag, skipped)
        self.in_article = 0
        self.parts: list[str] = []
        self.alts: list[str] = []
        self.reference_at: int | None = None  # depth of an open internal reference, whose text is held back
        self.reference: list[str] = []

    def _skipping(self) -> bool:
        return any(skipped for _, skipped in self.stack)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "article":
            self.in_article += 1
        classes = set((attributes.get("class") or "").split())
        skipped = tag in SKIPPED_TAGS or bool(classes & SKIPPED_CLASSES)
        if tag == "img":
            if self.in_article and not self._skipping() and attributes.get("alt"):
                self.alts.append(attributes["alt"])
            return
        if tag in VOID:
            return
        self.stack.append((tag, skipped))
        if tag == "a" and {"reference", "internal"} <= classes and self.reference_at is None:
            self.reference_at, self.reference = len(self.stack), []
        if tag in ("p", "li", "td", "th", "dt", "dd", "h1", "h2", "h3", "h4", "figcaption", "div", "tr"):
            self.parts.append("\n")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break
        if self.reference_at is not None and len(self.stack) < self.reference_at:
            text = "".join(self.reference)
            if not NUMBERED_REFERENCE.fullmatch(text):  # "Theorem 22" is Sphinx's numbering, not prose
                self.parts.append(text)
            self.reference_at = None
        if tag == "article":
            self.in_article -= 1
        self.parts.append(" ")

    def handle_data(self, data):
        if self.in_article and not self._skipping():
            (self.reference if self.reference_at is not None else self.parts).append(data)


def page_text(html: str) -> Text:
    """The prose and alt texts of a page's ``<article>`` that the lint reads.

    Examples
    --------
    >>> text = page_text('<article><p>A 16 x 16 grid, <span class="pasted-text">0.9900</span>.</p>'
    ...                  '<pre>x = 3</pre><img alt="8 blocks" src="a.png"/></article><footer>2026</footer>')
    >>> text.prose, text.alts
    ('A 16 x 16 grid, .', ['8 blocks'])
    """
    parser = _Extractor()
    parser.feed(html)
    return Text(prose=" ".join("".join(parser.parts).split()), alts=[" ".join(alt.split()) for alt in parser.alts])


@dataclass(frozen=True)
class Allowed:
    """One group of the allowlist."""

    reason: str
    pages: tuple[str, ...]
    phrases: tuple[str, ...]


def load_allowlist(path: Path = ALLOWLIST) -> list[Allowed]:
    """The groups of ``docs/numbers.toml``; a phrase without a number, or a group without a reason, is an error."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    groups = []
    for number, group in enumerate(data.get("allow", []), start=1):
        reason = str(group.get("reason", "")).strip()
        pages = tuple(group.get("pages", []))
        phrases = tuple(group.get("phrases", []))
        if not reason or not pages or not phrases:
            raise ValueError(f"{path}: group {number} needs a reason, pages and phrases, got {group!r}")
        for phrase in phrases:
            if not NUMBER.search(phrase):
                raise ValueError(f"{path}: group {number} ({reason}): phrase {phrase!r} contains no number")
        groups.append(Allowed(reason, pages, phrases))
    return groups


@dataclass(frozen=True)
class Stray:
    """A number that is neither computed nor allowed."""

    page: str
    number: str
    context: str
    where: str  # "prose" or "alt text"


def _covered(text: str, start: int, end: int, phrases: list[str]) -> set[str]:
    """The phrases that cover ``text[start:end]`` where they occur."""
    used = set()
    for phrase in phrases:
        for found in re.finditer(re.escape(phrase), text):
            if found.start() <= start and end <= found.end():
                used.add(phrase)
    return used


def _phrases_for(page: str, groups: list[Allowed]) -> list[str]:
    name = page.removesuffix(".html")
    return [phrase for group in groups if "*" in group.pages or name in group.pages for phrase in group.phrases]


def context_of(text: str, start: int, end: int, words: int = 3) -> str:
    """The word holding the number with up to ``words`` words either side: a phrase that occurs in ``text``.

    Examples
    --------
    >>> text = "we trained it for 12 epochs (on two GPUs)"
    >>> context_of(text, 18, 20)
    'trained it for 12 epochs (on two'
    >>> context_of(text, 18, 20, words=0)
    '12'
    """
    word_start = text.rfind(" ", 0, start) + 1
    word_end = text.find(" ", end)
    word_end = len(text) if word_end < 0 else word_end
    before = text[:word_start].split()[-words:] if words else []
    after = text[word_end:].split()[:words] if words else []
    return " ".join([*before, text[word_start:word_end], *after])


def lint_page(page: str, html: str, groups: list[Allowed]) -> tuple[list[Stray], set[str]]:
    """The stray numbers of one page, and the allowlist phrases it used."""
    text = page_text(html)
    phrases = _phrases_for(page, groups)
    strays, used = [], set()
    for where, chunks in (("prose", [text.prose]), ("alt text", text.alts)):
        for chunk in chunks:
            for found in NUMBER.finditer(chunk):
                covering = _covered(chunk, found.start(), found.end(), phrases)
                if covering:
                    used |= covering
                else:
                    strays.append(Stray(page, found.group(), context_of(chunk, found.start(), found.end()), where))
    return strays, used


def lint_site(site: Path, pages: list[str], groups: list[Allowed]) -> tuple[list[Stray], list[tuple[Allowed, str]]]:
    """Stray numbers on every page, and allowlist phrases that matched nothing (with their group)."""
    strays, used_by_page = [], {}
    for page in pages:
        found, used = lint_page(page, (site / page).read_text(encoding="utf-8"), groups)
        strays += found
        used_by_page[page.removesuffix(".html")] = used
    unused = []
    for group in groups:
        for phrase in group.phrases:
            names = used_by_page if "*" in group.pages else {p: used_by_page.get(p, set()) for p in group.pages}
            if not any(phrase in used for used in names.values()):
                unused.append((group, phrase))
    return strays, unused


def suggestions(strays: list[Stray]) -> str:
    """The strays as allowlist groups to paste, one per page, reason "to be glued"."""
    by_page: dict[str, list[str]] = {}
    for stray in strays:
        phrases = by_page.setdefault(stray.page.removesuffix(".html"), [])
        if stray.context not in phrases:
            phrases.append(stray.context)
    blocks = []
    for page, phrases in sorted(by_page.items()):
        listed = "\n".join(f"  {_toml_string(phrase)}," for phrase in phrases)
        blocks.append(f'[[allow]]\nreason = "{TO_BE_GLUED}"\npages = ["{page}"]\nphrases = [\n{listed}\n]\n')
    return "\n".join(blocks)


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


#: The reason of the groups ``--update`` writes afresh.
TO_BE_GLUED = "to be glued"


def allowlist_text(groups: list[Allowed], header: str) -> str:
    """``groups`` as the allowlist file, after ``header`` (its comment lines)."""
    blocks = [header.rstrip("\n") + "\n"]
    for group in groups:
        pages = ", ".join(_toml_string(page) for page in group.pages)
        phrases = "\n".join(f"  {_toml_string(phrase)}," for phrase in group.phrases)
        reason = _toml_string(group.reason)
        blocks.append(f"[[allow]]\nreason = {reason}\npages = [{pages}]\nphrases = [\n{phrases}\n]\n")
    return "\n".join(blocks)


def update(site: Path, pages: list[str], path: Path = ALLOWLIST) -> tuple[int, int]:
    """Rewrite the allowlist (see the module's docstring); returns (phrases dropped, phrases to be glued)."""
    text = path.read_text(encoding="utf-8")
    header = "\n".join(line for line in text.split("[[allow]]", 1)[0].splitlines()) + "\n"
    kept = [group for group in load_allowlist(path) if group.reason != TO_BE_GLUED]
    _, unused = lint_site(site, pages, kept)
    gone = {(group.reason, phrase) for group, phrase in unused}
    kept = [
        Allowed(group.reason, group.pages, tuple(p for p in group.phrases if (group.reason, p) not in gone))
        for group in kept
    ]
    kept = [group for group in kept if group.phrases]
    strays, _ = lint_site(site, pages, kept)
    glued: dict[str, list[str]] = {}
    for stray in strays:
        phrases = glued.setdefault(stray.page.removesuffix(".html"), [])
        if stray.context not in phrases:
            phrases.append(stray.context)
    groups = kept + [Allowed(TO_BE_GLUED, (page,), tuple(phrases)) for page, phrases in sorted(glued.items())]
    path.write_text(allowlist_text(groups, header), encoding="utf-8")
    return len(gone), sum(len(phrases) for phrases in glued.values())


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    import sitekit

    rewrite = "--update" in argv
    argv = [arg for arg in argv if arg != "--update"]
    site = Path(argv[0]) if argv else sitekit.site_dir()
    if rewrite:
        dropped, glued = update(site, sitekit.page_paths(site))
        print(f"# {ALLOWLIST}: {dropped} unused phrases dropped, {glued} phrases to be glued", file=sys.stderr)
        return 0
    strays, unused = lint_site(site, sitekit.page_paths(site), load_allowlist())
    print(suggestions(strays), end="")
    for group, phrase in unused:
        print(f"# unused: {phrase!r} ({group.reason})", file=sys.stderr)
    print(f"# {len(strays)} numbers not accounted for, {len(unused)} unused phrases", file=sys.stderr)
    return 1 if strays or unused else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
