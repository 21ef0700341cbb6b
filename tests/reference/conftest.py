"""Opt-in comparison with the code people run (Hugging Face transformers, torch).

These tests call transformers' own functions on CPU, with no weights and no
network: T5's bucket function, Llama's rotary embedding and
``rotate_half``, GPT-J's and RoFormer's interleaved rotations,
``ROPE_INIT_FUNCTIONS``, BLOOM's and MPT's ALiBi.  They are not part of
``make test``: run them with

    pip install -e '.[reference]'
    POSENC_REFERENCE=1 python -m pytest tests/reference

Without ``POSENC_REFERENCE=1`` every test here is skipped (and torch is not
imported); with it, they are skipped only when torch or transformers is
missing, and the skip says so.
"""

import importlib.util
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
OPT_IN = (
    "opt-in comparison against transformers/torch; run "
    "`POSENC_REFERENCE=1 python -m pytest tests/reference`"
)


def _missing() -> list[str]:
    return [name for name in ("torch", "transformers") if importlib.util.find_spec(name) is None]


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "reference: compares with transformers/torch (opt-in, POSENC_REFERENCE=1)"
    )


def pytest_collection_modifyitems(config, items):
    enabled = os.environ.get("POSENC_REFERENCE") == "1"
    missing = _missing() if enabled else []
    for item in items:
        if HERE not in Path(str(item.fspath)).resolve().parents:
            continue
        item.add_marker(pytest.mark.reference)
        if not enabled:
            item.add_marker(pytest.mark.skip(reason=OPT_IN))
        elif missing:
            item.add_marker(
                pytest.mark.skip(
                    reason=f"needs {' and '.join(missing)}: pip install -e '.[reference]'"
                )
            )


@pytest.fixture(scope="session")
def torch():
    import torch

    torch.set_num_threads(1)
    return torch


@pytest.fixture(scope="session")
def transformers():
    import transformers

    return transformers
