"""Sphinx extension for the posenc-math site: accessible HTML, repeatable output.

Enable with ``extensions = [..., "posenc_math.sphinx_site"]`` (conf.py does).
It holds no settings and no content; it changes how pages are written:

- **Accessible HTML** (checked by axe-core in ``tests/site``):
  :class:`AccessibleHTMLTranslator` adds the ARIA that Sphinx's HTML lacks.
- **The same pages from a clean and from an incremental build** (checked by
  ``tests/site/test_reproducible.py``): every build writes every page, and
  the search index is built afresh from all of them, so an incremental
  build writes exactly what a clean build writes.  Writing the pages is
  cheap (their doctrees are pickled; no notebook runs again), and it
  replaces three fixes that each covered one way an incremental build
  went stale: the navigation of pages that were not rewritten, the
  ``?v=`` checksum of a changed CSS file on those pages, and Sphinx's
  incremental search index (which keeps ``"word": []`` entries a clean
  build never writes and, in Sphinx 9.0, loses the index entries of pages
  it does not rewrite).

Only public Sphinx API is used: ``app.set_translator``, the
``builder-inited``, ``env-updated`` and ``build-finished`` events, and the
HTML builder's ``outdir`` and ``searchindex_filename``.
"""

from __future__ import annotations

import re
from typing import Any

from docutils import nodes
from sphinx.application import Sphinx
from sphinx.builders.html import StandaloneHTMLBuilder
from sphinx.environment import BuildEnvironment
from sphinx.writers.html5 import HTML5Translator

__all__ = ["AccessibleHTMLTranslator", "setup"]

_FIRST_PRE = re.compile(r"<pre(?=[\s>])")


class AccessibleHTMLTranslator(HTML5Translator):
    """Sphinx's HTML with the ARIA that axe-core requires.

    - toctree captions carry ``role="heading"`` and need an ``aria-level``;
    - code blocks that scroll need to be reachable from the keyboard;
    - docutils marks citations ``role="doc-biblioentry"`` inside a
      ``role="list"``: that role is deprecated and not a list item, so
      screen readers lose the list; ``listitem`` is what the list needs.
    """

    def visit_title(self, node: nodes.title) -> None:
        super().visit_title(node)
        for index in (-2, -1):
            if len(self.body) >= -index and 'role="heading"' in self.body[index]:
                self.body[index] = self.body[index].replace('role="heading"', 'role="heading" aria-level="2"')

    def visit_literal_block(self, node: nodes.literal_block) -> None:
        """Code, cell outputs and doctests: a ``<pre>`` wider than its box
        scrolls sideways (on a phone most do), and a scrolling region must be
        reachable from the keyboard (axe-core's scrollable-region-focusable),
        so every such ``<pre>`` is a tab stop (``tabindex="0"``).  Whether a
        block scrolls depends on the reader's screen, so all of them are;
        the page stays the same on every build."""
        try:
            super().visit_literal_block(node)  # raises SkipNode once written
        finally:
            self.body[-1] = _FIRST_PRE.sub('<pre tabindex="0"', self.body[-1], count=1)

    def visit_citation(self, node: nodes.citation) -> None:
        super().visit_citation(node)
        self.body[-1] = self.body[-1].replace('role="doc-biblioentry"', 'role="listitem"')


def _is_html(app: Sphinx) -> bool:
    return app.builder is not None and app.builder.format == "html"


def copy_extension_css_first(app: Sphinx) -> None:
    """sphinx-proof and myst-nb copy their CSS when the build has finished.

    A page written before the file exists links it without Sphinx's ``?v=``
    checksum, a page written after with it, so a clean build (every page
    written first) and a rebuild (the file already there) differed.  Calling
    the two extensions' own copy functions (their ``build-finished``
    handlers, public names of their modules) before any page is written
    makes every build link the files the same way.
    """
    if not _is_html(app):
        return
    if "sphinx_proof" in app.extensions:
        import sphinx_proof

        sphinx_proof.copy_asset_files(app, None)
    if "myst_nb" in app.extensions:
        import myst_nb.sphinx_ext

        myst_nb.sphinx_ext.add_global_html_resources(app, None)


def write_every_page(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """Every build writes every page, with a search index built afresh.

    Returned from ``env-updated``, the page names join the pages Sphinx
    writes.  With every page written, Sphinx keeps nothing of the old
    ``searchindex.js``, and removing it here (before the HTML builder loads
    it) makes the index the one a clean build writes: there is then no
    stale entry to prune and no index entry to lose.
    """
    if not _is_html(app):
        return []
    builder = app.builder
    if isinstance(builder, StandaloneHTMLBuilder) and builder.search:
        (builder.outdir / builder.searchindex_filename).unlink(missing_ok=True)
    return sorted(env.found_docs)


def drop_build_info_backup(app: Sphinx, exception: Exception | None) -> None:
    """When the configuration changes, Sphinx moves the old ``.buildinfo``
    to ``.buildinfo.bak`` inside the site, where a clean build has no such
    file and where it would be deployed; it is not part of the site."""
    if exception is None and _is_html(app):
        (app.outdir / ".buildinfo.bak").unlink(missing_ok=True)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the translator and the event handlers (nothing else)."""
    app.set_translator("html", AccessibleHTMLTranslator, override=True)
    app.connect("builder-inited", copy_extension_css_first)
    app.connect("env-updated", write_every_page)
    app.connect("build-finished", drop_build_info_backup)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
