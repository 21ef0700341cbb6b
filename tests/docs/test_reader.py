"""posenc_docs.reader on a two-page project, in process (sphinx.testing's
``make_app``; notebooks are not executed)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

CONF = """
extensions = ["myst_nb", "sphinx_proof", "posenc_docs.reader"]
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
    assert (
        'href="posenc-math.pdf"' not in html
        and "PDF" not in html.split("Cite this page")[0].split("reader-toolkit")[-1]
    )
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
