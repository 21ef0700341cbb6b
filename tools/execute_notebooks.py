"""Run the site's notebooks in parallel into MyST-NB's cache, before Sphinx reads them.

``make html`` runs ``python tools/execute_notebooks.py CACHE docs/*.md`` and
then sphinx-build, whose MyST-NB (``nb_execution_mode = "cache"``) finds
every notebook's outputs in ``CACHE`` and executes nothing itself.
Executing the notebooks is most of a clean build, and here no two
processes write the cache at once (Sphinx's parallel readers would), so
this runs them side by side, one kernel per core, with exactly what MyST-NB would do:
the same reader (MyST-NB's jupyter-cache plugin), the same executor
(jupyter-cache's ``single_nb_execution``), ``docs/`` as working directory,
errors not allowed.  Notebooks already in the cache are skipped (and when no
page is newer than the cache, nothing is even read: a no-op rebuild stays fast).  A notebook
that fails is left out of the cache: sphinx-build then runs it again itself
and fails the build with the cell's traceback, as without this step.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

#: As conf.py's nb_execution_timeout (seconds per cell).
TIMEOUT = 300


def is_notebook(path: Path) -> bool:
    """MyST-NB executes a text page only when its front matter names a kernel."""
    text = path.read_text(encoding="utf-8")
    return text.startswith("---") and "kernelspec:" in text.split("\n---", 1)[0]


def join_streams(notebook) -> None:
    """Each cell's stdout (and stderr) as one output holding exactly what was written.

    The kernel sends a stream in chunks cut wherever its flush timer fell,
    which can be inside a line.  MyST-NB's ``nb_merge_streams`` strips and
    ends every chunk with a newline, so where a chunk was cut decided where
    a printed line broke ("...embed_sentence:" / "True"), and two clean
    builds could differ.  Joined first, the text no longer depends on timing.
    """
    for cell in notebook.cells:
        joined: dict[str, dict] = {}
        outputs = []
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                if output["name"] in joined:
                    joined[output["name"]]["text"] += output["text"]
                    continue
                joined[output["name"]] = output
            outputs.append(output)
        if joined:
            cell["outputs"] = outputs


def execute(path: str) -> tuple[str, object, float, str | None]:
    """Run one notebook as MyST-NB would; return it with its time or its error."""
    from jupyter_cache.executors.utils import single_nb_execution
    from myst_nb.core.read import myst_nb_reader_plugin

    notebook = myst_nb_reader_plugin(path)
    result = single_nb_execution(
        notebook, cwd=str(Path(path).parent), allow_errors=False, timeout=TIMEOUT, meta_override=True
    )
    error = None if result.err is None else f"{type(result.err).__name__}: {result.err}"
    join_streams(notebook)
    return path, notebook, result.time, error


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("cache", type=Path, help="the jupyter-cache directory MyST-NB uses")
    parser.add_argument("pages", nargs="+", type=Path, help="MyST text pages (those without a kernel are skipped)")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks run at once")
    args = parser.parse_args(argv)
    notebooks = [page for page in args.pages if is_notebook(page)]
    database = args.cache / "global.db"
    if database.is_file() and all(page.stat().st_mtime < database.stat().st_mtime for page in notebooks):
        return 0  # every notebook was looked up or run after its last edit

    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn
    from myst_nb.core.read import myst_nb_reader_plugin

    cache = get_cache(str(args.cache))
    pending = []
    for page in notebooks:
        path = str(page.resolve())
        try:
            cache.match_cache_notebook(myst_nb_reader_plugin(path))
        except KeyError:
            pending.append(path)
    if not pending:
        database.touch()  # looked up now: the next run can skip the lookup
        return 0
    # Longest first, so that the last notebooks to start are short and no core
    # waits long for the other at the end; a page's length stands in for its time.
    pending.sort(key=lambda path: -Path(path).stat().st_size)
    began = time.perf_counter()
    print(f"executing {len(pending)} notebooks, {args.jobs} at a time", flush=True)
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        for future in as_completed([pool.submit(execute, path) for path in pending]):
            path, notebook, seconds, error = future.result()
            name = os.path.relpath(path)
            if error is not None:
                print(f"  {name}: failed ({error}); sphinx-build will run it again and report it", flush=True)
                continue
            cache.cache_notebook_bundle(
                CacheBundleIn(notebook, path, data={"execution_seconds": seconds}), check_validity=False, overwrite=True
            )
            print(f"  {name}: {seconds:.1f} s", flush=True)
    print(f"executed in {time.perf_counter() - began:.1f} s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
