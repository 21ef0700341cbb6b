"""Sphinx configuration for the posenc-math site.

Build with ``make html`` (``sphinx-build -nW --keep-going -c . -d
_build/doctrees docs _build/html``).  Paths in ``html_static_path`` and
``bibtex_bibfiles`` are relative to this file (the repository root);
``exclude_patterns`` are relative to ``docs/``.
"""

import os
import time

import posenc_math

project = "posenc-math"
author = "The posenc-math developers"
release = version = posenc_math.__version__
# SOURCE_DATE_EPOCH (set by the Makefile from the last commit) makes the
# year, and so the page, the same on every build of one commit.
copyright = f"{time.gmtime(int(os.environ.get('SOURCE_DATE_EPOCH', '0')) or None).tm_year}, {author}"

extensions = [
    "myst_nb",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.mathjax",
    "sphinx_proof",
    "sphinxcontrib.bibtex",
    "posenc_math.sphinxext",
]

exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md"]
root_doc = "index"

# --- MyST / MyST-NB --------------------------------------------------------
myst_enable_extensions = ["amsmath", "dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
nb_execution_mode = "cache"
nb_execution_cache_path = "_build/.jupyter_cache"
nb_execution_raise_on_error = True
nb_execution_timeout = 300
nb_merge_streams = True

# --- Math, served from this site (no CDN) ----------------------------------
mathjax_path = "mathjax/tex-mml-chtml.js"
# MathJax 3 finds its fonts and on-demand extensions relative to its own
# script ([mathjax]/output/chtml/fonts/woff-v2), which the Makefile copies
# beside it.

# --- Theme -------------------------------------------------------------------
html_theme = "furo"
html_title = "posenc-math"
html_static_path = ["_static"]
# Site-specific CSS (root-level _static/, see TRAPS.md): the index on phones.
html_css_files = ["posenc.css"]
html_last_updated_fmt = None
html_show_sourcelink = False
# A local icon, so browsers do not log a 404 for /favicon.ico.
html_favicon = "_static/favicon.svg"
# No Python module index (py-modindex.html): it listed one module of the
# many the API page documents (posenc_math.analysis, the only automodule
# that is indexed), nothing links to it, and its only image is Sphinx's
# mouse-only collapse toggle with the alt text "-".  The API page and the
# general index list every object.
html_domain_indices = False


# --- Accessibility fixes (checked by axe-core in tests/site) -------------------
import re  # noqa: E402

from sphinx.writers.html5 import HTML5Translator  # noqa: E402

_FIRST_PRE = re.compile(r"<pre(?=[\s>])")


class AccessibleHTMLTranslator(HTML5Translator):
    """Sphinx's HTML with the ARIA that axe-core requires.

    - toctree captions carry ``role="heading"`` and need an ``aria-level``;
    - code blocks that scroll need to be reachable from the keyboard;
    - docutils marks citations ``role="doc-biblioentry"`` inside a
      ``role="list"``: that role is deprecated and not a list item, so
      screen readers lose the list; ``listitem`` is what the list needs.
    """

    def visit_title(self, node):
        super().visit_title(node)
        for index in (-2, -1):
            if len(self.body) >= -index and 'role="heading"' in self.body[index]:
                self.body[index] = self.body[index].replace('role="heading"', 'role="heading" aria-level="2"')

    def visit_literal_block(self, node):
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

    def visit_citation(self, node):
        super().visit_citation(node)
        self.body[-1] = self.body[-1].replace('role="doc-biblioentry"', 'role="listitem"')


# --- The same pages from a clean build and from an incremental one ------------
def _copy_extension_css_first(app):
    """sphinx-proof and myst-nb copy their CSS when the build has finished.

    A page written before the file exists links it without Sphinx's ``?v=``
    checksum, a page written after with it, so clean and incremental builds
    differed.  Copying first makes every page link it the same way.
    """
    if app.builder.format != "html":
        return
    import myst_nb.sphinx_ext
    import sphinx_proof

    sphinx_proof.copy_asset_files(app, None)
    myst_nb.sphinx_ext.add_global_html_resources(app, None)


def _static_digest(app):
    """One digest of every file in ``html_static_path`` (names and bytes)."""
    import hashlib
    from pathlib import Path

    digest = hashlib.sha256()
    for entry in app.config.html_static_path:
        root = Path(app.confdir, entry)
        files = [root] if root.is_file() else sorted(path for path in root.rglob("*") if path.is_file())
        for path in files:
            digest.update(path.relative_to(root.parent).as_posix().encode() + b"\0")
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


def _note_source_changes(app, env, added, changed, removed):
    digest = _static_digest(app)
    static_changed = getattr(env, "posenc_static_digest", None) != digest
    env.posenc_static_digest = digest
    env.posenc_sources_changed = bool(added or changed or removed) or static_changed
    return []


def _rewrite_every_page(app, env):
    """Every page shows the whole toctree (sidebar, previous/next links):
    when a page is added, removed or edited, rewrite them all, or the
    unchanged pages keep a stale navigation.  The same when a file of
    ``_static/`` changes: pages link the site's CSS with its checksum
    (``posenc.css?v=...``), which a page that is not rewritten keeps stale."""
    if getattr(env, "posenc_sources_changed", False):
        return sorted(env.found_docs)
    return []


def _drop_build_info_backup(app, exception):
    """When the configuration changes, Sphinx moves the old ``.buildinfo``
    to ``.buildinfo.bak`` inside the site, where a clean build has no such
    file and where it would be deployed; it is not part of the site."""
    if exception is None and app.builder.format == "html":
        (app.outdir / ".buildinfo.bak").unlink(missing_ok=True)


def _index_entries_of(doctree):
    """The index entries Sphinx's search indexer takes from one doctree
    (``IndexBuilder.feed``, Sphinx 9.0), sorted as it stores them."""
    from sphinx import addnodes
    from sphinx.util.index_entries import split_index_msg

    entries = set()
    for node in doctree.findall(addnodes.index):
        for entry_type, value, target_id, main, _category_key in node["entries"]:
            try:
                result = split_index_msg(entry_type, value)
            except ValueError:
                continue
            target_id = target_id or ""
            if entry_type in {"see", "seealso"}:
                entries.add((result[0], target_id, main))
            entries |= {(x, target_id, main) for x in result}
    return sorted(entries)


def _incremental_search_index_as_clean():
    """Make the search index Sphinx writes after an incremental build the one
    a clean build writes, by patching ``IndexBuilder.prune`` (which Sphinx
    calls with the pages it keeps before writing, and with every page just
    before it dumps ``searchindex.js``):

    - a word whose last page lost it stays as an empty entry
      (``"word": []``) that a clean build never writes: drop it;
    - the index entries (``indexentries``: API objects, index directives)
      are collected while pages are written, after Sphinx has pickled the
      environment, and are not read back from the old ``searchindex.js``:
      a page that is not rewritten lost its entries (a no-op rebuild wrote
      ``"indexentries": {}``).  Take them again from the page's doctree,
      drop those of removed pages, and keep them in page order as a clean
      build (which writes pages sorted) does.
    """
    import sphinx.search

    builder = sphinx.search.IndexBuilder
    if getattr(builder.prune, "posenc_as_clean", False):
        return
    sphinx_prune = builder.prune

    def prune(self, docnames):
        docnames = set(docnames)
        sphinx_prune(self, docnames)
        for name in ("_mapping", "_title_mapping"):
            mapping = getattr(self, name, None)
            if isinstance(mapping, dict):
                setattr(self, name, {word: pages for word, pages in mapping.items() if pages})
        env = self._env
        entries = {}
        for docname in sorted(docnames):
            if docname in self._index_entries:
                entries[docname] = self._index_entries[docname]
            elif docname in self._titles:  # indexed before, not rewritten now
                metadata = env.metadata.get(docname, {})
                hidden = "no-search" in metadata or "nosearch" in metadata
                entries[docname] = [] if hidden else _index_entries_of(env.get_doctree(docname))
        self._index_entries.clear()
        self._index_entries.update(entries)

    sphinx_init = builder.__init__

    def __init__(self, env, *args, **kwargs):
        sphinx_init(self, env, *args, **kwargs)
        self._env = env

    prune.posenc_as_clean = True
    builder.prune = prune
    builder.__init__ = __init__


def setup(app):
    app.set_translator("html", AccessibleHTMLTranslator, override=True)
    _incremental_search_index_as_clean()
    app.connect("builder-inited", _copy_extension_css_first)
    app.connect("env-get-outdated", _note_source_changes)
    app.connect("env-updated", _rewrite_every_page)
    app.connect("build-finished", _drop_build_info_backup)


# --- API reference -----------------------------------------------------------
autodoc_member_order = "bysource"
autodoc_typehints = "none"
napoleon_google_docstring = False
napoleon_numpy_docstring = True
# Parameter types stay text: with -n every "int, default 3" would otherwise
# become a cross-reference, and intersphinx (network) is not available.
napoleon_use_param = False
napoleon_use_rtype = False

# --- References --------------------------------------------------------------
bibtex_bibfiles = ["docs/references.bib", "docs/references-learned.bib", "docs/references-beyond.bib"]
bibtex_default_style = "alpha"
bibtex_reference_style = "author_year"

# --- The reader's toolkit (issue 11) -------------------------------------------
# Code in posenc_math.sphinx_reader (notebook downloads, PDF link, "Cite this
# page"); the rest is configuration of the extensions that do the work.
extensions += [
    "sphinx_copybutton",
    "sphinx_codeautolink",
    "sphinx_sitemap",
    "sphinxext.opengraph",
    "posenc_math.sphinx_reader",
]
html_title = f"posenc-math {release}"
# Read the Docs sets READTHEDOCS_CANONICAL_URL; elsewhere POSENC_BASEURL, else
# the address .readthedocs.yaml publishes to under the project's name.
html_baseurl = os.environ.get("READTHEDOCS_CANONICAL_URL") or os.environ.get(
    "POSENC_BASEURL", "https://posenc-math.readthedocs.io/en/latest/"
)
posenc_reader_pdf = "_build/latex/posenc-math.pdf"  # copied into the site and linked when built
# Copy code without prompts (>>>, ..., $, In [1]:) and without outputs; cell
# outputs get no button.
copybutton_prompt_text = r">>> |\.\.\. |\$ |In \[\d*\]: | {2,5}\.\.\.: "
copybutton_prompt_is_regexp = True
copybutton_only_copy_prompt_lines = True
copybutton_exclude = ".linenos, .gp, .go"
copybutton_selector = ":not(.output) > div.highlight pre"
# Names in code cells link to the API page; a notebook's cells are one program.
codeautolink_concat_default = True
# Sphinx trims "# doctest: +FLAG" comments from docstring examples, and then
# codeautolink cannot match that example to its HTML: the block keeps plain
# highlighting (tests/test_sphinx_reader.py checks that code cells do link).
suppress_warnings = ["codeautolink.match_block"]
sitemap_url_scheme = "{link}"
sitemap_excludes = ["search.html", "genindex.html"]
ogp_site_url = html_baseurl
ogp_social_cards = {"enable": False}  # no generated images, no remote ones
# --- PDF edition: `make pdf` (xelatex through latexmk) -------------------------
latex_engine = "xelatex"
latex_documents = [("index", "posenc-math.tex", "posenc-math", author, "manual")]
# A character the fonts lack is logged (tests/test_pdf.py reads the log).
latex_elements = {"papersize": "a4paper", "preamble": r"\tracinglostchars=2"}
latex_show_urls = "footnote"
nb_mime_priority_overrides = [("latex", "image/png", 5), ("latex", "image/svg+xml", None)]
