"""A page's outputs do not depend on who ran its notebook.

Two real pages (docs/learned.md: printed text, figures, glued numbers;
docs/alibi.md: figures whose layout depends on how often they are drawn,
theorems) are built twice into byte-identical HTML and images:

- by MyST-NB itself, which runs the notebook (``nb_execution_mode =
  "cache"``, as conf.py sets it, through jupyter-cache's executor);
- from outputs made beforehand by nbclient, the executor ``jupyter nbconvert
  --execute`` uses, and stored in the cache, so MyST-NB only renders them.

The site adds one thing to the kernels: ``posenc_docs.figures`` names
``tools/posenc_docs/kernel_startup.py`` in ``PYTHONSTARTUP``, which makes
each figure display with a second rendering for phones; the nbclient run
gets the same startup file, and both builds use the extension, so the phone
renderings are compared too.  Nothing else (no setup lines, no stream
rewriting): the code runs as in Jupyter, ``jupyter nbconvert`` and the
downloadable notebooks.  The one thing that made two runs differ, a printed
line split where the kernel's flush timer fell, is kept out by the pages
themselves (:func:`test_each_code_cell_prints_once_in_one_piece`).
"""

from __future__ import annotations

import ast
import filecmp
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("learned", "alibi")

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT / "tools")!r})
extensions = ["myst_nb", "sphinx_proof", "posenc_docs.theorem_pages", "posenc_docs.figures"]
nb_execution_mode = "cache"
nb_execution_raise_on_error = True
nb_merge_streams = True
myst_enable_extensions = ["amsmath", "dollarmath", "colon_fence", "deflist"]
html_theme = "basic"
"""


def project(where: Path) -> Path:
    """The real pages, an index, and the docs' matplotlibrc (notebooks run in docs/)."""
    source = where / "src"
    source.mkdir(parents=True)
    (source / "conf.py").write_text(CONF, encoding="utf-8")
    (source / "index.md").write_text("# Pages\n\n```{toctree}\n" + "\n".join(PAGES) + "\n```\n", encoding="utf-8")
    for page in PAGES:
        shutil.copy(ROOT / "docs" / f"{page}.md", source / f"{page}.md")
    shutil.copy(ROOT / "docs" / "matplotlibrc", source / "matplotlibrc")
    return source


def sphinx_build(source: Path, out: Path) -> subprocess.CompletedProcess:
    # Not -W: the page's links to the site's other pages and citations do not resolve here.
    return subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-b",
            "html",
            "-d",
            str(out / "doctrees"),
            str(source),
            str(out / "html"),
        ],
        capture_output=True,
        text=True,
        timeout=600,
        env={"PATH": "", "PYTHONHASHSEED": "0", "SOURCE_DATE_EPOCH": "0", "HOME": str(source)},
    )


def run_with_nbclient(source: Path, cache: Path, **client_options) -> None:
    """Execute the pages with nbclient and put the results where MyST-NB looks for them."""
    import os

    startup = os.environ.get("PYTHONSTARTUP")
    os.environ["PYTHONSTARTUP"] = str(ROOT / "tools" / "posenc_docs" / "kernel_startup.py")  # as the site's kernels
    try:
        _execute(source, cache, **client_options)
        from posenc_docs import figures

        figures.stamp_cache(cache)  # filled by the same kernel code MyST-NB's kernels run
    finally:
        if startup is None:
            os.environ.pop("PYTHONSTARTUP", None)
        else:
            os.environ["PYTHONSTARTUP"] = startup


def _execute(source: Path, cache: Path, **client_options) -> None:
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    from myst_nb.core.read import myst_nb_reader_plugin
    from nbclient import NotebookClient

    for page in PAGES:
        path = str(source / f"{page}.md")
        notebook = myst_nb_reader_plugin(path)
        # record_timing=False: timestamps in the cells' metadata would change the notebook's cache key
        client = NotebookClient(
            notebook,
            kernel_name="python3",
            resources={"metadata": {"path": str(source)}},
            record_timing=False,
            **client_options,
        )
        client.execute()
        get_cache(str(cache)).cache_notebook_bundle(CacheBundleIn(notebook, path), overwrite=True)


def built_both_ways(tmp_path: Path, **client_options) -> tuple[Path, Path]:
    """The html directories of the two builds (MyST-NB ran the notebooks; nbclient did)."""
    by_myst = tmp_path / "myst"
    source = project(by_myst)
    run = sphinx_build(source, by_myst / "_build")
    assert run.returncode == 0, run.stderr[-3000:]
    by_nbclient = tmp_path / "nbclient"
    source = project(by_nbclient)
    run_with_nbclient(source, by_nbclient / "_build" / ".jupyter_cache", **client_options)  # MyST-NB's default
    run = sphinx_build(source, by_nbclient / "_build")
    assert run.returncode == 0, run.stderr[-3000:]
    log = run.stdout + run.stderr
    assert "Executing notebook" not in log, "MyST-NB ran a notebook again: not a cache hit"
    assert log.count("Using cached notebook") == len(PAGES), log[-3000:]
    return by_myst / "_build" / "html", by_nbclient / "_build" / "html"


def differences(first: Path, second: Path) -> list[str]:
    """Files of the pages (HTML and images) that differ between two builds."""
    names = sorted(path.name for path in (first / "_images").iterdir()) + [f"{page}.html" for page in PAGES]
    return [
        name
        for name in names
        if (not (second / "_images" / name).exists() and not (second / name).exists())
        or not filecmp.cmp(
            (first / "_images" / name) if name.endswith(".png") else first / name,
            (second / "_images" / name) if name.endswith(".png") else second / name,
            shallow=False,
        )
    ]


@pytest.mark.build
def test_myst_nb_and_nbclient_give_byte_identical_pages(tmp_path):
    first, second = built_both_ways(tmp_path)
    assert len(list((first / "_images").iterdir())) >= 5
    assert "same pieces as embed_sentence: True" in (first / "learned.html").read_text(encoding="utf-8")
    assert differences(first, second) == []


@pytest.mark.build
def test_the_comparison_sees_a_kernel_that_draws_each_figure_once(tmp_path):
    """The check can fail: a kernel set up to draw each figure once (what the
    site's own executor used to do) lays figures out differently."""
    once = (
        "--IPKernelApp.exec_lines=import matplotlib as _mpl, matplotlib.pyplot as _plt; "
        "_plt.switch_backend(_mpl.get_backend()); _plt.uninstall_repl_displayhook()"
    )
    first, second = built_both_ways(tmp_path, extra_arguments=[once])
    assert any(name.endswith(".png") for name in differences(first, second))


def code_cells() -> list[tuple[str, str]]:
    """Code cells of the site's notebooks (read as jupytext reads MyST), with the page they are on."""
    import jupytext

    cells = []
    for page in sorted((ROOT / "docs").glob("*.md")):
        notebook = jupytext.read(page, fmt="md:myst")
        for cell in notebook.cells:
            if cell.cell_type == "code":
                code = "\n".join(line for line in cell.source.splitlines() if not line.startswith(("%", "!")))
                cells.append((page.name, code))
    return cells


def print_problems(code: str) -> list[str]:
    """Why ``code`` could print a line in pieces: more than one print, a print of
    several values (or with keywords), a print inside a loop."""
    tree = ast.parse(code)
    calls = [n for n in ast.walk(tree) if isinstance(n, ast.Call) and getattr(n.func, "id", None) == "print"]
    looped = {id(n) for loop in ast.walk(tree) if isinstance(loop, (ast.For, ast.While)) for n in ast.walk(loop)}
    problems = ["prints more than once"] if len(calls) > 1 else []
    for call in calls:
        if len(call.args) != 1 or call.keywords:
            problems.append("prints several values")
        if id(call) in looped:
            problems.append("prints in a loop")
    return problems


def test_each_code_cell_prints_once_in_one_piece():
    """A kernel sends what a cell prints in pieces cut by its flush timer, and
    MyST-NB ends each piece with a line break: ``print(a, b)`` (three writes)
    or two prints could then show a line broken in two on one build and whole
    on the next.  One ``print`` of one string per cell writes the text, then
    the line end: cut anywhere, it reads the same."""
    cells = code_cells()
    assert len(cells) > 100
    offenders = [f"{page}: {code.splitlines()[0][:60]}" for page, code in cells if print_problems(code)]
    assert not offenders, offenders


def test_the_print_rule_can_fail():
    assert print_problems("print('a', 1)") == ["prints several values"]
    assert print_problems("print('a')\nprint('b')") == ["prints more than once"]
    assert print_problems("for i in range(3):\n    print(f'{i}')") == ["prints in a loop"]
    assert print_problems("print('a', end='')") == ["prints several values"]
    assert print_problems("print(f'{1}\\n{2}')") == []
