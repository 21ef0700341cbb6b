"""Accessibility of the built site: axe-core, alt text, math, colour maps.

axe-core (npm, injected into each page) must find no critical or serious
violation.  Moderate findings left as they are, with the reason:

- ``landmark-unique``: furo's two drawers (site navigation, page contents)
  are both ``<aside>`` elements without distinct labels; they are theme
  markup, hidden on wide screens, and each holds a labelled ``<nav>``.
- ``page-has-heading-one``: Sphinx's search page has its heading in a
  template block; the page is a form, not content.
"""

from __future__ import annotations

import inspect
import re

import numpy as np
import pytest
import sitekit

#: rule id -> why a critical/serious finding is acceptable (none so far).
ACCOUNTED: dict[str, str] = {}


def report(problems: dict[str, list]) -> str:
    return "\n".join(f"{page}: {items}" for page, items in problems.items() if items)


def test_axe_finds_no_critical_or_serious_violation(visits, axe_path):
    assert all(visit.axe_violations is not None for visit in visits.values())
    problems = {page: serious(visit.axe_violations) for page, visit in visits.items()}
    assert not any(problems.values()), report(problems)


def test_axe_dark_mode(pages, site_url, browser_context, axe_path):
    """furo follows the reader's dark preference: contrast must hold there too."""
    problems = {}
    page = browser_context.new_page()
    try:
        page.emulate_media(color_scheme="dark")
        for name in pages:
            page.goto(site_url + name, wait_until="load")
            page.evaluate("() => window.MathJax && MathJax.startup && MathJax.startup.promise")
            page.add_script_tag(path=str(axe_path))
            problems[name] = serious_violations(page)
    finally:
        page.close()
    assert not any(problems.values()), report(problems)


def test_axe_sees_poor_contrast_in_a_section_far_down(browser_context, axe_path):
    """The control for both axe tests: a grey-on-grey text in a section the browser skips
    (``content-visibility: auto``, as posenc.css sets it), far below the screen, is found."""
    page = browser_context.new_page()
    try:
        page.set_content(
            "<main><article><section><h1>Page</h1><section style='height: 4000px'><p>Near.</p></section>"
            "<section style='content-visibility: auto'><p style='color: #777; background: #888'>Far down.</p>"
            "</section></section></article></main>"
        )
        page.add_script_tag(path=str(axe_path))
        found = serious_violations(page)
    finally:
        page.close()
    assert any(item.startswith("color-contrast (serious)") for item in found), found


def serious(violations: list[dict]) -> list[str]:
    """The critical and serious ones among axe's ``violations``, less those accounted for, in words."""
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}: {v['summary']}"
        for v in violations
        if v["impact"] in ("critical", "serious") and v["id"] not in ACCOUNTED
    ]


def serious_violations(page) -> list[str]:
    """:func:`serious` of what axe finds on ``page`` (axe loaded)."""
    return serious(page.evaluate(sitekit._AXE_SCRIPT))


def looks_like_a_description(alt: str | None) -> bool:
    """Alt text a screen reader can use: words, not a file name."""
    if not alt or not alt.strip():
        return False
    if re.search(r"\.(png|svg|jpe?g|gif|webp)$", alt.strip(), re.IGNORECASE) or "/" in alt:
        return False
    return len(alt.split()) >= 3


def test_looks_like_a_description():
    assert looks_like_a_description("A heatmap with 50 rows and 512 columns.")
    assert not looks_like_a_description("../_build/jupyter_execute/abc.png")
    assert not looks_like_a_description("")
    assert not looks_like_a_description(None)


def test_every_image_has_alt_text(visits):
    problems = {
        page: [img["src"] for img in visit.data["images"] if not looks_like_a_description(img["alt"])]
        for page, visit in visits.items()
    }
    assert not any(problems.values()), "images without a usable alt text:\n" + report(problems)


def test_every_figure_has_a_caption(visits):
    problems = {page: visit.data["figuresWithoutCaption"] for page, visit in visits.items()}
    assert not any(problems.values()), report(problems)


def test_math_is_readable_by_assistive_technology(visits):
    """MathJax 3 puts hidden MathML (mjx-assistive-mml) beside every formula."""
    problems = {
        page: [f"{visit.data['assistive']} of {visit.data['containers']} formulas carry MathML"]
        for page, visit in visits.items()
        if visit.data["assistive"] != visit.data["containers"]
    }
    assert not problems, report(problems)
    assert sum(visit.data["assistive"] for visit in visits.values()) > 0


# --- Colour maps ----------------------------------------------------------------

# Machado, Oliveira and Fernandes (2009), severity 1, on linear RGB.
COLOUR_BLINDNESS = {
    "protanopia": [[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216], [-0.003882, -0.048116, 1.051998]],
    "deuteranopia": [[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413], [-0.011820, 0.042940, 0.968881]],
    "tritanopia": [[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602], [0.004733, 0.691367, 0.303900]],
}


def linear_rgb(srgb):
    srgb = np.asarray(srgb, dtype=float)
    return np.where(srgb <= 0.04045, srgb / 12.92, ((srgb + 0.055) / 1.055) ** 2.4)


def cielab(linear):
    """CIELAB (D65) of linear RGB rows."""
    xyz = (
        np.clip(linear, 0, 1)
        @ np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722], [0.0193, 0.1192, 0.9505]]).T
    )
    xyz = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.stack([116 * f[:, 1] - 16, 500 * (f[:, 0] - f[:, 1]), 200 * (f[:, 1] - f[:, 2])], axis=1)


def test_cielab_of_known_colours():
    lab = cielab(linear_rgb([[1, 1, 1], [0, 0, 0], [0.5, 0.5, 0.5]]))
    np.testing.assert_allclose(lab[:, 0], [100, 0, 53.39], atol=0.05)
    np.testing.assert_allclose(lab[:, 1:], 0, atol=0.05)


def monotone(values, *, tolerance=1.0) -> bool:
    """Never moves back by more than ``tolerance`` from its best so far."""
    values = np.asarray(values, dtype=float)
    if len(values) < 2:
        return True
    if values[-1] >= values[0]:
        return bool(np.all(np.maximum.accumulate(values) - values <= tolerance))
    return bool(np.all(values - np.minimum.accumulate(values) <= tolerance))


def lightness_shape(lightness, *, tolerance=1.0, asymmetry=10.0):
    """'sequential', 'diverging' or 'unordered', from a map's L* samples.

    Sequential: L* never goes back (by more than ``tolerance``, in L*
    units; 1 is about the smallest visible step).  Diverging: L* peaks (or
    dips) at the centre, is monotone on each side, and is nearly the same at
    equal distance from the centre (within ``asymmetry``), so in grayscale the
    lightness still shows the magnitude of a value centred on 0.
    """
    lightness = np.asarray(lightness, dtype=float)
    if monotone(lightness, tolerance=tolerance):
        return "sequential"
    if np.abs(lightness - lightness[::-1]).max() <= asymmetry:
        for turn in (int(np.argmax(lightness)), int(np.argmin(lightness))):
            if (
                0.45 <= turn / (len(lightness) - 1) <= 0.55
                and monotone(lightness[: turn + 1], tolerance=tolerance)
                and monotone(lightness[turn:], tolerance=tolerance)
            ):
                return "diverging"
    return "unordered"


def colormaps_used() -> set[str]:
    """Colour maps the site's figures use: rc default, helper defaults, literals."""
    import matplotlib

    import posenc_math.plotting as plotting

    names = set()
    rc = matplotlib.rc_params_from_file(str(sitekit.ROOT / "docs" / "matplotlibrc"), use_default_template=False)
    if "image.cmap" in rc:
        names.add(rc["image.cmap"])
    for name in plotting.__all__:
        function = getattr(plotting, name)
        if callable(function):
            parameter = inspect.signature(function).parameters.get("cmap")
            if parameter is not None and isinstance(parameter.default, str):
                names.add(parameter.default)
    sources = list((sitekit.ROOT / "posenc_math" / "plotting").glob("*.py")) + list(
        (sitekit.ROOT / "docs").glob("*.md")
    )
    for source in sources:
        names.update(re.findall(r"cmap\s*=\s*[\"']([A-Za-z0-9_.]+)[\"']", source.read_text(encoding="utf-8")))
    return names


def test_lightness_shape_classifies_known_maps():
    import matplotlib

    def shape(name):
        rgb = matplotlib.colormaps[name](np.linspace(0, 1, 257))[:, :3]
        return lightness_shape(cielab(linear_rgb(rgb))[:, 0])

    assert shape("cividis") == shape("viridis") == "sequential"
    assert shape("RdBu_r") == shape("coolwarm") == shape("berlin") == "diverging"
    assert shape("jet") == shape("hsv") == shape("rainbow") == shape("turbo") == "unordered"


def sides_apart(rgb) -> dict[str, float]:
    """delta E between the two sides of a map (10% from each end), as seen
    with each kind of colour blindness."""
    distances = {}
    for kind, matrix in COLOUR_BLINDNESS.items():
        seen = cielab(linear_rgb(rgb) @ np.array(matrix).T)
        distances[kind] = float(np.linalg.norm(seen[len(seen) // 10] - seen[-1 - len(seen) // 10]))
    return distances


def test_red_green_map_is_caught():
    import matplotlib

    rgb = matplotlib.colormaps["RdYlGn"](np.linspace(0, 1, 257))[:, :3]
    assert min(sides_apart(rgb).values()) < 20


@pytest.mark.parametrize("name", sorted(colormaps_used()))
def test_colormap_is_readable(name):
    """Lightness is ordered (grayscale print keeps the order); diverging maps
    also keep their two sides apart for every kind of colour blindness."""
    import matplotlib

    rgb = matplotlib.colormaps[name](np.linspace(0, 1, 257))[:, :3]
    lightness = cielab(linear_rgb(rgb))[:, 0]
    shape = lightness_shape(lightness)
    assert shape != "unordered", (
        f"{name}: lightness (L*) neither only rises or falls (sequential) nor falls off "
        f"symmetrically from the centre (diverging): {np.round(lightness[::32])}"
    )
    if shape == "diverging":
        too_close = {kind: round(d, 1) for kind, d in sides_apart(rgb).items() if d <= 20}
        assert not too_close, f"{name}: the two sides look alike (delta E) for {too_close}"
