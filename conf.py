"""Sphinx configuration for the posenc-math site.

Settings only: the code the site needs is in the extensions it lists
(``posenc_docs.theorem_pages``, ``posenc_docs.site_html``, ...).  Build with
``make html`` (the Makefile holds the sphinx-build command).  Paths in ``html_static_path`` and
``bibtex_bibfiles`` are relative to this file (the repository root);
``exclude_patterns`` are relative to ``docs/``.
"""

import os
import sys
import time
from pathlib import Path

import posenc_math

sys.path.insert(0, str(Path(__file__).resolve().parent / "tools"))  # the site's own extensions

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
    "sphinx_proof",
    "sphinx_exercise",
    # folds the solutions (sphinx-exercise's ":class: dropdown")
    "sphinx_togglebutton",
    "sphinxcontrib.bibtex",
    "posenc_docs.theorem_pages",  # theorems checked while the pages are built
    "posenc_docs.site_html",  # accessible HTML, the same bytes from every build
    "posenc_docs.figures",  # figures a phone can read, enlarged in place on a tap
    "posenc_docs.figure_alt",  # a figure that describes itself (PNG Description) gets that alt text
    "posenc_docs.tables",  # tables on a phone fit or say that they scroll
    "posenc_docs.typeset",  # formulas typeset by MathJax when the site is built
    "posenc_docs.measurements",  # tables read from make bench's records
    "posenc_docs.bibliography",  # labels for teams and handles: [vLL26], not [Thevteam26]
]

exclude_patterns = ["_build", "**.ipynb_checkpoints", "README.md"]
root_doc = "index"

# --- MyST / MyST-NB --------------------------------------------------------
myst_enable_extensions = ["amsmath", "dollarmath", "colon_fence", "deflist"]
myst_heading_anchors = 3
# The cache is MyST-NB's default, beside the site: _build/.jupyter_cache.
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_execution_timeout = 300
nb_merge_streams = True

# --- Math, typeset when the site is built (no math JavaScript, no CDN) -------
# posenc_docs.typeset runs MathJax 4 (npm, node) over every formula and
# writes its CHTML and hidden MathML into the pages; the stylesheet and the
# font files (copied by the Makefile) are served by the site.  A displayed
# formula is typeset for a 46em text column, and again broken for a phone's
# 20em column when it needs breaking there; in-line formulas break at the
# end of a line of text.  A formula that cannot break scrolls inside its
# box (_static/posenc.css).  MathJax in a browser scales formulas so that
# their x-height matches the text's; the scale here does the same for
# furo's sans-serif (Arial and Helvetica metrics: x-height 0.519 em) against
# the math font's (New Computer Modern: 0.442 em).
html_math_renderer = "posenc_typeset"
posenc_math_wide_em = 46.0
posenc_math_narrow_em = 20.0
posenc_math_scale = 1.17

# --- Theme -------------------------------------------------------------------
html_theme = "furo"
html_title = "posenc-math"
html_static_path = ["_static"]
# Site-specific CSS (root-level _static/: Sphinx would read a README in
# docs/_static/ as a page): the index on phones.
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
bibtex_bibfiles = [
    "docs/references.bib",
    "docs/references-learned.bib",
    "docs/references-beyond.bib",
    "docs/references-implementations.bib",
]
bibtex_default_style = "posenc"  # alpha, with posenc_docs.bibliography's labels
bibtex_reference_style = "author_year"

# --- The reader's toolkit (issue 11) -------------------------------------------
# Code in posenc_docs.reader (notebook downloads, PDF link, "Cite this
# page"); the rest is configuration of the extensions that do the work.
extensions += [
    "sphinx_copybutton",
    "sphinx_sitemap",
    "sphinxext.opengraph",
    "posenc_docs.reader",
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
