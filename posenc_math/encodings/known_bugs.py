"""Real, public bugs in RoPE and ALiBi implementations, each computed wrong and right.

Each entry of :data:`KNOWN_BUGS` is a bug reported in a public thread (its
URL in ``threads``): what the faulty code computed, reproduced with this
library, beside what it should have computed, at positions a model
reaches.  :func:`reproduce` runs one and returns a :class:`Reproduction`:
the worst difference between the wrong and the right values at each of a
few positions, and the numbers the thread quotes, recomputed.

The wrong computations are built from ``rope_mistakes`` where a known
mistake matches (``yarn_truncation``, ``mrope_section_layout``,
``partial_rotary_exponent``) and from the two functions here that have no
place elsewhere: :func:`cos_sin_in_dtype` (a cache formed entirely in a low
precision format) and :func:`alibi_slopes_geometric` (ALiBi's slopes as
one geometric sequence for any number of heads).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validate import check_choice, check_int
from .._words import number_words
from .alibi import alibi_slopes
from .model_configs import published_config
from .rope_config import load_config, rope_from_config
from .rope_mistakes import mistaken_cos_sin
from .rope_scaling import rope_frequencies
from .rope_variants import mrope_positions

__all__ = [
    "KNOWN_BUGS",
    "KnownBug",
    "Reproduction",
    "alibi_slopes_geometric",
    "cos_sin_in_dtype",
    "known_bug",
    "reproduce",
]

Config = Mapping[str, Any] | str | os.PathLike[str]


@dataclass(frozen=True)
class KnownBug:
    """A bug reported in public.

    Parameters
    ----------
    name : str
        Stable identifier.
    title : str
    project : str
        Where it was found.
    threads : tuple of str
        The public issue or pull request threads (URLs).
    mistake : str or None
        The :data:`~posenc_math.encodings.rope_mistakes.MISTAKES` entry it
        commits, if one matches.
    config : str or None
        The file name of the model config the reproduction reads (one of
        :func:`~posenc_math.encodings.model_configs.published_configs`), if
        it reads one.
    """

    name: str
    title: str
    project: str
    threads: tuple[str, ...]
    mistake: str | None = None
    config: str | None = None


#: The bugs :func:`reproduce` computes.
KNOWN_BUGS = (
    KnownBug(
        "low_precision_cache",
        "cos/sin cache formed in float16",
        "EleutherAI gpt-neox; Hugging Face transformers (Llama)",
        (
            "https://github.com/EleutherAI/gpt-neox/issues/1003",
            "https://github.com/huggingface/transformers/issues/25681",
        ),
        None,
        "llama-2-7b-hf.json",
    ),
    KnownBug(
        "yarn_truncation",
        "YaRN's ramp rounded where gpt-oss says truncate: false",
        "vLLM",
        (
            "https://github.com/vllm-project/vllm/issues/27722",
            "https://github.com/vllm-project/vllm/pull/28244",
        ),
        "yarn_truncation",
        "gpt-oss-20b.json",
    ),
    KnownBug(
        "longrope_stale_cache",
        "LongRoPE's switch with keys already cached",
        "Hugging Face transformers (Phi-3)",
        ("https://github.com/huggingface/transformers/pull/33129",),
        "longrope_switch",
        "phi-3.5-mini-instruct.json",
    ),
    KnownBug(
        "dynamic_ntk_stale_base",
        "dynamic NTK's base kept after a long sequence",
        "Hugging Face transformers (Llama)",
        (
            "https://github.com/huggingface/transformers/issues/25306",
            "https://github.com/huggingface/transformers/issues/25104",
        ),
        None,
        "llama-2-7b-hf_dynamic-ntk.json",
    ),
    KnownBug(
        "alibi_geometric_slopes",
        "ALiBi slopes for a head count that is not a power of two",
        "MLX",
        (
            "https://github.com/ml-explore/mlx/issues/343",
            "https://github.com/ml-explore/mlx/pull/3071",
        ),
    ),
    KnownBug(
        "mrope_blocked_for_interleaved",
        "Qwen3-VL's M-RoPE sections laid out as Qwen2.5-VL's",
        "MNN",
        ("https://github.com/alibaba/MNN/pull/4133",),
        "mrope_section_layout",
        "qwen3-vl-8b-instruct.json",
    ),
    KnownBug(
        "partial_rotary_head_exponent",
        "partial rotary with the head's frequencies",
        "pie",
        ("https://github.com/pie-project/pie/pull/603",),
        "partial_rotary_exponent",
        "phi-2.json",
    ),
)

_BY_NAME = {bug.name: bug for bug in KNOWN_BUGS}


@dataclass(frozen=True)
class Reproduction:
    """The result of :func:`reproduce`.

    Parameters
    ----------
    bug : KnownBug
    quantity : str
        What is compared (``"cos and sin"``, ``"ALiBi bias"``).
    where : tuple of str
        A label for each place compared (``"position 4096"``).
    error : numpy.ndarray
        The largest ``|wrong - right|`` at each place.
    facts : dict
        Numbers the page quotes, recomputed (the thread's own numbers among
        them), by name.
    """

    bug: KnownBug
    quantity: str
    where: tuple[str, ...]
    error: np.ndarray
    facts: dict[str, Any] = field(default_factory=dict)

    def markdown(self) -> str:
        """The errors as a two-column Markdown table.

        Examples
        --------
        >>> print("\\n".join(reproduce("alibi_geometric_slopes").markdown().splitlines()[:3]))
        | where | largest error in the ALiBi bias |
        |---|---|
        | distance 1 | 0.907 |
        """
        lines = [f"| where | largest error in the {self.quantity} |", "|---|---|"]
        pairs = zip(self.where, self.error, strict=True)
        lines += [f"| {where} | {number_words(error, 3)} |" for where, error in pairs]
        return "\n".join(lines)


def known_bug(name: str) -> KnownBug:
    """The :class:`KnownBug` called ``name``."""
    return _BY_NAME[check_choice("name", name, tuple(_BY_NAME))]


def cos_sin_in_dtype(positions, inv_freq, dtype: str = "float16") -> tuple[np.ndarray, np.ndarray]:
    """cos/sin caches formed entirely in ``dtype``, as code does when its buffers follow the model's format.

    The positions and the frequencies are rounded to ``dtype``, their product
    is rounded to ``dtype`` (the angle), and the cosine and sine of that
    angle are rounded to ``dtype`` again: the computation of a rotary module
    whose ``inv_freq`` buffer and position range were cast with the model to
    float16 or bfloat16.

    Parameters
    ----------
    positions : array_like of int
        Shape ``(n,)``.
    inv_freq : array_like
        Shape ``(m,)``.
    dtype : {"float16", "bfloat16", "float32"}

    Returns
    -------
    cos, sin : numpy.ndarray
        float64 holding the rounded values, shape ``(n, m)`` (one column per pair).

    Examples
    --------
    >>> inv_freq = 10000.0 ** (-np.arange(0, 32, 2) / 32)
    >>> cos, _ = cos_sin_in_dtype(np.arange(2048), inv_freq, "float16")
    >>> round(float(np.abs(cos - np.cos(np.arange(2048)[:, None] * inv_freq)).max()), 4)
    0.7819
    """
    dtype = check_choice("dtype", dtype, ("float16", "bfloat16", "float32"))
    if dtype == "bfloat16":
        import ml_dtypes

        kind: Any = ml_dtypes.bfloat16
    else:
        kind = np.dtype(dtype)
    rows = np.asarray(positions)
    if rows.ndim != 1 or rows.dtype.kind not in "iu":
        raise ValueError(f"positions must be a 1-D array of integers, got shape {rows.shape} dtype {rows.dtype}")
    frequencies = np.asarray(inv_freq, dtype=np.float64)
    if frequencies.ndim != 1:
        raise ValueError(f"inv_freq must be 1-D, got shape {frequencies.shape}")
    # the exact product of two rounded numbers, rounded once (an IEEE multiplication)
    product = rows.astype(kind).astype(np.float64)[:, None] * frequencies.astype(kind).astype(np.float64)[None, :]
    angles = product.astype(kind).astype(np.float64)
    return np.cos(angles).astype(kind).astype(np.float64), np.sin(angles).astype(kind).astype(np.float64)


def alibi_slopes_geometric(n_heads: int) -> np.ndarray:
    """ALiBi slopes as one geometric sequence ``2 ** (-8 h / n)``, ``h = 1 .. n``, for any ``n``.

    What the paper's sentence gives for any head count, and what MLX's ALiBi
    computed (``(2 ** 8) ** (-h / n)``) before its fix.  For a power of two it
    equals :func:`~posenc_math.alibi_slopes`; for other counts the reference
    code (and so every model trained with it) interleaves two sequences
    instead.

    Parameters
    ----------
    n_heads : int
        >= 1.

    Returns
    -------
    numpy.ndarray
        float64, shape ``(n_heads,)``.

    Examples
    --------
    >>> bool(np.array_equal(alibi_slopes_geometric(8), alibi_slopes(8)))
    True
    >>> bool(np.array_equal(alibi_slopes_geometric(12), alibi_slopes(12)))
    False
    """
    n_heads = check_int("n_heads", n_heads, minimum=1)
    return 2.0 ** (-8.0 * np.arange(1, n_heads + 1) / n_heads)


def _worst_by_row(wrong: tuple[np.ndarray, np.ndarray], right: tuple[np.ndarray, np.ndarray]) -> np.ndarray:
    return np.maximum(np.abs(wrong[0] - right[0]).max(axis=1), np.abs(wrong[1] - right[1]).max(axis=1))


def _labels(positions) -> tuple[str, ...]:
    return tuple(f"position {int(p):,}" for p in positions)


def _low_precision_cache(config: dict) -> Reproduction:
    # gpt-neox issue 1003's reproducer: a 32-wide head, base 10000, 2048 positions, float16;
    # the angle it quotes is pair 1's at position 1857
    head_dim, base, n_positions, position, pair = 32, 10000.0, 2048, 1857, 1
    inv_freq32 = (
        1.0 / (np.float32(base) ** (np.arange(0, head_dim, 2, dtype=np.float32) / np.float32(head_dim)))
    ).astype(np.float32)
    positions = np.arange(n_positions)
    angle32 = np.float32(position) * inv_freq32[pair]
    angle16 = np.float16(np.float16(position) * np.float16(inv_freq32[pair]))
    cos16, _ = cos_sin_in_dtype(positions, inv_freq32, "float16")
    cos32 = np.cos((positions.astype(np.float32)[:, None] * inv_freq32[None, :]).astype(np.float32))
    layer = rope_from_config(config)
    assert layer.inv_freq is not None
    where = np.array([256, 1024, 2048, 4095])
    half = layer.rotary_dim // 2
    exact = layer.cos_sin(where)
    wrong = cos_sin_in_dtype(where, layer.inv_freq, "bfloat16")
    error = _worst_by_row(wrong, (exact[0][:, :half], exact[1][:, :half]))
    return Reproduction(
        known_bug("low_precision_cache"),
        "cos and sin",
        _labels(where),
        error,
        {
            "thread head_dim": head_dim,
            "thread base": base,
            "thread positions": n_positions,
            "thread position": position,
            "thread pair": pair,
            "thread angle float32": float(angle32),
            "thread angle float16": float(angle16),
            "thread worst cos difference": float(np.abs(cos16 - cos32).max()),
            "head_dim": layer.rotary_dim,
            "base": layer.base,
        },
    )


def _yarn_truncation(config: dict) -> Reproduction:
    layer = rope_from_config(config)
    scaling = dict(layer.scaling)
    dim, base = layer.frequency_dim, float(layer.base or 0.0)
    original = int(scaling["original_max_position_embeddings"])

    def correction(rotations: float) -> float:
        return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))

    where = np.array([1000, 4096, 32768, 131071])
    right = layer.cos_sin(where)
    wrong = mistaken_cos_sin(config, where)["yarn_truncation"]
    truncated = dict(scaling, truncate=True)
    inv_truncated, _ = rope_frequencies(dim, base=base, scaling=truncated)
    assert layer.inv_freq is not None
    return Reproduction(
        known_bug("yarn_truncation"),
        "cos and sin",
        _labels(where),
        _worst_by_row(wrong, right),
        {
            "low": correction(float(scaling.get("beta_fast", 32.0))),
            "high": correction(float(scaling.get("beta_slow", 1.0))),
            "pairs moved": int(np.sum(~np.isclose(inv_truncated, layer.inv_freq, rtol=1e-12))),
            "pairs": int(layer.inv_freq.shape[0]),
        },
    )


def _longrope_stale_cache(config: dict) -> Reproduction:
    layer = rope_from_config(config)
    original = layer.original_max_position_embeddings
    assert original is not None
    where = np.array([100, 1000, 2048, original - 1])
    cached = layer.cos_sin(where, seq_len=original)  # keys rotated while the sequence fitted: short factors
    wanted = layer.cos_sin(where, seq_len=original + 1)  # what the long factors give them
    return Reproduction(
        known_bug("longrope_stale_cache"),
        "cos and sin of a cached key",
        _labels(where),
        _worst_by_row(cached, wanted),
        {"original": original, "switch": original + 1},
    )


def _dynamic_ntk_stale_base(config: dict) -> Reproduction:
    layer = rope_from_config(config)
    trained = layer.max_position_embeddings
    assert trained is not None and layer.inv_freq is not None
    long_length = 4 * trained
    where = np.array([10, 100, 1000, trained - 1])
    stale = layer.cos_sin(where, seq_len=long_length)  # frequencies kept from the long sequence
    fresh = layer.cos_sin(where, seq_len=trained)  # a prompt that fits: the trained base
    stale_inv, _ = layer.frequencies(seq_len=long_length)
    return Reproduction(
        known_bug("dynamic_ntk_stale_base"),
        "cos and sin",
        _labels(where),
        _worst_by_row(stale, fresh),
        {
            "trained": trained,
            "long length": long_length,
            "slowest wavelength trained": float(2 * np.pi / layer.inv_freq[-1]),
            "slowest wavelength stale": float(2 * np.pi / stale_inv[-1]),
        },
    )


def _alibi_geometric_slopes(config: dict | None, n_heads: int = 40) -> Reproduction:
    right = alibi_slopes(n_heads)
    wrong = alibi_slopes_geometric(n_heads)
    distances = np.array([1, 128, 1024, 4096])
    worst = float(np.abs(wrong - right).max())
    return Reproduction(
        known_bug("alibi_geometric_slopes"),
        "ALiBi bias",
        tuple(f"distance {int(d):,}" for d in distances),
        worst * distances.astype(np.float64),
        {
            "heads": n_heads,
            "heads with another slope": int(np.sum(~np.isclose(wrong, right, rtol=1e-15))),
            "worst slope difference": worst,
            "power-of-two heads equal": bool(
                all(np.array_equal(alibi_slopes(2**k), alibi_slopes_geometric(2**k)) for k in range(8))
            ),
        },
    )


def _mrope_blocked(config: dict) -> Reproduction:
    # a text run, one 32 x 32 image (after the spatial merge), a text run
    segments: list[int | tuple[int, int, int]] = [64, (1, 32, 32), 64]
    positions = mrope_positions(segments)
    right = rope_from_config(config).cos_sin(positions)
    wrong = mistaken_cos_sin(config, positions)["mrope_section_layout"]
    per_token = _worst_by_row(wrong, right)
    image = (positions[0] != positions[1]) | (positions[1] != positions[2])
    return Reproduction(
        known_bug("mrope_blocked_for_interleaved"),
        "cos and sin",
        ("text tokens", "image tokens"),
        np.array([per_token[~image].max(), per_token[image].max()]),
        {"text tokens": int(np.sum(~image)), "image tokens": int(np.sum(image))},
    )


def _partial_exponent(config: dict) -> Reproduction:
    layer = rope_from_config(config)
    top = layer.max_position_embeddings or 2048
    where = np.array([1, 2, 5, top - 1])
    right = layer.cos_sin(where)
    wrong = mistaken_cos_sin(config, where)["partial_rotary_exponent"]
    return Reproduction(
        known_bug("partial_rotary_head_exponent"),
        "cos and sin",
        _labels(where),
        _worst_by_row(wrong, right),
        {"rotary_dim": layer.rotary_dim, "head_dim": layer.head_dim},
    )


_REPRODUCE: dict[str, Callable[..., Reproduction]] = {
    "low_precision_cache": _low_precision_cache,
    "yarn_truncation": _yarn_truncation,
    "longrope_stale_cache": _longrope_stale_cache,
    "dynamic_ntk_stale_base": _dynamic_ntk_stale_base,
    "alibi_geometric_slopes": _alibi_geometric_slopes,
    "mrope_blocked_for_interleaved": _mrope_blocked,
    "partial_rotary_head_exponent": _partial_exponent,
}


def reproduce(name: str, config: Config | None = None) -> Reproduction:
    """Compute a known bug wrong and right, at positions a model reaches.

    Parameters
    ----------
    name : str
        One of :data:`KNOWN_BUGS`' names.
    config : dict or str or os.PathLike, optional
        The model config to reproduce it on (any config of a model the bug
        applies to); default the shipped config named by ``KnownBug.config``.

    Returns
    -------
    Reproduction

    Examples
    --------
    >>> result = reproduce("alibi_geometric_slopes")
    >>> result.facts["heads"], result.facts["power-of-two heads equal"]
    (40, True)
    """
    bug = known_bug(name)
    if bug.config is None:
        return _REPRODUCE[name](None)
    return _REPRODUCE[name](load_config(published_config(bug.config) if config is None else config))
