"""CITATION.cff: valid-looking CFF 1.2.0 whose version is the package's."""

from pathlib import Path

import pytest

import posenc_math

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]


def test_citation_file_has_the_required_cff_keys_and_the_package_version():
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0"
    for key in ("message", "title", "authors"):
        assert citation[key], key
    assert all("name" in author or "family-names" in author for author in citation["authors"])
    assert str(citation["version"]) == posenc_math.__version__


def test_pyproject_version_is_the_package_version():
    import tomllib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    assert project["version"] == posenc_math.__version__


def test_one_bibliography_directive_on_the_references_page_and_no_filters():
    pages = sorted((ROOT / "docs").glob("*.md"))
    holders = [page.name for page in pages if "{bibliography}" in page.read_text(encoding="utf-8")]
    assert holders == ["references.md"]
    assert not [page.name for page in pages if ":filter:" in page.read_text(encoding="utf-8")]


def test_bibtex_keys_are_unique_across_bib_files():
    import re

    keys = []
    for bib in sorted((ROOT / "docs").glob("*.bib")):
        keys += re.findall(r"^@\w+\{([^,\s]+),", bib.read_text(encoding="utf-8"), flags=re.M)
    duplicates = sorted({key for key in keys if keys.count(key) > 1})
    assert not duplicates, f"keys defined in more than one .bib file: {duplicates}"
    assert len(keys) > 10
