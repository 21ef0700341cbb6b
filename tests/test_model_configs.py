"""posenc_math.encodings.model_configs: the shipped configs are the test fixtures, byte for byte.

The site's pages (and the notebooks readers download) read the shipped
copies; the reference suite checks the fixtures against transformers, so a
copy that drifted from its fixture would show numbers nothing checked.
"""

from pathlib import Path

import pytest

from posenc_math.encodings.model_configs import published_config, published_configs

FIXTURES = Path(__file__).resolve().parent / "data" / "configs"


def test_every_shipped_config_is_a_fixture():
    shipped = published_configs()
    assert len(shipped) >= 8
    for name, path in shipped.items():
        fixture = FIXTURES / name
        assert fixture.is_file(), f"{name} has no fixture in tests/data/configs"
        assert path.read_bytes() == fixture.read_bytes(), f"{name} differs from its fixture"


def test_an_unknown_name_is_refused():
    with pytest.raises(ValueError, match="name must be one of"):
        published_config("gpt-5.json")
