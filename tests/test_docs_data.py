"""docs/data/configs: the configs the pages read are the test fixtures, byte for byte.

The pages read their copies (a page should not reach into tests/); the
reference suite checks the fixtures against transformers, so a copy that
drifted from its fixture would show numbers nothing checked.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PAGE_CONFIGS = ROOT / "docs" / "data" / "configs"
FIXTURES = ROOT / "tests" / "data" / "configs"


def test_every_page_config_is_a_fixture():
    copies = sorted(PAGE_CONFIGS.glob("*.json"))
    assert len(copies) >= 8
    for copy in copies:
        fixture = FIXTURES / copy.name
        assert fixture.is_file(), f"{copy.name} has no fixture in tests/data/configs"
        assert copy.read_bytes() == fixture.read_bytes(), f"{copy.name} differs from its fixture"
