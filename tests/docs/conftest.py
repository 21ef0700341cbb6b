"""Tests of the site's own Sphinx extensions (tools/posenc_docs): Sphinx's test fixtures.

``make_app`` and the rest come from ``sphinx.testing.fixtures``, imported here
rather than loaded for every test with ``-p``: the library's own tests and
doctests (``make check``) must not need Sphinx.
"""

from sphinx.testing.fixtures import *  # noqa: F403  (make_app, app_params, rootdir, ... and the `sphinx` marker)

# Test projects for sphinx.testing (tests/docs/test_site_html.py), not test modules.
collect_ignore = ["roots"]
