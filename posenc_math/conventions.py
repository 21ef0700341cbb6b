"""The position conventions of well-known codebases, as data and as code.

Each :class:`Convention` records what one codebase does, read from its
source: the formula, the denominator of the frequency exponent, the layout
of the pairs, the number formats of the computation, how positions are
assigned (offsets, padding) and what an odd width does.  The same record
carries the parameters that let this library compute under that
convention:

* :func:`convention_table` builds the absolute sinusoidal table of a
  codebase (tensor2tensor, fairseq, the PyTorch tutorial, the Annotated
  Transformer, Hugging Face Marian and M2M100), odd widths included;
* :func:`convention_rotate` applies the rotary embedding of a codebase
  (Hugging Face Llama, GPT-J and RoFormer, rotary-embedding-torch,
  x-transformers), partial rotation included;
* :func:`convention_position_ids` gives the position each token gets,
  with left padding and a cache of earlier tokens;
* :func:`convention_bias` gives the attention bias of the relative schemes
  (T5's buckets, BLOOM's and MPT's ALiBi).

Tables and rotations are computed in float64 with accurate angles: they
are what the codebase's formula means, not what its float32 arithmetic
rounds it to.  The number formats are in the fields ``position_dtype``,
``frequency_dtype`` and ``angle_dtype``;
:func:`posenc_math.precision.computed_angles` evaluates a formula in those
formats.

Sources were read at the commits and releases named in each record's
``source``; the tests re-implement each formula from that source and
compare.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._validate import (
    MAX_POSITION,
    as_array,
    check_base,
    check_choice,
    check_int,
    check_memory,
    check_real_array,
    check_table_fits,
)
from .encodings._phase import FREQUENCY_BYTES, exact_frequencies, reduced_angles
from .encodings.alibi import alibi_slopes
from .encodings.relative import t5_bucket
from .encodings.rope import rope

__all__ = [
    "CONVENTIONS",
    "Convention",
    "convention",
    "convention_bias",
    "convention_details",
    "convention_frequencies",
    "convention_names",
    "convention_position_ids",
    "convention_rotate",
    "convention_table",
    "conventions_overview",
]

#: What a convention does with its positions.
KINDS = ("absolute", "rotary", "relative bias", "linear bias")


@dataclass(frozen=True)
class Convention:
    """One codebase's position convention.

    The text fields (``formula`` to ``odd_dim``) are what the conventions
    page shows; the others parametrise the functions of this module.

    Attributes
    ----------
    name : str
        Short key, e.g. ``"fairseq"``.
    codebase : str
        The codebase and the function or class read.
    kind : str
        ``"absolute"`` (a table added to the embeddings), ``"rotary"``,
        ``"relative bias"`` (T5) or ``"linear bias"`` (ALiBi).
    formula, denominator, layout, dtype, positions, odd_dim : str
        What the code computes, in words and inline math.
    source : str
        Repository, path and commit or release that was read.
    cite : tuple of str
        Bibliography keys.
    spacing : str or None
        ``"paper"`` or ``"tensor2tensor"``: exponent denominator ``d / 2`` (paper) or ``d // 2 - 1``.
    pair_layout : str or None
        ``"split"``/``"interleaved"`` for tables, ``"half"``/``"interleaved"``
        for rotations.
    odd_rule : str or None
        ``"pad"`` (zero column), ``"extra-sine"`` (Marian), ``"error"``,
        ``"round-up"`` (x-transformers rotates ``d + 1`` coordinates).
    base : float
        Default base (``rope_theta``).
    position_dtype, frequency_dtype, angle_dtype : str
        Number formats of the positions, the frequencies and the product
        ``p w`` as the code computes them by default.
    padding_idx : int or None
        fairseq's padding index (1 in fairseq's dictionaries and M2M100).
    position_rule : str
        How positions are assigned (see :func:`convention_position_ids`).
    """

    name: str
    codebase: str
    kind: str
    formula: str
    denominator: str
    layout: str
    dtype: str
    positions: str
    odd_dim: str
    source: str
    cite: tuple[str, ...]
    spacing: str | None = None
    pair_layout: str | None = None
    odd_rule: str | None = None
    base: float = 10000.0
    position_dtype: str = "float32"
    frequency_dtype: str = "float32"
    angle_dtype: str = "float32"
    padding_idx: int | None = None
    position_rule: str = "arange"


_HF = "huggingface/transformers 5.23.0 (PyPI), src/transformers/models/"

#: The fourteen conventions, in the order of the conventions page.
CONVENTIONS: tuple[Convention, ...] = (
    Convention(
        name="tensor2tensor",
        codebase="tensor2tensor, get_timing_signal_1d",
        kind="absolute",
        formula=r"$[\sin p\omega_i \mid \cos p\omega_i]$, "
        r"$\omega_i = \tau_{\min}\, e^{-i \ln(\tau_{\max}/\tau_{\min})/(m-1)}$, "
        r"i.e. $10000^{-i/(m-1)}$",
        denominator=r"$m - 1$, $m = \lfloor d/2 \rfloor$ (later versions: $\max(m - 1, 1)$)",
        layout="split: all sines, then all cosines",
        dtype="float32 throughout (tf.to_float positions, float32 exp, product, sin and cos)",
        positions="0, 1, ..., n - 1; later versions add start_index; padding gets positions like any token",
        odd_dim="a zero column is appended (tf.pad by channels mod 2)",
        source="tensorflow/tensor2tensor, tensor2tensor/layers/common_attention.py at 75b75f2e",
        cite=("vaswani2018tensor2tensor",),
        spacing="tensor2tensor",
        pair_layout="split",
        odd_rule="pad",
        position_rule="arange",
    ),
    Convention(
        name="fairseq",
        codebase="fairseq, SinusoidalPositionalEmbedding.get_embedding",
        kind="absolute",
        formula=r"$[\sin p\omega_i \mid \cos p\omega_i]$, $\omega_i = e^{-i \ln 10000/(m-1)}$",
        denominator=r"$m - 1$, $m = \lfloor d/2 \rfloor$ ($d = 2$ divides by zero)",
        layout="split: all sines, then all cosines",
        dtype="float32 (torch.float positions, frequencies and angles)",
        positions="non-padding tokens count from padding_idx + 1 (cumulative sum of the mask, so left padding "
        "is skipped); padding tokens get padding_idx, whose row is zero",
        odd_dim="a zero column is appended",
        source="facebookresearch/fairseq, fairseq/modules/sinusoidal_positional_embedding.py and "
        "fairseq/utils.py (make_positions) at 0491f269",
        cite=("ott2019fairseq",),
        spacing="tensor2tensor",
        pair_layout="split",
        odd_rule="pad",
        padding_idx=1,
        position_rule="cumsum-from-padding",
    ),
    Convention(
        name="pytorch-tutorial",
        codebase="PyTorch tutorial, PositionalEncoding",
        kind="absolute",
        formula=r"$\sin p\omega_i$ in column $2i$, $\cos p\omega_i$ in $2i + 1$, $\omega_i = e^{-2i \ln 10000/d}$",
        denominator=r"$d$ (exponent $2i/d$, the paper's)",
        layout="interleaved: sin, cos, sin, cos, ...",
        dtype="float32 (int64 positions times float32 div_term)",
        positions="0, 1, ..., n - 1 of each chunk (sequence-first tensors); no offset argument",
        odd_dim="error: the cosine columns are one fewer than the frequencies (RuntimeError)",
        source="pytorch/tutorials, beginner_source/transformer_tutorial.py at 00109f5a",
        cite=("pytorch_transformer_tutorial",),
        spacing="paper",
        pair_layout="interleaved",
        odd_rule="error",
        position_rule="arange-no-offset",
    ),
    Convention(
        name="annotated-transformer",
        codebase="The Annotated Transformer, PositionalEncoding",
        kind="absolute",
        formula=r"$\sin p\omega_i$ in column $2i$, $\cos p\omega_i$ in $2i + 1$, $\omega_i = e^{-2i \ln 10000/d}$",
        denominator=r"$d$ (exponent $2i/d$, the paper's)",
        layout="interleaved: sin, cos, sin, cos, ...",
        dtype="float32 (int64 positions times float32 div_term)",
        positions="0, 1, ..., n - 1 (table of 5000 rows, sliced); greedy decoding re-encodes the whole prefix",
        odd_dim="error: the cosine columns are one fewer than the frequencies (RuntimeError)",
        source="harvardnlp/annotated-transformer, the_annotated_transformer.py at 0a91a254",
        cite=("rush2018annotated",),
        spacing="paper",
        pair_layout="interleaved",
        odd_rule="error",
        position_rule="arange-no-offset",
    ),
    Convention(
        name="hf-marian",
        codebase="Hugging Face Marian, MarianSinusoidalPositionalEmbedding",
        kind="absolute",
        formula=r"$[\sin p\omega_i \mid \cos p\omega_i]$, angle $p / 10000^{2\lfloor j/2 \rfloor / d}$ for column $j$",
        denominator=r"$d$ (exponent $2\lfloor j/2 \rfloor / d$, the paper's)",
        layout="split: sines in the first half, cosines in the second",
        dtype="float64 (numpy angles, sine and cosine), stored as a float32 table",
        positions="past_key_values_length + 0, 1, ..., n - 1; padding counted (position_ids may be passed)",
        odd_dim=r"no padding: the first $(d + 1)/2$ columns are sines, the last $(d - 1)/2$ cosines, "
        r"so the last sine has no cosine",
        source=_HF + "marian/modeling_marian.py",
        cite=("wolf2020transformers",),
        spacing="paper",
        pair_layout="split",
        odd_rule="extra-sine",
        position_dtype="float64",
        frequency_dtype="float64",
        angle_dtype="float64",
        position_rule="arange-offset",
    ),
    Convention(
        name="hf-m2m100",
        codebase="Hugging Face M2M100, M2M100SinusoidalPositionalEmbedding",
        kind="absolute",
        formula=r"fairseq's: $[\sin p\omega_i \mid \cos p\omega_i]$, $\omega_i = e^{-i \ln 10000/(m-1)}$",
        denominator=r"$m - 1$, $m = \lfloor d/2 \rfloor$",
        layout="split: all sines, then all cosines",
        dtype="float32, then cast to the default dtype",
        positions="(cumulative sum of the mask + past length) times the mask, + padding_idx: tokens count "
        "from padding_idx + 1, padding gets padding_idx (a zero row)",
        odd_dim="a zero column is appended",
        source=_HF + "m2m_100/modeling_m2m_100.py",
        cite=("fan2021beyond", "wolf2020transformers"),
        spacing="tensor2tensor",
        pair_layout="split",
        odd_rule="pad",
        padding_idx=1,
        position_rule="cumsum-from-padding",
    ),
    Convention(
        name="hf-llama",
        codebase="Hugging Face Llama, LlamaRotaryEmbedding and rotate_half",
        kind="rotary",
        formula=r"pair $(x_j, x_{j+d/2})$ turned by $p\,\omega_j$, $\omega_j = \theta^{-2j/d}$ "
        r"($\theta$ = rope_theta: 10000 in Llama 2, 500000 in Llama 3)",
        denominator=r"$d$, the head dimension (exponent $2j/d$)",
        layout="half: pairs (j, j + d/2)",
        dtype="float32 inverse frequencies and angles (older versions disable autocast around the product); "
        "cos and sin are cast to the activation dtype afterwards",
        positions="past_seen_tokens + 0, 1, ..., n - 1 unless position_ids are passed; generate() passes "
        "cumsum(mask) - 1 with padding set to 0",
        odd_dim="error: cos and sin have d + 1 columns, the head d (RuntimeError)",
        source=_HF + "llama/modeling_llama.py",
        cite=("wolf2020transformers",),
        pair_layout="half",
        odd_rule="error",
        position_rule="arange-offset",
    ),
    Convention(
        name="hf-gptj",
        codebase="Hugging Face GPT-J, create_sinusoidal_positions and rotate_every_two",
        kind="rotary",
        formula=r"pair $(x_{2j}, x_{2j+1})$ turned by $p\,\omega_j$, $\omega_j = 10000^{-2j/r}$ for the first "
        r"$r$ = rotary_dim coordinates (64 of 256 in GPT-J-6B)",
        denominator=r"$r$, the rotary dimension",
        layout="interleaved: pairs (2j, 2j + 1); the rest of the head is not rotated",
        dtype="float32 table for max_position_embeddings positions, gathered by position and cast to the key dtype",
        positions="past length + 0, 1, ..., n - 1 unless position_ids are passed",
        odd_dim="error for an odd rotary_dim: the table has r + 1 columns (RuntimeError)",
        source=_HF + "gptj/modeling_gptj.py",
        cite=("wang2021gptj", "wolf2020transformers"),
        pair_layout="interleaved",
        odd_rule="error",
        position_rule="arange-offset",
    ),
    Convention(
        name="hf-roformer",
        codebase="Hugging Face RoFormer, apply_rotary_position_embeddings",
        kind="rotary",
        formula=r"pair $(x_{2j}, x_{2j+1})$ turned by $p\,\omega_j$, $\omega_j = 10000^{-2j/d}$ (Marian's "
        r"table, sines and cosines repeated per pair)",
        denominator=r"$d$, the head dimension",
        layout="interleaved: pairs (2j, 2j + 1)",
        dtype="float64 angles (numpy), stored as a float32 table",
        positions="past_key_values_length + 0, 1, ..., n - 1; padding counted",
        odd_dim="error: the table splits into unequal halves (RuntimeError)",
        source=_HF + "roformer/modeling_roformer.py",
        cite=("su2024roformer", "wolf2020transformers"),
        pair_layout="interleaved",
        odd_rule="error",
        position_dtype="float64",
        frequency_dtype="float64",
        angle_dtype="float64",
        position_rule="arange-offset",
    ),
    Convention(
        name="hf-t5",
        codebase="Hugging Face T5, T5Attention._relative_position_bucket",
        kind="relative bias",
        formula=r"a learned scalar per head and bucket of $j - i$; encoder: 16 buckets per direction, exact "
        r"below 8; decoder: 32 buckets for keys before the query, exact below 16; logarithmic up to "
        r"max_distance 128, one last bucket beyond",
        denominator=r"$\ln(128/8)$ in the encoder's logarithmic buckets, $\ln(128/16)$ in the decoder's",
        layout="no vector: a bias on each attention logit",
        dtype="float32 logarithm of the offset, truncated to an integer bucket",
        positions="queries past_seen_tokens + 0, 1, ...; keys 0, 1, ...; padding counted (masked separately)",
        odd_dim="not applicable (nothing per dimension)",
        source=_HF + "t5/modeling_t5.py",
        cite=("raffel2020exploring", "wolf2020transformers"),
        position_rule="arange-offset",
    ),
    Convention(
        name="hf-bloom",
        codebase="Hugging Face BLOOM, build_alibi_tensor",
        kind="linear bias",
        formula=r"bias $m_h \cdot j$ on key $j$ (a key-only bias; softmax makes it $-m_h (i - j)$); "
        r"$m_h = 2^{-8h/n}$, plus every other slope of $2n$ heads when $n$ is not a power of two",
        denominator=r"$n$, the number of heads (a power of two)",
        layout="no vector: a bias on each attention logit",
        dtype="float32 slopes and products, then cast to the hidden-state dtype (bfloat16 for BLOOM)",
        positions="key positions cumsum(mask) - 1, times the mask: left padding is skipped, padding gets 0",
        odd_dim="not applicable",
        source=_HF + "bloom/modeling_bloom.py",
        cite=("press2022train", "bigscience2022bloom", "wolf2020transformers"),
        position_dtype="float32",
        frequency_dtype="float32",
        angle_dtype="bfloat16",
        position_rule="cumsum-from-zero",
    ),
    Convention(
        name="hf-mpt",
        codebase="Hugging Face MPT, build_mpt_alibi_tensor",
        kind="linear bias",
        formula=r"bias $m_h (j - (L - 1))$ on key $j$ of $L$; $m_h = 2^{-8h/n'}$ for the next power of two "
        r"$n' \ge n$, even-numbered $h$ first (`slopes[1::2]`), then odd-numbered (the same slopes as BLOOM)",
        denominator=r"$n'$, the next power of two",
        layout="no vector: a bias on each attention logit",
        dtype="float32 (int32 offsets times float32 slopes)",
        positions="offsets from the last of max_seq_len positions, sliced to the keys present; padding counted",
        odd_dim="not applicable",
        source=_HF + "mpt/modeling_mpt.py",
        cite=("press2022train", "wolf2020transformers"),
        position_rule="arange-offset",
    ),
    Convention(
        name="rotary-embedding-torch",
        codebase="rotary-embedding-torch, RotaryEmbedding.rotate_queries_or_keys",
        kind="rotary",
        formula=r"pair $(x_{2j}, x_{2j+1})$ turned by $p\,\omega_j$, $\omega_j = \theta^{-2j/d}$ for the $d$ = dim "
        r"coordinates given to the constructor; positions divided by interpolate_factor",
        denominator=r"$d$, the rotated dimension",
        layout="interleaved: pairs (2j, 2j + 1); coordinates beyond d are not rotated",
        dtype="float32 frequencies and angles (autocast off), but positions are made in the dtype of the "
        "queries: bfloat16 queries give bfloat16 positions",
        positions="offset + 0, 1, ..., n - 1 (offset argument); padding counted",
        odd_dim="error with the default cache (its buffer has d columns, the angles d - 1); "
        "without the cache the last coordinate is not rotated",
        source="lucidrains/rotary-embedding-torch 0.9.1 (PyPI), rotary_embedding_torch/rotary_embedding_torch.py",
        cite=("wang2021rotaryembeddingtorch",),
        pair_layout="interleaved",
        odd_rule="error",
        position_dtype="input",
        position_rule="arange-offset",
    ),
    Convention(
        name="x-transformers",
        codebase="x-transformers, RotaryEmbedding and apply_rotary_pos_emb",
        kind="rotary",
        formula=r"pair $(x_{2j}, x_{2j+1})$ turned by $p\,\omega_j$, $\omega_j = 10000^{-2j/r}$ for the first "
        r"$r$ = rotary_emb_dim coordinates (default: half the head)",
        denominator=r"$r$, the rotary dimension",
        layout="interleaved: pairs (2j, 2j + 1) (earlier releases paired halves); the rest is not rotated",
        dtype="float32 (positions cast to the inverse-frequency buffer's dtype, autocast off)",
        positions="0, 1, ... over cache and new tokens, minus the memory length (memory tokens get negative "
        "positions); padding counted",
        odd_dim=r"rounds up: $\lceil r/2 \rceil$ pairs, $r + 1$ coordinates, error if the head has only $r$",
        source="lucidrains/x-transformers 2.31.10 (PyPI), x_transformers/x_transformers.py",
        cite=("wang2020xtransformers",),
        pair_layout="interleaved",
        odd_rule="round-up",
        position_rule="arange-offset",
    ),
)

_BY_NAME = {row.name: row for row in CONVENTIONS}
_TABLE_ROWS = tuple(row.name for row in CONVENTIONS if row.kind == "absolute")
_ROTARY_ROWS = tuple(row.name for row in CONVENTIONS if row.kind == "rotary")
_BIAS_ROWS = tuple(row.name for row in CONVENTIONS if row.kind in ("relative bias", "linear bias"))


def convention_names(kind: str | None = None) -> tuple[str, ...]:
    """The names of the conventions, in table order, optionally of one kind.

    Parameters
    ----------
    kind : {"absolute", "rotary", "relative bias", "linear bias"}, optional

    Examples
    --------
    >>> convention_names("absolute")[:2]
    ('tensor2tensor', 'fairseq')
    >>> len(convention_names())
    14
    """
    if kind is None:
        return tuple(_BY_NAME)
    kind = check_choice("kind", kind, KINDS)
    return tuple(row.name for row in CONVENTIONS if row.kind == kind)


def convention(name: str) -> Convention:
    """The :class:`Convention` called ``name``.

    Examples
    --------
    >>> convention("fairseq").layout
    'split: all sines, then all cosines'
    """
    return _BY_NAME[check_choice("name", name, tuple(_BY_NAME))]


def _row(name, allowed, what):
    row = convention(name)
    if row.name not in allowed:
        raise ValueError(
            f"{what} needs a convention of kind {sorted({convention(a).kind for a in allowed})}; "
            f"{row.name!r} is {row.kind!r}; choose one of {', '.join(repr(a) for a in allowed)}"
        )
    return row


def convention_frequencies(name: str, dim: int, *, base: float | None = None) -> np.ndarray:
    """The angular frequency of each sine/cosine pair under a convention.

    Parameters
    ----------
    name : str
        An absolute or rotary convention.
    dim : int
        Width of the table, or the rotated dimension (``rotary_dim``), >= 2
        (>= 4 for the tensor2tensor spacing, whose denominator is
        ``dim // 2 - 1``).
    base : float, optional
        Defaults to the convention's (10000); a finite number > 1 (a base
        of 1 would give every pair the same frequency, 0 would divide by zero).

    Returns
    -------
    numpy.ndarray
        Float64, each the exact frequency correctly rounded.  Odd ``dim``:
        ``dim // 2`` pairs, except Marian's extra sine and x-transformers'
        rounding up (``(dim + 1) // 2``, exponent ``2 j / dim``).

    Examples
    --------
    >>> convention_frequencies("pytorch-tutorial", 8)
    array([1.   , 0.1  , 0.01 , 0.001])
    >>> float(convention_frequencies("fairseq", 8)[-1])
    0.0001
    """
    row = _row(name, _TABLE_ROWS + _ROTARY_ROWS, "convention_frequencies")
    return _frequencies(row, dim, base)[0].copy()


def _frequencies(row, dim, base):
    """Validated frequencies as double-doubles ``(hi, lo)`` (exact to about 106 bits)."""
    dim = check_int("dim", dim, minimum=2)
    base = row.base if base is None else check_base(base)
    if row.spacing == "tensor2tensor":
        n_pairs = dim // 2
        if n_pairs < 2:
            raise ValueError(f"{row.name} divides by dim // 2 - 1, which is 0 for dim={dim}; use dim >= 4")
        check_memory(FREQUENCY_BYTES * n_pairs, f"the frequencies of dim={dim}")
        return exact_frequencies(n_pairs, base, n_pairs - 1)
    # the paper's exponent 2 j / dim, with the convention's own dim even when odd
    n_pairs = (dim + 1) // 2 if row.odd_rule in ("extra-sine", "round-up") else dim // 2
    check_memory(FREQUENCY_BYTES * n_pairs, f"the frequencies of dim={dim}")
    return exact_frequencies(n_pairs, base, (2, dim))


def _integer_positions(name, positions) -> np.ndarray:
    positions = as_array("positions", positions)
    if positions.dtype == np.bool_ or positions.dtype.kind not in "iu" or positions.ndim != 1:
        raise TypeError(
            f"{name} must be a 1-D array of integer positions, got dtype {positions.dtype}, shape {positions.shape}"
        )
    return positions.astype(np.int64)


def convention_table(name: str, positions: ArrayLike, dim: int, *, base: float | None = None) -> np.ndarray:
    """The absolute sinusoidal table of a codebase, one row per position.

    Parameters
    ----------
    name : str
        One of ``convention_names("absolute")``.
    positions : array_like of int, shape (n,)
        Position ids as the codebase assigns them
        (:func:`convention_position_ids`); for fairseq and M2M100 the
        padding index gives a zero row.
    dim : int
        Width of the table, >= 2; odd widths follow the codebase (zero
        column, Marian's extra sine, or an error like the code's).
    base : float, optional
        Defaults to 10000 (tensor2tensor's ``max_timescale``).

    Returns
    -------
    numpy.ndarray
        Shape ``(n, dim)``, float64, with accurate angles (the formula, not
        its float32 rounding).

    Raises
    ------
    ValueError
        An odd ``dim`` where the codebase fails, or ``dim`` below what the
        formula accepts.

    Examples
    --------
    >>> convention_table("pytorch-tutorial", [1], 4).round(4)
    array([[0.8415, 0.5403, 0.01  , 1.    ]])
    >>> convention_table("fairseq", [1, 2], 4)[:, [0, 2]].round(4)   # 1 is padding
    array([[ 0.    ,  0.    ],
           [ 0.9093, -0.4161]])
    >>> convention_table("hf-marian", [1], 5).round(4)     # three sines, two cosines
    array([[0.8415, 0.0251, 0.0006, 0.5403, 0.9997]])
    """
    row = _row(name, _TABLE_ROWS, "convention_table")
    positions = _integer_positions("positions", positions)
    dim = check_int("dim", dim, minimum=2)
    if dim % 2 and row.odd_rule == "error":
        raise ValueError(f"{row.name} fails for an odd dim ({row.odd_dim}); got dim={dim}")
    freqs = _frequencies(row, dim, base)
    check_table_fits(
        (positions.size, dim), 8, f"{positions.size} positions, dim={dim}", extra_bytes=24 * positions.size * dim
    )
    angles = reduced_angles(positions, freqs)
    sines, cosines = np.sin(angles), np.cos(angles)
    out = np.zeros((positions.size, dim), dtype=np.float64)
    n_pairs = freqs[0].shape[0]
    if row.odd_rule == "extra-sine":
        n_cos = dim - n_pairs  # (dim - 1) / 2 for odd dim, n_pairs for even
        out[:, :n_pairs] = sines
        out[:, n_pairs:] = cosines[:, :n_cos]
    elif row.pair_layout == "split":
        out[:, :n_pairs] = sines
        out[:, n_pairs : 2 * n_pairs] = cosines
    else:
        out[:, 0 : 2 * n_pairs : 2] = sines
        out[:, 1 : 2 * n_pairs : 2] = cosines
    if row.padding_idx is not None:
        out[positions == row.padding_idx] = 0.0
    return out


def convention_rotate(
    name: str,
    x: ArrayLike,
    positions: ArrayLike,
    *,
    rotary_dim: int | None = None,
    base: float | None = None,
) -> np.ndarray:
    """Apply a codebase's rotary embedding to queries or keys.

    Parameters
    ----------
    name : str
        One of ``convention_names("rotary")``.
    x : array_like, shape (..., n, head_dim)
        Real vectors, one per position.
    positions : array_like
        One position per row of ``x`` (see :func:`posenc_math.rope`).
    rotary_dim : int, optional
        Coordinates rotated (the rest pass through): GPT-J's
        ``rotary_dim``, rotary-embedding-torch's ``dim``, x-transformers'
        ``rotary_emb_dim``.  Defaults to the whole head, except
        x-transformers' ``head_dim // 2``.
    base : float, optional
        ``rope_theta``; defaults to 10000.

    Returns
    -------
    numpy.ndarray
        Same shape as ``x``, float64.

    Examples
    --------
    >>> x = np.array([[1.0, 0.0, 0.0, 0.0]])
    >>> convention_rotate("hf-llama", x, [1]).round(4)        # pairs (0, 2), (1, 3)
    array([[0.5403, 0.    , 0.8415, 0.    ]])
    >>> convention_rotate("hf-roformer", x, [1]).round(4)     # pairs (0, 1), (2, 3)
    array([[0.5403, 0.8415, 0.    , 0.    ]])
    """
    row = _row(name, _ROTARY_ROWS, "convention_rotate")
    array = check_real_array("x", x)
    if array.ndim < 2:
        raise ValueError(f"x must have shape (..., n, head_dim), got shape {array.shape}")
    head_dim = array.shape[-1]
    if rotary_dim is None:
        rotary_dim = head_dim // 2 if row.name == "x-transformers" else head_dim
    rotary_dim = check_int("rotary_dim", rotary_dim, minimum=2)
    freqs = _frequencies(row, rotary_dim, base)[0]
    rotated = 2 * freqs.shape[0]
    if rotary_dim % 2 and row.odd_rule == "error":
        raise ValueError(f"{row.name} fails for an odd rotary dimension ({row.odd_dim}); got {rotary_dim}")
    if rotated > head_dim:
        raise ValueError(
            f"{row.name} rotates {rotated} coordinates for rotary_dim={rotary_dim}, more than the head's {head_dim}"
        )
    layout = "half" if row.pair_layout == "half" else "interleaved"
    out = array.copy()
    out[..., :rotated] = rope(array[..., :rotated], positions, layout=layout, inv_freq=freqs)
    return out


def convention_position_ids(name: str, attention_mask: ArrayLike, *, past_length: int = 0) -> np.ndarray:
    """The position id a codebase gives each token of a (padded) batch.

    Parameters
    ----------
    name : str
        Any convention.
    attention_mask : array_like of {0, 1}, shape (batch, n)
        1 for a token, 0 for padding.  For BLOOM the mask covers the cached
        tokens too, as BLOOM's does.
    past_length : int, default 0
        Tokens already in the cache (decoding).

    Returns
    -------
    numpy.ndarray
        Shape ``(batch, n)``, int64.

    Raises
    ------
    ValueError
        A ``past_length`` for code that has no offset (the PyTorch tutorial,
        the Annotated Transformer), a mask of other values than 0 and 1.

    Examples
    --------
    >>> mask = [[0, 0, 1, 1, 1]]     # left padding
    >>> convention_position_ids("fairseq", mask)
    array([[1, 1, 2, 3, 4]])
    >>> convention_position_ids("hf-bloom", mask)
    array([[0, 0, 0, 1, 2]])
    >>> convention_position_ids("hf-marian", mask, past_length=3)
    array([[3, 4, 5, 6, 7]])
    """
    row = convention(name)
    mask = as_array("attention_mask", attention_mask)
    if mask.ndim != 2 or mask.dtype.kind not in "biu" or not np.isin(mask, (0, 1)).all():
        raise ValueError(f"attention_mask must be a 2-D array of 0 and 1 (batch, n), got {mask!r}")
    mask = mask.astype(np.int64)
    past_length = check_int("past_length", past_length, minimum=0)
    if past_length + mask.shape[1] > MAX_POSITION:
        raise ValueError(
            f"past_length + n must be <= 2**53 (positions exact in float64), got past_length={past_length}"
        )
    batch, n = mask.shape
    counted = np.broadcast_to(np.arange(n, dtype=np.int64) + past_length, (batch, n)).copy()
    if row.position_rule == "arange-no-offset":
        if past_length:
            raise ValueError(
                f"{row.name} has no position offset (its table is always sliced from 0); got past_length={past_length}"
            )
        return counted
    if row.position_rule in ("arange", "arange-offset"):
        return counted
    cumulative = np.cumsum(mask, axis=1)
    if row.position_rule == "cumsum-from-padding":
        return (cumulative + past_length) * mask + row.padding_idx
    # cumsum-from-zero (BLOOM): the mask already covers the cache
    return (cumulative - 1) * mask


def convention_bias(
    name: str, n_queries: int, n_keys: int | None = None, *, n_heads: int = 8, past_length: int = 0
) -> np.ndarray:
    """The attention bias of T5, BLOOM or MPT for one unpadded sequence.

    Parameters
    ----------
    name : {"hf-t5", "hf-bloom", "hf-mpt"}
    n_queries : int
        New tokens, >= 1.
    n_keys : int, optional
        Keys (cache + new), defaults to ``n_queries + past_length``.
    n_heads : int, default 8
        For ALiBi: the number of heads.
    past_length : int, default 0
        Cached tokens (queries are at ``past_length + 0, 1, ...``).

    Returns
    -------
    numpy.ndarray
        T5: shape ``(n_queries, n_keys)``, the bucket of each pair (bidirectional,
        32 buckets, 128) - the bias is a learned table indexed by it.
        BLOOM and MPT: shape ``(n_heads, n_keys)``, the key-only bias each
        adds to every query row (BLOOM ``m j``; MPT ``m (j - (L - 1))``).

    Examples
    --------
    >>> convention_bias("hf-t5", 2, 3)
    array([[ 0, 17, 18],
           [ 1,  0, 17]])
    >>> convention_bias("hf-mpt", 1, 3, n_heads=2)
    array([[-0.125     , -0.0625    ,  0.        ],
           [-0.0078125 , -0.00390625,  0.        ]])
    """
    row = _row(name, _BIAS_ROWS, "convention_bias")
    n_queries = check_int("n_queries", n_queries, minimum=1)
    past_length = check_int("past_length", past_length, minimum=0)
    n_keys = n_queries + past_length if n_keys is None else check_int("n_keys", n_keys, minimum=1)
    n_heads = check_int("n_heads", n_heads, minimum=1)
    if past_length + n_queries > MAX_POSITION or n_keys > MAX_POSITION:
        raise ValueError(
            f"positions must stay below 2**53; got n_queries={n_queries}, n_keys={n_keys}, past_length={past_length}"
        )
    what = f"n_queries={n_queries}, n_keys={n_keys}, n_heads={n_heads}"
    if row.name == "hf-t5":
        check_table_fits((n_queries, n_keys), 8, what, extra_bytes=32 * n_queries * n_keys)
    else:
        check_table_fits((n_heads, n_keys), 8, what, extra_bytes=8 * n_keys)
    keys = np.arange(n_keys, dtype=np.int64)
    if row.name == "hf-t5":
        queries = np.arange(n_queries, dtype=np.int64) + past_length
        return t5_bucket(keys[None, :] - queries[:, None])
    slopes = alibi_slopes(n_heads)[:, None]
    if row.name == "hf-bloom":
        return slopes * keys[None, :]
    return slopes * (keys - (n_keys - 1))[None, :]


def conventions_overview() -> str:
    """A narrow Markdown table: name, pairs, denominator (grouped by kind).

    Examples
    --------
    >>> print(conventions_overview().splitlines()[0])
    | convention | pairs | denominator |
    """
    lines = ["| convention | pairs | denominator |", "|---|---|---|"]
    for row in CONVENTIONS:
        if row.kind in ("relative bias", "linear bias"):
            pairs, denominator = f"none ({row.kind})", "-"
        else:
            pairs = row.pair_layout or "-"
            if row.spacing == "tensor2tensor":
                denominator = "$m - 1$"
            elif row.name in ("hf-gptj", "x-transformers"):
                denominator = "$r$"
            else:
                denominator = "$d$"
        lines.append(f"| {row.name} | {pairs} | {denominator} |")
    return "\n".join(lines)


def convention_details(name: str) -> str:
    """A MyST definition list of one convention's fields, with its citations.

    Examples
    --------
    >>> print(convention_details("fairseq").splitlines()[0])
    Code
    """
    row = convention(name)
    cites = ", ".join(row.cite)
    items = [
        ("Code", f"{row.codebase} {{cite:p}}`{cites}`"),
        ("Formula", row.formula),
        ("Denominator", row.denominator),
        ("Layout", row.layout),
        ("Number formats", row.dtype),
        ("Positions, offset, padding", row.positions),
        ("Odd width", row.odd_dim),
        ("Source read", row.source),
    ]
    return "\n\n".join(f"{term}\n: {text}" for term, text in items)
