"""posenc_math.warm_kernels: a kernel forked from the warm server is the kernel a new process would be."""

from __future__ import annotations

import ast
import json
import os
import re
import signal
import subprocess
import sys
import time

import nbformat
import pytest
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError

from posenc_math.warm_kernels import Server, kernel_manager_class

CELLS = [
    "import os, sys\nprint(os.getcwd(), os.environ.get('MPLBACKEND'))\nprint(sys.path[:2])",
    "import matplotlib\nprint(matplotlib.get_backend(), matplotlib.rcParams['image.cmap'])",
    "import matplotlib.pyplot as plt\nfig, ax = plt.subplots(figsize=(2, 1))\nax.plot([0, 1], [1, 0])\n"
    "ax.set_title('$x^2$')",
    "from IPython.display import Markdown\nMarkdown('**shown**')",
    "import warnings\nwarnings.warn('told')\nprint('out'); print('err', file=sys.stderr)",
    "1 / 0",
]


@pytest.fixture(scope="module")
def directory(tmp_path_factory):
    """A notebook directory with its own matplotlibrc, as docs/ has."""
    path = tmp_path_factory.mktemp("notebooks")
    (path / "matplotlibrc").write_text("image.cmap: cividis\n", encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def server(directory):
    with Server(str(directory)) as running:
        # The environment the server started with: a kernel whose environment
        # differs (pytest changes PYTEST_CURRENT_TEST for every test) would be
        # refused and start cold, so the tests start kernels with this one.
        running.env = dict(os.environ)
        yield running


def run(directory, manager=None, cells=CELLS, allow_errors=True, env=None):
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source) for source in cells])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    options = {} if manager is None else {"kernel_manager_class": manager}
    client = NotebookClient(
        notebook, timeout=60, allow_errors=allow_errors, resources={"metadata": {"path": str(directory)}}, **options
    )
    client.execute(env=env or dict(os.environ))
    return [cell.outputs for cell in notebook.cells]


def _without_pids(outputs):
    """A warning names the file IPython compiled the cell into, which holds the kernel's pid."""
    return json.loads(re.sub(r"ipykernel_[0-9]+", "ipykernel_PID", json.dumps(outputs)))


def test_outputs_are_those_of_a_new_kernel(directory, server):
    warm = run(directory, kernel_manager_class(server.socket_path), env=server.env)
    cold = run(directory, env=server.env)
    assert _without_pids(warm) == _without_pids(cold)
    assert "UserWarning: told" in warm[4][1]["text"]
    assert warm[0][0]["text"].startswith(f"{directory} module://matplotlib_inline.backend_inline\n")
    assert warm[1][0]["text"] == "module://matplotlib_inline.backend_inline cividis\n"  # the directory's matplotlibrc
    assert "image/png" in warm[2][-1]["data"]  # the inline backend shows the figure
    assert warm[5][0]["ename"] == "ZeroDivisionError"


def test_a_failing_cell_fails_the_run(directory, server):
    with pytest.raises(CellExecutionError, match="ZeroDivisionError"):
        run(
            directory,
            kernel_manager_class(server.socket_path),
            cells=["x = 1", "1 / 0"],
            allow_errors=False,
            env=server.env,
        )


def test_each_kernel_is_a_new_process_with_a_fresh_namespace(directory, server):
    manager = kernel_manager_class(server.socket_path)
    first = run(directory, manager, cells=["import os\nshared = 1\nprint(os.getpid())"], env=server.env)
    second = run(directory, manager, cells=["import os\nprint(os.getpid(), 'shared' in globals())"], env=server.env)
    first_pid, (second_pid, shared) = first[0][0]["text"].split(), second[0][0]["text"].split()
    assert first_pid[0] != second_pid and shared == "False"


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def test_interrupt_reaches_the_kernel_and_killing_the_launcher_ends_it(directory, server):
    manager = kernel_manager_class(server.socket_path)(kernel_name="python3")
    manager.start_kernel(cwd=str(directory), env=server.env)
    client = manager.client()
    client.start_channels()
    try:
        client.wait_for_ready(timeout=30)
        reply = client.execute_interactive("import os; print(os.getpid(), end='')", timeout=30, output_hook=_collect)
        pid = int(_collect.text)
        assert reply["content"]["status"] == "ok" and pid != manager.provisioner.pid  # forked, not the launcher
        client.execute("import time; time.sleep(60)")
        time.sleep(1)
        manager.interrupt_kernel()
        message = client.get_shell_msg(timeout=30)
        assert message["content"]["status"] == "error" and message["content"]["ename"] == "KeyboardInterrupt"
        os.kill(manager.provisioner.pid, signal.SIGKILL)  # as jupyter_client's kill does
        deadline = time.monotonic() + 10
        while _alive(pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not _alive(pid)
    finally:
        client.stop_channels()
        manager.shutdown_kernel(now=True)


def _collect(message):
    if message["msg_type"] == "stream":
        _collect.text = getattr(_collect, "text", "") + message["content"]["text"]


_collect.text = ""


def test_without_a_server_the_kernel_starts_cold(directory, tmp_path):
    outputs = run(directory, kernel_manager_class(str(tmp_path / "no-server")), cells=["print(6 * 7)"])
    assert outputs[0][0]["text"] == "42\n"


def test_a_server_warmed_elsewhere_refuses_and_the_kernel_starts_cold(directory, server, tmp_path):
    cells = ["import os\nprint(os.getcwd(), os.getppid() == int(os.environ['JPY_PARENT_PID']))"]
    outputs = run(tmp_path, kernel_manager_class(server.socket_path), cells=cells, env=server.env)
    assert outputs[0][0]["text"] == f"{tmp_path} True\n"  # a child of jupyter_client's process: not forked


def test_a_kernel_with_another_environment_starts_cold(directory, server):
    cells = ["import os\nprint(os.environ['POSENC_TEST'], os.getppid() == int(os.environ['JPY_PARENT_PID']))"]
    outputs = run(
        directory, kernel_manager_class(server.socket_path), cells=cells, env={**server.env, "POSENC_TEST": "x"}
    )
    assert outputs[0][0]["text"] == "x True\n"
    warm = run(
        directory,
        kernel_manager_class(server.socket_path),
        cells=["import os\nprint(os.getppid() == int(os.environ['JPY_PARENT_PID']))"],
        env=server.env,
    )
    assert warm[0][0]["text"] == "False\n"  # the same environment: forked by the server


def test_only_this_interpreters_ipykernel_is_replaced(server):
    manager = kernel_manager_class(server.socket_path)(kernel_name="python3")
    command = manager.format_kernel_cmd()
    assert command[1:5] == ["-I", "-S", command[3], "launch"] and command[3].endswith("warm_kernels.py")
    manager.kernel_spec.argv = ["other-python", "-m", "ipykernel_launcher", "-f", "{connection_file}"]
    assert manager.format_kernel_cmd()[:3] == ["other-python", "-m", "ipykernel_launcher"]


def test_a_kernel_imports_little_that_the_server_has_not(directory, server):
    # What a kernel imports while it starts (ipykernel's debugger: debugpy
    # and pydevd, IPython's history: sqlite3) the server has imported before
    # forking it; pyplot is left to the kernel (it hooks into the shell).
    (kernel_outputs,) = run(
        directory,
        kernel_manager_class(server.socket_path),
        ["import sys\nimport matplotlib.pyplot\nprint(sorted(sys.modules))"],
        env=server.env,
    )
    in_kernel = set(ast.literal_eval(kernel_outputs[0]["text"]))
    warmed = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from posenc_math.warm_kernels import warm_up; warm_up(); print(sorted(sys.modules))",
        ],
        cwd=directory,
        capture_output=True,
        text=True,
        check=True,
        env=server.env,
    )
    in_server = set(ast.literal_eval(warmed.stdout))
    imported_by_the_kernel = in_kernel - in_server
    assert "matplotlib.pyplot" in imported_by_the_kernel
    assert not {name for name in imported_by_the_kernel if re.match(r"_?(debugpy|pydev|sqlite3|pdb)", name)}
    assert len(imported_by_the_kernel) < 40, sorted(imported_by_the_kernel)
