"""The reader's toolkit in the built site: found and shared (sitemap,
OpenGraph), copy buttons, links from code into the API, the version, the
"Cite this page" block and the PDF edition.  Read from the HTML files."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path
from xml.etree import ElementTree

import pytest
from posenc_docs.reader import NOTEBOOK_DIR, PDF_NAME, is_notebook

import posenc_math

ROOT = Path(__file__).resolve().parents[2]
PDF = ROOT / "_build" / "latex" / PDF_NAME
NOT_PAGES = {"search.html", "genindex.html"}


class _Meta(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[tuple[str, str]] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "meta" and "property" in attributes:
            self.found.append((attributes["property"], attributes.get("content") or ""))


def meta(html: str, prop: str) -> list[str]:
    parser = _Meta()
    parser.feed(html)
    return [content for name, content in parser.found if name == prop]


@pytest.fixture(scope="module")
def html_of(site_dir, pages):
    return {page: (site_dir / page).read_text(encoding="utf-8") for page in pages}


@pytest.fixture(scope="module")
def base_url(html_of) -> str:
    url = meta(html_of["index.html"], "og:url")[0]
    assert url.endswith("/index.html") and url.startswith("https://"), url
    return url.removesuffix("index.html")


def test_every_page_has_opengraph_tags_and_no_image(html_of, base_url):
    for page, html in html_of.items():
        if page in NOT_PAGES:
            continue
        assert meta(html, "og:url") == [base_url + page], page
        assert meta(html, "og:title") and meta(html, "og:site_name") == ["posenc-math"], page
        assert not meta(html, "og:image"), f"{page}: an og:image (a remote or generated image) is not wanted"


def test_sitemap_lists_every_page(site_dir, html_of, base_url):
    tree = ElementTree.parse(site_dir / "sitemap.xml")
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    listed = {element.text for element in tree.findall("s:url/s:loc", namespace)}
    wanted = {base_url + page for page in html_of if page not in NOT_PAGES}
    assert listed == wanted


def test_copy_buttons_leave_out_prompts_and_outputs(site_dir, html_of):
    script = (site_dir / "_static" / "copybutton.js").read_text(encoding="utf-8")
    assert ".linenos, .gp, .go" in script  # prompts (.gp) and doctest outputs (.go) are not copied
    assert ":not(.output) > div.highlight pre" in script  # cell outputs get no button
    assert ">>> |\\\\.\\\\.\\\\. |\\\\$ |In \\\\[\\\\d*\\\\]: " in script
    assert all("copybutton.js" in html for page, html in html_of.items() if page not in NOT_PAGES)


def test_version_and_cite_block_on_every_page(html_of, base_url):
    version = posenc_math.__version__
    for page, html in html_of.items():
        if page in NOT_PAGES:
            continue
        assert f"posenc-math {version}" in html, page
        block = html[html.index('id="cite-this-page"') :]
        text = re.sub(r"<[^>]+>", "", block[: block.index("</pre>")])
        assert f"url     = {{{base_url + page}}}" in text, page
        assert f"version = {{{version}}}" in text, page
        anchors = sorted(set(re.findall(r'id="(thm-[\w-]+)"', html)))
        if anchors:
            assert "theorems on this page: " + ", ".join(anchors) in " ".join(text.split()), page


def test_notebook_pages_link_their_notebook(site_dir, html_of):
    for page in (ROOT / "docs").glob("*.md"):
        html = html_of[f"{page.stem}.html"]
        has_link = f'href="{NOTEBOOK_DIR}/{page.stem}.ipynb"' in html
        assert has_link == is_notebook(page.read_text(encoding="utf-8")), page.stem
        assert (site_dir / NOTEBOOK_DIR / f"{page.stem}.ipynb").is_file() == has_link, page.stem


def test_site_links_the_pdf_when_it_was_built(site_dir, html_of):
    copied = site_dir / PDF_NAME
    if copied.is_file():
        assert PDF.is_file() and copied.read_bytes() == PDF.read_bytes(), "the site's PDF is not the one make pdf built"
        assert all(f'href="{PDF_NAME}"' in html for page, html in html_of.items() if page not in NOT_PAGES)
    else:
        assert not any(
            "PDF" in html.split('id="reader-toolkit"')[-1].split("Cite this page")[0] for html in html_of.values()
        )
