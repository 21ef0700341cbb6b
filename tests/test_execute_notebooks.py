"""tools/execute_notebooks.py: how executed notebooks are stored for MyST-NB."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import nbformat
from myst_nb.core.utils import coalesce_streams

TOOL = Path(__file__).parents[1] / "tools" / "execute_notebooks.py"
spec = importlib.util.spec_from_file_location("execute_notebooks", TOOL)
assert spec is not None and spec.loader is not None
execute_notebooks = importlib.util.module_from_spec(spec)
spec.loader.exec_module(execute_notebooks)


def _notebook(chunks):
    cell = nbformat.v4.new_code_cell("print('same pieces:', True)")
    cell.outputs = [nbformat.v4.new_output("stream", name=name, text=text) for name, text in chunks]
    cell.outputs.insert(2, nbformat.v4.new_output("display_data", data={"text/plain": "figure"}))
    return nbformat.v4.new_notebook(cells=[cell])


def test_a_line_cut_between_chunks_prints_as_one_line():
    # the kernel flushed in the middle of the first print: "same pieces:" | " True\n"
    cut = _notebook([("stdout", "same pieces:"), ("stdout", " True\n"), ("stderr", "warn\n"), ("stdout", "next\n")])
    whole = _notebook([("stdout", "same pieces: True\n"), ("stdout", "next\n"), ("stderr", "warn\n")])
    for notebook in (cut, whole):
        execute_notebooks.join_streams(notebook)
    texts = [[o.get("text") for o in coalesce_streams(nb.cells[0].outputs)] for nb in (cut, whole)]
    assert texts[0] == texts[1]
    assert texts[0][0] == "same pieces: True\nnext\n"
    # without joining first, MyST-NB's own merge breaks the line where the chunk was cut
    raw = coalesce_streams(_notebook([("stdout", "same pieces:"), ("stdout", " True\n")]).cells[0].outputs)
    assert raw[0]["text"] == "same pieces:\n True\n"
