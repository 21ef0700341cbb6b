"""Opt-in comparison with the code people run (Hugging Face transformers, torch).

These tests call transformers' own functions on CPU, with no weights and no
network: T5's bucket function, Llama's rotary embedding and
``rotate_half``, GPT-J's and RoFormer's interleaved rotations,
``ROPE_INIT_FUNCTIONS``, BLOOM's and MPT's ALiBi, the RoPE variants
(longrope with Phi-3's rotary embedding, proportional, partial rotary,
Qwen2-VL's M-RoPE, rotary-embedding-torch's axial RoPE and xPos), the rows of the
conventions table (Marian, M2M100, RoFormer, rotary-embedding-torch,
x-transformers), and rope_from_config on every model config under
tests/data/configs (each family's config class, rotary module and attention
modules, per layer).  They are not part of
``make test``: run them with

    pip install -e '.[reference]'
    POSENC_REFERENCE=1 python -m pytest tests/reference

Without ``POSENC_REFERENCE=1`` the comparison modules are not collected
(torch is not imported) and the one test of ``test_opt_in.py`` is skipped
with the command above as its reason; with it, every test is skipped when
torch or transformers is missing, and the skip says which.
"""

import importlib.util
import os
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ENABLED = os.environ.get("POSENC_REFERENCE") == "1"
# Not collected at all by default: `make test` neither imports torch nor
# lists two hundred skips.
collect_ignore_glob = [] if ENABLED else ["test_*_reference.py"]
OPT_IN = "opt-in comparison against transformers/torch; run `POSENC_REFERENCE=1 python -m pytest tests/reference`"


def _missing() -> list[str]:
    return [name for name in ("torch", "transformers") if importlib.util.find_spec(name) is None]


def pytest_configure(config):
    config.addinivalue_line("markers", "reference: compares with transformers/torch (opt-in, POSENC_REFERENCE=1)")


def pytest_collection_modifyitems(config, items):
    enabled = ENABLED
    missing = _missing() if enabled else []
    for item in items:
        if HERE not in Path(str(item.fspath)).resolve().parents:
            continue
        item.add_marker(pytest.mark.reference)
        if not enabled:
            item.add_marker(pytest.mark.skip(reason=OPT_IN))
        elif missing:
            item.add_marker(pytest.mark.skip(reason=f"needs {' and '.join(missing)}: pip install -e '.[reference]'"))


@pytest.fixture(scope="session")
def torch():
    import torch

    torch.set_num_threads(1)
    return torch


@pytest.fixture(scope="session")
def transformers():
    import transformers

    return transformers
