"""Every page of the built site, in a real browser, offline.

Each test checks one property on every page the build produced (the list is
read from the built site, not written down here) and reports all the pages
that break it.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
import sitekit


def report(problems: dict[str, list]) -> str:
    return "\n".join(f"{page}: {items}" for page, items in problems.items() if items)


def test_every_page_in_the_navigation_is_built(pages, navigation_pages):
    missing = [page for page in navigation_pages if page not in pages]
    assert len(navigation_pages) >= 3 and not missing, f"in the toctrees of docs/ but not built: {missing}"


def test_no_request_leaves_the_machine(visits):
    problems = {page: v.external_requests for page, v in visits.items()}
    assert not any(problems.values()), "requests to third parties:\n" + report(problems)


def test_every_local_request_succeeds(visits):
    problems = {page: v.failed_requests for page, v in visits.items()}
    assert not any(problems.values()), report(problems)


def test_no_console_error(visits):
    problems = {page: v.console_errors for page, v in visits.items()}
    assert not any(problems.values()), report(problems)


def test_every_math_element_is_typeset(visits, site_dir):
    problems = {}
    for page, v in visits.items():
        written = sitekit.count_math_sources((site_dir / page).read_text(encoding="utf-8"))
        data = v.data
        issues = []
        if data["mathElements"] != written:
            issues.append(f"{written} math elements in the HTML, {data['mathElements']} in the page")
        if data["mathTypeset"] != data["mathElements"]:
            issues.append(f"not typeset: {data['mathUntypeset'][:5]}")
        if data["mathErrors"]:
            issues.append(f"TeX errors: {data['mathErrors'][:5]}")
        if data["typesetError"]:
            issues.append(f"MathJax failed: {data['typesetError']}")
        problems[page] = issues
    assert not any(problems.values()), report(problems)
    assert sum(v.data["mathTypeset"] for v in visits.values()) > 0, "no page has any math: is MathJax loaded?"


def test_math_fonts_are_served_locally(visits):
    problems = {}
    pages_with_math = 0
    for page, v in visits.items():
        issues = [f"{status} {url}" for url, status in v.font_responses if status != 200 or not sitekit.is_local(url)]
        issues += [f"font {family} {status}" for family, status in v.data["fonts"] if status == "error"]
        if v.data["containers"]:
            pages_with_math += 1
            loaded = [family for family, status in v.data["fonts"] if family.startswith("MJX") and status == "loaded"]
            if not loaded:
                issues.append("math shown but no MathJax font loaded")
            if not any(url.endswith((".woff", ".woff2")) for url, _ in v.font_responses):
                issues.append("math shown but no font file was fetched from the site")
        problems[page] = issues
    assert pages_with_math, "no page with math to check fonts on"
    assert not any(problems.values()), report(problems)


def test_every_image_decodes(visits):
    problems = {page: [img["src"] for img in v.data["images"] if img["width"] <= 0] for page, v in visits.items()}
    assert not any(problems.values()), "images that did not decode:\n" + report(problems)


def target_file(site_dir: Path, site_url: str, url: str) -> Path | None:
    """The file a same-site URL points to, or None for another origin."""
    if not url.startswith(site_url):
        return None
    path = unquote(urlsplit(url).path)[len(urlsplit(site_url).path) :]
    if path == "" or path.endswith("/"):
        path += "index.html"
    return site_dir / path


def test_internal_links_and_anchors_resolve(visits, site_dir, site_url):
    ids = {page: set(v.data["ids"]) for page, v in visits.items()}
    problems = {}
    for page, v in visits.items():
        broken = []
        for url in sorted(set(v.data["links"])):
            target = target_file(site_dir, site_url, url)
            if target is None:
                continue
            if not target.is_file():
                broken.append(url)
                continue
            fragment = unquote(urlsplit(url).fragment)
            relative = target.relative_to(site_dir).as_posix()
            if fragment and relative in ids and fragment not in ids[relative]:
                broken.append(url)
        problems[page] = broken
    assert not any(problems.values()), "links to nothing:\n" + report(problems)


# Words a reader would search for, and a page that must be among the hits.
SEARCHES = {
    "sinusoidal": "sinusoidal.html",
    "frequencies": "api.html",
    "performance": "performance.html",
    "rotary": "rope.html",
    "ALiBi": "alibi.html",
    "theorem": "theorems.html",
}


@pytest.mark.parametrize("word", sorted(SEARCHES))
def test_search_finds_page(word, navigation_pages, site_url, browser_context):
    expected = SEARCHES[word]
    assert expected in navigation_pages, f"{expected} is not in the site's navigation"
    page = browser_context.new_page()
    try:
        page.goto(f"{site_url}search.html?q={word}")
        page.wait_for_selector("#search-results .search-summary, #search-results p", timeout=20000)
        page.wait_for_function(
            "() => !document.querySelector('#search-results') || "
            "document.querySelector('#search-results').textContent.match(/found|did not match/i)",
            timeout=20000,
        )
        hits = page.eval_on_selector_all("#search-results ul.search li a", "els => els.map(a => a.href)")
    finally:
        page.close()
    hit_pages = {urlsplit(url).path.rsplit("/", 1)[-1] for url in hits}
    assert expected in hit_pages, f"search for {word!r} found {sorted(hit_pages)}"


def test_theorem_index_links_resolve(visits, site_dir, site_url):
    assert "theorems.html" in visits, "the theorem index (docs/theorems.md) is not built"
    anchors = {page: {i for i in v.data["ids"] if i.startswith("thm-")} for page, v in visits.items()}
    links = [url for url in visits["theorems.html"].data["links"] if unquote(urlsplit(url).fragment).startswith("thm-")]
    assert links, "the theorem index links to no thm-* anchor"
    broken = []
    for url in links:
        target = target_file(site_dir, site_url, url)
        relative = target.relative_to(site_dir).as_posix() if target else None
        if unquote(urlsplit(url).fragment) not in anchors.get(relative, ()):
            broken.append(url)
    assert not broken, f"theorem links to no theorem: {broken}"
    linked = {unquote(urlsplit(url).fragment) for url in links}
    every_theorem = set().union(*anchors.values())
    assert every_theorem <= linked, f"theorems missing from the index: {sorted(every_theorem - linked)}"


# Content wider than the screen must scroll inside its own box within the
# article, not push the whole content column sideways (or off the page).
_CUT_OFF_SCRIPT = """
() => {
  const article = document.querySelector("article");
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const cut = [];
  const selector = "article div.math, article mjx-container[display], article pre, article table, article img";
  for (const el of document.querySelectorAll(selector)) {
    const wide = el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().right > window.innerWidth + 1;
    if (!wide) continue;
    let box = el;
    while (box && !scrolls(box)) box = box.parentElement;
    if (!box || !article.contains(box)) {
      cut.push(el.tagName.toLowerCase() + ": " + el.textContent.trim().slice(0, 60));
    }
  }
  return cut;
}
"""


def test_nothing_is_cut_off_on_a_phone(pages, site_url, browser_context):
    problems = {}
    page = browser_context.new_page()
    try:
        page.set_viewport_size({"width": 400, "height": 800})
        for name in pages:
            page.goto(site_url + name, wait_until="load")
            page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            problems[name] = page.evaluate(_CUT_OFF_SCRIPT)
    finally:
        page.close()
    assert not any(problems.values()), "cut off at 400 px:\n" + report(problems)
