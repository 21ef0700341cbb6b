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
