"""posenc_docs.figures: every image of a page links to its own file."""

from __future__ import annotations

import re
import shutil

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
