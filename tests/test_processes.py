"""posenc_math._processes: the library's one way to fork (witnesses, shared checks, the time bound in a thread).

The checks that must see a real fork run in a fresh interpreter: the test
runner may have threads of its own, and then :func:`fork` rightly refuses.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time

import pytest

from posenc_math import _processes


def _fresh(code: str) -> object:
    """Run ``code`` in a fresh interpreter (one thread) and return the JSON it prints last."""
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout.splitlines()[-1])


def test_a_child_answers_with_its_return_value_or_what_it_raised_or_that_it_died():
    code = (
        "import json, os, time\n"
        "from posenc_math import _processes\n"
        "def outcome(function, **options):\n"
        "    child = _processes.fork(function, **options)\n"
        "    found = child.result()\n"
        "    return [found.status, found.value, found.error, child.pid != os.getpid()]\n"
        "print(json.dumps([\n"
        "    outcome(lambda: os.getpid()),\n"
        "    outcome(lambda: 1 / 0),\n"
        "    outcome(lambda: os._exit(3)),\n"
        "    outcome(lambda: time.sleep(30), deadline=0.5),\n"
        "]))\n"
    )
    returned, raised, died, timed_out = _fresh(code)
    assert returned[0] == "returned" and isinstance(returned[1], int) and returned[3]
    assert raised[:3] == ["raised", None, "ZeroDivisionError: division by zero"]
    assert died[0] == "died" and "no answer" in died[2]
    assert timed_out[0] == "timed out"


def test_the_child_leaves_without_flushing_what_it_copied():
    """Output this process had buffered at the fork is written once, by this process (the child leaves by
    ``os._exit``, with no exit handlers either)."""
    code = (
        "import atexit, json, os, sys\n"
        "from posenc_math import _processes\n"
        "sys.stdout.write('buffered\\n')  # standard output is a pipe here: held in the buffer\n"
        "atexit.register(lambda: sys.stdout.write('atexit\\n'))\n"
        "found = _processes.fork(lambda: 1).result()\n"
        "print(json.dumps(found.value))\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-3000:]
    assert run.stdout.splitlines() == ["buffered", "1", "atexit"]


def test_the_deadline_kills_the_child():
    child = _processes.fork(lambda: time.sleep(60), deadline=0.3, while_threads_run=True)
    assert child is not None
    began = time.monotonic()
    assert child.result().status == "timed out"
    assert time.monotonic() - began < 30
    with pytest.raises(ChildProcessError):
        os.waitpid(child.pid, os.WNOHANG)  # reaped, not left a zombie


def test_no_fork_while_another_thread_runs_unless_with_a_deadline():
    """A fork copies only this thread; a lock the other one held would stay held in the child."""
    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert not _processes.can_fork()
        assert _processes.fork(lambda: 1) is None
        assert _processes.share(abs, [-1, -2, -3], processes=2) == [1, 2, 3]  # all computed here
        with pytest.raises(ValueError, match="needs a deadline"):
            _processes.fork(lambda: 1, while_threads_run=True)
        child = _processes.fork(lambda: 7, deadline=60, while_threads_run=True)
        assert child is not None and child.result().value == 7
    finally:
        release.set()
        other.join()


def test_share_gives_the_plain_loop_and_uses_every_process():
    code = (
        "import json, os, time\n"
        "from posenc_math import _processes\n"
        "def slow(n):\n"
        "    time.sleep(0.05)\n"
        "    return (n * n, os.getpid())\n"
        "found = _processes.share(slow, list(range(12)), processes=3)\n"
        "print(json.dumps([[value for value, _ in found], len({pid for _, pid in found}), os.getpid() in \n"
        "    {pid for _, pid in found}]))\n"
    )
    values, processes, here_too = _fresh(code)
    assert values == [n * n for n in range(12)]
    assert processes == 3 and here_too  # two children, and this process took its share


def test_share_computes_here_what_a_child_did_not_answer_and_raises_as_the_loop_would():
    code = (
        "import json, os\n"
        "from posenc_math import _processes\n"
        "parent = os.getpid()\n"
        "def dies_in_a_child(n):\n"
        "    if os.getpid() != parent:\n"
        "        os._exit(1)  # the child dies with everything it computed\n"
        "    return n + 1\n"
        "found = _processes.share(dies_in_a_child, list(range(6)), processes=2)\n"
        "def raises(n):\n"
        "    if n == 4:\n"
        "        raise ArithmeticError(f'no {n}')\n"
        "    return n\n"
        "try:\n"
        "    _processes.share(raises, list(range(8)), processes=2)\n"
        "    error = None\n"
        "except ArithmeticError as problem:\n"
        "    error = str(problem)\n"
        "print(json.dumps([found, error]))\n"
    )
    found, error = _fresh(code)
    assert found == [1, 2, 3, 4, 5, 6]
    assert error == "no 4"


def test_share_with_more_items_than_task_numbers_fit_in_one_pipe_write():
    code = (
        "import json, os\n"
        "from posenc_math import _processes\n"
        "items = list(range(5 * _processes._MAX_TASKS + 3))\n"
        "found = _processes.share(lambda n: (-n, os.getpid()), items, processes=2)\n"
        "print(json.dumps([[value for value, _ in found] == [-n for n in items], len({pid for _, pid in found})]))\n"
    )
    assert _fresh(code) == [True, 2]


def test_the_answer_is_read_without_waiting_for_others_that_hold_the_pipe():
    """Another process may hold the write end (forked by another thread meanwhile): the answer ends the wait."""
    code = (
        "import json, os, time\n"
        "from posenc_math import _processes\n"
        "def forks_a_sleeper():\n"
        "    if os.fork() == 0:  # a grandchild: it holds every descriptor the child holds\n"
        "        null = os.open(os.devnull, os.O_WRONLY)\n"
        "        os.dup2(null, 1), os.dup2(null, 2)\n"
        "        time.sleep(20)\n"
        "        os._exit(0)\n"
        "    return 1\n"
        "began = time.monotonic()\n"
        "found = _processes.fork(forks_a_sleeper, deadline=60).result()\n"
        "print(json.dumps([found.status, found.value, time.monotonic() - began]))\n"
    )
    status, value, seconds = _fresh(code)
    assert [status, value] == ["returned", 1] and seconds < 10


def test_a_decision_made_in_a_thread_is_bounded_in_a_forked_child(monkeypatch):
    """A CPU timer signal reaches only the main thread: in another thread the kernel's time bound forks."""
    from sympy import cos, sin, symbols

    from posenc_math.theorems import decide_equal, kernel

    def spins(difference):
        while True:
            pass

    x = symbols("x", real=True)
    found: dict = {}

    def decide() -> None:
        found["fast"] = decide_equal(sin(2 * x), 2 * sin(x) * cos(x)).proved
        with monkeypatch.context() as patch:
            patch.setitem(kernel.PROCEDURES, "normal form", spins)
            found["spins"] = decide_equal(sin(2 * x), 2 * sin(x) * cos(x), time_bound=0.3).method

    thread = threading.Thread(target=decide)
    thread.start()
    thread.join(timeout=240)
    assert not thread.is_alive()
    assert found == {"fast": True, "spins": "undecided (time bound)"}
