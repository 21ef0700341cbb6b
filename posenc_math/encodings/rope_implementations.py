"""The cos/sin that transformers, vLLM, llama.cpp and MLX compute, reproduced in numpy.

Each implementation forms RoPE's angles in float32, but not in the same
way, and reads the scaling rules with its own conventions.
:func:`implementation_cos_sin` reproduces, for a layer read from a model's
config (:func:`~posenc_math.rope_from_config`), the arithmetic of each one
as its source reads at the commit in :data:`SOURCES`: how it computes the
frequencies (float32 powers, an ``exp2`` of a logarithm, or repeated
multiplication), how it forms the angle, which scaling rule it applies for
which sequence length, and by what it multiplies cos and sin.
:func:`conformance_rows` measures each against the exact values.

Two things are not modelled: the last-bit behaviour of each platform's
``pow``, ``exp2``, ``cos`` and ``sin`` (numpy's float32 functions stand in
for them; MLX's Metal kernel calls ``metal::fast::cos``, whose own error
for large angles comes on top), and the rounding of cos/sin to the model's
format when it runs in float16 or bfloat16 (every implementation here does
that last; the numbers are for float32 models).
"""

from __future__ import annotations

import math
import posixpath
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .._validate import check_choice, check_int
from .._words import number_words
from .rope_config import RopeLayer, _thawed, load_config, rope_from_config

__all__ = [
    "CONFORMANCE_CASES",
    "IMPLEMENTATIONS",
    "SOURCES",
    "Source",
    "conformance_markdown",
    "conformance_rows",
    "implementation_cos_sin",
    "sample_positions",
    "sources_markdown",
    "unsupported",
]

#: The inference libraries whose RoPE code is reimplemented here, by the names :func:`implementation_cos_sin` takes.
IMPLEMENTATIONS = ("transformers", "vllm", "llama.cpp", "mlx")

F32 = np.float32


@dataclass(frozen=True)
class Source:
    """Where an implementation's RoPE arithmetic was read.

    Parameters
    ----------
    name : str
    repository : str
    files : tuple of (str, str)
        ``(path, commit)`` of each file read.
    layouts : str
        How it pairs features, and how a model chooses.
    angle : str
        How it forms the angle, in which format.
    """

    name: str
    repository: str
    files: tuple[tuple[str, str], ...]
    layouts: str
    angle: str


#: The files each reproduction follows, at the commits read.
SOURCES = {
    "transformers": Source(
        "transformers 5.24.0",
        "huggingface/transformers",
        (
            ("src/transformers/modeling_rope_utils.py", "v5.24.0"),
            ("src/transformers/models/llama/modeling_llama.py", "v5.24.0"),
        ),
        "each family's own: rotate_half (half) or interleaved pairs",
        "float32: positions times float32 frequencies (base ** (2i / d) in float32)",
    ),
    "vllm": Source(
        "vLLM",
        "vllm-project/vllm",
        (
            ("vllm/model_executor/layers/rotary_embedding/__init__.py", "926c71f6f25f8fe0a71ba4b168205e64bef24a36"),
            ("vllm/model_executor/layers/rotary_embedding/base.py", "072d10a084c2b89e63323c781eacd7d7e218ba2b"),
            (
                "vllm/model_executor/layers/rotary_embedding/linear_scaling_rope.py",
                "0f17ee061e413bf8ab7927f926f69cdff24dc63e",
            ),
            (
                "vllm/model_executor/layers/rotary_embedding/dynamic_ntk_scaling_rope.py",
                "3cfbaf333d800badc12fad1f138ab01178d35ab8",
            ),
            (
                "vllm/model_executor/layers/rotary_embedding/yarn_scaling_rope.py",
                "0cd5784803d83f81fac0794b82cb592d4317d4bf",
            ),
            ("vllm/model_executor/layers/rotary_embedding/common.py", "1593f0c1de61ba1e6efb9315ac8d0a3d2fe14cdd"),
            ("vllm/model_executor/layers/rotary_embedding/llama3_rope.py", "045d7575500e01e0f4a7ff84e039a9f7f7dc3bd0"),
            (
                "vllm/model_executor/layers/rotary_embedding/phi3_long_rope_scaled_rope.py",
                "17d618b0f944610b73e79e6726983fbe7679f613",
            ),
        ),
        "is_neox_style: half (True) or interleaved (False), per model",
        "float32 cache over every position up to the context, cast to the model's format",
    ),
    "llama.cpp": Source(
        "llama.cpp",
        "ggerganov/llama.cpp",
        (
            ("ggml/src/ggml-cpu/ggml-cpu.c", "c392e5094deaf2d1a7c18683214f007fad3fe42b"),
            ("ggml/src/ggml.c", "c392e5094deaf2d1a7c18683214f007fad3fe42b"),
            ("src/llama.cpp", "c392e5094deaf2d1a7c18683214f007fad3fe42b"),
            ("convert_hf_to_gguf.py", "c392e5094deaf2d1a7c18683214f007fad3fe42b"),
        ),
        "GGML_ROPE_TYPE_NEOX: half; otherwise interleaved, per architecture",
        "float32: theta = p, then theta *= base ** (-2 / d) once per pair",
    ),
    "mlx": Source(
        "MLX / mlx-lm",
        "ml-explore/mlx, ml-explore/mlx-lm",
        (
            ("mlx/backend/metal/kernels/rope.metal", "846d176227a0ac13d2667e58d2bb68b322109ab0"),
            ("mlx/backend/metal/rope.cpp", "846d176227a0ac13d2667e58d2bb68b322109ab0"),
            ("mlx_lm/models/rope_utils.py", "d78bf58e217c904ec282ed8da9b947491f78c022"),
        ),
        "traditional=True: interleaved; False: half, per model",
        "float32: (scale * p) * exp2(-(i / (d / 2)) * log2(base)), or 1 / freqs when given",
    ),
}


#: The rows of the site's conformance matrix, each label mapped to the name
#: of a shipped config (``model_configs.published_config``, a copy of a test
#: fixture) and a sequence length.
CONFORMANCE_CASES = {
    "default (Llama 2 7B)": ("llama-2-7b-hf.json", 4096),
    "linear (Vicuna 7B v1.5 16k)": ("vicuna-7b-v1.5-16k.json", 16384),
    "dynamic, sequence within the trained context (Llama 2 7B)": ("llama-2-7b-hf_dynamic-ntk.json", 4096),
    "dynamic, sequence twice the trained context (Llama 2 7B)": ("llama-2-7b-hf_dynamic-ntk.json", 8192),
    "yarn (Qwen2.5 7B)": ("qwen2.5-7b-instruct_yarn.json", 131072),
    "yarn with truncate: false (gpt-oss-20b)": ("gpt-oss-20b.json", 131072),
    "llama3 (Llama 3.1 8B)": ("llama-3.1-8b-instruct.json", 131072),
    "longrope, sequence within the original context (Phi-3.5 mini)": ("phi-3.5-mini-instruct.json", 4096),
    "longrope, sequence beyond it (Phi-3.5 mini)": ("phi-3.5-mini-instruct.json", 131072),
}


def sample_positions(length: int, count: int = 4096) -> np.ndarray:
    """Positions ``0 .. count - 1`` and ``count`` more spread geometrically up to ``length - 1``.

    Errors grow with the position, so the last ones matter most; this keeps
    a comparison over a long context cheap.

    Examples
    --------
    >>> positions = sample_positions(131072, count=8)
    >>> int(positions[0]), int(positions[-1]), len(positions) <= 16
    (0, 131071, True)
    """
    length = check_int("length", length, minimum=1)
    count = check_int("count", count, minimum=1)
    head = np.arange(min(count, length))
    if length <= count:
        return head
    tail = np.unique(np.geomspace(count, length - 1, count).astype(np.int64))
    return np.unique(np.concatenate([head, tail, [length - 1]]))


def _rule(layer: RopeLayer) -> tuple[str, dict, float, int]:
    if layer.kind != "rope" or layer.inv_freq is None:
        raise ValueError(f"layer {layer.layer} is a NoPE layer: no cos/sin to compare")
    if layer.mrope_section is not None:
        raise ValueError("M-RoPE layers are not reproduced here (their cos/sin per axis are 1-D RoPE's)")
    assert layer.rope_type is not None and layer.base is not None
    return layer.rope_type, _thawed(layer.scaling), float(layer.base), layer.frequency_dim


def unsupported(implementation: str, layer: RopeLayer) -> str | None:
    """Why ``implementation`` cannot compute ``layer``'s rule, or None when it can.

    Examples
    --------
    >>> unsupported("llama.cpp", rope_from_config({"model_type": "llama", "hidden_size": 64,
    ...     "num_attention_heads": 4, "rope_scaling": {"rope_type": "dynamic", "factor": 2.0}}))
    'no dynamic NTK: llama_rope_scaling_type has none, linear, yarn, longrope'
    """
    implementation = check_choice("implementation", implementation, IMPLEMENTATIONS)
    rope_type, _scaling, _base, _dim = _rule(layer)
    if rope_type == "proportional":
        return "proportional rope is not reproduced here"
    if implementation == "llama.cpp" and rope_type == "dynamic":
        return "no dynamic NTK: llama_rope_scaling_type has none, linear, yarn, longrope"
    return None


def _pow32(base: float, exponents: np.ndarray) -> np.ndarray:
    """``base ** exponents`` in float32, correctly rounded (as torch's and glibc's ``powf`` give it)."""
    return np.power(np.float64(F32(base)), exponents.astype(F32).astype(np.float64)).astype(F32)


def _pair_exponents(dim: int) -> np.ndarray:
    """``arange(0, dim, 2) / dim`` in float32."""
    return (np.arange(0, dim, 2).astype(F32) / F32(dim)).astype(F32)


def _default32(base: float, dim: int) -> np.ndarray:
    return (F32(1.0) / _pow32(base, _pair_exponents(dim))).astype(F32)


def _correction(rotations: float, dim: int, base: float, original: int) -> float:
    return dim * math.log(original / (rotations * 2 * math.pi)) / (2 * math.log(base))


def _yarn32(base: float, dim: int, scaling: dict, *, truncate: bool) -> np.ndarray:
    """transformers' and vLLM's YaRN frequencies, in float32."""
    factor = float(scaling["factor"])
    original = int(scaling["original_max_position_embeddings"])
    low = _correction(float(scaling.get("beta_fast", 32.0)), dim, base, original)
    high = _correction(float(scaling.get("beta_slow", 1.0)), dim, base, original)
    if truncate:
        low, high = math.floor(low), math.ceil(high)
    low, high = max(low, 0), min(high, dim - 1)
    if low == high:
        high += 0.001
    pos_freqs = _pow32(base, _pair_exponents(dim))
    extrapolation = (F32(1.0) / pos_freqs).astype(F32)
    interpolation = (F32(1.0) / (F32(factor) * pos_freqs)).astype(F32)
    ramp = np.clip((np.arange(dim // 2).astype(F32) - F32(low)) / F32(high - low), 0, 1).astype(F32)
    keep = (F32(1.0) - ramp).astype(F32)
    return (interpolation * (F32(1.0) - keep) + extrapolation * keep).astype(F32)


def _llama3_32(inv_freq: np.ndarray, scaling: dict, *, inclusive: bool) -> np.ndarray:
    factor = F32(scaling["factor"])
    low_ff, high_ff = float(scaling["low_freq_factor"]), float(scaling["high_freq_factor"])
    original = float(scaling["original_max_position_embeddings"])
    low_wavelength, high_wavelength = original / low_ff, original / high_ff
    wavelength = (F32(2 * math.pi) / inv_freq).astype(F32)
    smooth = ((F32(original) / wavelength - F32(low_ff)) / F32(high_ff - low_ff)).astype(F32)
    divided = (inv_freq / factor).astype(F32)
    blended = ((F32(1.0) - smooth) * inv_freq / factor + smooth * inv_freq).astype(F32)
    long = wavelength > F32(low_wavelength)
    short = wavelength < F32(high_wavelength)
    out = np.where(long, divided, inv_freq)
    medium = ~short & ~long if inclusive else (wavelength > F32(high_wavelength)) & ~long
    return np.where(medium, blended, out).astype(F32)


def _longrope32(base: float, dim: int, factors) -> np.ndarray:
    return (F32(1.0) / (np.asarray(factors, dtype=F32) * _pow32(base, _pair_exponents(dim)))).astype(F32)


def _cos_sin32(angles: np.ndarray, factor: float) -> tuple[np.ndarray, np.ndarray]:
    """cos/sin of float32 angles, rounded to float32, times the factor in float32."""
    cos = np.cos(angles.astype(np.float64)).astype(F32)
    sin = np.sin(angles.astype(np.float64)).astype(F32)
    if factor != 1.0:
        cos, sin = (cos * F32(factor)).astype(F32), (sin * F32(factor)).astype(F32)
    return cos.astype(np.float64), sin.astype(np.float64)


def _transformers(layer: RopeLayer, positions: np.ndarray, seq_len: int, context: int):
    rope_type, scaling, base, dim = _rule(layer)
    factor = 1.0
    if rope_type == "default":
        inv_freq = _default32(base, dim)
    elif rope_type == "linear":
        inv_freq = (_default32(base, dim) / F32(scaling["factor"])).astype(F32)
    elif rope_type == "dynamic":
        top = layer.max_position_embeddings or seq_len
        if seq_len > top:
            ratio = F32(F32(scaling["factor"]) * F32(seq_len) / F32(top)) - F32(float(scaling["factor"]) - 1.0)
            grown = F32(base) * np.power(ratio, F32(dim / (dim - 2)))
            inv_freq = (F32(1.0) / _pow32(float(grown), _pair_exponents(dim))).astype(F32)
        else:
            inv_freq = _default32(base, dim)
    elif rope_type == "yarn":
        inv_freq = _yarn32(base, dim, scaling, truncate=bool(scaling.get("truncate", True)))
        factor = layer.attention_factor
    elif rope_type == "llama3":
        inv_freq = _llama3_32(_default32(base, dim), scaling, inclusive=True)
    elif rope_type == "longrope":
        long = seq_len > int(scaling["original_max_position_embeddings"])
        inv_freq = _longrope32(base, dim, scaling["long_factor" if long else "short_factor"])
        factor = layer.attention_factor
    else:  # pragma: no cover - unsupported() refused it
        raise AssertionError(rope_type)
    angles = (positions.astype(F32)[:, None] * inv_freq[None, :]).astype(F32)
    return _cos_sin32(angles, factor)


def _vllm(layer: RopeLayer, positions: np.ndarray, seq_len: int, context: int):
    rope_type, scaling, base, dim = _rule(layer)
    factor = 1.0
    steps = positions.astype(F32)
    if rope_type in ("default", "dynamic"):
        # DynamicNTKScalingRotaryEmbedding: base * ((max_len / max) - (factor - 1)) ** ...
        # with max_len = max * factor, which is base * 1: one cache, the trained base
        inv_freq = _default32(base, dim)
    elif rope_type == "linear":
        inv_freq = _default32(base, dim)
        steps = (steps / F32(scaling["factor"])).astype(F32)  # t = t / scaling_factor
    elif rope_type == "yarn":
        inv_freq = _yarn32(base, dim, scaling, truncate=bool(scaling.get("truncate", True)))
        factor = layer.attention_factor
    elif rope_type == "llama3":
        inv_freq = _llama3_32(_default32(base, dim), scaling, inclusive=False)
    elif rope_type == "longrope":
        # use_long_rope = max_model_len > original_max_position_embeddings, whatever the sequence
        long = context > int(scaling["original_max_position_embeddings"])
        inv_freq = _longrope32(base, dim, scaling["long_factor" if long else "short_factor"])
        factor = layer.attention_factor
    else:  # pragma: no cover
        raise AssertionError(rope_type)
    angles = (steps[:, None] * inv_freq[None, :]).astype(F32)
    return _cos_sin32(angles, factor)


def _llama_cpp(layer: RopeLayer, positions: np.ndarray, seq_len: int, context: int):
    rope_type, scaling, base, dim = _rule(layer)
    freq_scale, ext_factor, attn_factor = F32(1.0), F32(0.0), F32(1.0)
    freq_factors: np.ndarray | None = None
    corr = (0.0, 0.0)
    if rope_type == "linear":
        freq_scale = F32(1.0 / float(scaling["factor"]))
    elif rope_type == "yarn":
        freq_scale = F32(1.0 / float(scaling["factor"]))
        ext_factor = F32(1.0)
        original = int(scaling["original_max_position_embeddings"])

        def corr_dim(rotations: float) -> np.float32:
            # ggml_rope_yarn_corr_dim, in float32 (logf)
            numerator = np.log(F32(original) / (F32(rotations) * F32(2) * F32(math.pi)), dtype=F32)
            return F32(F32(dim) * numerator / (F32(2) * np.log(F32(base), dtype=F32)))

        start = math.floor(corr_dim(float(scaling.get("beta_fast", 32.0))))  # floorf / ceilf, always
        end = math.ceil(corr_dim(float(scaling.get("beta_slow", 1.0))))
        corr = (float(max(0, start)), float(min(dim - 1, end)))
    elif rope_type == "llama3":
        # convert_hf_to_gguf.py: rope_freqs, one factor per pair, stored as float32
        freq_factors = _converter_llama3_factors(_default32(base, dim), scaling)
    elif rope_type == "longrope":
        # build_rope_factors: long factors when the context per sequence exceeds the original
        long = context > int(scaling["original_max_position_embeddings"])
        freq_factors = np.asarray(scaling["long_factor" if long else "short_factor"], dtype=F32)
        attn_factor = F32(layer.attention_factor)
    theta_scale = _pow32(base, np.array([F32(-2.0) / F32(dim)]))[0]
    theta = positions.astype(F32)
    mscale = attn_factor
    if ext_factor != 0:
        mscale = F32(mscale * F32(F32(1.0) + F32(0.1) * np.log(F32(1.0) / freq_scale, dtype=F32)))
    columns = []
    for pair in range(dim // 2):
        extrapolated = theta if freq_factors is None else (theta / freq_factors[pair]).astype(F32)
        interpolated = (freq_scale * extrapolated).astype(F32)
        if ext_factor != 0:
            y = F32((F32(pair) - F32(corr[0])) / max(F32(0.001), F32(corr[1]) - F32(corr[0])))
            mix = F32((F32(1) - min(F32(1), max(F32(0), y))) * ext_factor)
            columns.append((interpolated * (F32(1) - mix) + extrapolated * mix).astype(F32))
        else:
            columns.append(interpolated)
        theta = (theta * theta_scale).astype(F32)
    return _cos_sin32(np.stack(columns, axis=1), float(mscale))


def _converter_llama3_factors(default: np.ndarray, scaling: dict) -> np.ndarray:
    """convert_hf_to_gguf.py's rope_freqs for ``rope_type: llama3`` (float32 arithmetic per pair)."""
    factor = float(scaling["factor"])
    low_ff, high_ff = float(scaling["low_freq_factor"]), float(scaling["high_freq_factor"])
    original = float(scaling["original_max_position_embeddings"])
    low_wavelength, high_wavelength = original / low_ff, original / high_ff
    factors = []
    for freq in default:
        wavelength = F32(2 * math.pi) / freq
        if wavelength < high_wavelength:
            factors.append(1.0)
        elif wavelength > low_wavelength:
            factors.append(factor)
        else:
            smooth = F32((F32(original) / wavelength - F32(low_ff)) / F32(high_ff - low_ff))
            factors.append(float(F32(1) / ((F32(1) - smooth) / F32(factor) + smooth)))
    return np.asarray(factors, dtype=F32)


def _mlx(layer: RopeLayer, positions: np.ndarray, seq_len: int, context: int):
    rope_type, scaling, base, dim = _rule(layer)
    half = dim // 2
    scale, factor = F32(1.0), 1.0
    freqs: np.ndarray | None = None
    kernel_base = base
    if rope_type == "linear":
        scale = F32(1.0 / float(scaling["factor"]))  # nn.RoPE(scale=1 / factor) scales the positions
    elif rope_type == "dynamic":
        top = layer.max_position_embeddings or seq_len
        length = max(seq_len, top)
        grow = float(scaling["factor"])
        kernel_base = base * ((grow * length / top) - (grow - 1)) ** (dim / (dim - 2))
    elif rope_type == "yarn":
        mscale_value = float(scaling.get("mscale", 1.0))
        all_dim = float(scaling.get("mscale_all_dim", 0.0))
        stretch = float(scaling["factor"])

        def get_mscale(value: float) -> float:
            return 1.0 if stretch <= 1 else 0.1 * value * math.log(stretch) + 1.0

        factor = get_mscale(mscale_value) / get_mscale(all_dim)
        freq_extra = _pow32(base, _pair_exponents(dim))
        freq_inter = (F32(stretch) * freq_extra).astype(F32)
        original = int(scaling.get("original_max_position_embeddings", 4096))
        low = float(max(math.floor(_correction(float(scaling.get("beta_fast", 32.0)), dim, base, original)), 0))
        high = float(min(math.ceil(_correction(float(scaling.get("beta_slow", 1.0)), dim, base, original)), dim - 1))
        if low == high:
            high += 0.001
        ramp = np.clip((np.arange(half).astype(F32) - F32(low)) / F32(high - low), 0, 1).astype(F32)
        mask = (F32(1.0) - ramp).astype(F32)
        freqs = ((freq_inter * freq_extra) / (freq_inter * mask + freq_extra * (F32(1) - mask))).astype(F32)
    elif rope_type == "llama3":
        wavelengths_base = _pow32(base, _pair_exponents(dim))
        stretch32 = F32(scaling["factor"])
        low_ff, high_ff = float(scaling.get("low_freq_factor", 1.0)), float(scaling.get("high_freq_factor", 4.0))
        context_before = float(scaling.get("original_max_position_embeddings", 8192))
        wavelens = (F32(2 * math.pi) * wavelengths_base).astype(F32)
        long_wave = F32(context_before / low_ff)
        base_freqs = np.where(wavelens > long_wave, wavelengths_base * stretch32, wavelengths_base)
        medium = (wavelens > F32(context_before / high_ff)) & (wavelens < long_wave)
        smooth = ((F32(context_before) / wavelens - F32(low_ff)) / F32(high_ff - low_ff)).astype(F32)
        smooth_freqs = (base_freqs / ((F32(1) - smooth) / stretch32 + smooth)).astype(F32)
        freqs = np.where(medium, smooth_freqs, base_freqs).astype(F32)
    elif rope_type == "longrope":
        # SuScaledRoPE: the long factors at every length; x scaled by long_mscale or the default scale
        freqs = (np.asarray(scaling["long_factor"], dtype=F32) * _pow32(base, _pair_exponents(dim))).astype(F32)
        factor = layer.attention_factor
    if freqs is None:
        # rope_single: inv_freq = exp2(-d * log2(base)), d = i / (dims / 2), in float32
        steps = (np.arange(half).astype(F32) / F32(half)).astype(F32)
        inv_freq = np.exp2((-steps * F32(math.log2(kernel_base))).astype(F32)).astype(F32)
    else:
        inv_freq = (F32(1.0) / freqs).astype(F32)
    moved = (scale * positions.astype(F32)).astype(F32)
    angles = (moved[:, None] * inv_freq[None, :]).astype(F32)
    return _cos_sin32(angles, factor)


_COMPUTE = {"transformers": _transformers, "vllm": _vllm, "llama.cpp": _llama_cpp, "mlx": _mlx}


def implementation_cos_sin(
    layer: RopeLayer, positions, implementation: str, *, seq_len: int | None = None, context: int | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """The cos and sin ``implementation`` computes for ``layer`` at ``positions``.

    Parameters
    ----------
    layer : RopeLayer
        From :func:`~posenc_math.rope_from_config` (not M-RoPE, not NoPE).
    positions : array_like of int
        Shape ``(n,)``.
    implementation : {"transformers", "vllm", "llama.cpp", "mlx"}
    seq_len : int, optional
        The sequence length the rules that read it see (dynamic NTK,
        LongRoPE); default ``max(positions) + 1``.
    context : int, optional
        The context the server is configured for (vLLM's ``max_model_len``,
        llama.cpp's context per sequence), which vLLM and llama.cpp read to
        choose LongRoPE's factors; default the config's
        ``max_position_embeddings``.

    Returns
    -------
    cos, sin : numpy.ndarray
        float64 holding float32 values, shape ``(n, rotary_dim / 2)``: one
        column per pair.

    Raises
    ------
    ValueError
        The implementation has no such rule (:func:`unsupported` says why).

    Examples
    --------
    >>> layer = rope_from_config({"model_type": "llama", "hidden_size": 4096, "num_attention_heads": 32})
    >>> cos, _ = implementation_cos_sin(layer, [0, 1, 4095], "llama.cpp")
    >>> exact, _ = layer.cos_sin([0, 1, 4095])
    >>> bool(np.abs(cos - exact[:, :64]).max() < 1e-3)
    True
    """
    implementation = check_choice("implementation", implementation, IMPLEMENTATIONS)
    reason = unsupported(implementation, layer)
    if reason is not None:
        raise ValueError(f"{implementation} cannot compute layer {layer.layer}'s rope ({layer.rope_type}): {reason}")
    array = np.asarray(positions)
    if array.ndim != 1 or array.dtype.kind not in "iu" or (array.size and array.min() < 0):
        raise ValueError(f"positions must be a 1-D array of integers >= 0, got shape {array.shape} dtype {array.dtype}")
    if seq_len is None:
        seq_len = int(array.max(initial=0)) + 1
    seq_len = check_int("seq_len", seq_len, minimum=1)
    if context is None:
        context = layer.max_position_embeddings or seq_len
    context = check_int("context", context, minimum=1)
    return _COMPUTE[implementation](layer, array, seq_len, context)


def conformance_rows(cases: Mapping[str, tuple[Any, int]], *, count: int = 4096) -> list[dict[str, Any]]:
    """The worst ``|cos - exact|`` or ``|sin - exact|`` of each implementation, for each case.

    Parameters
    ----------
    cases : mapping
        Row label -> ``(config, length)``: the config's layer 0 at positions
        :func:`sample_positions` ``(length)``, a sequence of ``length``
        positions (so ``seq_len = length``); the context each server is
        configured for is the config's ``max_position_embeddings``.
    count : int, default 4096
        As for :func:`sample_positions`.

    Returns
    -------
    list of dict
        One per case: ``case``, ``rope_type``, ``length``, and per
        implementation its worst error (float) or the reason it has no such
        rule (str).
    """
    rows = []
    for label, (config, length) in cases.items():
        layer = rope_from_config(load_config(config))
        positions = sample_positions(length, count)
        exact_cos, exact_sin = layer.cos_sin(positions, seq_len=length)
        half = layer.rotary_dim // 2
        exact_cos, exact_sin = exact_cos[:, :half], exact_sin[:, :half]
        row: dict[str, Any] = {"case": label, "rope_type": layer.rope_type, "length": length}
        for implementation in IMPLEMENTATIONS:
            reason = unsupported(implementation, layer)
            if reason is not None:
                row[implementation] = reason
                continue
            cos, sin = implementation_cos_sin(layer, positions, implementation, seq_len=length)
            row[implementation] = float(max(np.abs(cos - exact_cos).max(), np.abs(sin - exact_sin).max()))
        rows.append(row)
    return rows


def conformance_markdown(rows: Sequence[Mapping[str, Any]]) -> str:
    """:func:`conformance_rows` as a Markdown table (errors to 2 digits as a reader writes them, 6 × 10⁻⁸ rather
    than 6e-08; "n/a" where a rule is missing).

    Examples
    --------
    >>> print(conformance_markdown([{"case": "x", "transformers": 1e-4, "vllm": 2e-4, "llama.cpp": "none",
    ...                              "mlx": 0.5}]).splitlines()[2])
    | x | 0.0001 | 0.0002 | n/a | 0.5 |
    """
    lines = ["| case | transformers | vLLM | llama.cpp | MLX |", "|---|---|---|---|---|"]
    for row in rows:
        cells = [number_words(row[name], 2) if isinstance(row[name], float) else "n/a" for name in IMPLEMENTATIONS]
        lines.append(f"| {row['case']} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def sources_markdown() -> str:
    """:data:`SOURCES` as a Markdown table: implementation, pairing, angle, files read at their commits.

    Examples
    --------
    >>> print(sources_markdown().splitlines()[0])
    | implementation | pairs | angle | read from |
    """
    lines = ["| implementation | pairs | angle | read from |", "|---|---|---|---|"]
    for source in SOURCES.values():
        lines.append(f"| {source.name} | {source.layouts} | {source.angle} | {_files_cell(source)} |")
    return "\n".join(lines)


def _files_cell(source: Source) -> str:
    """The files of ``source`` for a table cell: their shared folder once, each commit once when all share it.

    vLLM's eight files, each written out with its folder, made the table several screens tall on a
    phone (issue 24).

    Examples
    --------
    >>> source = Source("x", "owner/repo", (("a/b/c.py", "1" * 40), ("a/b/d.py", "2" * 40)), "", "")
    >>> _files_cell(source)
    'owner/repo, in `a/b/`:<br>`c.py` @ `111111111111`, `d.py` @ `222222222222`'
    >>> _files_cell(Source("x", "owner/repo", (("a/c.py", "v1"), ("b/d.py", "v1")), "", ""))
    'owner/repo @ `v1`:<br>`a/c.py`, `b/d.py`'
    """
    paths = [path for path, _ in source.files]
    folder = posixpath.commonpath(paths) if len(paths) > 1 else ""
    names = [path[len(folder) + 1 :] if folder else path for path in paths]
    commits = {commit for _, commit in source.files}
    where = source.repository + (f", in `{folder}/`" if folder else "")
    if len(commits) == 1:
        return f"{where} @ `{commits.pop()[:12]}`:<br>" + ", ".join(f"`{name}`" for name in names)
    return f"{where}:<br>" + ", ".join(
        f"`{name}` @ `{commit[:12]}`" for name, (_, commit) in zip(names, source.files, strict=True)
    )
