"""Figures and cell outputs stay legible in furo's light and dark schemes.

Pages with figures are opened in Chromium once per colour scheme (the
browser's ``prefers-color-scheme``, which furo follows by default); a
screenshot of each is written to the test's temporary directory.  Checked:
the scheme took effect (the page background), every figure image sits on an
opaque light card, and the text of every cell output contrasts with what is
behind it (WCAG ratio >= 4.5).  Copy buttons: on code cells, not on outputs.
"""

from __future__ import annotations

import pytest

# Colours as [r, g, b, a] (0-255, alpha 0-1) of an element and of the first
# opaque ancestor behind it.
_READ_COLOURS = """
() => {
  const rgba = (text) => {
    const m = text.match(/rgba?\\(([^)]+)\\)/);
    if (!m) return [0, 0, 0, 0];
    const parts = m[1].split(/[ ,\\/]+/).filter(Boolean).map(Number);
    return [parts[0], parts[1], parts[2], parts.length > 3 ? parts[3] : 1];
  };
  const behind = (element) => {
    for (let node = element; node; node = node.parentElement) {
      const colour = rgba(getComputedStyle(node).backgroundColor);
      if (colour[3] === 1) return colour;
    }
    return rgba(getComputedStyle(document.documentElement).backgroundColor);
  };
  const images = [...document.querySelectorAll("figure img, .cell_output img")];
  const outputs = [...document.querySelectorAll(".cell_output pre")];
  return {
    body: behind(document.body),
    images: images.map((img) => ({src: img.getAttribute("src"), own: rgba(getComputedStyle(img).backgroundColor)})),
    outputs: outputs.map((pre) => ({
      text: pre.textContent.slice(0, 40), colour: rgba(getComputedStyle(pre).color), behind: behind(pre),
    })),
    inputButtons: document.querySelectorAll(".cell_input .copybtn").length,
    outputButtons: document.querySelectorAll(".cell_output .copybtn").length,
  };
}
"""


def luminance(colour) -> float:
    def channel(value):
        value /= 255
        return value / 12.92 if value <= 0.03928 else ((value + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in colour[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(one, other) -> float:
    high, low = sorted((luminance(one), luminance(other)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_contrast_arithmetic():
    assert contrast([0, 0, 0, 1], [255, 255, 255, 1]) == pytest.approx(21)
    assert contrast([200, 200, 200, 1], [255, 255, 255, 1]) < 4.5


@pytest.fixture(scope="module")
def figure_pages(site_dir, pages):
    chosen = [page for page in pages if "<figure" in (site_dir / page).read_text(encoding="utf-8")]
    assert len(chosen) >= 5, chosen
    return chosen


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_figures_and_outputs_are_legible(scheme, figure_pages, site_url, browser_context, tmp_path):
    problems = {}
    for page_path in figure_pages:
        page = browser_context.new_page()
        try:
            page.emulate_media(color_scheme=scheme)
            page.goto(site_url + page_path, wait_until="load")
            page.screenshot(
                path=str(tmp_path / f"{scheme}-{page_path.replace('/', '_')}.png")
            )  # the first screen; the checks cover the whole page
            data = page.evaluate(_READ_COLOURS)
        finally:
            page.close()
        issues = []
        body = luminance(data["body"])
        if (scheme == "dark") != (body < 0.2):
            issues.append(f"page background {data['body']} is not {scheme}")
        for image in data["images"]:
            if image["own"][3] != 1 or luminance(image["own"]) < 0.9:
                issues.append(f"figure {image['src']} has no opaque light card: {image['own']}")
        for output in data["outputs"]:
            ratio = contrast(output["colour"], output["behind"])
            if ratio < 4.5:
                issues.append(f"output {output['text']!r}: contrast {ratio:.2f}")
        if data["outputButtons"]:
            issues.append(f"{data['outputButtons']} copy buttons on cell outputs")
        problems[page_path] = (issues, data["images"], data["inputButtons"])
    assert sum(len(images) for _, images, _ in problems.values()) >= 10
    assert sum(buttons for _, _, buttons in problems.values()) > 0, "no copy button on any code cell"
    failing = {page: issues for page, (issues, _, _) in problems.items() if issues}
    assert not failing, f"{scheme} scheme (screenshots in {tmp_path}):\n" + "\n".join(
        f"{page}: {issues[:5]}" for page, issues in failing.items()
    )
