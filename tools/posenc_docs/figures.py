"""Sphinx extension: every figure image opens full size on a tap.

On a phone a figure shrinks to the width of the screen (about 358 px), and
multi-panel figures become hard to read.  This extension wraps every image
of an HTML page (static ``{figure}``/``{image}`` directives and the images
MyST-NB writes for cell outputs alike) in a link to the image file the
builder copies into ``_images/``, so a tap shows the figure at its own size,
where the reader can zoom.  Images that already sit inside a link keep it.

Enable with ``extensions = [..., "posenc_docs.figures"]``.
"""

from __future__ import annotations

import posixpath
import urllib.parse

from docutils import nodes
from sphinx.util.osutil import relative_uri

__all__ = ["FULL_SIZE_CLASS", "image_file", "link_images", "setup"]

#: CSS class of the links this extension adds (the site tests look for it).
FULL_SIZE_CLASS = "full-size-image"


def image_file(node: nodes.image, supported: list[str]) -> str:
    """The ``uri`` of the file the HTML builder will copy for ``node``.

    Sphinx resolves an image with a wildcard (``fig.*``) or with several
    candidate files to one candidate, the first whose MIME type the builder
    supports (``post_process_images``); this picks the same one.

    Parameters
    ----------
    node : docutils.nodes.image
        An image node after the environment has read it.
    supported : list of str
        The builder's ``supported_image_types``, most preferred first.

    Returns
    -------
    str
        The image's key in ``env.images`` (or its remote URL).

    Examples
    --------
    >>> from docutils import nodes
    >>> image_file(nodes.image(uri="a.png", candidates={"*": "a.png"}), ["image/png"])
    'a.png'
    >>> node = nodes.image(uri="a.*", candidates={"image/png": "a.png", "image/svg+xml": "a.svg"})
    >>> image_file(node, ["image/svg+xml", "image/png"])
    'a.svg'
    """
    candidates = node.get("candidates") or {}
    if "?" in candidates or "*" in candidates:
        return candidates.get("?") or candidates["*"]
    for mimetype in supported:
        if mimetype in candidates:
            return candidates[mimetype]
    return node["uri"]


def link_images(app, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: wrap each image of an HTML page in a link to its file."""
    builder = app.builder
    if builder.format != "html":
        return
    env = app.env
    image_dir = relative_uri(builder.get_target_uri(docname), builder.imagedir)
    for image in list(doctree.findall(nodes.image)):
        if isinstance(image.parent, nodes.reference):
            continue
        uri = image_file(image, list(getattr(builder, "supported_image_types", [])))
        if "://" in uri or uri.startswith("data:"):
            target = uri
        elif uri in env.images:
            target = posixpath.join(image_dir, urllib.parse.quote(env.images[uri][1]))
        else:
            continue
        link = nodes.reference(
            "", "", refuri=target, internal=True, classes=[FULL_SIZE_CLASS], reftitle="Open the image at full size"
        )
        image.replace_self(link)
        link.append(image)


def setup(app) -> dict:
    """Register the ``doctree-resolved`` handler."""
    app.connect("doctree-resolved", link_images)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
