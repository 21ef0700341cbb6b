# A small site for tests/docs/test_site_html.py: the extension, with sphinx-proof
# (whose CSS it copies early) and an API entry (an index entry for the search).
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

extensions = ["sphinx.ext.autodoc", "sphinx_proof", "sphinxcontrib.bibtex", "posenc_docs.site_html"]
bibtex_bibfiles = ["refs.bib"]
html_theme = "basic"
html_static_path = ["_static"]
html_css_files = ["site.css"]
