"""Sphinx extension: a figure that describes itself gets that description as its alt text.

MyST-NB takes an output image's alt text from the cell's metadata, which
is written by hand before the cell runs.  A figure whose description is
computed from the data it draws (``posenc_math.plotting.described``)
carries it instead in its PNG's ``Description`` text chunk; this extension
reads that chunk and makes it the image's ``alt`` when the page gives none,
so the numbers a screen reader hears are the ones the figure was drawn from.
Such an image gets the class :data:`DESCRIBED_CLASS` (``posenc-described``)
so that the site's number lint can tell a computed alt text from one typed
into the cell's metadata.

Enable with ``extensions = [..., "posenc_docs.figure_alt"]``.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes

__all__ = ["DESCRIBED_CLASS", "png_description", "setup", "take_alt_from_images"]

#: The PNG text chunk keyword read (matplotlib's ``savefig(metadata=...)`` key).
KEYWORD = "Description"

#: The class of an image whose alt text is its PNG's description (computed from the data drawn).
DESCRIBED_CLASS = "posenc-described"


def png_description(path: Path) -> str | None:
    """The ``Description`` text of a PNG file (None when it has none, or is not a PNG).

    Examples
    --------
    >>> png_description(Path("no-such-file.png")) is None
    True
    """
    try:
        from PIL import Image

        with Image.open(path) as image:
            if image.format != "PNG":
                return None
            text = getattr(image, "text", {}).get(KEYWORD)
    except (OSError, ValueError):
        return None
    return text if isinstance(text, str) and text.strip() else None


def _image_path(app, docname: str, uri: str) -> Path | None:
    if "://" in uri or uri.startswith("data:"):
        return None
    source = Path(app.srcdir)
    if uri.startswith("/"):
        return source / uri.lstrip("/")
    return (source / docname).parent / uri


def take_alt_from_images(app, doctree: nodes.document) -> None:
    """``doctree-read``: give an image without alt text its PNG's description, and the class :data:`DESCRIBED_CLASS`."""
    docname = app.env.docname
    for image in doctree.findall(nodes.image):
        if image.get("alt"):
            continue
        path = _image_path(app, docname, image.get("uri", ""))
        if path is None or path.suffix.lower() != ".png":
            continue
        description = png_description(path)
        if description is not None:
            image["alt"] = description
            image["classes"].append(DESCRIBED_CLASS)


def setup(app) -> dict:
    """Register the ``doctree-read`` handler."""
    app.connect("doctree-read", take_alt_from_images)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
