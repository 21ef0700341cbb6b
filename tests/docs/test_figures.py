"""posenc_docs.figures: every image links to its own file; notebook figures get a phone rendering."""

from __future__ import annotations

import re
import shutil

import pytest
from sphinx.application import Sphinx

#: A 1 x 1 PNG.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082"
)


def build(tmp_path, index_rst: str, extensions=("posenc_docs.figures",)):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(f"extensions = {list(extensions)!r}\n")
    (source / "index.rst").write_text(index_rst)
    (source / "sub").mkdir()
    (source / "sub" / "page.rst").write_text("Sub\n===\n\n.. image:: ../plot.png\n   :alt: the plot again\n")
    (source / "plot.png").write_bytes(PNG)
    out = tmp_path / "html"
    app = Sphinx(str(source), str(source), str(out), str(tmp_path / "doctrees"), "html", status=None, warning=None)
    app.build()
    return out


INDEX = """Figures
=======

.. toctree::

   sub/page

.. figure:: plot.png
   :alt: a plot

   A caption.

Already linked:

.. image:: plot.png
   :alt: linked
   :target: https://example.org/
"""


def test_figures_link_to_their_image_file(tmp_path):
    out = build(tmp_path, INDEX)
    html = (out / "index.html").read_text()
    links = re.findall(r'<a class="full-size-image[^"]*" href="([^"]+)"[^>]*>\s*<img[^>]*src="([^"]+)"', html)
    assert links == [("_images/plot.png", "_images/plot.png")]
    assert (out / "_images" / "plot.png").is_file()
    # an image that already sits in a link keeps that link and gets no second one
    assert 'href="https://example.org/"' in html
    # a page in a subdirectory links with the right relative path
    sub = (out / "sub" / "page.html").read_text()
    assert re.search(r'class="full-size-image[^"]*" href="\.\./_images/plot\.png"', sub)


def test_without_the_extension_nothing_links(tmp_path):
    """The control: the links come from the extension, not from Sphinx."""
    out = build(tmp_path, INDEX, extensions=())
    assert "full-size-image" not in (out / "index.html").read_text()


def test_only_html_builders_are_changed(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text("extensions = ['posenc_docs.figures']\n")
    (source / "index.rst").write_text("T\n=\n\n.. image:: plot.png\n")
    (source / "plot.png").write_bytes(PNG)
    out = tmp_path / "text"
    app = Sphinx(str(source), str(source), str(out), str(tmp_path / "doctrees"), "text", status=None, warning=None)
    app.build()
    assert (out / "index.txt").is_file()
    shutil.rmtree(out)


NOTEBOOK_PAGE = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3
  language: python
  name: python3
---
# A figure

```{code-cell} ipython3
---
mystnb:
  figure:
    caption: Eight inches wide, with 7 pt labels.
    name: fig-wide
  image:
    alt: A line rising from left to right.
---
import matplotlib.pyplot as plt

figure, axes = plt.subplots(figsize=(8, 3), layout="constrained")
axes.plot(range(10))
axes.tick_params(labelsize=7)
axes.set_title("a title", fontsize=7);
```
"""


def notebook_build(make_app, tmp_path, monkeypatch, extensions, page=NOTEBOOK_PAGE, status=None):
    """Build one MyST notebook page (run, or taken from MyST-NB's cache); return the HTML directory."""
    monkeypatch.setenv("PYTHONSTARTUP", "")  # the extension sets it for the kernels; restored after the test
    source = tmp_path / "src"
    source.mkdir(exist_ok=True)
    (source / "conf.py").write_text(
        f"extensions = {['myst_nb', *extensions]!r}\nnb_execution_mode = 'cache'\nnb_execution_raise_on_error = True\n"
    )
    (source / "index.md").write_text(page)
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", status=status)
    app.build()
    return app.outdir


@pytest.mark.build
def test_a_notebook_figure_gets_a_phone_rendering(make_app, tmp_path, monkeypatch):
    from posenc_docs import figure_display, figures

    out = notebook_build(make_app, tmp_path, monkeypatch, ["posenc_docs.figures"])
    html = (out / "index.html").read_text()
    found = re.search(
        r'<a class="full-size-image[^"]*" href="(_images/[0-9a-f]+\.png)"[^>]*><picture>'
        r'<source media="([^"]+)" srcset="(_images/[0-9a-f]+\.png)" width="(\d+)" height="(\d+)" />'
        r'<img src="(_images/[0-9a-f]+\.png)" alt="A line rising from left to right." width="(\d+)" height="(\d+)" '
        r'loading="lazy"',
        html,
    )
    assert found, html[html.find("<figure") : html.find("</figure>")]
    link, media, phone, phone_w, phone_h, wide, wide_w, wide_h = found.groups()
    assert link == wide and media == figures.PHONE_MEDIA and phone != wide
    assert html.count("<figcaption") == 1 and html.count("<img") == 1  # one figure, one caption
    wide_png, phone_png = (out / wide).read_bytes(), (out / phone).read_bytes()
    assert figure_display.png_text(wide_png)[figure_display.RENDERING_KEY] == "wide"
    assert figure_display.png_text(phone_png)[figure_display.RENDERING_KEY] == "phone"
    assert figures.png_size(wide_png) == (int(wide_w), int(wide_h))
    pixels = figures.png_size(phone_png)  # a higher resolution: PHONE_DPI / 100 pixels per CSS px, rounded
    ratio = figure_display.PHONE_DPI / 100
    assert abs(pixels[0] - ratio * int(phone_w)) <= 1 and abs(pixels[1] - ratio * int(phone_h)) <= 1
    # the wide figure's 7 pt labels shown in a 328 px column: under 9 px; the phone rendering's: 9 px or more
    column = figure_display.NARROWEST_COLUMN_PX
    wide_label = float(figure_display.png_text(wide_png)[figure_display.LABEL_KEY]) * column / int(wide_w)
    phone_label = float(figure_display.png_text(phone_png)[figure_display.LABEL_KEY]) * column / pixels[0]
    assert wide_label < 9 <= phone_label


DESCRIBED_PAGE = (
    NOTEBOOK_PAGE.split("```{code-cell}")[0]
    + """```{code-cell} ipython3
import matplotlib.pyplot as plt
from posenc_math.plotting import described

figure, axes = plt.subplots(figsize=(8, 3), layout="constrained")
axes.plot(range(10))
axes.tick_params(labelsize=7)
described(figure, "A line rising from left to right, described by the figure.")
```
"""
)


@pytest.mark.build
def test_a_described_figure_gets_a_phone_rendering_and_its_alt_text(make_app, tmp_path, monkeypatch):
    """A ``DescribedFigure`` (the model-config page's) is drawn for phones like a plain figure,
    and its description still reaches the ``<img>`` as alt text."""
    from posenc_docs import figure_display

    out = notebook_build(
        make_app, tmp_path, monkeypatch, ["posenc_docs.figures", "posenc_docs.figure_alt"], page=DESCRIBED_PAGE
    )
    html = (out / "index.html").read_text()
    found = re.search(
        r'<picture><source media="[^"]+" srcset="(_images/[0-9a-f]+\.png)"[^>]*/>'
        r'<img src="_images/[0-9a-f]+\.png" alt="A line rising from left to right, described by the figure\."'
        r'[^>]* class="posenc-described" />',  # marked as computed, for the number lint
        html,
    )
    assert found, html[html.find("<picture") - 200 : html.find("</picture>") + 20]
    phone = (out / found.group(1)).read_bytes()
    assert figure_display.png_text(phone)[figure_display.RENDERING_KEY] == "phone"
    assert float(figure_display.png_text(phone)[figure_display.LABEL_KEY]) > 0


@pytest.mark.build
def test_without_the_extension_a_figure_is_one_image(make_app, tmp_path, monkeypatch):
    """The control: the phone rendering comes from the extension's kernels."""
    out = notebook_build(make_app, tmp_path, monkeypatch, [])
    html = (out / "index.html").read_text()
    assert "<picture" not in html and html.count("<img") == 1


@pytest.mark.build
def test_a_cached_notebook_keeps_its_phone_rendering(make_app, tmp_path, monkeypatch):
    """The page's text edited, its code not: MyST-NB takes the outputs from its cache, and the
    phone rendering travels inside the wide PNG, so the page keeps its <picture>."""
    import io

    first = (notebook_build(make_app, tmp_path, monkeypatch, ["posenc_docs.figures"]) / "index.html").read_text()
    log = io.StringIO()
    edited = NOTEBOOK_PAGE.replace("# A figure", "# A figure\n\nA sentence more.")
    out = notebook_build(make_app, tmp_path, monkeypatch, ["posenc_docs.figures"], page=edited, status=log)
    html = (out / "index.html").read_text()
    assert "Executing notebook" not in log.getvalue() and "A sentence more." in html
    assert html.count("<picture>") == first.count("<picture>") == 1
    assert re.search(r'<picture>.*?srcset="(_images/[^"]+)"', html).group(1) == re.search(
        r'<picture>.*?srcset="(_images/[^"]+)"', first
    ).group(1)


@pytest.mark.build
def test_a_library_change_runs_the_notebooks_again(make_app, tmp_path, monkeypatch):
    """MyST-NB's cache keys a notebook on its own code: when the library changes (here: the stamp beside
    the cache names other code), the cache is emptied and the page, its source untouched, is read and
    run again."""
    import io

    notebook_build(make_app, tmp_path, monkeypatch, ["posenc_docs.figures"])

    def build_again() -> str:  # the same source, not written again: Sphinx sees nothing new in it
        log = io.StringIO()
        app = make_app("html", srcdir=tmp_path / "src", builddir=tmp_path / "build", status=log)
        app.build()
        return log.getvalue()

    unchanged = build_again()
    assert "Executing notebook" not in unchanged  # the control: nothing changed, nothing runs
    stamp = next((tmp_path / "build").glob("*.posenc-figures"))
    stamp.write_text("the digest of some other library", encoding="utf-8")
    changed = build_again()
    assert "Executing notebook" in changed, changed[-2000:]
