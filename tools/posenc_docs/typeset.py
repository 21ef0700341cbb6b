"""Sphinx extension: every formula typeset once, when the site is built.

MathJax in the reader's browser needed 2 to 4 s to typeset a long page on a
laptop and 7 to 12 s on a phone-class CPU.  Here the HTML writer asks MathJax
4 itself, run by node from the npm package (``mathjax_render.mjs``, one
process per build), for the CHTML of each formula and writes it into the
page, with MathJax's hidden MathML beside it for screen readers.  Pages
carry no math JavaScript; the stylesheet (``_static/posenc-mathjax.css``,
made by MathJax for every character of its font) and the font files are
served by the site itself.

MathJax breaks displayed formulas at the width of their box when it typesets
them, which a page written in advance does not know: a displayed formula is
typeset for the text column of a laptop (:confval:`posenc_math_wide_em`), and
one that MathJax must break at a phone's column
(:confval:`posenc_math_narrow_em`) is written a second time, broken for the
phone; the stylesheet shows one of the two, by the width of the screen
(:confval:`posenc_math_phone_media`).
In-line formulas break at the end of a line of text, in the browser.

A TeX error is a build warning (an error under ``-W``), with the page and
line of the formula.  Typeset formulas are kept between builds in the
doctree directory, keyed on the TeX, the widths and the MathJax code, so a
rebuild typesets only formulas it has not seen.

Enable with ``extensions = [..., "posenc_docs.typeset"]`` and
``html_math_renderer = "posenc_typeset"`` (conf.py does); it needs ``node``
and ``npm ci`` (the Makefile runs it).
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
import re
import shutil
import subprocess
import threading
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.locale import _
from sphinx.util import logging
from sphinx.util.math import get_node_equation_number

__all__ = ["STYLESHEET", "Typesetter", "display_tex", "setup"]

logger = logging.getLogger(__name__)

#: The stylesheet written into the site's ``_static/``.
STYLESHEET = "posenc-mathjax.css"
#: Where the stylesheet finds the font files, relative to it (the Makefile copies them there).
FONT_URL = "mathjax/fonts/mathjax-newcm-font/chtml/woff2"
_SCRIPT = Path(__file__).with_name("mathjax_render.mjs")
_CACHE = "posenc-typeset.pickle"


def display_tex(node: nodes.math_block) -> str:
    r"""The TeX MathJax gets for a displayed formula, assembled as Sphinx's MathJax writer does.

    Paragraphs become aligned lines; a paragraph with ``\\`` is a ``split``.
    Formulas written whole (``nowrap``: MyST's amsmath environments) go as
    they are.

    Examples
    --------
    >>> from docutils import nodes
    >>> display_tex(nodes.math_block("", "a = b"))
    'a = b'
    >>> display_tex(nodes.math_block("", "a = b \\\\ c = d"))
    '\\begin{split}a = b \\\\ c = d\\end{split}'
    >>> display_tex(nodes.math_block("", "a\n\nb"))
    '\\begin{align}\\begin{aligned}a\\\\b\\end{aligned}\\end{align}'
    """
    text = node.astext()
    if node.get("no-wrap", node.get("nowrap", False)):
        return text
    parts = [part for part in text.split("\n\n") if part.strip()]
    body = r"\\".join(rf"\begin{{split}}{part}\end{{split}}" if r"\\" in part else part for part in parts)
    return rf"\begin{{align}}\begin{{aligned}}{body}\end{{aligned}}\end{{align}}" if len(parts) > 1 else body


def css_blocks(css: str) -> list[str]:
    r"""The top-level blocks of a stylesheet (rules, ``@font-face``, whole ``@media`` blocks), in order.

    Examples
    --------
    >>> css_blocks("a { x: 1; }\n@media (p) { b { y: 2; } }\nc.d { z: 3; }")
    ['a { x: 1; }', '@media (p) { b { y: 2; } }', 'c.d { z: 3; }']
    """
    blocks, depth, start = [], 0, 0
    for index, character in enumerate(css):
        if character == "{":
            depth += 1
        elif character == "}":
            depth -= 1
            if depth == 0:
                blocks.append(css[start : index + 1].strip())
                start = index + 1
    return blocks


_TAG = re.compile(r"<(mjx-[\w-]+)")
_CLASSES = re.compile(r'class="([^"]*)"')
_SELECTOR_TAG = re.compile(r"(?<![\w.#-])(mjx-[\w-]+)")
_SELECTOR_CLASS = re.compile(r"\.([\w-]+)")


def shake(css: str, html: list[str]) -> str:
    r"""The rules of MathJax's full stylesheet that the typeset formulas ``html`` can use.

    A rule is kept when one of its selectors names only elements and classes
    that occur in the formulas (attributes and pseudo-classes are not
    checked, so a rule may be kept that is not needed, never dropped when it
    is); ``@font-face`` and ``@media`` blocks are kept (a browser fetches a
    font only when text uses it).  The order of the rules is kept.

    Examples
    --------
    >>> css = "mjx-mi { a: 1; }\nmjx-mfrac { b: 2; }\nmjx-c.mjx-c78 { c: 3; }\nmjx-c.mjx-c79 { d: 4; }"
    >>> print(shake(css, ['<mjx-mi><mjx-c class="mjx-c78">x</mjx-c></mjx-mi>']))
    mjx-mi { a: 1; }
    <BLANKLINE>
    mjx-c.mjx-c78 { c: 3; }
    <BLANKLINE>
    """
    tags, classes = set(), set()
    for fragment in html:
        tags.update(_TAG.findall(fragment))
        for names in _CLASSES.findall(fragment):
            classes.update(names.split())
    kept = []
    for block in css_blocks(css):
        if block.startswith("@"):
            kept.append(block)
            continue
        selectors = block[: block.index("{")].split(",")
        if any(
            set(_SELECTOR_TAG.findall(selector)) <= tags and set(_SELECTOR_CLASS.findall(selector)) <= classes
            for selector in selectors
        ):
            kept.append(block)
    return "\n\n".join(kept) + "\n"


class Typesetter:
    """One ``node mathjax_render.mjs`` process, started on first use; answers in order."""

    def __init__(self, node: str, node_modules: Path, wide_em: float, narrow_em: float, scale: float = 1.0):
        self.command = [node, str(_SCRIPT), str(node_modules), FONT_URL, str(wide_em), str(narrow_em), str(scale)]
        self.process: subprocess.Popen | None = None
        self.pid = os.getpid()  # a process forked to write pages in parallel starts its own node
        self.lock = threading.Lock()

    def ask(self, request: dict) -> dict:
        """Send one request (see ``mathjax_render.mjs``) and return the answer."""
        with self.lock:
            if self.process is None or self.pid != os.getpid():
                self.pid = os.getpid()
                self.process = subprocess.Popen(
                    self.command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL,
                    text=True,
                    encoding="utf-8",
                )
            assert self.process.stdin is not None and self.process.stdout is not None
            self.process.stdin.write(json.dumps(request) + "\n")
            self.process.stdin.flush()
            line = self.process.stdout.readline()
            if not line:
                code = self.process.wait()
                raise ExtensionError(f"posenc_docs.typeset: {' '.join(self.command)} ended (status {code})")
            return json.loads(line)

    def close(self) -> None:
        if self.process is not None and self.pid == os.getpid():
            assert self.process.stdin is not None
            self.process.stdin.close()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            self.process = None


def _code_digest(app: Sphinx) -> str:
    """What a typeset formula depends on besides its TeX: our script, MathJax's and the font's versions, the widths."""
    digest = hashlib.sha256(_SCRIPT.read_bytes())
    modules = _node_modules(app)
    for package in ("mathjax", "@mathjax/mathjax-newcm-font"):
        digest.update((modules / package / "package.json").read_bytes())
    config = app.config
    digest.update(f"{config.posenc_math_wide_em}/{config.posenc_math_narrow_em}/{config.posenc_math_scale}".encode())
    return digest.hexdigest()


def _node_modules(app: Sphinx) -> Path:
    return Path(app.confdir, app.config.posenc_math_node_modules)


class _State:
    """The build's typesetter and cache (on the app, one per build)."""

    def __init__(self, app: Sphinx):
        node = shutil.which(app.config.posenc_math_node)
        if node is None:
            raise ExtensionError(f"posenc_docs.typeset needs node (posenc_math_node = {app.config.posenc_math_node!r})")
        modules = _node_modules(app)
        if not (modules / "mathjax" / "node-main.mjs").is_file():
            raise ExtensionError(f"posenc_docs.typeset: no MathJax in {modules}: run `npm ci`")
        config = app.config
        self.typesetter = Typesetter(
            node, modules, config.posenc_math_wide_em, config.posenc_math_narrow_em, config.posenc_math_scale
        )
        self.code = _code_digest(app)
        self.path = Path(app.doctreedir) / _CACHE
        self.known: dict[str, tuple[str, str | None, list[str]]] = {}
        try:
            with self.path.open("rb") as file:
                saved = pickle.load(file)
            if saved.get("code") == self.code:
                self.known = saved["formulas"]
        except (OSError, pickle.UnpicklingError, EOFError, KeyError, AttributeError):
            pass
        self.used: dict[str, tuple[str, str | None, list[str]]] = {}
        self.typeset = 0
        self.covered: list[str] | None = None  # the formulas the stylesheet was shaken for
        self.doctreedir = Path(app.doctreedir)
        self.mathjax_version = json.loads((modules / "mathjax" / "package.json").read_text(encoding="utf-8"))["version"]

    def formula(self, tex: str, display: bool) -> tuple[str, str | None, list[str]]:
        key = hashlib.sha256(f"{int(display)}{tex}".encode()).hexdigest()
        found = self.used.get(key) or self.known.get(key)
        if found is None:
            answer = self.typesetter.ask({"tex": tex, "display": display})
            found = (answer["html"], answer["narrow"], answer["errors"])
            self.typeset += 1
        self.used[key] = found
        return found

    def full_stylesheet(self) -> str:
        """MathJax's stylesheet for every character of the font (kept in the doctree directory)."""
        saved = self.doctreedir / (STYLESHEET + ".full")
        marker = f"/* {self.code} */\n"
        if saved.is_file():
            text = saved.read_text(encoding="utf-8")
            if text.startswith(marker):
                return text[len(marker) :]
        css = self.typesetter.ask({"stylesheet": True})["css"]
        saved.parent.mkdir(parents=True, exist_ok=True)
        saved.write_text(marker + css, encoding="utf-8")
        return css


def _state(builder) -> _State:
    state = getattr(builder, "_posenc_typeset", None)
    if state is None:
        raise ExtensionError("posenc_docs.typeset: the HTML builder was not set up (builder-inited did not run)")
    return state


def _typeset(translator, node: nodes.Element, tex: str, display: bool) -> tuple[str, str | None]:
    html, narrow, errors = _state(translator.builder).formula(tex, display)
    for error in errors:
        logger.warning("TeX error in %r: %s", tex[:80], error, location=node)
    return html, narrow


def visit_math(translator, node: nodes.math) -> None:
    """An in-line formula: ``<span class="math">`` holding MathJax's CHTML."""
    html, _narrow = _typeset(translator, node, node.astext(), False)
    translator.body.append(translator.starttag(node, "span", "", CLASS="math notranslate nohighlight"))
    translator.body.append(html + "</span>")
    raise nodes.SkipNode


def visit_displaymath(translator, node: nodes.math_block) -> None:
    """A displayed formula: ``<div class="math">``, its number, and one or two typesettings."""
    html, narrow = _typeset(translator, node, display_tex(node), True)
    translator.body.append(translator.starttag(node, "div", CLASS="math notranslate nohighlight"))
    if node["number"]:
        number = get_node_equation_number(translator, node)
        translator.body.append(f'<span class="eqno">({number})')
        translator.add_permalink_ref(node, _("Link to this equation"))
        translator.body.append("</span>")
    if narrow is None:
        translator.body.append(html)
    else:
        translator.body.append(f'<div class="posenc-math-wide">{html}</div>')
        translator.body.append(f'<div class="posenc-math-narrow">{narrow}</div>')
    translator.body.append("</div>\n")
    raise nodes.SkipNode


def _formulas(env) -> dict[str, list[tuple[str, bool]]]:
    """docname -> the formulas of that page, (TeX, displayed), kept in the environment."""
    if not hasattr(env, "posenc_formulas"):
        env.posenc_formulas = {}
    return env.posenc_formulas


def formulas_of(doctree: nodes.Node) -> list[tuple[str, bool]]:
    """The formulas of a doctree, (TeX, displayed), each once, in order."""
    found = dict.fromkeys(
        [(node.astext(), False) for node in doctree.findall(nodes.math)]
        + [(display_tex(node), True) for node in doctree.findall(nodes.math_block)]
    )
    return list(found)


def collect_formulas(app: Sphinx, doctree: nodes.document) -> None:
    """``doctree-read``: note the page's formulas, so all of them are typeset before any page is written."""
    _formulas(app.env)[app.env.docname] = formulas_of(doctree)


def _purge(app: Sphinx, env, docname: str) -> None:
    _formulas(env).pop(docname, None)


def _merge(app: Sphinx, env, docnames, other) -> None:
    for docname in docnames:
        if docname in _formulas(other):
            _formulas(env)[docname] = _formulas(other)[docname]


def reread_when_typesetting_changed(app: Sphinx, env, added, changed, removed) -> list[str]:
    """``env-get-outdated``: when the typesetting code changed (our script, MathJax, the font or the
    widths), every page is read again, so every page is written again with the new formulas and the
    new stylesheet's checksum (``posenc_docs.site_html`` writes all pages once any page is read)."""
    if getattr(app.builder, "math_renderer_name", None) != "posenc_typeset":
        return []
    digest = _code_digest(app)
    if getattr(env, "posenc_typeset_code", None) == digest:
        return []
    env.posenc_typeset_code = digest
    return sorted(env.found_docs)


def start_typesetting(app: Sphinx) -> None:
    """``builder-inited``: the HTML builder gets its typesetter (node starts on first use)."""
    if app.builder.format == "html" and app.builder.math_renderer_name == "posenc_typeset":  # type: ignore[attr-defined]
        app.builder._posenc_typeset = _State(app)  # type: ignore[attr-defined]


def write_stylesheet(app: Sphinx, env) -> None:
    """``env-updated``: typeset every formula of the site not typeset before, then write the
    stylesheet those formulas need into ``_static/`` before any page is written (so every page
    links it with Sphinx's checksum)."""
    state = getattr(app.builder, "_posenc_typeset", None)
    if state is None:
        return
    known = _formulas(env)
    for docname in sorted(env.found_docs - set(known)):  # read before this extension noted formulas
        known[docname] = formulas_of(env.get_doctree(docname))
    formulas = sorted({formula for page in known.values() for formula in page})
    html = []
    for tex, display in formulas:
        wide, narrow, _errors = state.formula(tex, display)
        html += [wide, narrow or ""]
    media = app.config.posenc_math_phone_media
    css = (
        f"/* MathJax {state.mathjax_version}: the rules the formulas of this site use */\n"
        "/* A formula written twice (posenc_docs.typeset): the copy broken for a phone on a narrow screen. */\n"
        "div.math > .posenc-math-narrow { display: none; }\n"
        f"@media {media} {{\n"
        "  div.math > .posenc-math-wide { display: none; }\n"
        "  div.math > .posenc-math-narrow { display: block; }\n"
        "}\n\n" + shake(state.full_stylesheet(), html)
    )
    state.covered = html
    path = Path(app.builder.outdir, "_static", STYLESHEET)
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.is_file() or path.read_text(encoding="utf-8") != css:
        path.write_text(css, encoding="utf-8")


def link_stylesheet(app: Sphinx, pagename: str, templatename: str, context: dict, doctree: Any) -> None:
    """``html-page-context``: pages with math link the stylesheet (as Sphinx adds MathJax only where needed)."""
    if app.builder.math_renderer_name != "posenc_typeset":  # type: ignore[attr-defined]
        return
    if app.env.get_domain("math").has_equations(pagename):  # type: ignore[attr-defined]
        app.add_css_file(STYLESHEET)


def finish(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: stop node; keep the formulas of this build (all of them, when no page was written)."""
    state = getattr(app.builder, "_posenc_typeset", None)
    if state is None:
        return
    state.typesetter.close()
    if exception is None and state.covered is not None:
        missing = [html for html, narrow, _ in state.used.values() if html not in state.covered]
        if missing:  # a formula that only appeared when the pages were resolved (a glue from another page)
            css = shake(state.full_stylesheet(), [*state.covered, *missing])
            if (
                css.split("\n", 1)[1]
                != Path(app.builder.outdir, "_static", STYLESHEET).read_text(encoding="utf-8").split("\n", 1)[1]
            ):
                logger.warning(
                    "posenc_docs.typeset: %d formulas were not known before the pages were written and need "
                    "rules the stylesheet lacks; build again",
                    len(missing),
                )
    if exception is None:
        formulas = state.used or state.known
        state.path.parent.mkdir(parents=True, exist_ok=True)
        with state.path.open("wb") as file:
            pickle.dump({"code": state.code, "formulas": formulas}, file)
        if state.typeset:
            logger.info(
                "posenc_docs.typeset: %d formulas typeset, %d kept from before",
                state.typeset,
                len(state.used) - state.typeset,
            )


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the math renderer, its settings and the stylesheet."""
    app.add_config_value("posenc_math_node", "node", "env", str)
    app.add_config_value("posenc_math_node_modules", "node_modules", "env", str)
    app.add_config_value("posenc_math_wide_em", 46.0, "env", float)
    app.add_config_value("posenc_math_narrow_em", 20.0, "env", float)
    app.add_config_value("posenc_math_scale", 1.0, "env", float)
    app.add_config_value("posenc_math_phone_media", "(max-width: 40em)", "html", str)
    app.add_html_math_renderer("posenc_typeset", (visit_math, None), (visit_displaymath, None))
    app.connect("builder-inited", start_typesetting)
    app.connect("env-get-outdated", reread_when_typesetting_changed)
    app.connect("doctree-read", collect_formulas)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-updated", write_stylesheet)
    app.connect("html-page-context", link_stylesheet)
    app.connect("build-finished", finish)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
