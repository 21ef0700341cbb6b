"""Every notebook the site offers for download runs on its own.

Each ``.ipynb`` linked from a page of the built site is copied into an empty
directory (no ``docs/``, no matplotlibrc, no MyST-NB cache) and executed with
nbclient in a fresh Python 3 kernel that imports the installed package.  One
test per notebook, each in its own temporary directory: parallel-safe.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from posenc_docs.reader import NOTEBOOK_DIR, is_notebook

DOCS = Path(__file__).resolve().parents[2] / "docs"
NOTEBOOK_PAGES = sorted(page.stem for page in DOCS.glob("*.md") if is_notebook(page.read_text(encoding="utf-8")))


def test_there_are_notebook_pages():
    assert len(NOTEBOOK_PAGES) >= 10, NOTEBOOK_PAGES


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_downloaded_notebook_runs_standalone(site_dir, page, tmp_path, monkeypatch):
    import nbclient
    import nbformat

    html = (site_dir / f"{page}.html").read_text(encoding="utf-8")
    link = re.search(r'href="([^"]+\.ipynb)"', html)
    assert link, f"{page}.html links no notebook"
    assert link.group(1) == f"{NOTEBOOK_DIR}/{page}.ipynb"
    notebook_path = tmp_path / f"{page}.ipynb"
    shutil.copyfile(site_dir / link.group(1), notebook_path)
    notebook = nbformat.read(notebook_path, as_version=4)
    nbformat.validate(notebook)
    assert sum(cell.cell_type == "code" for cell in notebook.cells) >= 1
    monkeypatch.setenv("MPLBACKEND", "agg")
    monkeypatch.delenv("MPLCONFIGDIR", raising=False)
    client = nbclient.NotebookClient(
        notebook, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}
    )
    client.execute()  # raises CellExecutionError, with the cell and its traceback, on any failing cell
    errors = [output for cell in notebook.cells for output in cell.get("outputs", []) if output.output_type == "error"]
    assert not errors


def shown_plumbing(source: str) -> list[str]:
    """Code cells of a MyST notebook a reader would see but has no use for: a cell that writes a Markdown
    table (``markdown_format: myst``) with its code shown, a shown cell of only imports and ``glue`` calls, or a
    shown cell that calls ``glue`` among other code (the glue belongs in a removed cell of its own).
    The page is read as jupytext reads it for the build (``md:myst``), options and tags in each cell's metadata.

    Examples
    --------
    >>> front = "---\\njupytext:\\n  text_representation:\\n    format_name: myst\\n---\\n"
    >>> table = front + "```{code-cell} ipython3\\n---\\nmystnb:\\n  markdown_format: myst\\n---\\nMarkdown(t)\\n```\\n"
    >>> shown_plumbing(table)
    ['Markdown(t)']
    >>> shown_plumbing(table.replace("---\\nmystnb", "---\\ntags: [remove-input]\\nmystnb"))
    []
    >>> glue_only = '```{code-cell} ipython3\\nfrom myst_nb import glue\\nglue("n", 3, display=False)\\n```\\n'
    >>> shown_plumbing(front + glue_only)
    ['from myst_nb import glue']
    >>> shown_plumbing(front + "```{code-cell} ipython3\\nimport numpy as np\\nnp.arange(3)\\n```\\n")
    []
    >>> shown_plumbing(front + '```{code-cell} ipython3\\nx = f()\\nglue("x", x, display=False)\\nx\\n```\\n')
    ['x = f()']
    """
    import jupytext

    found = []
    for cell in jupytext.reads(source, fmt="md:myst").cells:
        if cell.cell_type != "code":
            continue
        if any(re.fullmatch(r"(remove|hide)-(input|cell)", tag) for tag in cell.metadata.get("tags", [])):
            continue
        lines = [line for line in cell.source.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        only_setup = all(re.match(r"(import |from \S+ import |glue\()", line) for line in lines)
        writes_table = cell.metadata.get("mystnb", {}).get("markdown_format") == "myst"
        glues = any(re.search(r"(^|[^.\w])glue\(", line) for line in lines)  # glue belongs in a removed cell
        if writes_table or (lines and only_setup) or glues:
            found.append(lines[0] if lines else "")
    return found


@pytest.mark.parametrize("page", NOTEBOOK_PAGES)
def test_no_plumbing_is_shown(page):
    """Readers see the code they would run or copy; tables' Markdown calls and glue-only cells stay hidden."""
    assert not shown_plumbing((DOCS / f"{page}.md").read_text(encoding="utf-8"))
