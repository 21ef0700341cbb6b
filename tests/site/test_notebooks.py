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
