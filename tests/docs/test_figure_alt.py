"""posenc_docs.figure_alt: an image whose PNG describes itself gets that description as alt text."""

from __future__ import annotations

import io
import re

import matplotlib

matplotlib.use("agg")

from posenc_docs.figure_alt import png_description
from sphinx.application import Sphinx

from posenc_math.plotting import described


def figure_png(description: str) -> bytes:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(1, 1))
    figure.subplots().plot([0, 1], [0, 1])
    return described(figure, description).png()


def plain_png() -> bytes:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(1, 1))
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()


INDEX = """Figures
=======

.. image:: described.png

.. image:: described.png
   :alt: written by hand

.. image:: plain.png
"""


def build(tmp_path, extensions):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(f"extensions = {list(extensions)!r}\n")
    (source / "index.rst").write_text(INDEX)
    (source / "described.png").write_bytes(figure_png("A line rising from 0 to 1."))
    (source / "plain.png").write_bytes(plain_png())
    out = tmp_path / "html"
    app = Sphinx(str(source), str(source), str(out), str(tmp_path / "doctrees"), "html", status=None, warning=None)
    app.build()
    return (out / "index.html").read_text()


def test_the_png_description_becomes_the_alt_text(tmp_path):
    html = build(tmp_path, ["posenc_docs.figure_alt"])
    assert 'alt="A line rising from 0 to 1."' in html
    assert 'alt="written by hand"' in html  # an alt the page gives is kept
    assert html.count("A line rising from 0 to 1.") == 1
    # the computed alt is marked (the number lint skips it); the hand-written one and the plain image are not
    marked = r'<img alt="A line rising from 0 to 1\." class="posenc-described" src="_images/described.png"'
    assert re.search(marked, html)
    assert html.count("posenc-described") == 1
    # an image without a description keeps no alt (the site's accessibility test catches it)
    assert '<img alt="" src="_images/plain.png"' in html or 'src="_images/plain.png" />' in html


def test_without_the_extension_no_alt_is_read(tmp_path):
    """The control: the alt text comes from the extension, not from Sphinx."""
    assert "A line rising" not in build(tmp_path, [])


def test_png_description_reads_only_pngs(tmp_path):
    (tmp_path / "a.png").write_bytes(figure_png("Three words here."))
    (tmp_path / "b.png").write_bytes(b"not a png")
    assert png_description(tmp_path / "a.png") == "Three words here."
    assert png_description(tmp_path / "b.png") is None
