"""IPython kernels forked from a process that has already imported what notebooks import.

A clean build of the site runs 15 notebooks, each in a new ipykernel.  About
two seconds of each went to the same work every time: starting Python and
ipykernel, importing numpy, matplotlib, SymPy and the library, and drawing
a first figure (fonts, the mathtext parser).  Here one *server* process
does that work once, then forks a kernel per notebook.
The kernel itself is the real one: ``ipykernel``'s ``IPKernelApp`` with the
connection file jupyter_client wrote, the environment and working directory
jupyter_client asked for, a fresh IPython shell and the inline backend,
exactly as ``python -m ipykernel_launcher`` would set them up.

jupyter_client still starts and manages a process per kernel: a small
*launcher* (``python -I -S warm_kernels.py launch SOCKET -f CONNECTION_FILE``,
in place of ``-m ipykernel_launcher``: the standard library only, so it starts
in milliseconds) that hands the server its standard streams
(over the Unix socket, with ``SCM_RIGHTS``), its environment and its working
directory, relays SIGINT and SIGTERM, and exits with the kernel's status
when the kernel ends.  If the launcher is killed, the kernel kills itself.
If no server answers, or the server warmed up in another directory or with
another matplotlib backend, the launcher runs ``ipykernel_launcher`` itself:
a cold kernel, never a wrong one.

``kernel_manager_class`` gives the jupyter_client ``KernelManager`` that
starts the launcher in place of the kernelspec's ``ipykernel_launcher``;
nbclient takes it as ``kernel_manager_class``.  ``Server`` starts and stops the
server.  :mod:`posenc_math.sphinx_notebooks` uses both; the tests check that
a notebook's outputs are the same from a warm kernel as from a new one.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import signal
import socket
import struct
import subprocess
import sys
import tempfile

#: What the site's notebooks import, loaded once in the server.  A module
#: missing here is imported by each kernel itself, as without this tool.
PRELOAD = (
    "numpy",
    "matplotlib",
    "matplotlib.figure",
    "matplotlib.backends.backend_agg",
    "PIL.Image",
    "IPython.display",
    "ipykernel.kernelapp",
    "ipykernel.ipkernel",
    # The kernel imports its debugger (debugpy and its pydevd, about 150
    # modules) while it starts: a third of a warm kernel's start.
    "ipykernel.debugger",
    "sqlite3",  # IPython's history
    "pdb",
    "myst_nb",
    "sympy",
    "posenc_math",
    "posenc_math.plotting",
    "posenc_math.pretrained",
    "posenc_math.theorems",
)

#: The backend ipykernel selects (``IPKernelApp.init_gui_pylab``) when the
#: environment names none.  matplotlib reads it once, when it is imported.
INLINE_BACKEND = "module://matplotlib_inline.backend_inline"

_HEADER = struct.Struct("!I")


def _receive_exactly(connection: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            raise ConnectionError("the launcher hung up")
        data += chunk
    return data


# -- the server ---------------------------------------------------------------


def serve(socket_path: str, preload: tuple[str, ...] = PRELOAD) -> None:
    """Listen, import ``preload`` and draw one figure, then fork a kernel per connection.

    The socket listens before the imports start, so launchers that connect
    meanwhile wait in its queue.
    """
    warmed = {"cwd": os.getcwd(), "env": dict(os.environ)}  # what the imports below may read
    signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # no zombies: the kernels are nobody's to wait for
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(socket_path)
    listener.listen(64)
    print("listening", flush=True)
    os.dup2(2, 1)  # nobody reads the pipe after this line: anything else goes to stderr
    warm_up(preload)
    if "matplotlib_inline.backend_inline" in sys.modules or "matplotlib.pyplot" in sys.modules:
        # Imported without a shell, the inline backend would never hook
        # itself into the kernel's shell (figures would not be shown).
        raise RuntimeError("the server must not import matplotlib.pyplot or the inline backend")
    parent = os.getppid()
    listener.settimeout(1.0)
    while True:
        try:
            connection, _ = listener.accept()
        except TimeoutError:
            if os.getppid() != parent:
                return  # whoever started the server is gone
            continue
        connection.settimeout(None)
        try:
            _, fds, _, _ = socket.recv_fds(connection, 1, 3)
            (size,) = _HEADER.unpack(_receive_exactly(connection, _HEADER.size))
            request = json.loads(_receive_exactly(connection, size))
        except (ConnectionError, OSError, ValueError):
            connection.close()
            continue
        refusal = _refusal(request, warmed)
        if refusal is None and os.fork() == 0:
            listener.close()
            _run_kernel(connection, fds, request)  # never returns
        if refusal is not None:
            connection.sendall(refusal.encode())
        connection.close()
        for fd in fds:
            os.close(fd)


#: Variables jupyter_client sets for each kernel (JPY_PARENT_PID, ...): they
#: may differ from the server's; ipykernel reads them when it starts.
_PER_KERNEL = ("JPY_", "IPY_")


def _refusal(request: dict, warmed: dict) -> str | None:
    """Why a kernel asked for cannot be this server's child (None: it can).

    Its working directory and its environment must be the server's, but for
    jupyter_client's per-kernel variables: what the server imported may have
    read them (matplotlib reads ``matplotlibrc`` in the working directory and
    ``MPLBACKEND``, numpy its thread settings, ...).
    """
    if request["cwd"] != warmed["cwd"]:
        return f"the server warmed up in {warmed['cwd']}, the kernel is to run in {request['cwd']}"
    theirs, ours = (
        {name: value for name, value in env.items() if not name.startswith(_PER_KERNEL)}
        for env in (request["env"], warmed["env"])
    )
    for env in (theirs, ours):
        env.setdefault("MPLBACKEND", INLINE_BACKEND)  # as ipykernel and the server set it
    differing = sorted(name for name in theirs.keys() | ours.keys() if theirs.get(name) != ours.get(name))
    if differing:
        return f"the environment differs from the server's in {', '.join(differing)}"
    return None


def warm_up(preload: tuple[str, ...] = PRELOAD) -> None:
    """What the server does before its first fork: import ``preload``, draw a figure.

    The inline backend stays the default (``MPLBACKEND``), as ipykernel sets it.
    """
    import importlib

    os.environ.setdefault("MPLBACKEND", INLINE_BACKEND)
    for name in preload:
        # pydevd warns on stderr that frozen modules may hide breakpoints; in
        # a kernel, that line reaches no notebook and no log either.
        with contextlib.redirect_stderr(io.StringIO()):
            importlib.import_module(name)
    _draw_a_figure()


def _draw_a_figure() -> None:
    """Load the fonts and build the mathtext parser, as a notebook's first figure would."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure()
    FigureCanvasAgg(figure)
    axes = figure.subplots()
    axes.plot([0, 1], [0, 1], label="line")
    axes.set_title(r"$\sin(\omega_i p)$, $10^{-4}$")
    axes.legend()
    figure.savefig(io.BytesIO(), format="png", bbox_inches="tight")


def _run_kernel(connection: socket.socket, fds: list[int], request: dict) -> None:
    """In the forked child: become the kernel jupyter_client asked for, then exit.

    Never returns: whatever happens, the child ends here with ``os._exit``
    (it must not go back into the server's loop).
    """
    status = 1
    try:
        status = _kernel(connection, fds, request)
    except BaseException:
        import traceback

        traceback.print_exc()
    finally:
        with contextlib.suppress(OSError):
            connection.sendall(bytes([status & 0xFF]))
        os._exit(status)


def _kernel(connection: socket.socket, fds: list[int], request: dict) -> int:
    import atexit
    import threading

    os.setsid()  # as jupyter_client starts kernels: out of the terminal's signals
    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # python -m puts the working directory first, and ipykernel_launcher
    # takes it out again; the shell puts '' first itself (init_path).
    if sys.path and os.path.abspath(sys.path[0]) == os.getcwd():
        del sys.path[0]
    sys.argv = ["ipykernel_launcher", *request["argv"]]
    signals = {b"I": signal.SIGINT, b"T": signal.SIGTERM}

    def relay() -> None:
        while True:
            try:
                byte = connection.recv(1)
            except OSError:
                byte = b""
            if not byte:  # the launcher is gone: so is its kernel
                os.kill(os.getpid(), signal.SIGKILL)
            if byte in signals:
                os.kill(os.getpid(), signals[byte])

    connection.sendall(b"\0")  # no refusal: the launcher now waits for the status
    threading.Thread(target=relay, daemon=True, name="warm-kernel-relay").start()
    status = 0
    try:
        from ipykernel import kernelapp

        # ipykernel read JPY_PARENT_PID when the server imported it.
        kernelapp.IPKernelApp.launch_instance(parent_handle=int(os.environ.get("JPY_PARENT_PID") or 0))
    except SystemExit as stop:
        status = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
    atexit._run_exitfuncs()
    sys.stdout.flush()
    sys.stderr.flush()
    return status


# -- the launcher -----------------------------------------------------------------


def launch(socket_path: str, argv: list[str]) -> int:
    """Have the server fork the kernel; relay signals; return its exit status."""
    client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        client.connect(socket_path)
        socket.send_fds(client, [b"K"], [0, 1, 2])
        request = json.dumps({"argv": argv, "cwd": os.getcwd(), "env": dict(os.environ)}).encode()
        client.sendall(_HEADER.pack(len(request)) + request)
        answer = client.recv(4096)
    except OSError as error:
        answer = f"no server at {socket_path} ({error})".encode()
    if answer != b"\0":
        print(f"warm_kernels: a cold kernel: {answer.decode(errors='replace')}", file=sys.stderr, flush=True)
        os.execv(sys.executable, [sys.executable, "-m", "ipykernel_launcher", *argv])
    for signum, byte in ((signal.SIGINT, b"I"), (signal.SIGTERM, b"T")):
        signal.signal(signum, lambda *_, byte=byte: client.send(byte))
    parent = os.getppid()
    client.settimeout(1.0)
    status = b""
    while True:
        try:
            data = client.recv(16)
        except TimeoutError:
            if os.getppid() != parent:
                return 1  # jupyter_client's process is gone: closing the socket ends the kernel
            continue
        if not data:
            break
        status = data[-1:]
    return status[0] if status else 1


# -- jupyter_client's side --------------------------------------------------------


def kernel_manager_class(socket_path: str) -> type:
    """A jupyter_client ``KernelManager`` that starts python kernels through the launcher.

    Kernelspecs that do not run ``-m ipykernel_launcher`` with this
    interpreter are started as they are.  (Made on demand: the launcher must
    not import jupyter_client.)

    Examples
    --------
    >>> manager = kernel_manager_class("/run/kernels.socket")(kernel_name="python3")
    >>> manager.format_kernel_cmd()[1:]  # doctest: +ELLIPSIS
    ['-I', '-S', '.../posenc_math/warm_kernels.py', 'launch', '/run/kernels.socket', '-f', '...']
    """
    from jupyter_client.manager import KernelManager

    class WarmKernelManager(KernelManager):
        def format_kernel_cmd(self, extra_arguments: list[str] | None = None) -> list[str]:
            command = super().format_kernel_cmd(extra_arguments)
            if command[:3] != [sys.executable, "-m", "ipykernel_launcher"]:
                return command
            return [command[0], "-I", "-S", os.path.abspath(__file__), "launch", socket_path, *command[3:]]

    return WarmKernelManager


class Server:
    """The server as a context manager, listening on a socket in a new temporary directory.

    Parameters
    ----------
    cwd : str
        The directory the server warms up in, and so the only one its
        kernels can run in (matplotlib reads a ``matplotlibrc`` there).
    """

    def __init__(self, cwd: str) -> None:
        self.cwd = cwd
        self.socket_path = ""
        self._directory: tempfile.TemporaryDirectory[str] | None = None
        self._process: subprocess.Popen[str] | None = None

    def __enter__(self) -> Server:
        self._directory = tempfile.TemporaryDirectory(prefix="posenc-kernels-")
        self.socket_path = os.path.join(self._directory.name, "socket")
        self._process = subprocess.Popen(
            [sys.executable, "-m", "posenc_math.warm_kernels", "serve", self.socket_path],
            cwd=self.cwd,
            # os.environ, as jupyter_client gives each kernel: the process's C
            # environment can hold more (readline sets COLUMNS and LINES there).
            env=dict(os.environ),
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if line.strip() != "listening":
            self.__exit__()
            raise RuntimeError(f"the warm kernel server did not start (it said {line!r})")
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._process is not None:
            self._process.terminate()
            self._process.wait()
        if self._directory is not None:
            self._directory.cleanup()


def main(argv: list[str]) -> int:
    if argv[:1] == ["serve"] and len(argv) == 2:
        serve(argv[1])
        return 0
    if argv[:1] == ["launch"] and len(argv) >= 2:
        return launch(argv[1], argv[2:])
    print("usage: warm_kernels.py serve SOCKET | launch SOCKET -f CONNECTION_FILE", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
