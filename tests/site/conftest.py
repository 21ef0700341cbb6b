"""Fixtures for the tests of the site as readers get it.

The tests read the site ``make test`` has just built (``_build/html``, or
``$POSENC_SITE_DIR``), serve it on 127.0.0.1 and visit every page once with
Debian's Chromium; each test then checks one property on every page.  In CI
(``CI=true``) a missing browser or axe-core fails; elsewhere those tests skip
and say why.
"""

from __future__ import annotations

import os

import pytest
import sitekit

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def missing(what: str):
    """Fail in CI, skip elsewhere, naming what is missing and how to get it."""
    if IN_CI:
        pytest.fail(f"{what} (CI=true: the site tests must run here)", pytrace=False)
    pytest.skip(what)


@pytest.fixture(scope="session")
def site_dir():
    """The built site; fails with the command to run when there is none."""
    directory = sitekit.site_dir()
    if not (directory / "index.html").is_file():
        pytest.fail(
            f"no built site at {directory}: run `make html` first (or point "
            "POSENC_SITE_DIR at a site built with sphinx-build)",
            pytrace=False,
        )
    return directory


@pytest.fixture(scope="session")
def pages(site_dir):
    """Every HTML page of the built site, relative paths (found, not listed)."""
    return sitekit.page_paths(site_dir)


@pytest.fixture(scope="session")
def navigation_pages():
    """The pages the toctrees of docs/ reach from the root page: each must be built."""
    return sitekit.toctree_pages(sitekit.ROOT / "docs")


@pytest.fixture(scope="session")
def chromium():
    path = sitekit.find_chromium()
    if path is None:
        missing("no Chromium at /usr/bin/chromium: `apt-get install -y chromium` (never `playwright install`)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing("the playwright package is not installed: pip install -e '.[test]'")
    return path


AXE_PATH = sitekit.ROOT / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def axe_path():
    if not AXE_PATH.is_file():
        missing(f"axe-core is not installed at {AXE_PATH}: run `npm ci`")
    return AXE_PATH


@pytest.fixture(scope="session")
def site_url(site_dir):
    with sitekit.serve(site_dir) as url:
        yield url


@pytest.fixture(scope="session")
def browser_context(chromium):
    with sitekit.browser(chromium) as context:
        yield context


@pytest.fixture(scope="session")
def visits(pages, site_url, browser_context):
    """One visit per page (with axe-core when installed), shared by all the
    per-page tests; the axe test itself asks for ``axe_path``."""
    axe = AXE_PATH if AXE_PATH.is_file() else None
    return {page: sitekit.visit(browser_context, site_url + page, axe_path=axe) for page in pages}
