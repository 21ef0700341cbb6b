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


def test_zenodo_metadata_agrees_with_citation_cff_and_the_package():
    import json

    zenodo = json.loads((ROOT / ".zenodo.json").read_text(encoding="utf-8"))
    citation = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert zenodo["version"] == str(citation["version"]) == posenc_math.__version__
    assert zenodo["title"] == citation["title"]
    assert zenodo["license"] == citation["license"]
    assert [creator["name"] for creator in zenodo["creators"]] == [author["name"] for author in citation["authors"]]
    assert zenodo["upload_type"] == "software" and zenodo["description"]


def test_changelog_has_an_entry_for_the_current_version():
    import re

    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    versions = re.findall(r"^## \[([^\]]+)\]", changelog, flags=re.M)
    assert versions[0] == "Unreleased" or versions[0] == posenc_math.__version__, versions
    assert posenc_math.__version__ in versions, f"CHANGELOG.md has no section for {posenc_math.__version__}"
