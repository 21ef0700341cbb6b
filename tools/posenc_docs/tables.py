"""Sphinx extension: tables on a phone either fit or say that they scroll.

A table wider than the screen scrolls inside its wrapper (furo's
``div.table-wrapper``), and on a phone nothing showed that: start-here's
comparison of schemes showed three of its six columns.  This extension

- labels every body cell of a table that has one header row with the text
  of its column's header (``data-label`` in HTML, written by
  :class:`posenc_docs.site_html.AccessibleHTMLTranslator`), so a table can
  be laid out as one card per row on a narrow screen, each cell under its
  label (``_static/posenc.css``: tables with the class ``stack-on-phone``,
  and start-here's ``scheme-table``);
- adds ``posenc-tables.js``, which marks a table wrapper ``data-scrolls``
  while its table is wider than it; the CSS then shows a line "Scroll
  sideways for more columns" above the table and shadows on the edges that
  hide columns.  Without JavaScript the edge shadows alone remain (they are
  drawn with ``background-attachment: local``, no script needed).

Enable with ``extensions = [..., "posenc_docs.tables"]``; checked at 390 px
by ``tests/site/test_layout.py``.
"""

from __future__ import annotations

from typing import Any

from docutils import nodes
from sphinx.application import Sphinx

__all__ = ["LABEL", "label_cells", "setup"]

#: Node attribute holding a body cell's column header (``data-label`` in HTML).
LABEL = "posenc_label"


def _spans(entry: nodes.entry) -> bool:
    return bool(entry.get("morecols") or entry.get("morerows"))


def label_cells(table: nodes.table) -> bool:
    """Give each body cell of ``table`` its column's header text (:data:`LABEL`).

    Only tables with exactly one header row and no merged cells are labelled
    (elsewhere a cell's column header is not one text); returns whether the
    table was labelled.

    Examples
    --------
    >>> from docutils import nodes
    >>> def row(*texts):
    ...     return nodes.row("", *(nodes.entry("", nodes.paragraph(text=t)) for t in texts))
    >>> table = nodes.table("", nodes.tgroup("", nodes.thead("", row("scheme", "where")),
    ...                                      nodes.tbody("", row("RoPE", "q, k"))))
    >>> label_cells(table), [entry[LABEL] for entry in table.findall(nodes.entry) if LABEL in entry]
    (True, ['scheme', 'where'])
    """
    groups = [group for group in table.children if isinstance(group, nodes.tgroup)]
    if len(groups) != 1:
        return False
    heads = [child for child in groups[0].children if isinstance(child, nodes.thead)]
    bodies = [child for child in groups[0].children if isinstance(child, nodes.tbody)]
    if len(heads) != 1 or len(heads[0].children) != 1 or not bodies:
        return False
    header = [entry for entry in heads[0].children[0].children if isinstance(entry, nodes.entry)]
    if any(_spans(entry) for entry in header):
        return False
    labels = [" ".join(entry.astext().split()) for entry in header]
    rows = [row for body in bodies for row in body.children if isinstance(row, nodes.row)]
    cells = [[entry for entry in row.children if isinstance(entry, nodes.entry)] for row in rows]
    if any(len(row) != len(labels) or any(_spans(entry) for entry in row) for row in cells):
        return False
    for row in cells:
        for entry, text in zip(row, labels, strict=True):
            entry[LABEL] = text
    return True


def label_tables(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    """``doctree-resolved``: label the cells of every table of an HTML page."""
    if app.builder.format != "html":
        return
    for table in doctree.findall(nodes.table):
        label_cells(table)


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the handler and the script."""
    app.connect("doctree-resolved", label_tables)
    app.add_js_file("posenc-tables.js", loading_method="defer")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
