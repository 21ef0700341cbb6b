"""The checking page (docs/checking.md) states sizes and settings that live in code; they must agree.

The page is not a notebook, so these numbers cannot be glued; the number lint
allows them (docs/numbers.toml) because this test fails when one drifts.
"""

from __future__ import annotations

import inspect
from pathlib import Path

PAGE = Path(__file__).resolve().parents[2] / "docs" / "checking.md"


def page_text(page: Path = PAGE) -> str:
    """The page's source, white space made single spaces (the prose wraps anywhere)."""
    return " ".join(page.read_text(encoding="utf-8").split())


def kernel_suite_sizes_stated(text: str) -> None:
    import test_kernel_adversarial as suite

    assert f"{len(suite.FALSE)} false identities, none proved" in text
    assert f"{len(suite.TRUE)} true identities, all proved" in text
    assert f"{len(suite.TRUE_ONLY_ON_ITS_DOMAIN)} statements true only on their declared domain" in text
    assert f"{len(suite.FALSE_THEOREMS)} false theorems built from the public classes" in text


def test_the_kernel_suite_sizes_are_the_suites():
    kernel_suite_sizes_stated(page_text())


def test_the_independent_suite_sizes_are_the_suites():
    from adversarial.cases import FALSE, TRUE
    from adversarial.test_identities import NOT_YET_PROVED

    text = page_text()
    assert f"{len(FALSE)} false identities, none proved" in text
    # every true case must be proved except the strict xfails of NOT_YET_PROVED
    assert f"{len(TRUE)} true identities, {len(TRUE) - len(NOT_YET_PROVED)} proved" in text


def test_the_time_bound_and_the_witness_precision_are_the_code_s():
    from posenc_math.theorems import TIME_BOUND
    from posenc_math.witnesses._common import mp_context

    text = page_text()
    digits = inspect.signature(mp_context).parameters["digits"].default
    assert f"CPU-time bound ({TIME_BOUND:g} s," in text
    assert f"computed to {digits} significant digits with mpmath" in text
    assert f"mpmath's {digits}-digit elementary functions" in text


def test_a_drifted_count_fails():
    """The check can fail: a page stating another size does not pass."""
    import pytest
    import test_kernel_adversarial as suite

    size = len(suite.FALSE)
    drifted = page_text().replace(f"{size} false identities", f"{size - 1} false identities")
    with pytest.raises(AssertionError):
        kernel_suite_sizes_stated(drifted)
