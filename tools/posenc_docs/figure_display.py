"""In the notebooks' kernels: every matplotlib figure is sent twice, for wide screens and for phones.

A figure drawn 8 inches wide at 100 dpi and shown in a phone's 358 px column
shrinks to 45%, and its 10 pt labels to 6 px.  :func:`install` (run in each
kernel by ``kernel_startup.py``, which ``posenc_docs.figures`` names in
``PYTHONSTARTUP``) makes IPython display each figure as one output that
holds two PNG images:

- the **wide** rendering, the figure as drawn, its text raised where furo's
  laptop column (:data:`LAPTOP_COLUMN_PX`) would shrink it below
  :data:`MIN_LAPTOP_LABEL_PX` (:func:`laptop_figure`);
- the **phone** rendering, the same figure laid out again at most
  :data:`PHONE_WIDTH` inches wide, every text at least as large as a 9 px
  label needs on the narrowest phone column (:data:`NARROWEST_COLUMN_PX`),
  at 1.5 times the resolution (:data:`PHONE_DPI`) for phones' dense screens,
  carried inside the wide PNG, in a private chunk (:data:`PHONE_CHUNK`), which
  image viewers skip (so Jupyter shows the wide rendering, and the phone one
  reaches Sphinx with the output whether MyST-NB ran the notebook or took
  its outputs from its cache).

Each PNG says what it is in three text chunks: ``posenc-rendering`` (``wide``
or ``phone``), ``posenc-label-px``, the size of its smallest text in the
image's own pixels (font size in points x dpi / 72), and
``posenc-collisions``, the texts that cover another text or another panel
as drawn (:func:`text_collisions`; empty when none do).  ``posenc_docs.figures``
takes the phone rendering out of the wide file, writes both beside MyST-NB's
file and joins the pair into one ``<picture>`` (the browser picks the phone file on a narrow screen), and
``tests/site`` multiplies ``posenc-label-px`` by the
scale the browser draws the image at to get the label size a reader sees.

This module needs matplotlib and IPython only when a figure is displayed.
"""

from __future__ import annotations

import base64
import io
import math
import pickle
from typing import Any

__all__ = [
    "COLLISIONS_KEY",
    "LABEL_KEY",
    "LAPTOP_COLUMN_PX",
    "MIN_LABEL_PX",
    "MIN_LAPTOP_LABEL_PX",
    "NARROWEST_COLUMN_PX",
    "PHONE_CHUNK",
    "PHONE_DPI",
    "PHONE_WIDTH",
    "RENDERING_KEY",
    "embed_phone",
    "install",
    "label_css_px",
    "laptop_figure",
    "laptop_png",
    "phone_figure",
    "phone_png",
    "png_text",
    "render_png",
    "smallest_text_points",
    "split_phone",
    "text_collisions",
]

#: The private PNG chunk that carries the phone rendering inside the wide one (ancillary,
#: private, safe to copy: viewers ignore it).
PHONE_CHUNK = b"phOn"
#: PNG text chunk: ``wide`` or ``phone``.
RENDERING_KEY = "posenc-rendering"
#: PNG text chunk: the smallest text's font size in the image's pixels.
LABEL_KEY = "posenc-label-px"
#: PNG text chunk: texts that cover one another or another panel, as drawn (:func:`text_collisions`).
COLLISIONS_KEY = "posenc-collisions"
#: The smallest label a reader should see, in CSS px (issue 24).
MIN_LABEL_PX = 9.0
#: The smallest label on a laptop, in CSS px: a laptop is read from further away than a phone, and
#: labels of 9.4 and 10.3 px beside the page's 16 px text read as small print there (issue 24).
#: 11 px is four fifths of matplotlib's tick labels at their own size (10 pt at 100 dpi: 13.9 px).
MIN_LAPTOP_LABEL_PX = 11.0
#: furo's text column on a laptop (46em): a wider figure is shown shrunk to it.
LAPTOP_COLUMN_PX = 736.0
#: The text column of a 360 px phone (furo: 1em margins each side).
NARROWEST_COLUMN_PX = 328.0
#: Widest phone rendering, in inches.
PHONE_WIDTH = 4.5
#: Resolution of the phone rendering (1.5 times the site's 100 dpi: phones' screens are dense).
PHONE_DPI = 150


def smallest_text_points(figure) -> float:
    """Font size (points) of the smallest visible, non-empty text of a drawn ``figure``.

    Tick labels exist only once the figure is drawn, so draw it first.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("agg")
    >>> import matplotlib.pyplot as plt
    >>> figure, axes = plt.subplots()
    >>> _ = axes.set_title("t", fontsize=12); _ = axes.text(0.5, 0.5, "x", fontsize=7)
    >>> figure.canvas.draw()
    >>> smallest_text_points(figure)
    7.0
    >>> plt.close(figure)
    """
    from matplotlib.text import Text

    sizes = [text.get_fontsize() for text in figure.findobj(Text) if text.get_visible() and text.get_text().strip()]
    return float(min(sizes, default=math.inf))


def _drawn_texts(figure) -> list:
    """The texts ``figure`` draws (visible, not empty), in drawing order, after drawing it once.

    Axes draw only the ticks inside their view limits; other tick labels keep
    stale places, so the texts are the ones whose ``draw`` ran.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.text import Text

    if not hasattr(figure.canvas, "get_renderer"):
        FigureCanvasAgg(figure)  # an unpickled copy has no drawing canvas
    drawn: list = []
    original = Text.draw

    def recording_draw(self, renderer):
        if self.get_visible() and self.get_text().strip() and self not in drawn:
            drawn.append(self)
        return original(self, renderer)

    Text.draw = recording_draw  # type: ignore[method-assign]
    try:
        figure.canvas.draw()
    finally:
        Text.draw = original  # type: ignore[method-assign]
    return drawn


def text_collisions(figure, tolerance: float = 1.0) -> list[str]:
    """Texts of ``figure`` that, as drawn, cover another text or another panel, and legends on their curves.

    Two texts collide when their boxes overlap by more than ``tolerance``
    pixels each way; a text collides with a panel (axes, colour bar
    included) that is not its own when it reaches more than ``tolerance``
    pixels into it (a title under its neighbour's colour bar is cut there).
    Panels drawn without axes (``axis("off")``) are not obstacles.  A legend
    inside its panel collides with the curves when a drawn point of one of the
    panel's lines falls inside its drawn part (inside its border padding, and
    ``tolerance`` pixels more).

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("agg")
    >>> import matplotlib.pyplot as plt
    >>> figure = plt.figure(figsize=(4, 2))
    >>> panel, bar = figure.add_axes((0.1, 0.1, 0.4, 0.6)), figure.add_axes((0.55, 0.1, 0.05, 0.85))
    >>> for axes in (panel, bar):
    ...     _ = axes.set_xticks([]), axes.set_yticks([])
    >>> _ = panel.set_title("a title wider than its panel")
    >>> text_collisions(figure)
    ["'a title wider than its panel' reaches into another panel"]
    >>> _ = panel.set_title("short")
    >>> text_collisions(figure)
    []
    >>> plt.close(figure)
    """
    texts = _drawn_texts(figure)
    renderer = figure.canvas.get_renderer()
    boxes = [(text, text.get_window_extent(renderer)) for text in texts]
    panels = [axes for axes in figure.axes if axes.get_visible() and axes.axison]
    panel_boxes = [(axes, axes.get_window_extent(renderer)) for axes in panels]

    def overlap(first, second) -> bool:
        width = min(first.x1, second.x1) - max(first.x0, second.x0)
        height = min(first.y1, second.y1) - max(first.y0, second.y0)
        return width > tolerance and height > tolerance

    problems = []
    for axes in panels:
        legend = axes.get_legend()
        if legend is None or not legend.get_visible():
            continue
        # its drawn part: the box less its border padding (empty when the legend has no frame)
        padding = legend.borderpad * legend.prop.get_size_in_points() * figure.dpi / 72
        inside = _points_inside(axes, legend.get_window_extent(renderer).padded(-padding - tolerance))
        if inside:
            name = axes.get_title() or axes.get_label() or "a panel"
            problems.append(f"the legend of {name!r} lies on {inside} points of its curves")
    for index, (text, box) in enumerate(boxes):
        for other, other_box in boxes[index + 1 :]:
            if overlap(box, other_box):
                problems.append(f"{text.get_text()!r} overlaps {other.get_text()!r}")
        own = text.axes
        for axes, panel in panel_boxes:
            if axes is own or (own is not None and _same_panel(own, axes)):
                continue
            if overlap(box, panel):
                problems.append(f"{text.get_text()!r} reaches into another panel")
                break
    return problems


def _points_inside(axes, box) -> int:
    """How many drawn points of the lines of ``axes`` (inside its view) fall inside ``box`` (display pixels)."""
    import numpy as np

    view = axes.get_window_extent()
    count = 0
    for line in axes.get_lines():
        if not line.get_visible():
            continue
        xy = line.get_transform().transform(np.asarray(line.get_xydata(), dtype=float))
        xy = xy[np.isfinite(xy).all(axis=1)]
        shown = (xy[:, 0] >= view.x0) & (xy[:, 0] <= view.x1) & (xy[:, 1] >= view.y0) & (xy[:, 1] <= view.y1)
        xy = xy[shown]
        count += int(((xy[:, 0] > box.x0) & (xy[:, 0] < box.x1) & (xy[:, 1] > box.y0) & (xy[:, 1] < box.y1)).sum())
    return count


def _same_panel(first, second) -> bool:
    """Whether two axes draw one panel (twin axes share their place)."""
    return first.get_position().bounds == second.get_position().bounds


def _raise_text(figure, smallest: float) -> None:
    """Every text of ``figure`` at least ``smallest`` points (tick labels through their axes)."""
    from matplotlib.text import Text

    for axes in figure.axes:
        for axis, name in ((axes.xaxis, "x"), (axes.yaxis, "y")):
            labels = [*axis.get_majorticklabels(), *axis.get_minorticklabels()]
            size = min((label.get_fontsize() for label in labels), default=smallest)
            if size < smallest:
                axes.tick_params(axis=name, which="both", labelsize=smallest)
    for text in figure.findobj(Text):
        if text.get_fontsize() < smallest:
            text.set_fontsize(smallest)


#: Panels side by side in a phone rendering, at most (more go on further rows).
PHONE_COLUMNS = 2


def _regrid(figure) -> bool:
    """Panels of a grid wider than :data:`PHONE_COLUMNS` moved onto more rows (colour bars follow
    their panels through the layout engine).  Only plain grids (one cell per panel) are changed;
    three panels or fewer become one column.  Returns whether the figure changed."""
    from matplotlib.gridspec import GridSpec

    panels = [axes for axes in figure.axes if axes.get_label() != "<colorbar>" and axes.get_subplotspec()]
    if not panels:
        return False
    grid = panels[0].get_subplotspec().get_gridspec()
    rows, columns = grid.get_geometry()
    if columns <= PHONE_COLUMNS:
        return False
    cells = []
    for axes in panels:
        spec = axes.get_subplotspec()
        if spec.get_gridspec() is not grid or spec.num1 != spec.num2:
            return False  # a panel spanning cells, or another grid: left as drawn
        cells.append((spec.num1, axes))
    shown = [axes for _, axes in sorted(cells, key=lambda cell: cell[0]) if axes.get_visible()]
    new_columns = 1 if len(shown) <= 3 else PHONE_COLUMNS
    new_rows = -(-len(shown) // new_columns)
    new_grid = GridSpec(new_rows, new_columns, figure=figure)
    # A label every panel shares is written once, on the new outer row or
    # column; labels that differ (one per dial, one per row of the wide grid)
    # stay on their own panels: copying the first to all relabelled the
    # home page's dials (every row "t = 1", every dial the first one's angle).
    xlabels = {axes.get_xlabel() for axes in shown} - {""}
    ylabels = {axes.get_ylabel() for axes in shown} - {""}
    xlabel = xlabels.pop() if len(xlabels) == 1 else None
    ylabel = ylabels.pop() if len(ylabels) == 1 else None
    for index, axes in enumerate(shown):
        first_column, last_row = (
            index % new_columns == 0,
            index // new_columns == new_rows - 1 or (index + new_columns >= len(shown)),
        )
        axes.set_subplotspec(new_grid[index // new_columns, index % new_columns])
        if axes.get_shared_y_axes().get_siblings(axes)[1:]:
            axes.tick_params(labelleft=first_column)
        if axes.get_shared_x_axes().get_siblings(axes)[1:]:
            axes.tick_params(labelbottom=last_row)
        if xlabel is not None:
            axes.set_xlabel(xlabel if last_row else "")
        if ylabel is not None:
            axes.set_ylabel(ylabel if first_column else "")
    for axes in panels:
        if not axes.get_visible():
            figure.delaxes(axes)
    width, height = figure.get_size_inches()
    figure.set_size_inches(width, height / rows * new_rows * (2.0 if new_columns == 1 else 1.3))
    return True


def _copy(figure):
    """A copy of ``figure`` to change (through pickle, as matplotlib supports), off pyplot's list."""
    import matplotlib.pyplot as plt

    copy = pickle.loads(pickle.dumps(figure))
    plt.close(copy)  # unpickling registers a pyplot figure: the inline backend must not show it too
    return copy


def phone_figure(figure):
    """A copy of ``figure`` laid out for a phone (the original is not changed).

    Panels side by side on more than :data:`PHONE_COLUMNS` columns go onto
    more rows (:func:`_regrid`); at most :data:`PHONE_WIDTH` inches wide, as
    tall as before (taller when panels moved), and every
    text at least ``MIN_LABEL_PX * 72 * width / NARROWEST_COLUMN_PX``
    points, so it shows at 9 CSS px or more in a 328 px column (cropping
    to the drawn area can make the image a little wider: :func:`phone_png`
    checks).  The layout engine (constrained layout here) places the axes
    again.
    """
    copy = _copy(figure)
    _regrid(copy)
    width, height = copy.get_size_inches()
    new_width = min(width, PHONE_WIDTH)
    copy.set_size_inches(new_width, height)
    _raise_text(copy, MIN_LABEL_PX * 72 * new_width / NARROWEST_COLUMN_PX)
    return copy


def laptop_figure(figure):
    """``figure`` as a laptop shows it: itself when its smallest text shows at
    :data:`MIN_LAPTOP_LABEL_PX` or more in furo's :data:`LAPTOP_COLUMN_PX` column; otherwise a copy
    (the original is not changed) with every text raised to that size, and laid out again.

    A figure drawn 10.6 inches wide (ten small panels) is shown at 70% in the
    736 px column, its 7 pt legend at 6.8 px; the copy's legend is 11.4 pt.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("agg")
    >>> import matplotlib.pyplot as plt
    >>> figure, axes = plt.subplots(figsize=(10.6, 2), layout="constrained")
    >>> _ = axes.legend(handles=axes.plot([0, 1], label="line"), fontsize=7)
    >>> shown = laptop_figure(figure)
    >>> shown is not figure, round(shown.axes[0].get_legend().get_texts()[0].get_fontsize(), 1)
    (True, 11.4)
    >>> small, _ = plt.subplots(figsize=(4, 2))
    >>> laptop_figure(small) is small
    True
    >>> plt.close("all")
    """
    width_px = figure.get_size_inches()[0] * figure.dpi
    needed = MIN_LAPTOP_LABEL_PX * max(width_px / LAPTOP_COLUMN_PX, 1.0) * 72 / figure.dpi
    figure.canvas.draw()  # tick labels exist once drawn
    if smallest_text_points(figure) >= needed - 1e-9:
        return figure
    copy = _copy(figure)
    _raise_text(copy, needed)
    return copy


def laptop_png(figure, description: str | None = None) -> bytes:
    """The wide rendering of ``figure`` as PNG bytes, at the figure's dpi, its smallest text at least
    :data:`MIN_LAPTOP_LABEL_PX` in the laptop's column: the figure as drawn when it already is (drawn once,
    the common case), else :func:`laptop_figure`'s copy, raised again if cropping made the image wider
    than drawn."""
    png = render_png(figure, rendering="wide", dpi=figure.dpi, description=description)
    if label_css_px(png, LAPTOP_COLUMN_PX) >= MIN_LAPTOP_LABEL_PX - 0.01:
        return png
    shown = laptop_figure(figure)
    if shown is figure:  # large enough as drawn, too small once cropped
        shown = _copy(figure)
    for _ in range(3):
        png = render_png(shown, rendering="wide", dpi=figure.dpi, description=description)
        css_px = label_css_px(png, LAPTOP_COLUMN_PX)
        if css_px >= MIN_LAPTOP_LABEL_PX - 0.01:
            break
        _raise_text(shown, smallest_text_points(shown) * MIN_LAPTOP_LABEL_PX / css_px * 1.01)
    return png


def label_css_px(png: bytes, column_px: float = NARROWEST_COLUMN_PX) -> float:
    """The smallest text of a rendering (PNG with :data:`LABEL_KEY`) in CSS px, shown ``column_px`` wide
    (or at its own size, one pixel per CSS px at 100 dpi, when that is narrower)."""
    import struct

    width = struct.unpack(">I", png[16:20])[0]
    chunks = png_text(png)
    css_width = width * 100 / (PHONE_DPI if chunks.get(RENDERING_KEY) == "phone" else 100)
    return float(chunks[LABEL_KEY]) * min(column_px, css_width) / width


def phone_png(figure) -> bytes:
    """The phone rendering of ``figure`` as PNG bytes, its smallest text at
    least :data:`MIN_LABEL_PX` in the narrowest column (text made larger and
    drawn again if cropping made the image wider than planned)."""
    copy = phone_figure(figure)
    for _ in range(3):
        png = render_png(copy, rendering="phone", dpi=PHONE_DPI)
        shown = label_css_px(png)
        if shown >= MIN_LABEL_PX:
            break
        _raise_text(copy, smallest_text_points(copy) * MIN_LABEL_PX / shown * 1.01)
    return png


def render_png(figure, *, rendering: str, dpi: float, description: str | None = None) -> bytes:
    """``figure`` as PNG bytes, cropped as IPython crops figures, with the two text chunks
    (and a ``Description`` chunk when ``description`` is given: the alt text ``posenc_docs.figure_alt`` reads)."""
    collisions = text_collisions(figure)  # draws it: lays out and makes the tick labels
    points = smallest_text_points(figure)
    metadata = {RENDERING_KEY: rendering, LABEL_KEY: f"{points * dpi / 72:.2f}", COLLISIONS_KEY: "; ".join(collisions)}
    if description is not None:
        metadata["Description"] = description
    buffer = io.BytesIO()
    figure.savefig(
        buffer,
        format="png",
        dpi=dpi,
        bbox_inches="tight",
        facecolor=figure.get_facecolor(),
        edgecolor=figure.get_edgecolor(),
        metadata=metadata,
    )
    return buffer.getvalue()


def png_text(data: bytes) -> dict[str, str]:
    """The ``tEXt`` chunks of a PNG file, as a dict.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("agg")
    >>> import matplotlib.pyplot as plt
    >>> figure, axes = plt.subplots(figsize=(2, 1))
    >>> _ = axes.plot([0, 1])
    >>> chunks = png_text(render_png(figure, rendering="wide", dpi=100))
    >>> chunks[RENDERING_KEY], float(chunks[LABEL_KEY]) == round(10 * 100 / 72, 2)
    ('wide', True)
    >>> plt.close(figure)
    """
    import struct
    import zlib

    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("data is not a PNG file (no PNG signature)")
    chunks, offset = {}, 8
    while offset + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[offset : offset + 8])
        body = data[offset + 8 : offset + 8 + length]
        if kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            chunks[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"zTXt":
            key, _, rest = body.partition(b"\0")
            chunks[key.decode("latin-1")] = zlib.decompress(rest[1:]).decode("latin-1")
        elif kind == b"IEND":
            break
        offset += 12 + length
    return chunks


def _chunks(png: bytes) -> list[tuple[bytes, bytes, bytes]]:
    """The chunks of a PNG file: (type, data, the chunk's bytes as stored)."""
    import struct

    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("data is not a PNG file (no PNG signature)")
    chunks, offset = [], 8
    while offset + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[offset : offset + 8])
        chunks.append((kind, png[offset + 8 : offset + 8 + length], png[offset : offset + 12 + length]))
        offset += 12 + length
    return chunks


def embed_phone(wide: bytes, phone: bytes) -> bytes:
    """The wide PNG with the phone PNG in a :data:`PHONE_CHUNK` chunk before its end.

    Examples
    --------
    >>> import matplotlib
    >>> matplotlib.use("agg")
    >>> import matplotlib.pyplot as plt
    >>> figure, axes = plt.subplots(figsize=(2, 1))
    >>> wide, phone = render_png(figure, rendering="wide", dpi=50), render_png(figure, rendering="phone", dpi=75)
    >>> split_phone(embed_phone(wide, phone)) == (wide, phone), split_phone(wide) == (wide, None)
    (True, True)
    >>> plt.close(figure)
    """
    import struct
    import zlib

    chunk = struct.pack(">I", len(phone)) + PHONE_CHUNK + phone + struct.pack(">I", zlib.crc32(PHONE_CHUNK + phone))
    end = wide.rindex(b"IEND") - 4
    return wide[:end] + chunk + wide[end:]


def split_phone(png: bytes) -> tuple[bytes, bytes | None]:
    """``(the PNG without its phone rendering, the phone PNG or None)``."""
    chunks = _chunks(png)
    phone = next((data for kind, data, _ in chunks if kind == PHONE_CHUNK), None)
    if phone is None:
        return png, None
    return png[:8] + b"".join(stored for kind, _, stored in chunks if kind != PHONE_CHUNK), phone


def _figure_bundle(figure, include=None, exclude=None) -> dict | None:
    """IPython's mime-bundle formatter for a ``Figure``: the wide rendering with the phone
    rendering inside it (:func:`embed_phone`)."""
    if not figure.axes and not figure.lines:
        return None  # an empty figure: IPython shows nothing either
    # The inline backend registers its own PNG formatter for figures, which
    # IPython would prefer to this bundle's PNG: figures are drawn here only.
    for formatter in _SHELL[0].display_formatter.formatters.values():
        formatter.pop("matplotlib.figure.Figure", None)
        formatter.pop(type(figure), None)
    png = embed_phone(laptop_png(figure), phone_png(figure))
    return {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": repr(figure)}


def _described_figure_bundle(shown, include=None, exclude=None) -> dict:
    """The same for a ``posenc_math.plotting.DescribedFigure``: its figure, its description in the wide PNG."""
    figure = shown.figure
    wide = laptop_png(figure, description=shown.description)
    png = embed_phone(wide, phone_png(figure))
    return {"image/png": base64.b64encode(png).decode("ascii"), "text/plain": repr(shown)}


#: The shell :func:`install` was given (the formatter needs its other formatters).
_SHELL: list[Any] = []


def install(shell) -> None:
    """Display every matplotlib ``Figure`` in ``shell`` (an IPython shell)
    with its phone rendering.  Registered by name, so matplotlib is imported
    only by a notebook that uses it."""
    _SHELL[:] = [shell]
    formatter = shell.display_formatter.mimebundle_formatter
    formatter.for_type_by_name("matplotlib.figure", "Figure", _figure_bundle)
    formatter.for_type_by_name("posenc_math.plotting.model_config", "DescribedFigure", _described_figure_bundle)
