"""posenc_math.sphinx_notebooks: notebooks run beside Sphinx, stored for MyST-NB, read when done."""

from __future__ import annotations

import os
import re
from pathlib import Path

import nbformat
import pytest
from jupyter_cache import get_cache
from myst_nb.core.utils import coalesce_streams

from posenc_math import sphinx_notebooks


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
        sphinx_notebooks.join_streams(notebook)
    texts = [[o.get("text") for o in coalesce_streams(nb.cells[0].outputs)] for nb in (cut, whole)]
    assert texts[0] == texts[1]
    assert texts[0][0] == "same pieces: True\nnext\n"
    # without joining first, MyST-NB's own merge breaks the line where the chunk was cut
    raw = coalesce_streams(_notebook([("stdout", "same pieces:"), ("stdout", " True\n")]).cells[0].outputs)
    assert raw[0]["text"] == "same pieces:\n True\n"


def _page(path: Path, code: str | None, title: str = "A page") -> Path:
    """A MyST page; a notebook (with a kernel) when it has ``code``."""
    head = (
        "---\nfile_format: mystnb\nkernelspec:\n  name: python3\n  display_name: Python 3\n---\n"
        if code is not None
        else ""
    )
    cell = f"\n```{{code-cell}} ipython3\n{code}\n```\n" if code is not None else ""
    path.write_text(f"{head}# {title}\n{cell}", encoding="utf-8")
    return path


def test_a_page_is_a_notebook_when_myst_nb_reads_it_as_one(tmp_path):
    assert sphinx_notebooks.is_notebook(_page(tmp_path / "a.md", "print(1)"))
    assert not sphinx_notebooks.is_notebook(_page(tmp_path / "b.md", None))
    nbformat.write(nbformat.v4.new_notebook(), tmp_path / "c.ipynb")
    assert sphinx_notebooks.is_notebook(tmp_path / "c.ipynb")
    assert not sphinx_notebooks.is_notebook(tmp_path / "d.rst")


def test_run_notebooks_reports_each_and_stores_only_those_that_ran(tmp_path):
    good = str(_page(tmp_path / "good.md", "print('from the kernel')"))
    bad = str(_page(tmp_path / "bad.md", "1 / 0"))
    cache = str(tmp_path / "cache")
    reports: list[str] = []
    sphinx_notebooks.run_notebooks(cache, [good, bad], jobs=2, report=reports.append)
    kinds = {line.split("\t")[1]: line.split("\t")[0] for line in reports}
    assert kinds == {good: "executed", bad: "failed"}
    assert "ZeroDivisionError" in next(line for line in reports if line.startswith("failed"))
    stored = get_cache(cache).match_cache_notebook(sphinx_notebooks.read_notebook(good))
    outputs = get_cache(cache).get_cache_bundle(stored.pk).nb.cells[0].outputs
    assert outputs[0]["text"] == "from the kernel\n"
    reports.clear()
    sphinx_notebooks.run_notebooks(cache, [good], jobs=2, report=reports.append)
    assert reports == [f"cached\t{good}"]  # found in the cache: not run again


FIGURE = """import io
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

def new_figure(figure):
    draws = []
    axes = figure.subplots()
    axes.plot([0, 1])
    axes.set_title("a title")
    figure.canvas.mpl_connect("draw_event", lambda event: draws.append(event))
    return draws

saved = Figure(layout="constrained")
saved_draws = new_figure(saved)
saved.savefig(io.BytesIO(), format="png", bbox_inches="tight")
shown_draws = new_figure(plt.figure(layout="constrained"))"""


def test_a_figure_is_drawn_as_often_as_savefig_draws_it_and_the_namespace_stays_clean(tmp_path):
    # The inline backend draws a cell's figure into its PNG; pyplot's own
    # redraw after the cell (thrown away) is what KERNEL_SETUP takes out.
    cells = [FIGURE, "print(len(saved_draws), len(shown_draws), sorted(n for n in dir() if n.startswith('_m')))"]
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code) for code in cells])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    path = str(tmp_path / "figure.ipynb")
    _, notebook, _, error = sphinx_notebooks.execute(path, notebook, 60, None)
    assert error is None
    figure_outputs, printed = (cell.outputs for cell in notebook.cells)
    assert [output["output_type"] for output in figure_outputs] == ["display_data"]
    assert "image/png" in figure_outputs[0]["data"]
    saved, shown, leftovers = printed[0]["text"].split(" ", 2)
    assert int(saved) >= 1
    assert shown == saved  # three without KERNEL_SETUP
    assert leftovers.strip() == "[]"  # neither _mpl nor _plt stays behind


CONF = """
extensions = ["myst_nb", "posenc_math.sphinx_notebooks"]
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
exclude_patterns = ["_build"]
"""


@pytest.fixture
def project(tmp_path):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    (source / "index.md").write_text("# Index\n\n```{toctree}\nfirst\nprose\nsecond\n```\n", encoding="utf-8")
    _page(source / "first.md", "print('first ran')", "First")
    _page(source / "prose.md", None, "Prose")
    _page(source / "second.md", "print('second ran')", "Second")
    return source


def _warnings(app) -> list[str]:
    """The build's warnings, but for docutils' global registrations, which a
    test process that runs several Sphinx applications makes again."""
    return [line for line in app.warning.getvalue().splitlines() if " is already registered" not in line]


def _build(make_app, source, **kwargs):
    app = make_app("html", srcdir=source, **kwargs)
    order: list[str] = []
    app.connect("source-read", lambda app, docname, text: order.append(docname))
    try:
        app.build()
    finally:
        app.cleanup()
    return app, order


def test_sphinx_reads_the_notebooks_last_each_after_the_executor_ran_it(make_app, project):
    app, order = _build(make_app, project)
    assert _warnings(app) == []
    assert order[-2:] in (["first", "second"], ["second", "first"]) and set(order[:-2]) == {"index", "prose"}
    status = app.status.getvalue()
    for name in ("first", "second"):
        assert f"{name} executed in" in status  # by the executor, found in the cache by MyST-NB
        html = (app.outdir / f"{name}.html").read_text(encoding="utf-8")
        assert "cell_output" in html and f"{name} ran\n</pre>" in html
    assert "Executing notebook" not in status  # MyST-NB ran none itself
    # rebuilt after one edit, only that notebook runs again
    _page(project / "second.md", "print('second ran again')", "Second")
    app, order = _build(make_app, project)
    assert order == ["second"] and "second executed in" in app.status.getvalue()


def test_a_notebook_that_fails_fails_the_build_with_its_traceback(make_app, project):
    _page(project / "second.md", "raise ValueError('a broken cell')", "Second")
    app = make_app("html", srcdir=project)
    try:
        with pytest.raises(Exception, match=r"second\.md") as failure:
            app.build()
    finally:
        app.cleanup()
    # MyST-NB ran it again itself, and its error carries the cell's traceback
    assert "second failed in the notebook executor" in app.status.getvalue()
    traceback = re.sub(r"\x1b\[[0-9;]*m", "", str(failure.value.__cause__))  # without the colours
    assert "raise ValueError('a broken cell')" in traceback and "ValueError: a broken cell" in traceback


def test_other_execution_modes_are_left_alone(make_app, project):
    app, order = _build(make_app, project, confoverrides={"nb_execution_mode": "off"})
    assert order[:1] == ["first"] or order.index("first") < order.index("second")
    assert "executed in" not in app.status.getvalue()
    assert "cell_output" not in (app.outdir / "first.html").read_text(encoding="utf-8")  # not run


def test_a_build_without_a_saved_environment_starts_the_executor_at_setup(make_app, project):
    app = make_app("html", srcdir=project)
    try:
        (executor,) = sphinx_notebooks._EXECUTOR  # before anything is read
        assert executor.process.args[-2:] == ["--warm-in", str(project)]
        app.build()
    finally:
        app.cleanup()
    assert sphinx_notebooks._EXECUTOR == [] and executor.process.returncode == 0
    app = make_app("html", srcdir=project)  # the environment is saved now: nothing starts early
    try:
        assert sphinx_notebooks._EXECUTOR == []
        app.build()
    finally:
        app.cleanup()


def test_an_executor_started_early_ends_when_there_is_no_notebook_to_run(make_app, project):
    for name in ("first", "second"):
        _page(project / f"{name}.md", None, name.title())  # no kernel: plain pages
    app, _ = _build(make_app, project)
    assert _warnings(app) == [] and "executed in" not in app.status.getvalue()
    assert sphinx_notebooks._EXECUTOR == []


def test_the_list_ends_at_an_empty_line_though_a_copy_of_the_pipe_stays_open():
    # A process Sphinx forks later (sphinx-sitemap's manager) holds a copy of
    # the writing end: the executor cannot wait for the end of the stream.
    reading, writing = os.pipe()
    copy = os.dup(writing)
    try:
        os.write(writing, b"/docs/a.md\n/docs/b.md\n\n")
        os.close(writing)
        assert sphinx_notebooks._read_paths(reading) == ["/docs/a.md", "/docs/b.md"]
        os.write(copy, b"\n")
        assert sphinx_notebooks._read_paths(reading) == []  # nothing to run
    finally:
        os.close(copy)
        os.close(reading)


def test_with_parallel_reading_every_notebook_is_run_before_sphinx_reads(make_app, project):
    for number in range(4):  # Sphinx reads in parallel from six pages on
        (project / f"more{number}.md").write_text(f"---\norphan: true\n---\n# More {number}\n", encoding="utf-8")
    app, order = _build(make_app, project, parallel=2)
    assert order == []  # every page was read in a forked reader: none in this process
    assert _warnings(app) == []
    status = app.status.getvalue()
    assert "first executed in" in status and "second executed in" in status
    assert "Executing notebook" not in status  # MyST-NB, in the forked readers, found both in the cache
    assert "second ran\n</pre>" in (app.outdir / "second.html").read_text(encoding="utf-8")
