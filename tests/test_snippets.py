"""The copyable snippets the pages show (docs/snippets/) compute what the library computes.

Each page shows its snippets with ``literalinclude``, so the text a reader
copies is the file run here.  The snippets use numpy or PyTorch only; each
is run on its own (``runpy``) and compared with :mod:`posenc_math`.  The
PyTorch ones need torch (``make torch`` installs the CPU build from
requirements/torch-cpu.txt): without it they skip, except in CI, where they
fail.
"""

from __future__ import annotations

import os
import runpy
from pathlib import Path

import numpy as np
import pytest

import posenc_math as pm

SNIPPETS = Path(__file__).resolve().parents[1] / "docs" / "snippets"
SCHEMES = ("sinusoidal", "rope", "alibi", "t5_bucket", "learned")


def snippet(name: str) -> dict:
    """The names a snippet file defines, run on its own."""
    return runpy.run_path(str(SNIPPETS / f"{name}.py"))


@pytest.fixture(scope="module")
def torch():
    try:
        import torch
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("PyTorch is not installed: `make torch` installs requirements/torch-cpu.txt")
        pytest.skip("PyTorch is not installed (`make torch`)")
    return torch


def test_every_scheme_has_a_numpy_and_a_torch_snippet():
    files = sorted(path.name for path in SNIPPETS.glob("*.py"))
    assert files == sorted(f"{scheme}_{framework}.py" for scheme in SCHEMES for framework in ("numpy", "torch"))
    for path in SNIPPETS.glob("*.py"):
        assert "posenc_math" not in path.read_text(encoding="utf-8"), f"{path.name} must stand alone"


def test_snippets_are_shown_on_the_pages():
    shown = {
        line.split("snippets/")[1].strip()
        for page in SNIPPETS.parent.glob("*.md")
        for line in page.read_text(encoding="utf-8").splitlines()
        if line.startswith("```{literalinclude} snippets/")
    }
    assert shown == {path.name for path in SNIPPETS.glob("*.py")}


# --- numpy -------------------------------------------------------------------


@pytest.mark.parametrize("base", [10000.0, 500.0])
def test_sinusoidal_numpy(base):
    table = snippet("sinusoidal_numpy")["sinusoidal"](2048, 128, base=base)
    np.testing.assert_allclose(table, pm.sinusoidal(2048, 128, base=base), rtol=0, atol=1e-11)


def test_rope_numpy():
    code = snippet("rope_numpy")
    inv_freq = code["rope_inv_freq"](64, base=500000.0)
    np.testing.assert_allclose(inv_freq, pm.rope_frequencies(64, base=500000.0)[0], rtol=1e-15)
    positions = np.array([0, 1, 7, 100, 4095])
    cos, sin = code["rope_cos_sin"](positions, inv_freq)
    lib_cos, lib_sin = pm.rope_cos_sin(positions, inv_freq)
    np.testing.assert_allclose(cos, lib_cos, atol=1e-12)
    np.testing.assert_allclose(sin, lib_sin, atol=1e-12)
    x = np.random.default_rng(0).normal(size=(3, len(positions), 64))
    np.testing.assert_allclose(
        code["apply_rope"](x, cos, sin), pm.rope(x, positions, base=500000.0, layout="half"), atol=1e-12
    )


@pytest.mark.parametrize("n_heads", [1, 2, 3, 8, 12, 16, 20, 32, 40, 64])
def test_alibi_numpy(n_heads):
    code = snippet("alibi_numpy")
    np.testing.assert_allclose(code["alibi_slopes"](n_heads), pm.alibi_slopes(n_heads), rtol=1e-15)
    np.testing.assert_array_equal(code["alibi_bias"](n_heads, 9), pm.alibi_bias(n_heads, 9, causal=True))


T5_SETTINGS = [(True, 32, 128), (False, 32, 128), (True, 64, 256), (False, 8, 20), (True, 16, 1000)]


@pytest.mark.parametrize("bidirectional, num_buckets, max_distance", T5_SETTINGS)
def test_t5_bucket_numpy(bidirectional, num_buckets, max_distance):
    offsets = np.arange(-20000, 20001)
    buckets = snippet("t5_bucket_numpy")["t5_bucket"](
        offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    expected = pm.t5_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    np.testing.assert_array_equal(buckets, expected)


def test_learned_numpy_reads_the_rows_bert_adds():
    pretrained = pytest.importorskip("posenc_math.pretrained")
    code = snippet("learned_numpy")
    sentence = pretrained.embed_sentence("the dog bit the man")
    table = pretrained.position_embeddings()
    np.testing.assert_array_equal(code["position_vectors"](table, len(sentence.tokens)), sentence.position)
    np.testing.assert_array_equal(code["position_vectors"](table, 5), pm.embedding_lookup(table, np.arange(5)))
    with pytest.raises(ValueError, match="has 512 rows"):
        code["position_vectors"](table, 513)
    untrained = code["learned_table"](512, 384)
    assert untrained.shape == (512, 384) and abs(untrained.std() - 0.02) < 0.001


# --- PyTorch -----------------------------------------------------------------


def test_sinusoidal_torch(torch):
    sinusoidal = snippet("sinusoidal_torch")["sinusoidal"]
    exact = pm.sinusoidal(2048, 128)
    np.testing.assert_allclose(sinusoidal(2048, 128, dtype=torch.float64).numpy(), exact, rtol=0, atol=1e-11)
    single = sinusoidal(2048, 128)
    assert single.dtype == torch.float32
    np.testing.assert_array_equal(single.numpy(), pm.sinusoidal(2048, 128, dtype=np.float32))


def test_rope_torch(torch):
    code = snippet("rope_torch")
    inv_freq = code["rope_inv_freq"](64, base=500000.0)
    assert inv_freq.dtype == torch.float32
    np.testing.assert_allclose(inv_freq.numpy(), pm.rope_frequencies(64, base=500000.0)[0], rtol=1e-6)
    positions = np.array([0, 1, 7, 100, 2047])
    cos, sin = code["rope_cos_sin"](torch.from_numpy(positions), inv_freq)
    lib_cos, lib_sin = pm.rope_cos_sin(positions, pm.rope_frequencies(64, base=500000.0)[0])
    # angles in float32, as transformers computes them: off by at most a few roundings of p * w
    tolerance = 4 * positions.max() * 2.0**-24
    np.testing.assert_allclose(cos.numpy(), lib_cos, atol=tolerance)
    np.testing.assert_allclose(sin.numpy(), lib_sin, atol=tolerance)
    x = np.random.default_rng(0).normal(size=(3, len(positions), 64))
    turned = code["apply_rope"](torch.from_numpy(x), cos.double(), sin.double()).numpy()
    np.testing.assert_allclose(turned, pm.rope(x, positions, base=500000.0), atol=2 * tolerance * np.abs(x).max())
    # exactly the numpy snippet's rotation, given the same caches
    numpy_code = snippet("rope_numpy")
    np.testing.assert_allclose(
        turned, numpy_code["apply_rope"](x, cos.double().numpy(), sin.double().numpy()), rtol=0, atol=1e-15
    )


@pytest.mark.parametrize("n_heads", [1, 3, 8, 12, 20, 64])
def test_alibi_torch(torch, n_heads):
    code = snippet("alibi_torch")
    np.testing.assert_allclose(code["alibi_slopes"](n_heads).numpy(), pm.alibi_slopes(n_heads), rtol=1e-7)
    np.testing.assert_allclose(code["alibi_bias"](n_heads, 9).numpy(), pm.alibi_bias(n_heads, 9), rtol=1e-7)


@pytest.mark.parametrize("bidirectional, num_buckets, max_distance", T5_SETTINGS)
def test_t5_bucket_torch(torch, bidirectional, num_buckets, max_distance):
    offsets = np.arange(-20000, 20001)
    buckets = snippet("t5_bucket_torch")["t5_bucket"](
        torch.from_numpy(offsets), bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance
    )
    expected = pm.t5_bucket(offsets, bidirectional=bidirectional, num_buckets=num_buckets, max_distance=max_distance)
    np.testing.assert_array_equal(buckets.numpy(), expected)


def test_learned_torch_reads_the_rows_bert_adds(torch):
    pretrained = pytest.importorskip("posenc_math.pretrained")
    code = snippet("learned_torch")
    table = code["learned_table"](512, 384)
    with torch.no_grad():
        table.weight.copy_(torch.from_numpy(pretrained.position_embeddings()))
    sentence = pretrained.embed_sentence("the dog bit the man")
    with torch.no_grad():
        rows = code["position_vectors"](table, len(sentence.tokens)).numpy()
    np.testing.assert_array_equal(rows, sentence.position)
    with pytest.raises(IndexError):
        code["position_vectors"](table, 513)
