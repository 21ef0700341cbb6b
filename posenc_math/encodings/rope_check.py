"""A config's RoPE layer by layer, and the check of someone's cos/sin against it.

:func:`layer_table` summarises every layer of a config (kind, rule, base,
rotated width, layout, attention factor, wavelengths, and the positions from
which float32 and bfloat16 angles lose their first decimal), grouping the
layers that compute the same thing.  :func:`check_cos_sin` compares dumped
cos/sin caches with the exact values of a layer, against the error float32
itself makes, and when they differ tries each mistake of
:mod:`.rope_mistakes` to name the one that explains the difference.
``posenc-math check-config`` prints both.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._validate import check_choice
from .._words import number_words
from .rope_config import RopeLayer, load_config, rope_from_config, rope_layers
from .rope_mistakes import mistake, mistaken_cos_sin

__all__ = [
    "ANGLE_TOLERANCE",
    "CosSinCheck",
    "angle_precision_position",
    "check_cos_sin",
    "layer_table",
    "layer_table_cells",
    "layer_table_markdown",
]

#: Radians: half the angle's first decimal place.
ANGLE_TOLERANCE = 0.05

#: Significant bits (with the implicit one) of the formats angles are formed in.
SIGNIFICAND_BITS = {"float64": 53, "float32": 24, "float16": 11, "bfloat16": 8}


def angle_precision_position(inv_freq, dtype="float32", *, tolerance=ANGLE_TOLERANCE) -> int | None:
    """The first position whose angle, formed in ``dtype``, can be off by ``tolerance`` radians.

    The fastest pair (largest frequency ``w``) is the first to suffer.  The
    angle ``p w`` rounded to a format of ``t`` significant bits is off by up
    to half a unit in its last place, ``2 ** (e - t)`` for ``p w`` in
    ``[2 ** e, 2 ** (e + 1))``; that reaches ``tolerance`` from ``p w = 2 **
    E``, ``E = ceil(t + log2(tolerance))``, so the position is ``ceil(2 **
    E / w)``.  With the default 0.05 rad the angle's first decimal is no
    longer certain from there on: float32 (24 bits) from ``p w = 2 ** 20``,
    bfloat16 (8 bits) from ``p w = 16``.  The position id itself is taken
    as exact (float32 holds integers up to ``2 ** 24``, bfloat16 up to 256).

    Parameters
    ----------
    inv_freq : array_like
        The frequencies of the pairs.
    dtype : {"float32", "bfloat16", "float16", "float64"}
        The format the angle is formed in.
    tolerance : float, default 0.05
        Radians, > 0.

    Returns
    -------
    int or None
        None when no pair turns.

    Examples
    --------
    >>> angle_precision_position([1.0, 0.01]), angle_precision_position([1.0, 0.01], "bfloat16")
    (1048576, 16)
    >>> angle_precision_position([0.125], "float32")  # linear scaling by 8 pushes it 8 times further
    8388608
    """
    dtype = check_choice("dtype", dtype, tuple(SIGNIFICAND_BITS))
    if not (isinstance(tolerance, (int, float)) and math.isfinite(tolerance) and tolerance > 0):
        raise ValueError(f"tolerance must be a finite number > 0 (radians), got {tolerance!r}")
    fastest = float(np.max(np.abs(np.asarray(inv_freq, dtype=np.float64)), initial=0.0))
    if fastest == 0.0:
        return None
    exponent = math.ceil(SIGNIFICAND_BITS[dtype] + math.log2(tolerance))
    return math.ceil(2.0**exponent / fastest)


def _ranges(indices: list[int]) -> str:
    """Layer indices as ranges: ``[0, 1, 2, 4]`` -> ``"0-2, 4"``; a long regular pattern elided.

    Examples
    --------
    >>> _ranges([0, 1, 2, 4]), _ranges(list(range(3, 48, 4)))  # five or more regular runs are elided
    ('0-2, 4', '3, 7, ..., 47')
    >>> _ranges([i for i in range(48) if i % 4 != 3])
    '0-2, 4-6, ..., 44-46'
    """
    runs: list[list[int]] = []
    for index in indices:
        if runs and index == runs[-1][1] + 1:
            runs[-1][1] = index
        else:
            runs.append([index, index])
    text = [str(start) if start == stop else f"{start}-{stop}" for start, stop in runs]
    regular = (
        len(runs) >= 5
        and len({stop - start for start, stop in runs}) == 1
        and len({runs[i + 1][0] - runs[i][0] for i in range(len(runs) - 1)}) == 1
    )
    if regular:
        return f"{text[0]}, {text[1]}, ..., {text[-1]}"
    return ", ".join(text)


def _describe(layer: RopeLayer) -> dict[str, Any]:
    row: dict[str, Any] = {
        "kind": layer.kind,
        "layer_type": layer.layer_type,
        "rope_type": layer.rope_type,
        "base": layer.base,
        "rotary_dim": layer.rotary_dim,
        "head_dim": layer.head_dim,
        "layout": layer.layout if layer.kind == "rope" else None,
        "attention_factor": layer.attention_factor if layer.kind == "rope" else None,
        "mrope_section": list(layer.mrope_section) if layer.mrope_section is not None else None,
        "mrope_interleaved": layer.mrope_interleaved if layer.mrope_section is not None else None,
        "score_scale": layer.score_scale,
        "query_temperature": layer.attn_temperature_tuning,
    }
    if layer.kind == "rope":
        assert layer.inv_freq is not None
        turning = layer.inv_freq[layer.inv_freq > 0]
        row["shortest_wavelength"] = float(2 * np.pi / turning.max()) if turning.size else None
        row["longest_wavelength"] = float(2 * np.pi / turning.min()) if turning.size else None
        row["still_pairs"] = int(np.sum(layer.inv_freq == 0))
        row["float32_angle_position"] = angle_precision_position(layer.inv_freq, "float32")
        row["bfloat16_angle_position"] = angle_precision_position(layer.inv_freq, "bfloat16")
    else:
        row.update(
            shortest_wavelength=None,
            longest_wavelength=None,
            still_pairs=0,
            float32_angle_position=None,
            bfloat16_angle_position=None,
        )
    return row


def layer_table(config) -> list[dict[str, Any]]:
    """Every layer of a config, the layers that compute the same thing grouped.

    Parameters
    ----------
    config : dict or str or os.PathLike
        A model's config, as for :func:`~posenc_math.rope_from_config`.

    Returns
    -------
    list of dict
        One row per distinct layer description, in the order of first
        appearance, with the keys ``layers`` (ranges, ``"0-4, 6-10"``),
        ``layer_indices``, ``kind``, ``layer_type``, ``rope_type``, ``base``,
        ``rotary_dim``, ``head_dim``, ``layout``, ``attention_factor``,
        ``mrope_section``, ``mrope_interleaved``, ``score_scale``,
        ``query_temperature`` (Llama 4's NoPE layers), ``shortest_wavelength``
        and ``longest_wavelength`` (positions per turn of the fastest and the
        slowest turning pair, as built at construction), ``still_pairs``
        (pairs with frequency 0), ``float32_angle_position`` and
        ``bfloat16_angle_position`` (:func:`angle_precision_position`), and
        ``notes`` (how transformers reads the config, where it surprises).

    Examples
    --------
    >>> config = {"model_type": "gemma3_text", "num_hidden_layers": 8, "rope_theta": 1000000.0,
    ...           "rope_local_base_freq": 10000.0}
    >>> [(row["layers"], row["layer_type"], row["base"]) for row in layer_table(config)]
    [('0-4, 6-7', 'sliding_attention', 10000.0), ('5', 'full_attention', 1000000.0)]
    """
    groups: dict[tuple, dict[str, Any]] = {}
    for layer in rope_layers(config):
        row = _describe(layer)
        key = tuple((name, repr(value)) for name, value in row.items())
        if key not in groups:
            groups[key] = {"layers": "", "layer_indices": [], **row, "notes": []}
        group = groups[key]
        group["layer_indices"].append(layer.layer)
        for note in layer.notes:
            if note not in group["notes"]:
                group["notes"].append(note)
    rows = list(groups.values())
    for row in rows:
        row["layers"] = _ranges(row["layer_indices"])
    return rows


def _cell(value: float | None, digits: int = 4) -> str:
    """A table cell: ``-`` for none, a count of positions in full, else as :func:`number_words` writes it."""
    if value is None:
        return "-"
    if isinstance(value, (int, np.integer)):
        return f"{value:,}"
    return number_words(value, digits)


#: The columns of :func:`layer_table_cells`.
LAYER_TABLE_HEADER = (
    "layers",
    "kind",
    "type",
    "rope_type",
    "base",
    "rotary/head",
    "layout",
    "attn",
    "λ min",
    "λ max",
    "f32 ±0.05",
    "bf16 ±0.05",
)


def layer_table_cells(rows: list[dict[str, Any]]) -> list[tuple[str, ...]]:
    """:func:`layer_table`'s rows as text cells, the header first (what ``posenc-math check-config`` prints).

    Examples
    --------
    >>> config = {"model_type": "llama4_text", "num_hidden_layers": 4}
    >>> [cells[:3] for cells in layer_table_cells(layer_table(config))]
    [('layers', 'kind', 'type'), ('0-2', 'rope', 'chunked'), ('3', 'nope (T)', 'full')]
    """
    table: list[tuple[str, ...]] = [LAYER_TABLE_HEADER]
    for row in rows:
        kind = row["kind"] + (" (T)" if row["query_temperature"] else "")
        if row["mrope_section"] is not None:
            kind += " M-RoPE " + "/".join(str(n) for n in row["mrope_section"])
            kind += " interleaved" if row["mrope_interleaved"] else ""
        table.append(
            (
                row["layers"],
                kind,
                row["layer_type"].replace("_attention", ""),
                row["rope_type"] or "-",
                _cell(row["base"], 6),
                f"{row['rotary_dim']}/{row['head_dim']}"
                + (f" ({row['still_pairs']} still)" if row["still_pairs"] else ""),
                row["layout"] or "-",
                _cell(row["attention_factor"], 6),
                _cell(row["shortest_wavelength"]),
                _cell(row["longest_wavelength"]),
                _cell(row["float32_angle_position"]),
                _cell(row["bfloat16_angle_position"]),
            )
        )
    return table


def layer_table_markdown(rows: list[dict[str, Any]], *, transposed: bool = False) -> str:
    """:func:`layer_table_cells` as a Markdown table (for a page).

    With ``transposed``, one column per group of layers and one row per
    field: a model has a few groups and the table has twelve fields, so the
    turned table fits a page's text column (the twelve columns scrolled
    sideways even on a laptop) and shows every field.

    Examples
    --------
    >>> rows = layer_table({"model_type": "llama4_text", "num_hidden_layers": 4})
    >>> print(layer_table_markdown(rows).splitlines()[2])
    | 0-2 | rope | chunked | default | 500,000 | 128/128 | interleaved | 1 | 6.283 | 2.559 million | 1,048,576 | 16 |
    >>> print("\\n".join(layer_table_markdown(rows, transposed=True).splitlines()[:4]))
    | layers | 0-2 | 3 |
    |---|---|---|
    | kind | rope | nope (T) |
    | type | chunked | full |
    """
    cells = layer_table_cells(rows)
    if transposed:
        cells = list(zip(*cells, strict=True))
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(cells[0])]
    lines += ["| " + " | ".join(cell.replace("|", "\\|") for cell in row) + " |" for row in cells[1:]]
    return "\n".join(lines)


#: Unit roundoff of each format.
_UNIT = {name: 2.0**-bits for name, bits in SIGNIFICAND_BITS.items()}


def _dump_format(array: np.ndarray) -> str:
    """The float format a dumped array is stored in ("float64", "float32", "float16", "bfloat16")."""
    if array.dtype.kind == "f" and array.dtype.name in SIGNIFICAND_BITS:
        return array.dtype.name
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        return "bfloat16"  # how numpy stores ml_dtypes' bfloat16 without it
    if getattr(array.dtype, "name", "") == "bfloat16":
        return "bfloat16"
    raise TypeError(f"cos and sin must be float arrays (float64, float32, float16, bfloat16), got dtype {array.dtype}")


def _as_float64(array: np.ndarray, name: str) -> np.ndarray:
    if array.dtype.kind == "V" and array.dtype.itemsize == 2:
        try:
            import ml_dtypes
        except ImportError as error:  # pragma: no cover - the precision extra is missing
            raise ImportError(f"{name} is stored as bfloat16: pip install 'posenc-math[precision]'") from error
        array = array.view(ml_dtypes.bfloat16)
    values = np.asarray(array, dtype=np.float64)
    while values.ndim > 2 and values.shape[0] == 1:
        values = values[0]
    if values.ndim != 2:
        raise ValueError(
            f"{name} must have shape (n, columns), with leading axes of length 1 at most; got {array.shape}"
        )
    if not np.isfinite(values).all():
        raise ValueError(f"{name} must be finite (found NaN or infinity)")
    return values


@dataclass(frozen=True)
class CosSinCheck:
    """The result of :func:`check_cos_sin`.

    Parameters
    ----------
    layer : int
    form : str
        How the dump lays out its columns: ``"concatenated"`` (``[angles,
        angles]``, rotary_dim columns), ``"pairs"`` (one column per pair),
        ``"repeated"`` (``[a0, a0, a1, a1, ...]``, Cohere's and GPT-J's
        caches), or ``"unknown"``.
    positions
        The position ids of the rows, an array.
    seq_len : int
    worst_error : float
        Largest ``|dump - exact|`` over cos and sin (inf when the shapes
        differ).
    worst_at : tuple of int or None
        (row, column) of it.
    float32_error : float
        The largest error of the same caches computed the way transformers
        does, in float32 (frequencies and angles rounded to float32, cos and
        sin rounded to the dump's format when that is coarser): the error
        float32 itself makes.
    tolerance : float
        The largest per-entry bound a correct float32 computation stays
        within: ``attention_factor * (8 u32 |p| w + 4 u32 + 4 u)``, ``u32``
        float32's unit roundoff, ``u`` the dump format's.
    agrees : bool
        Every entry within its bound.
    candidates : list of dict
        Each mistake tried: ``name``, ``title``, ``description``,
        ``worst_error``, ``matches`` (every entry within the bounds), sorted
        by worst error.
    explanation : str or None
        The name of the matching mistake with the smallest worst error, when
        the dump does not agree.
    """

    layer: int
    form: str
    positions: np.ndarray
    seq_len: int
    worst_error: float
    worst_at: tuple[int, int] | None
    float32_error: float
    tolerance: float
    agrees: bool
    candidates: list[dict[str, Any]] = field(default_factory=list)
    explanation: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: positions as a list, numbers as Python floats."""
        return {
            "layer": self.layer,
            "form": self.form,
            "n_positions": int(self.positions.shape[-1]),
            "seq_len": self.seq_len,
            "worst_error": self.worst_error,
            "worst_at": list(self.worst_at) if self.worst_at is not None else None,
            "float32_error": self.float32_error,
            "tolerance": self.tolerance,
            "agrees": self.agrees,
            "candidates": self.candidates,
            "explanation": self.explanation,
        }


def _float32_caches(layer: RopeLayer, positions: np.ndarray, seq_len: int, dump_format: str):
    """cos/sin as transformers computes them: float32 frequencies and angles."""
    inv_freq, factor = layer.frequencies(seq_len=seq_len)
    freqs32 = inv_freq.astype(np.float32)
    if layer.mrope_section is not None:
        rows = np.broadcast_to(positions, (3, positions.shape[-1])) if positions.ndim == 1 else positions
        angles = np.stack([rows[axis].astype(np.float32)[:, None] * freqs32 for axis in range(3)])
        angles = angles[layer._pair_axes(), :, np.arange(inv_freq.shape[0])].T
    else:
        angles = positions.astype(np.float32)[:, None] * freqs32
    cos = (np.cos(angles.astype(np.float64)).astype(np.float32) * np.float32(factor)).astype(np.float64)
    sin = (np.sin(angles.astype(np.float64)).astype(np.float32) * np.float32(factor)).astype(np.float64)
    if dump_format in ("float16", "bfloat16"):
        cos, sin = _rounded(cos, dump_format), _rounded(sin, dump_format)
    return np.concatenate([cos, cos], axis=1), np.concatenate([sin, sin], axis=1)


def _rounded(values: np.ndarray, dump_format: str) -> np.ndarray:
    if dump_format == "float16":
        return values.astype(np.float16).astype(np.float64)
    import ml_dtypes

    return values.astype(ml_dtypes.bfloat16).astype(np.float64)


def _in_form(cat: np.ndarray, form: str) -> np.ndarray:
    half = cat.shape[1] // 2
    if form == "pairs":
        return cat[:, :half]
    if form == "repeated":
        return np.repeat(cat[:, :half], 2, axis=1)
    return cat


def _excess(dump, reference, bound) -> tuple[float, float, tuple[int, int] | None]:
    """(worst |dump - reference|, worst error beyond the bound, where)."""
    if dump.shape != reference.shape:
        return math.inf, math.inf, None
    error = np.abs(dump - reference)
    beyond = error - bound
    where = np.unravel_index(int(np.argmax(error)), error.shape)
    return float(error.max(initial=0.0)), float(beyond.max(initial=-math.inf)), (int(where[0]), int(where[1]))


def check_cos_sin(config, cos, sin, *, positions=None, layer=0, seq_len=None) -> CosSinCheck:
    """Compare dumped cos/sin caches with a layer's exact ones; name the mistake if they differ.

    The dump agrees when every entry is within what a correct float32
    computation can be off by (its ``tolerance``); the error
    float32 itself makes on these caches is reported beside the worst error.
    When the dump does not agree, each mistake of
    :func:`~posenc_math.encodings.rope_mistakes.mistaken_cos_sin` is tried
    with the bound of a pair turning at frequency up to ``max(1, w_max)``
    and a factor up to ``max(1, attention_factor)`` (a mistake may turn
    faster than the layer: Gemma 3's local base on a full layer scaled by
    8), and the matching one with the smallest error is the explanation.

    Parameters
    ----------
    config : dict or str or os.PathLike
        A model's config, as for :func:`~posenc_math.rope_from_config`.
    cos, sin : array_like
        Shape ``(n, columns)`` (leading axes of length 1 are dropped):
        ``rotary_dim`` columns in the concatenated form (or, for an
        interleaved family, each angle twice in a row), or ``rotary_dim / 2``
        columns, one per pair.  float64, float32, float16 or bfloat16.
    positions : array_like, optional
        The position ids of the rows (``(3, n)`` for M-RoPE); default ``0 ..
        n - 1``.
    layer : int, default 0
    seq_len : int, optional
        Default ``floor(max(positions)) + 1``.

    Returns
    -------
    CosSinCheck

    Examples
    --------
    >>> config = {"model_type": "qwen2", "hidden_size": 64, "num_attention_heads": 4, "num_hidden_layers": 2,
    ...           "max_position_embeddings": 64,
    ...           "rope_scaling": {"type": "yarn", "factor": 4.0, "original_max_position_embeddings": 16}}
    >>> cos, sin = rope_from_config(config).cos_sin(range(64))
    >>> check_cos_sin(config, cos, sin).agrees
    True
    >>> result = check_cos_sin(config, cos / cos[0, 0], sin / cos[0, 0])  # the attention factor left out
    >>> result.agrees, result.explanation
    (False, 'missing_attention_factor')
    """
    loaded = load_config(config)
    rope_layer = rope_from_config(loaded, layer=layer)
    if rope_layer.kind != "rope":
        raise ValueError(f"layer {rope_layer.layer} ({rope_layer.layer_type}) is a NoPE layer: it has no cos/sin")
    cos_array, sin_array = np.asarray(cos), np.asarray(sin)
    dump_format = _dump_format(cos_array)
    if _dump_format(sin_array) != dump_format:
        raise TypeError(f"cos and sin must have the same dtype, got {cos_array.dtype} and {sin_array.dtype}")
    dump_cos, dump_sin = _as_float64(cos_array, "cos"), _as_float64(sin_array, "sin")
    if dump_cos.shape != dump_sin.shape:
        raise ValueError(f"cos and sin must have the same shape, got {dump_cos.shape} and {dump_sin.shape}")
    n = dump_cos.shape[0]
    positions = np.arange(n) if positions is None else np.asarray(positions)
    if positions.shape[-1] != n:
        raise ValueError(f"positions give {positions.shape[-1]} rows but cos has {n}")
    exact_cos, exact_sin = rope_layer.cos_sin(positions, seq_len=seq_len)
    if seq_len is None:
        seq_len = max(int(np.floor(positions.max(initial=0))) + 1, 1)
    inv_freq, factor = rope_layer.frequencies(seq_len=seq_len)

    columns = dump_cos.shape[1]
    forms = []
    if columns == rope_layer.rotary_dim:
        forms = ["concatenated"] + (["repeated"] if rope_layer.layout == "interleaved" else [])
    elif 2 * columns == rope_layer.rotary_dim:
        forms = ["pairs"]
    unit32, unit = _UNIT["float32"], _UNIT[dump_format]
    largest = np.abs(positions).max(axis=0) if positions.ndim == 2 else np.abs(positions)
    largest = np.asarray(largest, dtype=np.float64)
    column_bound = factor * (
        8 * unit32 * largest[:, None] * np.concatenate([inv_freq, inv_freq])[None, :] + 4 * unit32 + 4 * unit
    )
    # A mistake can have faster frequencies or a larger factor than the layer
    # (local/global swapped); every rule here keeps the fastest at <= 1.
    row_bound = max(factor, 1.0) * (
        8 * unit32 * largest[:, None] * max(float(inv_freq.max()), 1.0) + 4 * unit32 + 4 * unit
    )
    own_cos, own_sin = _float32_caches(rope_layer, positions, seq_len, dump_format)
    float32_error = float(max(np.abs(own_cos - exact_cos).max(), np.abs(own_sin - exact_sin).max()))

    form, worst, worst_at, agrees = "unknown", math.inf, None, False
    for candidate in forms:
        bound = _in_form(column_bound, candidate)
        cos_error, cos_excess, cos_at = _excess(dump_cos, _in_form(exact_cos, candidate), bound)
        sin_error, sin_excess, sin_at = _excess(dump_sin, _in_form(exact_sin, candidate), bound)
        error = max(cos_error, sin_error)
        if error < worst:
            form, worst = candidate, error
            worst_at = cos_at if cos_error >= sin_error else sin_at
            agrees = max(cos_excess, sin_excess) <= 0
    tolerance = float((_in_form(column_bound, form) if form != "unknown" else row_bound).max())

    candidates: list[dict[str, Any]] = []
    explanation: str | None = None
    if not agrees:
        shapes = ["concatenated", "pairs"] + (["repeated"] if rope_layer.layout == "interleaved" else [])
        bound = np.broadcast_to(row_bound, dump_cos.shape)
        for name, (wrong_cos, wrong_sin) in mistaken_cos_sin(loaded, positions, layer=layer, seq_len=seq_len).items():
            best: tuple[float, float] | None = None
            # wrong_layout's caches are already what the mistaken code dumps
            for shape in ["concatenated"] if name == "wrong_layout" else shapes:
                reference_cos, reference_sin = _in_form(wrong_cos, shape), _in_form(wrong_sin, shape)
                if reference_cos.shape != dump_cos.shape:
                    continue
                cos_error, cos_excess, _ = _excess(dump_cos, reference_cos, bound)
                sin_error, sin_excess, _ = _excess(dump_sin, reference_sin, bound)
                found = (max(cos_excess, sin_excess), max(cos_error, sin_error))
                if best is None or found < best:
                    best = found
            if best is None:
                continue
            known = mistake(name)
            candidates.append(
                {
                    "name": name,
                    "title": known.title,
                    "description": known.description,
                    "worst_error": best[1],
                    "matches": bool(best[0] <= 0),
                }
            )
        candidates.sort(key=lambda item: item["worst_error"])
        matching = [item for item in candidates if item["matches"]]
        explanation = matching[0]["name"] if matching else None
    return CosSinCheck(
        layer=rope_layer.layer,
        form=form,
        positions=positions,
        seq_len=int(seq_len),
        worst_error=float(worst),
        worst_at=worst_at,
        float32_error=float32_error,
        tolerance=tolerance,
        agrees=bool(agrees),
        candidates=candidates,
        explanation=explanation,
    )
