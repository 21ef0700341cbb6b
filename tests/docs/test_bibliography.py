"""posenc_docs.bibliography: labels for teams and handles that read as names."""

from pathlib import Path

import pytest
from posenc_docs import bibliography
from pybtex.database import parse_file
from pybtex.plugin import find_plugin

DOCS = Path(__file__).resolve().parents[2] / "docs"


@pytest.fixture(scope="module")
def labels():
    """Every entry's label as the site's style makes it, by citation key (one file at a time, as labels are)."""
    bibliography.setup(None)  # type: ignore[arg-type]  (setup only registers with pybtex)
    style = find_plugin("pybtex.style.formatting", "posenc")()
    found = {}
    for path in sorted(DOCS.glob("*.bib")):
        entries = list(parse_file(path).entries.values())
        found.update(zip((entry.key for entry in entries), style.label_style.format_labels(entries), strict=True))
    return found


def test_teams_and_handles_get_three_letters_and_the_year(labels):
    assert labels["vllmrotary"] == "vLL26"  # was Thevteam26
    assert labels["towerofrecords2026encoding"] == "Tow26"  # was ToweroRecords26
    assert labels["baichuan225"] == "wzy23"  # was wzy81623: the handle's digits ran into the year
    assert labels["mlx3071"] == "vov26"
    assert labels["llama3herd2024"] == "Lla24"


def test_people_keep_alpha_labels(labels):
    assert labels["vaswani2017attention"] == "VSP+17" and labels["kazemnejad2019encoding"] == "Kaz19"
    assert labels["quesnelle2023yarncode"] == "QP23"


def test_the_site_uses_the_style():
    conf = (DOCS.parent / "conf.py").read_text()
    assert 'bibtex_default_style = "posenc"' in conf and '"posenc_docs.bibliography"' in conf
