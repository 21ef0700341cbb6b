"""Published model configs that ship with the package, for examples and pages.

Trimmed copies of Hugging Face ``config.json`` files (the keys that bear on
positions, with their published values; the test suite checks each against
its fixture under ``tests/data/configs``, and the opt-in reference suite
checks the fixtures against transformers).  A notebook downloaded from the
site finds them here, wherever it runs.
"""

from __future__ import annotations

from importlib import resources
from pathlib import Path

from .._validate import check_choice

__all__ = ["published_config", "published_configs"]


def _folder() -> Path:
    return Path(str(resources.files("posenc_math") / "data" / "configs"))


def published_configs() -> dict[str, Path]:
    """Every shipped config: file name -> path, sorted by name.

    Examples
    --------
    >>> "gpt-oss-20b.json" in published_configs()
    True
    """
    return {path.name: path for path in sorted(_folder().glob("*.json"))}


def published_config(name: str) -> Path:
    """The path of the shipped config ``name`` (a file name such as ``"gemma-3-4b-it.json"``).

    Examples
    --------
    >>> published_config("gemma-3-4b-it.json").name
    'gemma-3-4b-it.json'
    """
    return published_configs()[check_choice("name", name, tuple(published_configs()))]
