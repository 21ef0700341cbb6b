"""Sphinx extension: the notebooks of a build run in parallel, beside Sphinx, and are read when done.

With ``nb_execution_mode = "cache"``, MyST-NB runs a notebook whose outputs
are not in its jupyter-cache while it reads that page: one notebook at a
time, each in a new kernel, while nothing else happens.  That was most of a
clean build.  With this extension, at ``env-before-read-docs``:

1. the notebooks about to be read go to an executor process
   (``python -m posenc_math.sphinx_notebooks CACHE NOTEBOOK...``).  It skips
   those already in the cache and runs the others one per core, longest
   first, in kernels forked from a warm server
   (:mod:`posenc_math.warm_kernels`), exactly as MyST-NB would run them
   otherwise: the same reader, jupyter-cache's ``single_nb_execution``, the
   notebook's directory as working directory, errors not allowed.  It
   stores each in the cache and reports it on a pipe;
2. Sphinx reads the other pages meanwhile: the notebooks move to the end
   of its reading order;
3. before Sphinx reads a notebook (``source-read``), it waits until the
   executor has reported it.  MyST-NB then finds the outputs in the cache.

A notebook the executor could not run is left out of the cache: MyST-NB runs
it again itself and fails the build with the cell's traceback, as without
this extension.  If the executor dies, the notebooks it did not report are
run by MyST-NB too.  With parallel reading (``sphinx-build -j``) Sphinx
waits for every notebook before it starts reading.  In any other execution
mode the extension does nothing.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

#: As conf.py's nb_execution_timeout (seconds per cell), if the build's config is not at hand.
TIMEOUT = 300


def is_notebook(path: str | Path) -> bool:
    """Whether MyST-NB reads ``path`` as a notebook: an ``.ipynb``, or MyST Markdown with a kernel."""
    path = Path(path)
    if path.suffix == ".ipynb":
        return True
    if path.suffix != ".md":
        return False
    from myst_nb.core.read import is_myst_markdown_notebook

    with path.open(encoding="utf-8") as lines:
        return is_myst_markdown_notebook(lines)


def read_notebook(path: str) -> Any:
    """The notebook as jupyter-cache's MyST-NB plugin reads it (``.ipynb`` as nbformat does)."""
    if path.endswith(".ipynb"):
        import nbformat

        return nbformat.read(path, as_version=4)
    from myst_nb.core.read import myst_nb_reader_plugin

    return myst_nb_reader_plugin(path)


def join_streams(notebook: Any) -> None:
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


# -- the executor (its own process) ----------------------------------------------


def execute(path: str, timeout: int, socket_path: str | None) -> tuple[str, Any, float, str | None]:
    """Run one notebook as MyST-NB would; return it with its time or its error.

    With ``socket_path``, its kernel is forked by that warm kernel server.
    """
    from jupyter_cache.executors.utils import single_nb_execution

    from .warm_kernels import kernel_manager_class

    notebook = read_notebook(path)
    options = {} if socket_path is None else {"kernel_manager_class": kernel_manager_class(socket_path)}
    result = single_nb_execution(
        notebook, cwd=str(Path(path).parent), allow_errors=False, timeout=timeout, meta_override=True, **options
    )
    error = None if result.err is None else f"{type(result.err).__name__}: {result.err}"
    join_streams(notebook)
    return path, notebook, result.time, error


def run_notebooks(
    cache_path: str, notebooks: list[str], *, jobs: int, timeout: int = TIMEOUT, warm: bool = True, report=print
) -> None:
    """Store every notebook in ``notebooks`` in the cache, running those it lacks ``jobs`` at a time.

    ``report`` gets one line per notebook, in the order they are ready:
    ``cached PATH``, ``executed PATH SECONDS`` or ``failed PATH MESSAGE``
    (tab-separated).  A failed notebook is not stored.
    """
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(cache_path)
    pending = []
    for path in notebooks:
        try:
            cache.match_cache_notebook(read_notebook(path))
        except KeyError:
            pending.append(path)
        else:
            report(f"cached\t{path}")
    if not pending:
        return
    with contextlib.ExitStack() as stack:
        socket_path = None
        if warm:
            # Warmed where the first notebook runs; a kernel wanted elsewhere starts cold.
            from .warm_kernels import Server

            socket_path = stack.enter_context(Server(str(Path(pending[0]).parent))).socket_path
        pool = stack.enter_context(ProcessPoolExecutor(max_workers=min(jobs, len(pending))))
        futures = [pool.submit(execute, path, timeout, socket_path) for path in pending]
        for future in as_completed(futures):
            path, notebook, seconds, error = future.result()
            if error is not None:
                report(f"failed\t{path}\t{' '.join(error.split())[:500]}")
                continue
            bundle = CacheBundleIn(notebook, path, data={"execution_seconds": seconds})
            cache.cache_notebook_bundle(bundle, check_validity=False, overwrite=True)
            report(f"executed\t{path}\t{seconds:.1f}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Run notebooks into MyST-NB's jupyter-cache, in parallel.")
    parser.add_argument("cache", help="the jupyter-cache directory")
    parser.add_argument("notebooks", nargs="+", help="notebook paths, in the order to start them")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks run at once")
    parser.add_argument("--timeout", type=int, default=TIMEOUT, help="seconds a cell may take")
    parser.add_argument("--cold", action="store_true", help="start each kernel as a new process")
    args = parser.parse_args(argv)
    # The reports go to the stream that was stdout; whatever else writes
    # to stdout (a kernel, a library) goes to stderr and cannot garble them.
    reports = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    run_notebooks(
        os.path.abspath(args.cache),
        [os.path.abspath(path) for path in args.notebooks],
        jobs=args.jobs,
        timeout=args.timeout,
        warm=not args.cold,
        report=lambda line: print(line, file=reports, flush=True),
    )
    return 0


# -- Sphinx's side ----------------------------------------------------------------


class _Executor:
    """The executor process of one build, and what it has reported so far."""

    def __init__(self, cache_path: str, paths: list[str], timeout: int) -> None:
        command = [sys.executable, "-m", "posenc_math.sphinx_notebooks", cache_path, *paths, "--timeout", str(timeout)]
        self.process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
        self.reports: dict[str, list[str]] = {}
        self.began = time.perf_counter()

    def wait_for(self, path: str) -> list[str] | None:
        """Block until ``path`` is reported; its report, or None if the executor ended without one."""
        assert self.process.stdout is not None
        while path not in self.reports:
            line = self.process.stdout.readline()
            if not line:
                return None
            kind, reported, *rest = line.rstrip("\n").split("\t")
            self.reports[reported] = [kind, *rest]
        return self.reports[path]

    def stop(self, now: bool) -> None:
        """Let the executor end (it does once it has reported every notebook), or end it ``now``.

        Killed, it leaves no process behind: its kernel server and its
        launchers end when they see their parent gone, and each kernel
        when its launcher is gone.
        """
        try:
            self.process.wait(timeout=0 if now else 60)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()


#: docname -> notebook path, for the build's executor (one build per process at a time).
_WAITING: dict[str, str] = {}
_EXECUTOR: list[_Executor] = []


def _cache_path(app) -> str:
    """Where MyST-NB keeps its cache: ``nb_execution_cache_path``, by default beside the output."""
    configured = app.config.nb_execution_cache_path
    return str(
        Path(configured).resolve() if configured else Path(app.outdir).parent.joinpath(".jupyter_cache").resolve()
    )


def _start(app, env, docnames: list[str]) -> None:
    """``env-before-read-docs``: start the executor, and read the notebooks last (in place)."""
    _stop(app, RuntimeError("a new reading began"))
    if app.config.nb_execution_mode != "cache" or not docnames:
        return
    paths = {docname: str(env.doc2path(docname)) for docname in docnames}
    notebooks = [docname for docname in docnames if is_notebook(paths[docname])]
    if not notebooks:
        return
    # Longest first, so that no core waits long for the other at the end
    # (a page's length stands in for its time); Sphinx reads them in that order.
    notebooks.sort(key=lambda docname: -os.path.getsize(paths[docname]))
    executor = _Executor(_cache_path(app), [paths[d] for d in notebooks], int(app.config.nb_execution_timeout))
    _EXECUTOR.append(executor)
    _WAITING.update((docname, paths[docname]) for docname in notebooks)
    docnames[:] = [docname for docname in docnames if docname not in _WAITING] + notebooks
    if app.parallel > 1:  # forked readers cannot share the pipe: wait for all now
        for docname in notebooks:
            _wait(app, docname, None)


def _wait(app, docname: str, source: list[str] | None) -> None:
    """``source-read``: before a notebook is parsed, wait until the executor reported it."""
    from sphinx.util import logging

    path = _WAITING.pop(docname, None)
    if path is None or not _EXECUTOR:
        return
    executor = _EXECUTOR[0]
    report = executor.wait_for(path)
    logger = logging.getLogger(__name__)
    if report is None:
        logger.info("notebook executor ended before %s; MyST-NB runs it", docname)
    elif report[0] == "failed":
        logger.info("%s failed in the notebook executor (%s); MyST-NB runs it again", docname, report[1])
    elif report[0] == "executed":
        logger.info("%s executed in %s s", docname, report[1])


def _stop(app, exception: BaseException | None) -> None:
    """``build-finished``: the executor has nothing left to do (after an error, it is stopped now)."""
    while _EXECUTOR:
        _EXECUTOR.pop().stop(now=exception is not None)
    _WAITING.clear()


def setup(app) -> dict[str, Any]:
    app.setup_extension("myst_nb")
    # Before other handlers of the event (the theorem checks take a few
    # seconds), so the notebooks start first.
    app.connect("env-before-read-docs", _start, priority=400)
    app.connect("source-read", _wait)
    app.connect("build-finished", _stop)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    sys.exit(main())
