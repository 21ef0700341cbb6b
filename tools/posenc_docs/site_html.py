"""Sphinx extension for the posenc-math site: accessible HTML, repeatable output.

Enable with ``extensions = [..., "posenc_docs.site_html"]`` (conf.py does).
It holds no settings and no content; it changes how pages are written:

- **Accessible HTML** (checked by axe-core in ``tests/site``):
  :class:`AccessibleHTMLTranslator` adds the ARIA that Sphinx's HTML lacks.
- **The same pages from a clean and from an incremental build** (checked by
  ``tests/site/test_reproducible.py`` and ``tests/docs/test_site_html.py``):
  a build that changes anything writes every page with a search index built
  afresh; a build that changes nothing writes no page and keeps the search
  index as it was.  That covers each way an incremental build went stale:
  the navigation of pages that were not rewritten, the ``?v=`` checksum of
  a changed CSS file on those pages, and Sphinx's incremental search index
  (which keeps ``"word": []`` entries a clean build never writes and, in
  Sphinx 9.0, loses the index entries of pages it does not rewrite).

Only public Sphinx API is used: ``app.set_translator``, events
(``builder-inited``, ``env-get-outdated``, ``env-updated``,
``doctree-resolved``, ``build-finished``) and the HTML builder's
``outdir``, ``search`` and ``searchindex_filename``; the one workaround for
a Sphinx bug is guarded on ``sphinx.version_info``.

- **Parallel reads** (``sphinx-build -j``): sphinx-proof's domain gets the
  ``merge_domaindata`` it lacks (:func:`parallel_proof_domain`).
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from typing import Any

import sphinx
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
    - code blocks and tables that scroll need to be reachable from the keyboard;
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

    def visit_table(self, node: nodes.table) -> None:
        """furo wraps every table in a ``div.table-wrapper`` that scrolls
        sideways when the table is wider than the page (a phone, a table of
        many columns): like a scrolling ``<pre>``, it is a tab stop.  The
        wrapper's own ``visit_container`` is MyST-Parser's (it replaces the
        translator's for every container), so the ``tabindex`` is added here,
        to the wrapper's opening tag just written."""
        parent = node.parent
        if isinstance(parent, nodes.container) and "table-wrapper" in parent.get("classes", []):
            for index in range(len(self.body) - 1, max(len(self.body) - 4, -1), -1):
                if self.body[index].startswith("<div") and "table-wrapper" in self.body[index]:
                    self.body[index] = self.body[index].replace("<div ", '<div tabindex="0" ', 1)
                    break
        super().visit_table(node)

    def visit_entry(self, node: nodes.entry) -> None:
        """A table cell labelled by :mod:`posenc_docs.tables` carries its
        column's header as ``data-label`` (shown beside the cell when a
        narrow screen stacks the table's rows into cards)."""
        super().visit_entry(node)
        label = node.get("posenc_label")
        if label is not None:
            self.body[-1] = re.sub(
                r"^<(td|th)(?=[\s>])", lambda tag: f'<{tag.group(1)} data-label="{self.attval(label)}"', self.body[-1]
            )

    def visit_citation(self, node: nodes.citation) -> None:
        super().visit_citation(node)
        self.body[-1] = self.body[-1].replace('role="doc-biblioentry"', 'role="listitem"')


def _is_html(app: Sphinx) -> bool:
    return app.builder is not None and app.builder.format == "html"


def copy_extension_css_first(app: Sphinx) -> None:
    """sphinx-proof, sphinx-exercise and myst-nb copy their CSS when the build has finished.

    A page written before the file exists links it without Sphinx's ``?v=``
    checksum, a page written after with it, so a clean build (every page
    written first) and a rebuild (the file already there) differed.  Calling
    the extensions' own copy functions (their ``build-finished``
    handlers, public names of their modules) before any page is written
    makes every build link the files the same way.
    """
    if not _is_html(app):
        return
    if "sphinx_proof" in app.extensions:
        import sphinx_proof

        sphinx_proof.copy_asset_files(app, None)
    if "sphinx_exercise" in app.extensions:
        import sphinx_exercise

        sphinx_exercise.copy_asset_files(app, None)
    if "myst_nb" in app.extensions:
        import myst_nb.sphinx_ext

        myst_nb.sphinx_ext.add_global_html_resources(app, None)


def static_digest(app: Sphinx) -> str:
    """One digest of every file in ``html_static_path`` (names and bytes)."""
    digest = hashlib.sha256()
    for entry in app.config.html_static_path:
        root = Path(app.confdir, entry)
        files = [root] if root.is_file() else sorted(path for path in root.rglob("*") if path.is_file())
        for path in files:
            digest.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def note_changes(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    """``env-get-outdated``: remember whether this build changes anything that
    every page shows (a page added, edited or removed: the navigation; a
    file of ``_static/``: its ``?v=`` checksum in every page's links)."""
    digest = static_digest(app)
    static_changed = getattr(env, "posenc_static_digest", None) != digest
    env.posenc_static_digest = digest  # type: ignore[attr-defined]
    env.posenc_sources_changed = bool(added or changed or removed) or static_changed  # type: ignore[attr-defined]
    return []


#: Sphinx versions whose incremental search index differs from a clean
#: build's when pages are not rewritten: ``IndexBuilder.load`` does not read
#: back the ``indexentries`` of the old ``searchindex.js``, so a no-op rebuild
#: writes ``"indexentries": {}`` (Sphinx 9.0; checked by
#: tests/docs/test_site_html.py, which also fails once a newer Sphinx needs the
#: workaround no more).
KEEP_UNCHANGED_SEARCH_INDEX = sphinx.version_info[:2] <= (9, 0)

#: id(app) -> the search index of the previous build, while a build that
#: rewrites no page runs (see :func:`write_all_pages_or_none`).
_previous_index: dict[int, bytes] = {}


def write_all_pages_or_none(app: Sphinx, env: BuildEnvironment) -> list[str]:
    """``env-updated``: a build that changes anything rewrites every page, with
    a search index built afresh; a build that changes nothing rewrites none.

    Either way the site is the one a clean build writes.  Every page shows
    the whole toctree (sidebar, previous/next links), so a page that is not
    rewritten after another was added or edited keeps a stale navigation.
    With every page written Sphinx keeps nothing of the old
    ``searchindex.js``; removing it (before the HTML builder loads it)
    leaves no stale entry (Sphinx would keep a word the last page lost as
    ``"word": []``).  When nothing changed, the previous search index is
    kept as it was (:data:`KEEP_UNCHANGED_SEARCH_INDEX`).
    """
    builder = app.builder
    if not isinstance(builder, StandaloneHTMLBuilder):
        return []  # one book (LaTeX) or no navigation: nothing to keep in step
    index = builder.outdir / builder.searchindex_filename
    if getattr(env, "posenc_sources_changed", True):
        if builder.search:
            index.unlink(missing_ok=True)
        return sorted(env.found_docs)
    if KEEP_UNCHANGED_SEARCH_INDEX and builder.search and index.is_file():
        _previous_index[id(app)] = index.read_bytes()
    return []


def note_page_written(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved`` (emitted in the main process, also when pages are
    written in parallel): a page is written after all (Sphinx found its
    output outdated), so the search index is Sphinx's own."""
    _previous_index.pop(id(app), None)


def restore_unchanged_search_index(app: Sphinx, exception: Exception | None) -> None:
    """``build-finished``: put back the search index of the previous build
    when this one rewrote no page (see :data:`KEEP_UNCHANGED_SEARCH_INDEX`)."""
    previous = _previous_index.pop(id(app), None)
    if previous is not None and exception is None and isinstance(app.builder, StandaloneHTMLBuilder):
        (app.builder.outdir / app.builder.searchindex_filename).write_bytes(previous)


def drop_build_info_backup(app: Sphinx, exception: Exception | None) -> None:
    """When the configuration changes, Sphinx moves the old ``.buildinfo``
    to ``.buildinfo.bak`` inside the site, where a clean build has no such
    file and where it would be deployed; it is not part of the site."""
    if exception is None and _is_html(app):
        (app.outdir / ".buildinfo.bak").unlink(missing_ok=True)


def number_repeated_ids(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """Give every repeated element id on a page a number: ``x``, ``x-2``, ``x-3``.

    Some directives give every node they make the same fixed id
    (sphinx-exercise: ``exercise-content``, ``solution-content``); a page
    with two exercises then repeats an id, which HTML forbids and assistive
    technology trips on.  The first node keeps its id, so links to it still
    work; the order is the document's, so every build numbers alike.
    """
    seen: dict[str, int] = {}
    for node in doctree.findall(nodes.Element):
        ids = node.get("ids", [])
        if not ids:
            continue
        renamed = []
        for node_id in ids:
            count = seen.get(node_id, 0) + 1
            seen[node_id] = count
            renamed.append(node_id if count == 1 else f"{node_id}-{count}")
        node["ids"] = renamed


def parallel_proof_domain() -> type | None:
    """sphinx-proof's domain, able to merge parallel reads; ``None`` when it already can.

    Reading pages in parallel (``sphinx-build -j``) merges each worker's
    domain data, and Sphinx refuses to start when a domain cannot merge.
    sphinx-proof (0.4) keeps its labels in ``env.proof_list``, which its
    own ``env-merge-info`` handler merges; its domain data holds nothing
    else, so there is nothing more to merge.  Registered with Sphinx's
    ``add_domain(..., override=True)``; once a sphinx-proof release
    implements the method itself, this is not used
    (``tests/docs/test_site_html.py`` checks both).
    """
    from sphinx_proof.domain import ProofDomain

    if "merge_domaindata" in vars(ProofDomain):
        return None

    class ParallelProofDomain(ProofDomain):
        def merge_domaindata(self, docnames: Any, otherdata: dict[str, Any]) -> None:
            """Nothing to merge: sphinx-proof's labels live in ``env.proof_list``."""

    return ParallelProofDomain


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the translator, the event handlers and, with sphinx-proof, its domain for parallel reads."""
    if "sphinx_proof" in app.extensions:
        domain = parallel_proof_domain()
        if domain is not None:
            app.add_domain(domain, override=True)
    app.set_translator("html", AccessibleHTMLTranslator, override=True)
    app.connect("builder-inited", copy_extension_css_first)
    app.connect("env-get-outdated", note_changes)
    app.connect("env-updated", write_all_pages_or_none)
    app.connect("doctree-resolved", note_page_written)
    app.connect("doctree-resolved", number_repeated_ids)
    app.connect("build-finished", restore_unchanged_search_index)
    app.connect("build-finished", drop_build_info_backup)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
