"""Sphinx extension: the notebooks of a build run in parallel, beside Sphinx, and are read when done.

With ``nb_execution_mode = "cache"``, MyST-NB runs a notebook whose outputs
are not in its jupyter-cache while it reads that page: one notebook at a
time, each in a new kernel, while nothing else happens.  That was most of a
clean build.  With this extension, at ``env-before-read-docs``:

1. the notebooks about to be read go to an executor process
   (``python -m posenc_math.sphinx_notebooks CACHE``, the paths on its
   standard input; in a build without a saved environment it was started
   already when the extension was set up, and its kernel server warmed up
   while Sphinx loaded the other extensions).  It skips
   those already in the cache and runs the others one per core, longest
   first, in kernels forked from a warm server
   (:mod:`posenc_math.warm_kernels`), as MyST-NB would run them
   otherwise: the same reader, jupyter-cache's ``single_nb_execution``, the
   notebook's directory as working directory, errors not allowed.  The one
   difference: each kernel first runs :data:`KERNEL_SETUP`, so that it draws
   each figure once.  It stores each notebook in the cache and reports it
   on a pipe;
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
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

#: As conf.py's nb_execution_timeout (seconds per cell), if the build's config is not at hand.
TIMEOUT = 300

#: Run by every kernel the executor starts, before the notebook (IPython's
#: ``exec_lines``; it leaves no name behind).  After each cell two hooks run:
#: pyplot's, which draws every changed figure on its canvas, and then the
#: inline backend's, which draws each new figure again into the PNG it shows
#: (and lays it out again first).  The first drawing is never shown, and it
#: was a third of the notebooks' time.  So pyplot's backend is chosen now (the
#: inline one, from ``MPLBACKEND``; pyplot would choose it at the first figure
#: and install its hook then), and its hook is taken out.  The figure is then
#: laid out once, as ``Figure.savefig`` in a script would; laid out twice,
#: constrained layout settles up to a pixel differently (as in Jupyter, and
#: in MyST-NB's own runs: of a notebook the executor could not run, or of
#: every notebook in the other execution modes).
KERNEL_SETUP = (
    "import matplotlib as _mpl, matplotlib.pyplot as _plt; "
    "_plt.switch_backend(_mpl.get_backend()); _plt.uninstall_repl_displayhook(); del _mpl, _plt"
)


def is_notebook(path: str | Path) -> bool:
    r"""Whether MyST-NB reads ``path`` as a notebook: an ``.ipynb``, or Markdown whose front
    matter makes it a MyST notebook (jupytext's ``myst`` format, or ``file_format: mystnb``).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> page = pathlib.Path(tempfile.mkdtemp()) / "page.md"
    >>> _ = page.write_text("---\nfile_format: mystnb\nkernelspec:\n  name: python3\n---\n# Cells\n")
    >>> is_notebook(page)
    True
    >>> _ = page.write_text("# Prose only\n")
    >>> is_notebook(page)
    False
    """
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
    r"""Each cell's stdout (and stderr) as one output holding exactly what was written.

    The kernel sends a stream in chunks cut wherever its flush timer fell,
    which can be inside a line.  MyST-NB's ``nb_merge_streams`` strips and
    ends every chunk with a newline, so where a chunk was cut decided where
    a printed line broke ("...embed_sentence:" / "True"), and two clean
    builds could differ.  Joined first, the text no longer depends on timing.

    Examples
    --------
    >>> import nbformat
    >>> cell = nbformat.v4.new_code_cell("print('same pieces:', True)")
    >>> cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text=t) for t in ("same pieces:", " True\n")]
    >>> notebook = nbformat.v4.new_notebook(cells=[cell])
    >>> join_streams(notebook)
    >>> [output["text"] for output in notebook.cells[0].outputs]
    ['same pieces: True\n']
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


def execute(path: str, notebook: Any, timeout: int, socket_path: str | None) -> tuple[str, Any, float, str | None]:
    """Run ``notebook`` (from ``path``) as MyST-NB would, after :data:`KERNEL_SETUP`; return it, its time, its error.

    With ``socket_path``, its kernel is forked by that warm kernel server.
    """
    from jupyter_cache.executors.utils import single_nb_execution

    from .warm_kernels import kernel_manager_class

    options = {} if socket_path is None else {"kernel_manager_class": kernel_manager_class(socket_path)}
    result = single_nb_execution(
        notebook,
        cwd=str(Path(path).parent),
        allow_errors=False,
        timeout=timeout,
        meta_override=True,
        extra_arguments=[f"--IPKernelApp.exec_lines={KERNEL_SETUP}"],
        **options,
    )
    error = None if result.err is None else f"{type(result.err).__name__}: {result.err}"
    join_streams(notebook)
    return path, notebook, result.time, error


def run_notebooks(
    cache_path: str,
    notebooks: list[str],
    *,
    jobs: int,
    timeout: int = TIMEOUT,
    warm: bool = True,
    socket_path: str | None = None,
    pool: ProcessPoolExecutor | None = None,
    report=print,
) -> None:
    """Store every notebook in ``notebooks`` in the cache, running those it lacks ``jobs`` at a time.

    ``report`` gets one line per notebook, in the order they are ready:
    ``cached PATH``, ``executed PATH SECONDS`` or ``failed PATH MESSAGE``
    (tab-separated).  A failed notebook is not stored.  Kernels are forked
    by the warm server at ``socket_path``; without one (and ``warm``), a
    server is started where the first notebook to run lives.  The notebooks
    run in ``pool`` (default: a new one, see :func:`worker_pool`).
    """
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    cache = get_cache(cache_path)
    pending = []  # (path, notebook as read for the lookup, which is what runs)
    for path in notebooks:
        notebook = read_notebook(path)
        try:
            cache.match_cache_notebook(notebook)
        except KeyError:
            pending.append((path, notebook))
        else:
            report(f"cached\t{path}")
    if not pending:
        return
    with contextlib.ExitStack() as stack:
        if warm and socket_path is None:
            from .warm_kernels import Server

            socket_path = stack.enter_context(Server(str(Path(pending[0][0]).parent))).socket_path
        if pool is None:
            pool = stack.enter_context(worker_pool(min(jobs, len(pending))))
        futures = [
            pool.submit(execute, path, notebook, timeout, socket_path if warm else None) for path, notebook in pending
        ]
        for future in as_completed(futures):
            path, notebook, seconds, error = future.result()
            if error is not None:
                report(f"failed\t{path}\t{' '.join(error.split())[:500]}")
                continue
            bundle = CacheBundleIn(notebook, path, data={"execution_seconds": seconds})
            cache.cache_notebook_bundle(bundle, check_validity=False, overwrite=True)
            report(f"executed\t{path}\t{seconds:.1f}")


def _ready() -> None:
    """In a new worker: import what :func:`execute` needs, before the first notebook arrives."""
    import jupyter_cache.executors.utils  # noqa: F401
    import myst_nb.core.read  # noqa: F401

    from . import warm_kernels  # noqa: F401


def worker_pool(jobs: int) -> ProcessPoolExecutor:
    """``jobs`` worker processes, set up at once.

    Forked when the calling process runs no other thread (the executor's
    own process); started afresh otherwise: a fork copies only the calling
    thread, and a lock another thread held (jupyter_client starts threads)
    would stay held in the worker forever.
    """
    import multiprocessing
    import threading

    method = "fork" if threading.active_count() == 1 and "fork" in multiprocessing.get_all_start_methods() else "spawn"
    pool = ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context(method))
    for _ in range(jobs):
        pool.submit(_ready)
    return pool


def _read_paths(fd: int) -> list[str]:
    """Paths, one a line, up to an empty line (or the end of the stream) on file descriptor ``fd``.

    The empty line, not the end of the stream, ends the list: a process
    that Sphinx forks after starting this one (sphinx-sitemap's manager,
    say) holds a copy of the pipe's writing end, so the end might never
    come.  Gone to a new parent, the one that started it is gone: no list.
    """
    import select

    parent, received = os.getppid(), b""
    while not (received.startswith(b"\n") or b"\n\n" in received):
        ready, _, _ = select.select([fd], [], [], 1.0)
        if not ready:
            if os.getppid() != parent:
                return []
            continue
        chunk = os.read(fd, 65536)
        if not chunk:
            break
        received += chunk
    return [line for line in received.decode().split("\n\n")[0].split("\n") if line.strip()]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Run notebooks into MyST-NB's jupyter-cache, in parallel: their paths are read from "
        "standard input, one a line, in the order to start them, up to an empty line; one report a line on "
        "standard output."
    )
    parser.add_argument("cache", help="the jupyter-cache directory")
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1, help="notebooks run at once")
    parser.add_argument("--timeout", type=int, default=TIMEOUT, help="seconds a cell may take")
    parser.add_argument("--cold", action="store_true", help="start each kernel as a new process")
    parser.add_argument(
        "--warm-in", metavar="DIR", help="start the warm kernel server in DIR at once, before the paths arrive"
    )
    args = parser.parse_args(argv)
    # The reports go to the stream that was stdout; whatever else writes
    # to stdout (a kernel, a library) goes to stderr and cannot garble them.
    reports = os.fdopen(os.dup(1), "w", buffering=1)
    os.dup2(2, 1)
    with contextlib.ExitStack() as stack:
        socket_path = None
        if args.warm_in and not args.cold:
            from .warm_kernels import Server

            socket_path = stack.enter_context(Server(os.path.abspath(args.warm_in))).socket_path
        # The workers start, and import what they need, while the paths are on their way.
        pool = stack.enter_context(worker_pool(args.jobs))
        import jupyter_cache  # noqa: F401
        import myst_nb.core.read  # noqa: F401

        notebooks = [os.path.abspath(path) for path in _read_paths(sys.stdin.fileno())]
        run_notebooks(
            os.path.abspath(args.cache),
            notebooks,
            jobs=args.jobs,
            timeout=args.timeout,
            warm=not args.cold,
            socket_path=socket_path,
            pool=pool,
            report=lambda line: print(line, file=reports, flush=True),
        )
    return 0


# -- Sphinx's side ----------------------------------------------------------------


class _Executor:
    """The executor process of one build, and what it has reported so far.

    Started before the notebooks are known (``warm_in``: its kernel server
    warms up meanwhile); :meth:`run` then hands it their paths.
    """

    def __init__(self, cache_path: str, *, timeout: int, jobs: int, warm_in: str | None = None) -> None:
        command = [sys.executable, "-m", "posenc_math.sphinx_notebooks", cache_path]
        command += ["--timeout", str(timeout), "--jobs", str(jobs)]
        if warm_in is not None:
            command += ["--warm-in", warm_in]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.reports: dict[str, list[str]] = {}

    def run(self, paths: list[str]) -> None:
        """Hand over the notebooks (none: the executor just ends)."""
        assert self.process.stdin is not None
        try:
            self.process.stdin.write("".join(f"{path}\n" for path in paths) + "\n")  # an empty line ends it
            self.process.stdin.close()
        except BrokenPipeError:  # it died: wait_for reports nothing, MyST-NB runs the notebooks
            pass

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
        if self.process.stdin is not None and not self.process.stdin.closed:
            self.run([])
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


def _new_executor(app, *, warm_in: str | None = None) -> _Executor:
    jobs = app.config.posenc_notebook_jobs or os.cpu_count() or 1
    return _Executor(_cache_path(app), timeout=int(app.config.nb_execution_timeout), jobs=jobs, warm_in=warm_in)


def _start_early(app) -> None:
    """In ``setup``: a build without a saved environment reads every page, so
    its notebooks will run; the executor starts now and warms its kernel
    server in the source directory while Sphinx loads the other extensions."""
    from sphinx.application import ENV_PICKLE_FILENAME

    if app.config.nb_execution_mode == "cache" and not Path(app.doctreedir, ENV_PICKLE_FILENAME).exists():
        _EXECUTOR.append(_new_executor(app, warm_in=str(app.srcdir)))


def _start(app, env, docnames: list[str]) -> None:
    """``env-before-read-docs``: hand the notebooks to the executor, and read them last (in place)."""
    executor = _EXECUTOR.pop() if _EXECUTOR else None
    _stop(app, RuntimeError("a new reading began"))
    paths = {docname: str(env.doc2path(docname)) for docname in docnames}
    notebooks = [docname for docname in docnames if is_notebook(paths[docname])]
    if app.config.nb_execution_mode != "cache" or not notebooks:
        if executor is not None:
            executor.stop(now=False)  # told there is nothing to run, it ends
        return
    # Longest first, so that no core waits long for the other at the end
    # (a page's length stands in for its time); Sphinx reads them in that order.
    notebooks.sort(key=lambda docname: -os.path.getsize(paths[docname]))
    executor = executor or _new_executor(app)
    executor.run([paths[docname] for docname in notebooks])
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
    report = _EXECUTOR[0].wait_for(path)
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
    # How many notebooks run at once; 0: one per core.
    app.add_config_value("posenc_notebook_jobs", 0, "", types=(int,))
    _start_early(app)
    # Before other handlers of the event (the theorem checks take a few
    # seconds), so the notebooks start first.
    app.connect("env-before-read-docs", _start, priority=400)
    app.connect("source-read", _wait)
    app.connect("build-finished", _stop)
    return {"parallel_read_safe": True, "parallel_write_safe": True}


if __name__ == "__main__":
    sys.exit(main())
