"""Sphinx extension: figures a phone can read, that enlarge in place on a tap.

Three parts, one job (every figure legible on every screen):

- **Two renderings per figure.**  The notebooks' kernels display each
  matplotlib figure with two PNG renderings (:mod:`posenc_docs.figure_display`,
  run in each kernel through ``PYTHONSTARTUP``, which this extension sets
  for the kernels MyST-NB starts): wide, as drawn, as the output's image,
  and laid out again for a phone with larger text, inside the wide file (a
  private PNG chunk).  When a page is read, the two are taken apart into
  two files beside MyST-NB's and become one ``<picture>``: the
  browser loads the phone file when the screen is at most
  :data:`PHONE_MEDIA` wide, the wide one otherwise (``<img>`` with its size,
  so the page does not jump, and ``loading="lazy"``).  Other builders
  (LaTeX) keep the wide image only.
- **Enlarge in place.**  Every figure image is a link to its wide file
  (without JavaScript a tap opens the image, as before); ``posenc-zoom.js``
  turns the tap into a dialog on the page showing the wide rendering at its
  full size, closed with its button, Escape or a tap outside.
- **Fresh outputs.**  MyST-NB's cache keys notebooks on their code only,
  so outputs cached before the library or the kernels' figure display
  changed would keep the old numbers and images: when ``posenc_math``,
  :mod:`posenc_docs.figure_display` or ``kernel_startup.py`` changes, the
  cache is emptied once and every page is read again.

Enable with ``extensions = [..., "posenc_docs.figures"]`` (conf.py does).
"""

from __future__ import annotations

import hashlib
import os
import posixpath
import shutil
import struct
import urllib.parse
from pathlib import Path
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.util import logging
from sphinx.util.osutil import relative_uri

from . import figure_display

__all__ = [
    "FULL_SIZE_CLASS",
    "PHONE_MEDIA",
    "image_file",
    "join_renderings",
    "link_images",
    "picture",
    "png_size",
    "read_every_page",
    "setup",
    "stamp_cache",
]

logger = logging.getLogger(__name__)

#: CSS class of the links around figures (the site tests and posenc-zoom.js look for it).
FULL_SIZE_CLASS = "full-size-image"
#: Screens that get the phone rendering (furo's text column is narrower than 46em below 48em).
PHONE_MEDIA = "(max-width: 40em)"

_KERNEL_STARTUP = Path(__file__).with_name("kernel_startup.py")


class picture(nodes.General, nodes.Element):
    """A figure's two renderings: ``<picture>`` with a phone ``<source>`` in HTML.

    Children: the phone image, then the wide image.
    """


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


def png_size(data: bytes) -> tuple[int, int]:
    """Width and height in pixels of a PNG file (its ``IHDR`` chunk).

    Examples
    --------
    >>> header = b"\\x89PNG\\r\\n\\x1a\\n" + b"\\x00\\x00\\x00\\rIHDR"
    >>> png_size(header + (811).to_bytes(4, "big") + (371).to_bytes(4, "big"))
    (811, 371)
    """
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR":
        raise ValueError("data is not a PNG file (no PNG signature and IHDR chunk)")
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def join_renderings(app: Sphinx, doctree: nodes.document) -> int:
    """``doctree-read`` (HTML): split each figure that carries a phone rendering into its two files.

    The wide PNG without the phone chunk and the phone PNG are written beside
    the output MyST-NB wrote (named by the sha256 of their bytes, as MyST-NB
    names its files); the image becomes a :class:`picture` of [phone image,
    wide image].  Returns the number of figures joined.
    """
    if app.builder.format != "html":
        return 0
    joined = 0
    for image in list(doctree.findall(nodes.image)):
        uri = image.get("uri", "")
        if not uri.endswith(".png") or "://" in uri or isinstance(image.parent, picture):
            continue
        path = Path(app.env.relfn2path(uri, app.env.docname)[1])
        try:
            wide_bytes, phone_bytes = figure_display.split_phone(path.read_bytes())
        except (OSError, ValueError):
            continue
        if phone_bytes is None:
            continue
        names = []
        for data in (wide_bytes, phone_bytes):
            name = hashlib.sha256(data).hexdigest() + ".png"
            if not path.with_name(name).is_file():
                path.with_name(name).write_bytes(data)
            names.append(posixpath.join(posixpath.dirname(uri), name))
        image["uri"] = names[0]
        image["posenc_size"] = png_size(wide_bytes)
        phone = nodes.image(uri=names[1], alt=image.get("alt", ""))
        phone["posenc_size"] = png_size(phone_bytes)
        pair = picture()
        image.replace_self(pair)
        pair += [phone, image]
        joined += 1
    return joined


def _join_on_read(app: Sphinx, doctree: nodes.document) -> None:
    join_renderings(app, doctree)


def link_images(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: wrap each image (or picture) of an HTML page in a link to its wide file."""
    builder = app.builder
    if builder.format != "html":
        return
    env = app.env
    image_dir = relative_uri(builder.get_target_uri(docname), builder.imagedir)
    for image in list(doctree.findall(nodes.image)):
        shown = image.parent if isinstance(image.parent, picture) else image
        if shown is not image and image is shown.children[0]:
            continue  # the phone rendering: the link goes to the wide one
        if isinstance(shown.parent, nodes.reference):
            continue
        uri = image_file(image, list(getattr(builder, "supported_image_types", [])))
        if "://" in uri or uri.startswith("data:"):
            target = uri
        elif uri in env.images:
            target = posixpath.join(image_dir, urllib.parse.quote(env.images[uri][1]))
        else:
            continue
        if isinstance(shown, picture):
            shown["refuri"] = target  # written by the picture's visitor: Sphinx's links hold one image only
            continue
        link = nodes.reference("", "", refuri=target, internal=True, classes=[FULL_SIZE_CLASS], reftitle=_TITLE)
        shown.replace_self(link)
        link.append(shown)


_TITLE = "Enlarge the figure"


def _image_url(translator, node: nodes.image) -> str:
    """The URL the HTML builder gives the file of ``node`` (as Sphinx's ``visit_image`` computes it)."""
    uri = node["uri"]
    images = translator.builder.images
    if uri in images:
        return posixpath.join(translator.builder.imgpath, urllib.parse.quote(images[uri]))
    return uri


def _visit_picture(translator, node: picture) -> None:
    phone, wide = node.children
    phone_width, phone_height = phone["posenc_size"]
    scale = figure_display.PHONE_DPI / 100  # the site's figures are 100 dpi: one pixel per CSS px
    wide_width, wide_height = wide["posenc_size"]
    classes = " ".join(wide.get("classes", []))
    link = node.get("refuri")
    if link:
        translator.body.append(
            f'<a class="{FULL_SIZE_CLASS} reference internal image-reference" '
            f'href="{translator.attval(link)}" title="{_TITLE}">'
        )
    translator.body.append(
        "<picture>"
        f'<source media="{PHONE_MEDIA}" srcset="{translator.attval(_image_url(translator, phone))}" '
        f'width="{round(phone_width / scale)}" height="{round(phone_height / scale)}" />'
        f'<img src="{translator.attval(_image_url(translator, wide))}" '
        f'alt="{translator.attval(wide.get("alt", ""))}" width="{wide_width}" height="{wide_height}" '
        f'loading="lazy" decoding="async"' + (f' class="{translator.attval(classes)}"' if classes else "") + " />"
        "</picture>" + ("</a>" if link else "")
    )
    raise nodes.SkipNode


def _kernel_code_digest() -> str:
    """A hash of the code the notebooks' outputs depend on besides their own: the kernels' figure
    display and the installed library (every file of ``posenc_math``, in path order)."""
    import posenc_math

    library = Path(posenc_math.__file__).parent
    digest = hashlib.sha256()
    for path in (Path(figure_display.__file__), _KERNEL_STARTUP, *sorted(library.rglob("*.py"))):
        digest.update(path.name.encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def _stamp(cache: Path) -> Path:
    return cache.with_name(cache.name + ".posenc-figures")


def stamp_cache(cache: Path) -> None:
    """Note beside MyST-NB's cache ``cache`` that its outputs come from the current kernel code
    (for a cache filled by other means with the same kernels, as tests/docs/test_executors.py does)."""
    cache.parent.mkdir(parents=True, exist_ok=True)
    _stamp(cache).write_text(_kernel_code_digest(), encoding="utf-8")


def use_figure_kernels(app: Sphinx, config: Any) -> None:
    """``config-inited``: kernels run ``kernel_startup.py``; outputs cached by other kernel code are dropped.

    MyST-NB starts its kernels from this process, so they inherit
    ``PYTHONSTARTUP``.  Its cache (``nb_execution_cache_path``, by default
    beside the site) is emptied when the figure code of the kernels changed
    since it was filled (or when nothing says which code filled it), since
    cached outputs would keep images made by the old code.
    """
    if "myst_nb" not in app.extensions:
        return  # no notebook is run
    os.environ["PYTHONSTARTUP"] = str(_KERNEL_STARTUP)
    if config.nb_execution_mode not in ("cache", "auto"):
        return
    cache = Path(config.nb_execution_cache_path or Path(app.outdir).parent / ".jupyter_cache")
    if _stamp(cache).is_file() and _stamp(cache).read_text(encoding="utf-8") == _kernel_code_digest():
        return
    if cache.exists():
        logger.info("posenc_docs.figures: the library or the kernels' figure code changed; emptying %s", cache)
        shutil.rmtree(cache)
        app._posenc_cache_emptied = True  # type: ignore[attr-defined]  # every page is read again (read_every_page)
    stamp_cache(cache)


def read_every_page(app: Sphinx, env: Any, added: set, changed: set, removed: set) -> list[str]:
    """``env-get-outdated``: after the notebook cache was emptied, every page is read (and every
    notebook run) again; otherwise a page whose source did not change would keep its old outputs."""
    if getattr(app, "_posenc_cache_emptied", False):
        return sorted(env.found_docs - added - changed)
    return []


def _skip(translator, node) -> None:
    pass


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the node, the handlers and the script."""
    skip = (_skip, _skip)  # other builders never get a picture: the wide image stays an image there
    app.add_node(picture, html=(_visit_picture, None), latex=skip, text=skip, man=skip, texinfo=skip)
    app.connect("config-inited", use_figure_kernels)
    app.connect("env-get-outdated", read_every_page)
    # before Sphinx's image collector (priority 500), which then copies both files
    app.connect("doctree-read", _join_on_read, priority=400)
    app.connect("doctree-resolved", link_images)
    app.add_js_file("posenc-zoom.js", loading_method="defer")
    return {"version": "2", "parallel_read_safe": True, "parallel_write_safe": True}
