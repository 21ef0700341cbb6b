"""posenc_docs.typeset: formulas typeset by MathJax (node) when the site is built."""

from __future__ import annotations

import io
import os
import re
import shutil
from pathlib import Path

import pytest
from posenc_docs import typeset

ROOT = Path(__file__).resolve().parents[2]
NODE_MODULES = ROOT / "node_modules"

LONG = " + ".join(f"a_{{{i}}} b_{{{i}}}" for i in range(24))

INDEX = rf"""Math
====

In line, :math:`\omega_i = b^{{-2i/d}}`, and displayed with a number:

.. math::
   :label: shift

   T(k)\,\mathrm{{PE}}(t) = \mathrm{{PE}}(t + k)

A long one, which a phone's column must break:

.. math::

   {LONG}
"""


def needs_node():
    if shutil.which("node") is None or not (NODE_MODULES / "mathjax" / "node-main.mjs").is_file():
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail("node and `npm ci` are needed (CI=true)", pytrace=False)
        pytest.skip("needs node and node_modules (`npm ci`)")


def build(make_app, tmp_path: Path, index: str, *, warnings=None, scale: float = 1.17, status=None):
    """Build ``index`` in ``tmp_path/src`` with sphinx.testing's ``make_app`` (the same build
    directory each time, so a second call is a rebuild); return the app and its HTML directory."""
    source = tmp_path / "src"
    source.mkdir(exist_ok=True)
    conf = (
        "extensions = ['posenc_docs.typeset']\n"
        "html_math_renderer = 'posenc_typeset'\n"
        f"posenc_math_node_modules = {str(NODE_MODULES)!r}\n"
        f"posenc_math_scale = {scale}\n"
    )
    for name, text in (("conf.py", conf), ("index.rst", index)):
        if not (source / name).is_file() or (source / name).read_text() != text:  # unchanged files stay as they were
            (source / name).write_text(text)
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", status=status, warning=warnings)
    app.build()
    return app, Path(app.outdir)


def test_formulas_are_written_typeset(make_app, tmp_path):
    needs_node()
    app, out = build(make_app, tmp_path, INDEX)
    html = (out / "index.html").read_text()
    assert not re.search(r"<script[^>]*mathjax", html, re.IGNORECASE)  # no MathJax script
    assert r"\(" not in html and r"\[" not in html  # no TeX left for a browser to typeset
    inline = re.search(r'<span class="math notranslate nohighlight">(<mjx-container.*?</mjx-container>)</span>', html)
    assert inline and "<math" in inline.group(1) and "mjx-assistive-mml" in inline.group(1)
    assert 'id="equation-shift"' in html and '<span class="eqno">(1)' in html
    # the long formula: typeset for a laptop's column and, broken into lines, for a phone's
    assert html.count('class="posenc-math-wide"') == 1 and html.count('class="posenc-math-narrow"') == 1
    narrow = html.split('class="posenc-math-narrow"')[1]
    assert narrow.count("<mjx-linebox") > 1
    css = (out / "_static" / typeset.STYLESHEET).read_text()
    assert f'url("{typeset.FONT_URL}/mjx-ncm-n.woff2")' in css
    # only the rules these formulas use: the omega (U+1D714) of the page, not the Omega (U+3A9) it lacks
    assert "@media (max-width: 40em)" in css and "div.math > .posenc-math-narrow { display: block; }" in css
    assert "mjx-c.mjx-c1D714" in css and "mjx-c.mjx-c3A9 " not in css and len(css) < 60_000
    assert f'href="_static/{typeset.STYLESHEET}?v=' in html  # linked, with Sphinx's checksum
    assert 'style="font-size: 117%' in inline.group(1)  # as large as MathJax makes it beside sans-serif text
    assert app.builder._posenc_typeset.typeset == 3


def test_a_rebuild_typesets_only_new_formulas(make_app, tmp_path):
    needs_node()
    build(make_app, tmp_path, INDEX)
    app, out = build(make_app, tmp_path, INDEX + "\nAnd :math:`x^2`.\n")
    assert app.builder._posenc_typeset.typeset == 1
    assert "mjx-c1D465" in (out / "index.html").read_text()  # the x of x^2


def test_a_tex_error_is_a_build_warning(make_app, tmp_path):
    needs_node()
    warnings = io.StringIO()
    build(make_app, tmp_path, "T\n=\n\n:math:`\\frac{1}{`\n", warnings=warnings)
    assert re.search(r"index\.rst:\d+: WARNING: TeX error in .*frac.*brace", warnings.getvalue()), warnings.getvalue()


def test_display_tex_assembles_as_sphinx_does():
    from docutils import nodes

    assert typeset.display_tex(nodes.math_block("", r"\begin{align*} a \end{align*}", nowrap=True)) == (
        r"\begin{align*} a \end{align*}"
    )
    assert typeset.display_tex(nodes.math_block("", "a\n\nb \\\\ c")).startswith(r"\begin{align}\begin{aligned}a\\")


def read_again(log: io.StringIO) -> bool:
    """Whether Sphinx's log shows the page index read."""
    return bool(re.search(r"reading sources\.\.\. \[\s*\d+%\] index", re.sub(r"\x1b\[[0-9;]*m", "", log.getvalue())))


def test_new_typesetting_code_rewrites_every_page(make_app, tmp_path, monkeypatch):
    """A changed script, MathJax, width or size re-reads every page, so no page keeps old formulas or
    an old stylesheet checksum; with nothing changed, nothing is typeset again."""
    needs_node()
    build(make_app, tmp_path, INDEX)
    log = io.StringIO()
    app, _ = build(make_app, tmp_path, INDEX, status=log)
    assert app.builder._posenc_typeset.typeset == 0 and not read_again(log)
    changed = tmp_path / "mathjax_render.mjs"  # the same script with one more comment: new code
    changed.write_text(typeset._SCRIPT.read_text() + "// changed\n")
    monkeypatch.setattr(typeset, "_SCRIPT", changed)
    log = io.StringIO()
    app, _ = build(make_app, tmp_path, INDEX, status=log)
    assert read_again(log)  # the page is read again, so it is written again
    assert app.builder._posenc_typeset.typeset == 3  # every formula typeset again by the new code
    assert sorted(app.env.all_docs) == ["index"] and app.env.posenc_typeset_code == typeset._code_digest(app)


def _widest_em(html: str, scale: float) -> float:
    """The widest box (matrices carry their width) in a typeset formula, in the page's em."""
    return max((float(width) for width in re.findall(r"width: ?([0-9.]+)em", html)), default=0.0) * scale


def test_a_matrix_wider_than_the_column_is_typeset_again_narrower():
    """MathJax breaks lines inside a matrix's cells, but gave back mrope-text-is-rope's blockdiag of
    long cosines 50.7em wide when asked for 46em (it scrolled at 1280 px); the renderer asks again,
    narrower, until the matrix fits.  A matrix that fits is typeset once, as before."""
    needs_node()
    from posenc_math.theorems import get, render

    statement = get("mrope-text-is-rope").conclusions[0]
    unfolded = render.Conclusion(render.unfold(statement.lhs), render.unfold(statement.rhs), statement.over)
    wide = render.statement_latex([unfolded])  # as the machine chain shows it, every definition unfolded
    typesetter = typeset.Typesetter("node", NODE_MODULES, 46.0, 20.0, 1.17)
    try:
        answer = typesetter.ask({"tex": wide, "display": True})
        assert 30 < _widest_em(answer["html"], 1.17) <= 46.0
        small = typesetter.ask({"tex": r"\begin{pmatrix}a & b\\c & d\end{pmatrix}", "display": True})
        assert _widest_em(small["html"], 1.17) < 5
    finally:
        typesetter.close()


def test_a_short_formula_in_line_is_never_broken(make_app, tmp_path):
    """MathJax breaks in-line math before a relation or an operator: "p" at the end of a line, "+ k" at the start of
    the next.  A formula that fits on a phone's line moves there whole; only a longer one keeps its break points."""
    needs_node()
    text = "Breaks\n======\n\nShort :math:`p + k` and :math:`(\\sin(p\\omega_i), \\cos(p\\omega_i))`.\n\n"
    text += f"Long :math:`{LONG}`.\n"
    _app, out = build(make_app, tmp_path, text)
    formulas = re.findall(
        r'<span class="math notranslate nohighlight">(<mjx-container.*?</mjx-container>)</span>',
        out.joinpath("index.html").read_text(),
    )
    assert len(formulas) == 3
    short, pair, long = formulas
    assert "<mjx-break" not in short and "<mjx-break" not in pair
    assert 'space="3"' in short  # the space around + kept, on the operator itself
    assert long.count("<mjx-break") > 10  # the control: a long formula still breaks
