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
    "mrope_position_ids",
    "rope_feature_map",
    "xpos_decay",
]

_COLOURS = ["#000000", "#E69F00", "#56B4E9", "#009E73", "#D55E00", "#CC79A7", "#0072B2"]
#: What moves a feature, in the order of the colour scale.
_ROLES = ("nothing (passes through)", "position", "temporal id", "height id / row", "width id / column")
_ROLE_COLOURS = ["#DDDDDD", "#000000", "#E69F00", "#56B4E9", "#009E73"]


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

    head_dim = check_int("head_dim", head_dim, minimum=16)
    if head_dim % 16:
        raise ValueError(f"head_dim must be a multiple of 16 (so every scheme's split is whole), got {head_dim}")
    if isinstance(schemes, str):
        schemes = [schemes]
    schemes = list(schemes)
    if not schemes:
        raise ValueError("schemes must name at least one row")
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
    vision = np.zeros(ids.shape[1], dtype=bool)
    start = 0
    for segment in segments:
        count = segment if isinstance(segment, (int, np.integer)) else int(np.prod(segment))
        vision[start : start + count] = not isinstance(segment, (int, np.integer))
        start += count
    figure, axes = plt.subplots(figsize=(7.2, 3.2), layout="constrained")
    for first, last in _runs(vision):
        axes.axvspan(first - 0.5, last + 0.5, color="#EEEEEE", zorder=0)
    for axis, (label, marker) in enumerate([("temporal", "o"), ("height", "s"), ("width", "^")]):
        axes.plot(tokens, ids[axis], marker=marker, markersize=4, color=_COLOURS[axis + 1], label=label, lw=1)
    axes.set_xlabel("token")
    axes.set_ylabel("position id")
    axes.legend(title="id (grey: vision tokens)", frameon=False, loc="upper left")
    return figure


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
    figure, (top, bottom) = plt.subplots(2, 1, figsize=(7.2, 5.2), sharex=True, layout="constrained")
    for colour, pair in zip(_COLOURS[1:], pairs, strict=False):
        top.plot(offsets, scales[:, pair], color=colour, label=f"pair {pair}")
    top.set_ylabel("zeta_j ** (offset / scale_base)")
    top.set_ylim(0, 1.05)
    top.legend(frameon=False, ncol=len(pairs))
    bottom.plot(offsets, np.sum(queries_rope * keys_rope, axis=-1), color=_COLOURS[0], lw=0.8, label="RoPE")
    bottom.plot(offsets, np.sum(queries_xpos * keys_xpos, axis=-1), color=_COLOURS[4], lw=1.2, label="xPos")
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
    axes.semilogy(pairs, 2 * np.pi / short, color=_COLOURS[2], ls="--", label=f"short factors (seq_len <= {original})")
    axes.semilogy(pairs, 2 * np.pi / long, color=_COLOURS[4], label=f"long factors (seq_len > {original})")
    axes.axhline(original, color="#666666", ls=":", lw=1)
    axes.set_xlabel("pair j")
    axes.set_ylabel("wavelength (tokens)")
    axes.legend(frameon=False)
    return figure
