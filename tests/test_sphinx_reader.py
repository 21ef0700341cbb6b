"""posenc_math.sphinx_reader on a two-page project, in process (sphinx.testing's
``make_app``; notebooks are not executed)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

CONF = """
extensions = ["myst_nb", "sphinx_proof", "posenc_math.sphinx_reader"]
project = "demo"
release = version = "9.9.9"
html_baseurl = "https://example.org/site/"
posenc_reader_pdf = "book.pdf"
nb_execution_mode = "off"
exclude_patterns = ["_build"]
myst_enable_extensions = ["dollarmath"]
"""

NOTEBOOK = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---

(page-nb)=
# A notebook page

```{prf:theorem} Demo
:label: thm-demo

$1 + 1 = 2$.
```

```{code-cell} ipython3
from myst_nb import glue

glue("two", 1 + 1)
```
"""

INDEX = """# Home page

Plain text, no code.

```{toctree}
nb
```
"""


@pytest.fixture
def project(tmp_path) -> Path:
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    (source / "index.md").write_text(INDEX, encoding="utf-8")
    (source / "nb.md").write_text(NOTEBOOK, encoding="utf-8")
    return source


def without_theorem(source: Path) -> None:
    """The incremental-build tests leave the theorem out: sphinx-proof 0.4
    cannot number a theorem on a page written again without being read again
    (``ValueError: 'theorem  ' is not in list``), with or without this
    extension."""
    text = (source / "nb.md").read_text(encoding="utf-8")
    (source / "nb.md").write_text(re.sub(r"```\{prf:theorem\}.*?```\n", "", text, flags=re.S), encoding="utf-8")


def build(make_app, source: Path, builder: str = "html"):
    app = make_app(builder, srcdir=source, freshenv=False)
    try:
        app.build()
    finally:
        app.cleanup()
    # Several Sphinx applications in one test process register docutils' node
    # classes, directives and roles again (global registries); those warnings
    # are about the test process, not the extension.
    warnings = [line for line in app.warning.getvalue().splitlines() if " is already registered" not in line]
    assert warnings == [], "\n".join(warnings)
    return app


def bibtex_of(html: str) -> str:
    block = html[html.index('id="cite-this-page"') :]
    pre = block[block.index("<pre") : block.index("</pre>")]
    return re.sub(r"<[^>]+>", "", pre).replace("&#64;", "@")


def test_notebook_page_links_a_valid_notebook_with_the_glue_fallback(make_app, project):
    import nbformat

    app = build(make_app, project)
    html = (app.outdir / "nb.html").read_text(encoding="utf-8")
    assert 'href="_downloads/notebooks/nb.ipynb" download="nb.ipynb"' in html
    notebook = nbformat.read(app.outdir / "_downloads" / "notebooks" / "nb.ipynb", as_version=4)
    nbformat.validate(notebook)
    code = [cell.source for cell in notebook.cells if cell.cell_type == "code"]
    assert len(code) == 1 and "except ImportError" in code[0] and 'glue("two", 1 + 1)' in code[0]
    assert notebook.metadata.kernelspec.name == "python3"
    assert "9.9.9" in notebook.cells[0].source and "https://example.org/site/nb.html" in notebook.cells[0].source
    assert not any("(page-nb)=" in cell.source for cell in notebook.cells)


def test_page_without_code_has_no_notebook(make_app, project):
    app = build(make_app, project)
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "reader-toolkit" in html and ".ipynb" not in html
    assert not (app.outdir / "_downloads" / "notebooks" / "index.ipynb").exists()


def test_cite_block_comes_from_the_build(make_app, project):
    app = build(make_app, project)
    entry = bibtex_of((app.outdir / "nb.html").read_text(encoding="utf-8"))
    assert entry.startswith("@online{posenc-math:nb,")
    assert "title   = {{A notebook page}}" in entry
    assert "url     = {https://example.org/site/nb.html}" in entry
    assert "version = {9.9.9}" in entry
    assert "theorems on this page: thm-demo" in entry
    home = bibtex_of((app.outdir / "index.html").read_text(encoding="utf-8"))
    assert "{{Home page}}" in home and "theorems on this page" not in home


def test_version_is_shown(make_app, project):
    app = build(make_app, project)
    assert "posenc-math 9.9.9" in (app.outdir / "index.html").read_text(encoding="utf-8")


def test_pdf_is_linked_only_when_built_and_then_copied(make_app, project):
    without_theorem(project)
    app = build(make_app, project)
    html = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert "not part of this copy of the site" in html and 'href="posenc-math.pdf"' not in html
    assert not (app.outdir / "posenc-math.pdf").exists()
    (project / "book.pdf").write_bytes(b"%PDF-1.5 stand-in")
    app = build(make_app, project)  # incremental: no source changed, every page rewritten
    for page in ("index.html", "nb.html"):
        assert 'href="posenc-math.pdf"' in (app.outdir / page).read_text(encoding="utf-8"), page
    assert (app.outdir / "posenc-math.pdf").read_bytes() == b"%PDF-1.5 stand-in"


def test_latex_gets_no_toolkit_block(make_app, project):
    app = build(make_app, project, "latex")
    tex = next(Path(app.outdir).glob("*.tex")).read_text(encoding="utf-8")
    assert "A notebook page" in tex
    assert "Cite this page" not in tex and ".ipynb" not in tex


def test_notebook_json_is_the_same_on_every_build(make_app, project):
    without_theorem(project)
    first = build(make_app, project)
    path = first.outdir / "_downloads" / "notebooks" / "nb.ipynb"
    text = path.read_text(encoding="utf-8")
    assert "prf:theorem" not in text
    path.unlink()
    (project / "nb.md").touch()  # read and written again
    second = build(make_app, project)
    assert (second.outdir / "_downloads" / "notebooks" / "nb.ipynb").read_text(encoding="utf-8") == text
    assert json.loads(text)["nbformat"] == 4


#: What sphinx-codeautolink writes for install_hint in the notebook page's code cell.
INSTALL_HINT_LINK = '<a class="sphinx-codeautolink-a" href="api.html#posenc_math._extras.install_hint"'


def with_codeautolink(project: Path, api_extra: str = "") -> None:
    """sphinx-codeautolink on, an API page documenting ``install_hint`` (then
    ``api_extra``), and a code cell in the notebook page that calls it."""
    without_theorem(project)
    conf = (project / "conf.py").read_text(encoding="utf-8")
    conf = conf.replace('"posenc_math.sphinx_reader"]', '"posenc_math.sphinx_reader", "sphinx_codeautolink"]')
    (project / "conf.py").write_text(conf + "codeautolink_concat_default = True\n", encoding="utf-8")
    entry = "```{py:function} posenc_math._extras.install_hint(extra)\n\nA documented function.\n```\n"
    (project / "api.md").write_text("# API\n\n" + entry + api_extra, encoding="utf-8")
    (project / "index.md").write_text(INDEX.replace("nb\n", "nb\napi\n"), encoding="utf-8")
    notebook = (project / "nb.md").read_text(encoding="utf-8")
    cell = "```{code-cell} ipython3\nfrom posenc_math._extras import install_hint\n\ninstall_hint('plot')\n```\n"
    (project / "nb.md").write_text(notebook + "\n" + cell, encoding="utf-8")


def test_code_links_survive_a_rewrite_without_a_read(make_app, project):
    """sphinx-codeautolink links a name in a code cell to its API entry, also
    on a page written again without being read again (here: because the PDF
    appeared), which it would leave unlinked on its own (MyST sources)."""
    with_codeautolink(project)
    link = INSTALL_HINT_LINK
    app = build(make_app, project)
    assert link in (app.outdir / "nb.html").read_text(encoding="utf-8")
    (project / "book.pdf").write_bytes(b"%PDF-1.5 stand-in")
    app = build(make_app, project)
    html = (app.outdir / "nb.html").read_text(encoding="utf-8")
    assert 'href="posenc-math.pdf"' in html, "the page was not written again"
    assert link in html, "the rewritten page lost its links into the API"


def test_codeautolink_leaves_pages_without_links_as_sphinx_wrote_them(make_app, project):
    """A page whose code links nothing (here: skipped with ``autolink-skip``,
    as docs/api.md is) is not read back and written again by sphinx-codeautolink,
    which costs seconds on the API page; a page with a link still gets it."""
    skipped = "```{autolink-skip} file\n```\n\n```python\nfrom posenc_math._extras import install_hint\n```\n"
    with_codeautolink(project, api_extra="\n" + skipped)
    app = build(make_app, project)
    linked, skipped_html = ((app.outdir / page).read_text(encoding="utf-8") for page in ("nb.html", "api.html"))
    assert INSTALL_HINT_LINK in linked
    # BeautifulSoup writes <meta charset="utf-8"/>; Sphinx writes <meta charset="utf-8" />
    assert '<meta charset="utf-8"/>' in linked, "codeautolink no longer rewrites pages: this test needs a new sign"
    assert '<meta charset="utf-8" />' in skipped_html and "sphinx-codeautolink-a" not in skipped_html


def with_two_linked_pages(project: Path) -> None:
    """:func:`with_codeautolink`, and a second notebook page (``nb2``) with the same linked code."""
    with_codeautolink(project)
    text = (project / "nb.md").read_text(encoding="utf-8")
    (project / "nb2.md").write_text(text.replace("(page-nb)=", "(page-nb2)=").replace("# A notebook", "# Two"))
    (project / "index.md").write_text(INDEX.replace("nb\n", "nb\nnb2\napi\n"), encoding="utf-8")


def test_codeautolink_links_about_half_the_pages_in_a_forked_process(make_app, project, monkeypatch, tmp_path):
    """The pages with links are split between codeautolink itself and a
    forked process; every page gets its links, and what the forked process
    warns reaches the build."""
    from sphinx.util import logging
    from sphinx_codeautolink import extension
    from sphinx_codeautolink.extension import block

    with_two_linked_pages(project)
    record = tmp_path / "linked.txt"
    link_html = block.link_html

    def recording(document, *args, **kwargs):
        link_html(document, *args, **kwargs)
        with record.open("a", encoding="utf-8") as lines:
            lines.write(f"{document} {os.getpid()}\n")
        logging.getLogger(__name__).warning("linked %s", document)

    monkeypatch.setattr(block, "link_html", recording)
    monkeypatch.setattr(extension, "link_html", recording)
    app = make_app("html", srcdir=project, freshenv=False)
    try:
        app.build()
    finally:
        app.cleanup()
    linked_in = dict(line.split() for line in record.read_text(encoding="utf-8").splitlines())
    assert set(linked_in) == {"nb", "nb2"}
    assert sorted(int(pid) == os.getpid() for pid in linked_in.values()) == [False, True]
    warnings = app.warning.getvalue()
    assert re.search(r"linked nb\b", warnings) and re.search(r"linked nb2\b", warnings), warnings
    for page in ("nb.html", "nb2.html"):
        assert INSTALL_HINT_LINK in (app.outdir / page).read_text(encoding="utf-8"), page


def test_when_no_process_can_be_forked_codeautolink_links_every_page_itself(make_app, project, monkeypatch):
    import multiprocessing.context

    def refuse(self):
        raise OSError("Resource temporarily unavailable")

    monkeypatch.setattr(multiprocessing.context.ForkProcess, "start", refuse)
    with_two_linked_pages(project)
    app = build(make_app, project)
    for page in ("nb.html", "nb2.html"):
        assert INSTALL_HINT_LINK in (app.outdir / page).read_text(encoding="utf-8"), page
