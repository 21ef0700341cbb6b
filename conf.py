"""Sphinx configuration for the posenc-math site.

Settings only: the code the site needs is in the extensions it lists
(``posenc_math.sphinxext``, ``posenc_math.sphinx_site``).  Build with
``make html`` (the Makefile holds the sphinx-build command).  Paths in ``html_static_path`` and
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
    "posenc_math.sphinxext",  # theorems checked while the pages are built
    "posenc_math.sphinx_site",  # accessible HTML, the same bytes from every build
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

# --- Math, served from this site (no CDN) ----------------------------------
mathjax_path = "mathjax/tex-mml-chtml.js"
# MathJax 3 finds its fonts and on-demand extensions relative to its own
# script ([mathjax]/output/chtml/fonts/woff-v2), which the Makefile copies
# beside it.

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
bibtex_bibfiles = ["docs/references.bib", "docs/references-learned.bib", "docs/references-beyond.bib"]
bibtex_default_style = "alpha"
bibtex_reference_style = "author_year"
