"""Figures for the RoPE variants: partial and proportional rotation, M-RoPE, axial RoPE, xPos, LongRoPE.

Every helper computes what it draws with the library's own functions (a
feature's role is found by rotating a unit vector, not looked up), draws
nothing random unless given vectors, labels its axes and returns the
:class:`matplotlib.figure.Figure`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import ArrayLike

from .._validate import check_int, check_real
from ..encodings.rope import rope
from ..encodings.rope_scaling import rope_frequencies
from ..encodings.rope_variants import axial_positions, axial_rope, mrope, mrope_positions, xpos, xpos_scales

if TYPE_CHECKING:
    from matplotlib.figure import Figure

__all__ = [
    "FEATURE_SCHEMES",
    "axial_score_map",
    "longrope_wavelengths",
    "longrope_wavelengths_description",
    "mrope_position_ids",
    "mrope_position_ids_description",
    "rope_feature_description",
    "rope_feature_map",
    "xpos_decay",
    "xpos_decay_description",
]

_COLOURS = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#D55E00", "#CC79A7", "#0072B2"]
#: What moves a feature, in the order of the colour scale.
_ROLES = ("nothing (passes through)", "position", "temporal id", "height id / row", "width id / column")
_ROLE_COLOURS = ["#DDDDDD", "#000000", "#E69F00", "#56B4E9", "#009E73"]
#: The colours' names and the roles in short, for alt text.
_ROLE_COLOUR_NAMES = ("grey", "black", "orange", "blue", "green")
_ROLE_WORDS = ("passes through", "position", "temporal id", "height id or row", "width id or column")


def _probe(transform, head_dim: int, axis_ids: list) -> np.ndarray:
    """The role of each feature: the first probe (one axis at 1) that moves its unit vector."""
    basis = np.eye(head_dim)
    roles = np.zeros(head_dim, dtype=int)
    for role, ids in axis_ids:
        moved = np.any(transform(basis, ids) != basis, axis=-1)
        roles[(roles == 0) & moved] = role
    return roles


def _scheme_roles(name: str, head_dim: int) -> np.ndarray:
    n = head_dim

    def ones(count):
        return [1] * count

    if name == "Llama: every pair":
        return _probe(lambda x, ids: rope(x, ids), n, [(1, ones(n))])
    if name == "GPT-NeoX, StableLM: partial 0.25":
        inv_freq, _ = rope_frequencies(n, scaling={"rope_type": "default", "partial_rotary_factor": 0.25})
        width = 2 * inv_freq.shape[0]
        return _probe(lambda x, ids: rope(x, ids, inv_freq=inv_freq, rotary_dim=width), n, [(1, ones(n))])
    if name == "Phi: partial 0.5":
        inv_freq, _ = rope_frequencies(n, scaling={"rope_type": "default", "partial_rotary_factor": 0.5})
        width = 2 * inv_freq.shape[0]
        return _probe(lambda x, ids: rope(x, ids, inv_freq=inv_freq, rotary_dim=width), n, [(1, ones(n))])
    if name == "Gemma 4 global: proportional 0.25":
        inv_freq, _ = rope_frequencies(
            n, base=1e6, scaling={"rope_type": "proportional", "partial_rotary_factor": 0.25}
        )
        return _probe(lambda x, ids: rope(x, ids, inv_freq=inv_freq), n, [(1, ones(n))])
    if name == "Qwen2-VL: M-RoPE":
        pairs = n // 2
        sections = (pairs // 4, (pairs - pairs // 4) // 2, pairs - pairs // 4 - (pairs - pairs // 4) // 2)
        probes = []
        for axis in range(3):
            ids = np.zeros((3, n), dtype=int)
            ids[axis] = 1
            probes.append((2 + axis, ids))
        return _probe(lambda x, ids: mrope(x, ids, sections), n, probes)
    if name == "axial 2-D (rotary-embedding-torch)":
        probes = []
        for axis in range(2):
            ids = np.zeros((2, n), dtype=int)
            ids[axis] = 1
            probes.append((3 + axis, ids))
        return _probe(lambda x, ids: axial_rope(x, ids), n, probes)
    raise ValueError(f"scheme must be one of {', '.join(repr(s) for s in FEATURE_SCHEMES)}; got {name!r}")


#: The rows :func:`rope_feature_map` can draw.
FEATURE_SCHEMES = (
    "Llama: every pair",
    "GPT-NeoX, StableLM: partial 0.25",
    "Phi: partial 0.5",
    "Gemma 4 global: proportional 0.25",
    "Qwen2-VL: M-RoPE",
    "axial 2-D (rotary-embedding-torch)",
)


def longrope_wavelengths_description(
    dim: int,
    *,
    short_factor: Sequence[float],
    long_factor: Sequence[float],
    original_max_position_embeddings: int,
    base: float = 10000.0,
) -> str:
    """What :func:`longrope_wavelengths` draws, in words, from the same frequencies (for alt text).

    Parameters
    ----------
    dim, short_factor, long_factor, original_max_position_embeddings, base
        As for :func:`longrope_wavelengths`.

    Returns
    -------
    str

    Examples
    --------
    >>> print(longrope_wavelengths_description(8, short_factor=[1] * 4, long_factor=[1, 2, 4, 8],
    ...                                        original_max_position_embeddings=64).replace("; ", ";\\n"))
    Wavelength against pair index 0 to 3 on a log scale, a dotted line at 64;
    trained (default): from 6.3 to 6,300;
    short factors: on the trained line at every pair;
    long factors: on the trained line up to pair 0, then above it, reaching 50,000 at pair 3.
    """
    from .describe import number_words

    original = check_int("original_max_position_embeddings", original_max_position_embeddings, minimum=2)
    scaling = {
        "rope_type": "longrope",
        "short_factor": list(short_factor),
        "long_factor": list(long_factor),
        "original_max_position_embeddings": original,
        "attention_factor": 1.0,
    }
    trained, _ = rope_frequencies(dim, base=base)
    lines = {
        "short factors": rope_frequencies(dim, base=base, scaling=scaling, seq_len=original)[0],
        "long factors": rope_frequencies(dim, base=base, scaling=scaling, seq_len=original + 1)[0],
    }
    parts = [
        f"Wavelength against pair index 0 to {trained.size - 1} on a log scale, a dotted line at {original:,}",
        f"trained (default): from {number_words(2 * np.pi / trained[0])} to {number_words(2 * np.pi / trained[-1])}",
    ]
    for label, inv_freq in lines.items():
        same = np.isclose(inv_freq, trained, rtol=1e-12, atol=0.0)
        if same.all():
            parts.append(f"{label}: on the trained line at every pair")
            continue
        reach = number_words(2 * np.pi / inv_freq[-1])
        if same[0]:
            parts.append(
                f"{label}: on the trained line up to pair {int(np.argmin(same)) - 1}, then above it, reaching "
                f"{reach} at pair {inv_freq.size - 1}"
            )
        else:
            parts.append(f"{label}: off the trained line from pair 0, reaching {reach} at pair {inv_freq.size - 1}")
    return "; ".join(parts) + "."


def rope_feature_map(schemes: Sequence[str] = FEATURE_SCHEMES, *, head_dim: int = 64) -> Figure:
    """Which position turns each feature of a head, one row per scheme.

    A feature's colour is found by rotating its unit vector with the
    library's function for that scheme, with one position id (or one axis of
    ids) set to 1 and the rest 0: the first id that moves it names its role;
    a feature no id moves passes through.

    Parameters
    ----------
    schemes : sequence of str
        Rows, from ``posenc_math.plotting.FEATURE_SCHEMES``.
    head_dim : int, default 64
        Features per head, a multiple of 16.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> rope_feature_map(["Llama: every pair"], head_dim=16).axes[0].get_xlabel()
    'feature of the head'
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import ListedColormap
    from matplotlib.patches import Patch

    schemes, head_dim = _checked_schemes(schemes, head_dim)
    roles = np.array([_scheme_roles(name, head_dim) for name in schemes])
    figure, axes = plt.subplots(figsize=(7.6, 0.55 * len(schemes) + 1.9), layout="constrained")
    axes.imshow(
        roles,
        cmap=ListedColormap(_ROLE_COLOURS),
        vmin=-0.5,
        vmax=len(_ROLES) - 0.5,
        aspect="auto",
        interpolation="nearest",
    )
    # each row's label on two lines, model then rule: on one line the labels
    # took most of a phone's width and left the map a sliver
    labels = [re.sub(r": | (?=\()", lambda m: m.group().strip() + "\n", name, count=1) for name in schemes]
    axes.set_yticks(range(len(schemes)), labels)
    axes.set_xticks(np.arange(0, head_dim + 1, head_dim // 8) - 0.5, np.arange(0, head_dim + 1, head_dim // 8))
    axes.set_xlabel("feature of the head")
    used = sorted(set(roles.ravel().tolist()))
    figure.legend(
        handles=[Patch(facecolor=_ROLE_COLOURS[r], edgecolor="#666666", label=_ROLES[r]) for r in used],
        loc="outside lower center",
        ncol=2,
        frameon=False,
        title="what turns the feature",
    )
    return figure


def _checked_schemes(schemes: Sequence[str], head_dim: int) -> tuple[list[str], int]:
    head_dim = check_int("head_dim", head_dim, minimum=16)
    if head_dim % 16:
        raise ValueError(f"head_dim must be a multiple of 16 (so every scheme's split is whole), got {head_dim}")
    schemes = [schemes] if isinstance(schemes, str) else list(schemes)
    if not schemes:
        raise ValueError("schemes must name at least one row")
    return schemes, head_dim


def rope_feature_description(schemes: Sequence[str] = FEATURE_SCHEMES, *, head_dim: int = 64) -> str:
    """What :func:`rope_feature_map` draws, in words, from the same probes (for alt text).

    Each row is told as its runs of features with one role: colour, role
    and the features' first and last index.

    Parameters
    ----------
    schemes, head_dim
        As for :func:`rope_feature_map`.

    Returns
    -------
    str

    Examples
    --------
    >>> print(rope_feature_description(["Llama: every pair", "Phi: partial 0.5"], head_dim=16).replace(". ", ".\\n"))
    2 rows of 16 cells, one per scheme.
    Llama: every pair: black (position) for 0 to 15.
    Phi: partial 0.5: black (position) for 0 to 7, grey (passes through) for 8 to 15.
    """
    schemes, head_dim = _checked_schemes(schemes, head_dim)
    sentences = [f"{len(schemes)} rows of {head_dim} cells, one per scheme."]
    for name in schemes:
        roles = _scheme_roles(name, head_dim)
        starts = [0, *(np.flatnonzero(np.diff(roles)) + 1).tolist()]
        ends = [*(start - 1 for start in starts[1:]), head_dim - 1]
        runs = ", ".join(
            f"{_ROLE_COLOUR_NAMES[roles[start]]} ({_ROLE_WORDS[roles[start]]}) for {start} to {end}"
            for start, end in zip(starts, ends, strict=True)
        )
        sentences.append(f"{name}: {runs}.")
    return " ".join(sentences)


def mrope_position_ids(segments: Sequence[int | tuple[int, int, int]]) -> Figure:
    """Qwen2-VL's three position ids along a sequence of text and vision tokens.

    Parameters
    ----------
    segments : sequence
        As for :func:`posenc_math.mrope_positions`: text lengths and
        ``(t, h, w)`` grids.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> mrope_position_ids([3, (1, 2, 2), 2]).axes[0].get_xlabel()
    'token'
    """
    import matplotlib.pyplot as plt

    ids = mrope_positions(segments)
    tokens = np.arange(ids.shape[1])
    vision = _vision_tokens(segments, ids.shape[1])
    figure, axes = plt.subplots(figsize=(7.2, 3.2), layout="constrained")
    for first, last in _runs(vision):
        axes.axvspan(first - 0.5, last + 0.5, color="#EEEEEE", zorder=0)
    for axis, (label, marker) in enumerate([("temporal", "o"), ("height", "s"), ("width", "^")]):
        axes.plot(tokens, ids[axis], marker=marker, markersize=4, color=_COLOURS[axis + 1], label=label, lw=1)
    axes.set_xlabel("token")
    axes.set_ylabel("position id")
    axes.legend(title="id (grey: vision tokens)", frameon=False, loc="upper left")
    return figure


def _vision_tokens(segments: Sequence[int | tuple[int, int, int]], n_tokens: int) -> np.ndarray:
    vision = np.zeros(n_tokens, dtype=bool)
    start = 0
    for segment in segments:
        count = segment if isinstance(segment, (int, np.integer)) else int(np.prod(segment))
        vision[start : start + count] = not isinstance(segment, (int, np.integer))
        start += count
    return vision


def mrope_position_ids_description(segments: Sequence[int | tuple[int, int, int]]) -> str:
    """What :func:`mrope_position_ids` draws, in words, from the same ids (for alt text).

    Examples
    --------
    >>> print(mrope_position_ids_description([2, (1, 2, 2), 1]).replace(". ", ".\\n"))
    Three lines of position id (temporal, height, width) against token index 0 to 6.
    Tokens 0 to 1 (text): all three ids 0, 1.
    Tokens 2 to 5 (vision, grey): temporal 2, 2, 2, 2; height 2, 2, 3, 3; width 2, 3, 2, 3.
    Tokens 6 to 6 (text): all three ids 4.
    """
    ids = mrope_positions(segments)
    vision = _vision_tokens(segments, ids.shape[1])
    sentences = [f"Three lines of position id (temporal, height, width) against token index 0 to {ids.shape[1] - 1}."]
    runs = sorted([(a, b, True) for a, b in _runs(vision)] + [(a, b, False) for a, b in _runs(~vision)])
    for first, last, is_vision in runs:
        span = ids[:, first : last + 1]
        if is_vision:
            told = "; ".join(
                f"{name} {', '.join(str(int(v)) for v in row)}"
                for name, row in zip(("temporal", "height", "width"), span, strict=True)
            )
            sentences.append(f"Tokens {first} to {last} (vision, grey): {told}.")
        else:
            sentences.append(
                f"Tokens {first} to {last} (text): all three ids {', '.join(str(int(v)) for v in span[0])}."
            )
    return " ".join(sentences)


def xpos_decay_description(
    query: ArrayLike,
    key: ArrayLike,
    *,
    max_offset: int = 2048,
    scale_base: float = 512.0,
    pairs: Sequence[int] = (0, 4, 8, 15),
) -> str:
    """What :func:`xpos_decay` draws, in words, from the same scales and scores (for alt text).

    Examples
    --------
    >>> xpos_decay_description(np.ones(32), np.ones(32), max_offset=64).startswith("Top: A line plot of")
    True
    """
    from .describe import curves_description

    scales, rope_scores, xpos_scores = _xpos_curves(query, key, max_offset, scale_base)
    top = curves_description(
        {f"pair {pair}": scales[:, pair] for pair in pairs},
        x_label="the offset",
        y_label="ζ_j to the power offset over scale_base",
    )
    bottom = curves_description({"RoPE": rope_scores, "xPos": xpos_scores}, x_label="the offset", y_label="the score")
    return f"Top: {top} Bottom: {bottom}"


def _xpos_curves(
    query: ArrayLike, key: ArrayLike, max_offset: int, scale_base: float
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """xPos's scales per pair, and the RoPE and xPos scores of ``query`` after ``key``, per offset."""
    max_offset = check_int("max_offset", max_offset, minimum=1)
    scale_base = check_real("scale_base", scale_base)
    query = np.asarray(query, dtype=np.float64)
    key = np.asarray(key, dtype=np.float64)
    dim = query.shape[0]
    offsets = np.arange(max_offset + 1)
    scales = xpos_scales(dim, offsets, scale_base=scale_base)
    keys_rope = rope(np.broadcast_to(key, (len(offsets), dim)), np.zeros(len(offsets), dtype=int), layout="interleaved")
    queries_rope = rope(np.broadcast_to(query, (len(offsets), dim)), offsets, layout="interleaved")
    keys_xpos = xpos(np.broadcast_to(key, (len(offsets), dim)), np.zeros(len(offsets), dtype=int), key=True)
    queries_xpos = xpos(np.broadcast_to(query, (len(offsets), dim)), offsets, scale_base=scale_base)
    return scales, np.sum(queries_rope * keys_rope, axis=-1), np.sum(queries_xpos * keys_xpos, axis=-1)


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    runs, start = [], None
    for index, flag in enumerate([*mask.tolist(), False]):
        if flag and start is None:
            start = index
        elif not flag and start is not None:
            runs.append((start, index - 1))
            start = None
    return runs


def axial_score_map(
    query: ArrayLike, key: ArrayLike, shape: tuple[int, int], *, cell: tuple[int, int] | None = None
) -> Figure:
    """Axial RoPE scores of one query cell against a key at every cell of a grid.

    Parameters
    ----------
    query, key : array_like, shape (dim,)
        Real vectors; ``dim`` splits into two even blocks.
    shape : tuple of two ints
        ``(height, width)`` of the grid.
    cell : tuple of two ints, optional
        The query's cell; default the centre.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> axial_score_map(np.ones(8), np.ones(8), (5, 5)).axes[0].get_xlabel()
    'key column'
    """
    import matplotlib.pyplot as plt

    height, width = (check_int(f"shape[{i}]", size, minimum=1) for i, size in enumerate(shape))
    row, column = (height // 2, width // 2) if cell is None else cell
    grid = axial_positions((height, width))
    query_out = axial_rope(np.asarray(query, dtype=np.float64)[None], [[row], [column]])[0]
    key_vector = np.asarray(key, dtype=np.float64)
    keys = axial_rope(np.broadcast_to(key_vector, (height * width, key_vector.shape[-1])), grid)
    scores = (keys @ query_out).reshape(height, width)
    figure, axes = plt.subplots(figsize=(4.8, 3.9), layout="constrained")
    limit = np.abs(scores).max()
    image = axes.imshow(scores, cmap="RdBu_r", vmin=-limit, vmax=limit, interpolation="nearest")
    axes.plot([column], [row], marker="x", color="black", markersize=9, label="query cell")
    axes.set_xlabel("key column")
    axes.set_ylabel("key row")
    axes.legend(loc="upper right", frameon=True, fontsize="small")
    figure.colorbar(image, ax=axes, label="score <query, key>")
    return figure


def xpos_decay(
    query: ArrayLike,
    key: ArrayLike,
    *,
    max_offset: int = 2048,
    scale_base: float = 512.0,
    pairs: Sequence[int] = (0, 4, 8, 15),
) -> Figure:
    """xPos: the per-pair scale against the offset, and the score with and without it.

    Parameters
    ----------
    query, key : array_like, shape (dim,)
        Real vectors, interleaved pairs.
    max_offset : int, default 2048
        Offsets ``0 .. max_offset`` (key before the query).
    scale_base : float, default 512.0
    pairs : sequence of int
        Pairs whose scale is drawn.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> xpos_decay(np.ones(32), np.ones(32), max_offset=64).axes[1].get_xlabel()
    'offset m - n (query after key)'
    """
    import matplotlib.pyplot as plt

    scales, rope_scores, xpos_scores = _xpos_curves(query, key, max_offset, scale_base)
    offsets = np.arange(len(rope_scores))
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(7.2, 5.2), sharex=True, layout="constrained")
    for colour, pair in zip(_COLOURS[1:], pairs, strict=False):
        top.plot(offsets, scales[:, pair], color=colour, label=f"pair {pair}")
    top.set_ylabel(r"$\zeta_j^{\,\mathrm{offset}\,/\,\gamma}$ ($\gamma$ = scale_base)")
    top.set_ylim(0, 1.05)
    # upper right, where every scale has fallen: across the top, the legend lay on the curves
    # at 1 and on the axis label on a phone (issue 24)
    top.legend(frameon=False, ncol=2, loc="upper right")
    bottom.plot(offsets, rope_scores, color=_COLOURS[0], lw=0.8, label="RoPE")
    bottom.plot(offsets, xpos_scores, color=_COLOURS[4], lw=1.2, label="xPos")
    bottom.set_ylabel("score")
    bottom.set_xlabel("offset m - n (query after key)")
    bottom.legend(frameon=False)
    return figure


def longrope_wavelengths(
    dim: int,
    *,
    base: float = 10000.0,
    short_factor: Sequence[float],
    long_factor: Sequence[float],
    original_max_position_embeddings: int,
) -> Figure:
    """Wavelength of each pair under LongRoPE's short and long factors.

    Parameters
    ----------
    dim : int
        Rotary dimensions.
    base : float, default 10000.0
    short_factor, long_factor : sequence of float
        ``dim // 2`` factors each.
    original_max_position_embeddings : int
        The trained context, drawn as a dotted line.

    Returns
    -------
    matplotlib.figure.Figure

    Examples
    --------
    >>> longrope_wavelengths(8, short_factor=[1] * 4, long_factor=[1, 2, 4, 8],
    ...                      original_max_position_embeddings=64).axes[0].get_xlabel()
    'pair j'
    """
    import matplotlib.pyplot as plt

    original = check_int("original_max_position_embeddings", original_max_position_embeddings, minimum=2)
    scaling = {
        "rope_type": "longrope",
        "short_factor": list(short_factor),
        "long_factor": list(long_factor),
        "original_max_position_embeddings": original,
        "attention_factor": 1.0,
    }
    trained, _ = rope_frequencies(dim, base=base)
    short, _ = rope_frequencies(dim, base=base, scaling=scaling, seq_len=original)
    long, _ = rope_frequencies(dim, base=base, scaling=scaling, seq_len=original + 1)
    pairs = np.arange(dim // 2)
    figure, axes = plt.subplots(figsize=(7.2, 3.8), layout="constrained")
    axes.semilogy(pairs, 2 * np.pi / trained, color=_COLOURS[0], label="trained (default)")
    axes.semilogy(pairs, 2 * np.pi / short, color=_COLOURS[2], ls="--", label=f"short factors (seq_len ≤ {original})")
    axes.semilogy(pairs, 2 * np.pi / long, color=_COLOURS[4], label=f"long factors (seq_len > {original})")
    axes.axhline(original, color="#666666", ls=":", lw=1)
    axes.set_xlabel("pair j")
    axes.set_ylabel("wavelength (tokens)")
    axes.legend(frameon=False)
    return figure
