"""Every page fits the screen, on a phone (390 px) and on a laptop (1280 px).

Each page is loaded once per width (MathJax breaks long formulas into lines
for the width it typesets at, so a page is not resized after loading) and
measured after MathJax has typeset it and its fonts have arrived:

- the page itself never scrolls sideways;
- at 1280 px every displayed equation fits its box (the checker's folded
  chains, ``details.machine-proof``, measured opened, included);
- at 390 px at most one displayed equation in ten needs scrolling (inside
  its own box), and no in-line formula runs past the right edge of the text;
- every element id is unique on its page;
- no ``::before``/``::after`` draws a private-use code point (an icon
  font's glyph: the site loads none, so it shows as an empty box);
- every figure image is a link to its own (wide) image file (what a tap
  does with it: tests/site/test_figures.py);
- at 1280 px, "On this page" (furo's page contents) is shown beside the
  text on every page that has one, also after scrolling half-way down;
- at 1280 px every table fits its column; at 390 px every table either fits
  its column or says that it scrolls (a
  visible line above it, and shadows on the edges that hide columns), and
  start-here's comparison of schemes fits (one card per scheme).
"""

from __future__ import annotations

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
        machineProof: Boolean(el.closest("details.machine-proof")), pastColumn: Math.round(pastColumn),
      });
    }
  }
  const inlinePast = [];
  for (const el of article.querySelectorAll('mjx-container:not([display="true"])')) {
    if (insideScrollBox(el)) continue;
    const right = Math.max(...[...el.getClientRects()].map((r) => r.right), -Infinity);
    if (right > columnRight + 1) inlinePast.push({text: describe(el), right: Math.round(right)});
  }
  // Generated content drawn from a private-use code point (an icon font's
  // glyph) shows as an empty box when that font is not loaded.
  const privateUse = /[\ue000-\uf8ff]/;
  const missingGlyphs = [];
  for (const el of article.querySelectorAll("*")) {
    for (const pseudo of ["::before", "::after"]) {
      const content = getComputedStyle(el, pseudo).content;
      if (content && content !== "none" && privateUse.test(content)) {
        missingGlyphs.push(`${el.tagName.toLowerCase()}.${[...el.classList].join(".")}${pseudo}`);
      }
    }
  }
  const seen = new Map();
  for (const el of document.querySelectorAll("[id]")) seen.set(el.id, (seen.get(el.id) || 0) + 1);
  const duplicateIds = [...seen].filter(([, n]) => n > 1).map(([id, n]) => `${id} x${n}`);
  const images = [...article.querySelectorAll("img")].map((img) => {
    const link = img.closest("a");
    return {src: img.currentSrc || img.src, href: link ? link.href : null,
            fullSize: Boolean(link && link.classList.contains("full-size-image"))};
  });
  // "On this page": furo's contents column, where the page has sections
  const tocLinks = document.querySelectorAll(".toc-drawer .toc-tree a").length;
  const tocBox = (selector) => {
    const el = document.querySelector(selector);
    if (!el) return null;
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width,
            shown: style.visibility !== "hidden" && style.display !== "none" && r.width > 0};
  };
  const toc = {links: tocLinks, drawer: tocBox(".toc-drawer"), title: tocBox(".toc-title"),
               articleRight: article.getBoundingClientRect().right};
  const tables = [...article.querySelectorAll(".table-wrapper")].map((wrapper) => {
    const hint = getComputedStyle(wrapper, "::before");
    const table = wrapper.querySelector("table");
    return {
      classes: table ? table.className : "",
      columns: table && table.rows.length ? Math.max(...[...table.rows].map((row) => row.cells.length)) : 0,
      fits: wrapper.scrollWidth <= wrapper.clientWidth + 1,
      marked: wrapper.hasAttribute("data-scrolls"),
      hint: hint.content !== "none" && hint.display !== "none" ? hint.content : null,
      shadows: (getComputedStyle(wrapper).backgroundImage.match(/radial-gradient/g) || []).length,
      text: (table ? table.textContent : "").trim().replace(/\\s+/g, " ").slice(0, 50),
    };
  });
  // the checker's folded chains, opened: a closed <details> lays out nothing to measure
  const folded = [...article.querySelectorAll("details.machine-proof")].filter((details) => !details.open);
  for (const details of folded) details.open = true;
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  const machineDisplays = [...article.querySelectorAll('details.machine-proof mjx-container[display="true"]')]
    .filter((el) => el.getClientRects().length);
  const machineWide = machineDisplays
    .filter((el) => el.scrollWidth - el.clientWidth > 1)
    .map((el) => ({text: describe(el), needs: el.scrollWidth, box: el.clientWidth}));
  for (const details of folded) details.open = false;
  window.scrollTo(0, root.scrollHeight / 2);
  await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
  toc.titleScrolled = tocBox(".toc-title");
  toc.scrolledBy = window.scrollY;
  window.scrollTo(0, 0);
  return {
    scrollWidth: root.scrollWidth, viewport: root.clientWidth, viewportHeight: window.innerHeight, toc, tables,
    displays: displays.length, wideDisplays, inlinePast, duplicateIds, images,
    machineDisplays: machineDisplays.length, machineWide,
    missingGlyphs: [...new Set(missingGlyphs)],
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
    """Every displayed formula fits its box at 1280 px, the statements and proofs a reader reads and the
    checker's own chain (folded in ``details.machine-proof``, measured opened) too: its definitions written
    out as checked scrolled sideways in mrope-text-is-rope (a blockdiag of long cosines, 811 px) and
    multi-axis-relative (740 px of a 736 px column) before MathJax was asked to break them narrower."""
    problems = {page: m["wideDisplays"] + m["machineWide"] for page, m in layouts[1280].items()}
    assert not any(problems.values()), "displayed equations wider than their box at 1280 px:\n" + report(problems)
    assert sum(m["machineDisplays"] for m in layouts[1280].values()) >= 10, "no folded machine chain was measured"


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


def test_no_icon_font_glyph_is_drawn_without_its_font(layouts):
    """furo loads no icon font: generated content from a private-use code point
    (sphinx-exercise's Font Awesome pencil after each exercise title) is an empty box."""
    problems = {page: m["missingGlyphs"] for page, m in layouts[1280].items()}
    assert not any(problems.values()), "private-use glyphs in ::before/::after:\n" + report(problems)


def test_element_ids_are_unique(layouts):
    problems = {page: m["duplicateIds"] for page, m in layouts[1280].items()}
    assert not any(problems.values()), "ids used more than once on a page:\n" + report(problems)


def test_every_figure_links_to_its_image(layouts):
    problems = {}
    for page, m in layouts[1280].items():
        problems[page] = [img["src"] for img in m["images"] if not img["fullSize"] or img["href"] != img["src"]]
    assert not any(problems.values()), "images that do not open full size:\n" + report(problems)
    assert any(m["images"] for m in layouts[1280].values()), "no page has a figure to check"


def toc_problems(m: dict) -> list[str]:
    """Why "On this page" is not usable on a page measured by ``_MEASURE_SCRIPT`` (none: it is)."""
    toc = m["toc"]
    if toc["links"] < 2:
        return []  # furo shows no contents for a page without sections
    drawer, title, scrolled = toc["drawer"], toc["title"], toc["titleScrolled"]
    problems = []
    if not (drawer and drawer["shown"] and drawer["width"] >= 150):
        problems.append(f"contents column not shown: {drawer}")
    elif drawer["left"] < toc["articleRight"] - 1 or drawer["right"] > m["viewport"] + 1:
        problems.append(
            f"contents column at {drawer['left']:.0f}-{drawer['right']:.0f} px, text ends at "
            f"{toc['articleRight']:.0f} px, viewport {m['viewport']} px"
        )
    if not (title and title["shown"] and title["top"] >= 0 and title["bottom"] <= m["viewportHeight"]):
        problems.append(f"'On this page' not in view: {title}")
    if toc["scrolledBy"] > 0 and not (scrolled and scrolled["top"] >= 0 and scrolled["bottom"] <= m["viewportHeight"]):
        problems.append(f"'On this page' scrolled away after {toc['scrolledBy']:.0f} px: {scrolled}")
    return problems


def test_on_this_page_is_shown_at_1280(layouts):
    problems = {page: toc_problems(m) for page, m in layouts[1280].items()}
    assert not any(problems.values()), "pages whose contents are hidden at 1280 px:\n" + report(problems)
    assert any(m["toc"]["links"] >= 2 for m in layouts[1280].values()), "no page has contents to show"


def test_toc_problems_fails_on_a_hidden_column():
    """furo's own layout at 1280 px, as measured before the fix: the column is pushed off the screen."""
    hidden = {
        "viewport": 1280,
        "viewportHeight": 900,
        "toc": {
            "links": 9,
            "articleRight": 1128,
            "scrolledBy": 9000,
            "drawer": {"left": 1280, "right": 1520, "top": 0, "bottom": 900, "width": 240, "shown": True},
            "title": {"left": 1300, "right": 1400, "top": 30, "bottom": 50, "width": 100, "shown": True},
            "titleScrolled": {"left": 1300, "right": 1400, "top": 30, "bottom": 50, "width": 100, "shown": True},
        },
    }
    assert toc_problems(hidden) and "contents column at 1280-1520" in toc_problems(hidden)[0]
    drawer = {**hidden["toc"]["drawer"], "left": 1040, "right": 1264}
    shown = {**hidden, "toc": {**hidden["toc"], "articleRight": 1008, "drawer": drawer}}
    assert toc_problems(shown) == []


def table_problems(tables: list[dict]) -> list[str]:
    """Tables that neither fit nor show that they scroll (measured by ``_MEASURE_SCRIPT``)."""
    problems = []
    for table in tables:
        if table["fits"]:
            continue
        if not (table["marked"] and table["hint"] and "Scroll" in table["hint"] and table["shadows"] >= 2):
            problems.append(f"{table['columns']} columns wider than the screen, no cue: {table}")
    return problems


def test_wide_tables_fit_or_say_they_scroll_on_a_phone(layouts):
    problems = {page: table_problems(m["tables"]) for page, m in layouts[390].items()}
    assert not any(problems.values()), "tables that scroll without a cue at 390 px:\n" + report(problems)
    assert any(m["tables"] for m in layouts[390].values()), "no page has a table to check"
    assert any(not t["fits"] for m in layouts[390].values() for t in m["tables"]), (
        "no table is wider than a phone: the scrolling cue is not exercised"
    )


def test_scheme_table_fits_a_phone(layouts):
    """start-here's comparison of six columns of sentences: one card per scheme, no scrolling."""
    tables = [t for t in layouts[390]["start-here.html"]["tables"] if "scheme-table" in t["classes"]]
    assert len(tables) == 1 and tables[0]["columns"] == 6, tables
    assert tables[0]["fits"], f"the scheme table scrolls at 390 px: {tables[0]}"


def test_table_problems_fails_without_a_cue():
    wide = {"fits": False, "marked": False, "hint": None, "shadows": 2, "columns": 6, "classes": "", "text": "x"}
    assert table_problems([wide])
    assert not table_problems([{**wide, "marked": True, "hint": '"Scroll sideways for more columns"'}])
    assert not table_problems([{**wide, "fits": True}])


def test_every_table_fits_a_laptop(layouts):
    """At 1280 px no table scrolls sideways: model-config's per-layer tables, twelve columns wide,
    did (issue 24); they are turned now, a column per group of layers."""
    problems = {
        page: [f"{t['columns']} columns: {t['text']}" for t in m["tables"] if not t["fits"]]
        for page, m in layouts[1280].items()
    }
    assert not any(problems.values()), "tables wider than the text column at 1280 px:\n" + report(problems)
