"""Two clean builds of one commit give the same bytes, figures included.

One extra clean build (fresh doctrees, fresh notebook cache, so every
notebook runs again) goes to a temporary directory and is compared file by
file with the site under test (``_build/html`` after ``make html``).  The
causes of difference are fixed at the source (SOURCE_DATE_EPOCH from git,
PYTHONHASHSEED=0, matplotlib's svg.hashsalt, labelled equations), never
filtered out here.
"""

from __future__ import annotations

import difflib
import hashlib
import re

import pytest
import sitekit


def digests(directory):
    return {
        path.relative_to(directory).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def first_difference(left, right) -> str:
    try:
        a = left.read_text(encoding="utf-8").splitlines()
        b = right.read_text(encoding="utf-8").splitlines()
    except UnicodeDecodeError:
        return f"(binary, {left.stat().st_size} vs {right.stat().st_size} bytes)"
    diff = list(difflib.unified_diff(a, b, str(left), str(right), n=1, lineterm=""))
    return "\n".join(line[:200] for line in diff[:12])


@pytest.fixture(scope="session")
def clean_build(tmp_path_factory, site_dir):
    out = tmp_path_factory.mktemp("clean-build")
    result = sitekit.build_site(out)
    if result.returncode:
        pytest.fail(f"clean build failed:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}", pytrace=False)
    return out / "html"


def test_clean_build_is_byte_identical(site_dir, clean_build):
    ours, theirs = digests(site_dir), digests(clean_build)
    only_here = sorted(set(ours) - set(theirs))
    only_there = sorted(set(theirs) - set(ours))
    differ = sorted(name for name in set(ours) & set(theirs) if ours[name] != theirs[name])
    message = [f"{len(differ)} files differ: {differ[:20]}"]
    if only_here:
        message.append(f"only in {site_dir}: {only_here[:20]}")
    if only_there:
        message.append(f"only in the clean build: {only_there[:20]}")
    for name in differ[:3]:
        message.append(first_difference(site_dir / name, clean_build / name))
    assert not (differ or only_here or only_there), (
        "\n".join(message) + "\n(edited docs/ or the library since `make html`? rebuild; removed a page? "
        "`make clean html`: Sphinx never deletes old pages)"
    )


def test_noop_rebuild_changes_nothing(clean_build):
    """Rebuilding with nothing changed leaves every byte as it was.

    The site under test is often an incremental build, so this checks the
    incremental path on purpose: Sphinx 9.0 used to write a no-op rebuild's
    ``searchindex.js`` without the index entries of the pages it did not
    rewrite (posenc_docs.site_html makes every build write every page
    and a fresh index)."""
    before = digests(clean_build)
    result = sitekit.build_site(clean_build.parent)
    assert result.returncode == 0, result.stderr[-3000:]
    after = digests(clean_build)
    differ = sorted(name for name in set(before) | set(after) if before.get(name) != after.get(name))
    assert not differ, f"a no-op rebuild changed {differ[:20]}"


# MyST gives every numbered amsmath environment (\begin{equation}, align, ...)
# an anchor made from a fresh uuid4, so two builds differ.  Numbered
# equations need a label: `$$ ... $$ (label)`; unnumbered ones the starred form.
AMSMATH_NUMBERED = re.compile(r"\\begin\{(equation|align|alignat|gather|multline|flalign|eqnarray)\}")


def test_no_numbered_amsmath_without_label():
    offenders = []
    for page in sorted((sitekit.ROOT / "docs").glob("*.md")):
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1):
            if AMSMATH_NUMBERED.search(line):
                offenders.append(f"{page.name}:{number}: {line.strip()}")
    assert not offenders, (
        "numbered amsmath environments get a random anchor on every build; use the starred "
        "form, or `$$ ... $$ (label)` for an equation you reference:\n" + "\n".join(offenders)
    )


def test_amsmath_pattern():
    assert AMSMATH_NUMBERED.search(r"\begin{align}") and AMSMATH_NUMBERED.search(r"\begin{equation}")
    assert not AMSMATH_NUMBERED.search(r"\begin{align*}") and not AMSMATH_NUMBERED.search(r"\begin{aligned}")
