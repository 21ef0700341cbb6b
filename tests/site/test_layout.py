"""Every page fits the screen, on a phone (390 px) and on a laptop (1280 px).

Each page is loaded once per width (MathJax breaks long formulas into lines
for the width it typesets at, so a page is not resized after loading) and
measured after MathJax has typeset it and its fonts have arrived:

- the page itself never scrolls sideways;
- at 1280 px every displayed equation fits its box;
- at 390 px at most one displayed equation in ten needs scrolling (inside
  its own box), and no in-line formula runs past the right edge of the text;
- every element id is unique on its page;
- every figure image is a link to its own image file, and following the
  link (what a tap does) opens the image.
"""

from __future__ import annotations

from urllib.parse import urljoin

import pytest

WIDTHS = (390, 1280)

# Measures one page after MathJax has typeset it (see the module docstring).
_MEASURE_SCRIPT = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await document.fonts.ready;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const root = document.documentElement;
  const article = document.querySelector("article") || document.body;
  const columnRight = Math.min(article.getBoundingClientRect().right, root.clientWidth);
  const scrolls = (el) => ["auto", "scroll"].includes(getComputedStyle(el).overflowX);
  const insideScrollBox = (el) => {
    for (let box = el.parentElement; box && box !== article; box = box.parentElement) {
      if (scrolls(box)) return true;
    }
    return false;
  };
  const describe = (el) => {
    const source = el.closest(".math") ;
    const text = (source && source.getAttribute("data-tex")) || el.getAttribute("aria-label") || el.textContent;
    return text.trim().replace(/\\s+/g, " ").slice(0, 70);
  };
  const displays = [...article.querySelectorAll('mjx-container[display="true"]')];
  const wideDisplays = [];
  for (const el of displays) {
    const overflow = el.scrollWidth - el.clientWidth;
    const pastColumn = el.getBoundingClientRect().right - columnRight;
    if (overflow > 1 || pastColumn > 1) {
      const inTheorem = Boolean(el.closest(".proof, .theorem, [class*='prf-'], details"));
      wideDisplays.push({
        text: describe(el), needs: el.scrollWidth, box: el.clientWidth, theorem: inTheorem,
      });
    }
  }
  const inlinePast = [];
  for (const el of article.querySelectorAll('mjx-container:not([display="true"])')) {
    if (insideScrollBox(el)) continue;
    const right = Math.max(...[...el.getClientRects()].map((r) => r.right), -Infinity);
    if (right > columnRight + 1) inlinePast.push({text: describe(el), right: Math.round(right)});
  }
  const seen = new Map();
  for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) || 0) + 1);
  const duplicateIds = [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`);
  const images = [...article.querySelectorAll("img")].map((img) => {
    const link = img.closest("a");
    return {src: img.currentSrc || img.src, href: link ? link.href : null,
            fullSize: Boolean(link && link.classList.contains("full-size-image"))};
  });
  return {
    scrollWidth: root.scrollWidth, viewport: root.clientWidth,
    displays: displays.length, wideDisplays, inlinePast, duplicateIds, images,
  };
}
"""


@pytest.fixture(scope="module")
def layouts(pages, site_url, browser_context):
    """``{width: {page: measurements}}`` for every page at every width."""
    result = {width: {} for width in WIDTHS}
    tab = browser_context.new_page()
    try:
        for width in WIDTHS:
            tab.set_viewport_size({"width": width, "height": 900})
            for name in pages:
                tab.goto(site_url + name, wait_until="load")
                result[width][name] = tab.evaluate(_MEASURE_SCRIPT)
    finally:
        tab.close()
    return result


def report(problems: dict[str, object]) -> str:
    return "\n".join(f"{page}: {items}" for page, items in problems.items() if items)


@pytest.mark.parametrize("width", WIDTHS)
def test_no_page_scrolls_sideways(layouts, width):
    problems = {
        page: f"document {m['scrollWidth']} px wide in a {m['viewport']} px viewport"
        for page, m in layouts[width].items()
        if m["scrollWidth"] > m["viewport"]
    }
    assert not problems, f"pages wider than the screen at {width} px:\n" + report(problems)


def test_every_displayed_equation_fits_at_1280(layouts):
    problems = {page: m["wideDisplays"] for page, m in layouts[1280].items()}
    assert not any(problems.values()), "displayed equations wider than their box at 1280 px:\n" + report(problems)


def test_few_displayed_equations_scroll_on_a_phone(layouts):
    problems = {}
    for page, m in layouts[390].items():
        if len(m["wideDisplays"]) * 10 > m["displays"]:
            problems[page] = f"{len(m['wideDisplays'])} of {m['displays']} need scrolling: {m['wideDisplays']}"
    assert not problems, "more than one displayed equation in ten scrolls at 390 px:\n" + report(problems)


def test_page_prose_equations_fit(layouts):
    """The displayed equations of the pages' own text (theorem boxes aside,
    which the tests above include): all fit at 1280 px, and at most one
    in ten scrolls at 390 px."""
    problems = {}
    for width in WIDTHS:
        for page, m in layouts[width].items():
            wide = [item for item in m["wideDisplays"] if not item["theorem"]]
            allowed = 0 if width == 1280 else m["displays"] // 10
            if len(wide) > allowed:
                problems[f"{page} at {width} px"] = wide
    assert not problems, "prose equations that do not fit:\n" + report(problems)


def test_no_inline_formula_runs_past_the_edge_on_a_phone(layouts):
    problems = {page: m["inlinePast"] for page, m in layouts[390].items()}
    assert not any(problems.values()), "in-line formulas past the right edge at 390 px:\n" + report(problems)


def test_element_ids_are_unique(layouts):
    problems = {page: m["duplicateIds"] for page, m in layouts[1280].items()}
    assert not any(problems.values()), "ids used more than once on a page:\n" + report(problems)


def test_every_figure_links_to_its_image(layouts):
    problems = {}
    for page, m in layouts[1280].items():
        problems[page] = [img["src"] for img in m["images"] if not img["fullSize"] or img["href"] != img["src"]]
    assert not any(problems.values()), "images that do not open full size:\n" + report(problems)
    assert any(m["images"] for m in layouts[1280].values()), "no page has a figure to check"


def test_a_tap_on_a_figure_opens_the_image(layouts, site_url, browser_context):
    """On a phone-sized screen, follow the first figure link of every page
    with figures, as a tap does, and check the browser shows that image."""
    problems = {}
    tab = browser_context.new_page()
    tab.set_viewport_size({"width": 390, "height": 900})
    try:
        for page, m in layouts[390].items():
            if not m["images"]:
                continue
            tab.goto(site_url + page, wait_until="load")
            link = tab.locator("article a.full-size-image").first
            link.scroll_into_view_if_needed()
            href = urljoin(tab.url, link.get_attribute("href"))
            with tab.expect_navigation() as navigation:
                link.click()
            response = navigation.value
            # what the browser shows, also when it served the image from its cache (no response headers)
            kind = tab.evaluate("() => document.contentType")
            if tab.url != href or (response is not None and not response.ok) or not kind.startswith("image/"):
                problems[page] = f"opened {tab.url} ({kind}), expected the image {href}"
                continue
            shown = tab.evaluate("() => { const img = document.querySelector('img, svg'); return Boolean(img); }")
            if not shown:
                problems[page] = f"{href} opened but shows no image"
    finally:
        tab.close()
    assert not problems, "figure taps that do not open the image:\n" + report(problems)
    assert any(m["images"] for m in layouts[390].values()), "no page has a figure to tap"
