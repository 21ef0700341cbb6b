"""alibi_slopes / alibi_key_bias against BLOOM's and MPT's ALiBi."""

import numpy as np
import pytest

from posenc_math import alibi_bias, alibi_key_bias, alibi_slopes


def powers(n_heads):
    """The exponent k of each slope in BLOOM's base ** k."""
    closest = 1 << (n_heads.bit_length() - 1)
    return np.r_[np.arange(1, closest + 1), np.arange(1, 2 * (n_heads - closest), 2)]


@pytest.mark.parametrize("n_heads", list(range(1, 130)))
def test_bloom_slopes(torch, n_heads):
    from transformers.models.bloom.modeling_bloom import _get_alibi_slopes

    reference = _get_alibi_slopes(n_heads, torch.device("cpu")).double().numpy()
    # BLOOM rounds the base 2^(-8/c) to float32 and raises it to the power
    # k in float32: a relative error up to about k * 2^-24
    assert np.all(np.abs(alibi_slopes(n_heads) / reference - 1) <= (powers(n_heads) + 1) * 2.0**-24)


@pytest.mark.parametrize("n_heads", [1, 3, 8, 12, 16, 20, 32, 40])
def test_bloom_key_bias(torch, n_heads):
    from transformers.models.bloom.modeling_bloom import build_alibi_tensor

    n = 17
    mask = torch.ones(1, n, dtype=torch.long)
    reference = build_alibi_tensor(mask, n_heads, torch.float64).numpy()  # (heads, 1, n)
    ratio = alibi_key_bias(n_heads, n)[:, :, 1:] / reference[:, :, 1:]
    assert np.all(np.abs(ratio - 1) <= (powers(n_heads)[:, None, None] + 1) * 2.0**-24)
    assert np.all(reference[:, :, 0] == 0)


@pytest.mark.parametrize("n_heads", [1, 2, 3, 5, 8, 12, 16, 24, 32, 48, 64])
def test_mpt_bias(torch, n_heads):
    from transformers.models.mpt.modeling_mpt import build_mpt_alibi_tensor

    n = 13
    reference = build_mpt_alibi_tensor(n_heads, n).double().numpy()  # (heads, 1, n): m (j - (n - 1))
    slopes = alibi_slopes(n_heads)
    assert np.allclose(-reference[:, 0, 0] / (n - 1), slopes, rtol=2e-7, atol=0)
    # MPT's key bias is ours shifted by the constant m (n - 1) per row; the
    # last query row (i = n - 1) is exactly our relative bias
    assert np.allclose(alibi_bias(n_heads, n)[:, n - 1], reference[:, 0], rtol=2e-7, atol=0)
