"""Child processes: the one way this library forks.

Three things run in a forked child, and all three go through :func:`fork`:

- the theorems' witnesses, while the main process imports SymPy
  (:func:`posenc_math.witnesses.start`);
- theorem checks shared among several processes
  (:func:`posenc_math.theorems.verify` with ``processes > 1``, through :func:`share`);
- a decision made outside the main thread, under the kernel's time bound
  (:func:`posenc_math.theorems.kernel.bound.bounded`: a CPU timer signal
  reaches only the main thread, and the forking thread is the child's main thread).

The rules, the same for all three:

- Fork only where ``os.fork`` exists and no other thread runs: the child is a
  copy of the calling thread alone, so a lock that another thread held at that
  moment (the import lock, a logging handler's) stays held in the child for
  ever.  A caller that must fork while other threads run (the time bound in a
  thread) says so (``while_threads_run=True``) and gives a ``deadline``: a
  child that hangs on such a lock is killed when the deadline passes, and the
  caller hears ``"timed out"``.
- The child runs one function, sends its pickled return value (or the type
  and message of what it raised) through a pipe, and leaves by ``os._exit``:
  no exit handlers, no flush of buffered output copied from the parent, no
  clean-up of what it shares with the parent.
- :meth:`Child.result` waits for the answer, reaps the child and says what
  happened (:class:`Outcome`).
- Where :func:`fork` returns None (no fork on this platform, or other threads
  run), the callers do the work in this process.

Examples
--------
>>> child = fork(lambda: sum(range(10)))
>>> child is None or child.result().value == 45
True
>>> share(abs, [-3, 1, -2], processes=2)
[3, 1, 2]
"""

from __future__ import annotations

import contextlib
import os
import pickle
import select
import signal
import struct
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["Child", "Outcome", "can_fork", "fork", "share"]


def can_fork(*, while_threads_run: bool = False) -> bool:
    """Whether :func:`fork` may fork here: ``os.fork`` exists, and no other thread runs (unless the caller
    accepts that, with a deadline)."""
    return hasattr(os, "fork") and (while_threads_run or threading.active_count() == 1)


@dataclass(frozen=True)
class Outcome:
    """What a child did: ``status`` is ``"returned"`` (``value`` is its return value), ``"raised"``
    (``error`` is ``"ExceptionType: message"``), ``"died"`` (it ended without an answer) or ``"timed out"``
    (it passed its deadline and was killed)."""

    status: str
    value: Any = None
    error: str = ""

    @property
    def ok(self) -> bool:
        """Whether the child returned a value."""
        return self.status == "returned"


class Child:
    """A forked child running one function (made by :func:`fork`)."""

    def __init__(self, pid: int, read_fd: int, deadline: float | None):
        self.pid, self._read_fd = pid, read_fd
        self._deadline = None if deadline is None else time.monotonic() + deadline
        self._outcome: Outcome | None = None

    def kill(self) -> None:
        """End the child now (its outcome: whatever it had sent; usually ``"died"``)."""
        if self._outcome is None:
            _kill(self.pid)
            self.result()

    def result(self) -> Outcome:
        """Wait for the child's answer (until its deadline, if it has one), reap it and say what happened."""
        if self._outcome is None:
            self._outcome = self._collect()
        return self._outcome

    def _collect(self) -> Outcome:
        data = bytearray()
        timed_out = finished = False
        try:
            # Read the answer's length, then the answer, and stop there: not at the pipe's end, which waits
            # for every process that holds its write end (one forked by another thread meanwhile, say).
            while not _whole(data):
                if self._deadline is not None and not _readable(self._read_fd, self._deadline - time.monotonic()):
                    timed_out = True
                    break
                chunk = os.read(self._read_fd, 1 << 16)
                if not chunk:  # the child ended before it finished its answer
                    break
                data += chunk
            finished = True
        finally:
            os.close(self._read_fd)
            if timed_out or not finished:  # past the deadline, or interrupted here (KeyboardInterrupt)
                _kill(self.pid)
            try:
                code = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
                ended = f"the child ended with exit status {code}" if code >= 0 else f"signal {-code} ended the child"
            except ChildProcessError:  # reaped already (a host that ignores SIGCHLD)
                ended = "the child ended"
        if timed_out:
            return Outcome("timed out")
        if not _whole(data):  # nothing, or part of an answer
            return Outcome("died", error=f"{ended}, with no answer")
        try:
            kind, payload = pickle.loads(data[_LENGTH.size :])
        except Exception as error:  # a class the child made and this process does not know, say
            return Outcome("raised", error=f"the answer cannot be read here: {type(error).__name__}: {error}")
        return Outcome("returned", value=payload) if kind == "returned" else Outcome("raised", error=payload)


def _whole(data: bytearray) -> bool:
    """Whether ``data`` holds a whole answer: its length, then that many bytes."""
    return len(data) >= _LENGTH.size and len(data) >= _LENGTH.size + _LENGTH.unpack_from(data)[0]


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # it has ended already (not yet reaped: still ours)
        os.kill(pid, signal.SIGKILL)


def _readable(fd: int, seconds: float) -> bool:
    """Whether ``fd`` has something to read (or its end) within ``seconds``."""
    if seconds <= 0:
        seconds = 0
    if hasattr(select, "poll"):  # no limit on the descriptor's number (select() stops at FD_SETSIZE)
        poller = select.poll()
        poller.register(fd, select.POLLIN)
        return bool(poller.poll(seconds * 1000))
    return bool(select.select([fd], [], [], seconds)[0])


#: The length of a child's answer, in front of the pickled answer.
_LENGTH = struct.Struct("!Q")


def fork(
    function: Callable[[], Any], *, deadline: float | None = None, while_threads_run: bool = False
) -> Child | None:
    """``function()`` in a forked child (:class:`Child`; its :meth:`~Child.result` gives the answer), or None
    where :func:`can_fork` says no.  ``deadline``: wall seconds after which the child is killed (needed with
    ``while_threads_run=True``, which allows the fork while other threads run)."""
    if while_threads_run and deadline is None:
        raise ValueError("a fork while other threads run needs a deadline (a child may hang on a lock)")
    if not can_fork(while_threads_run=while_threads_run):
        return None
    read_fd, write_fd = os.pipe()
    try:
        pid = os.fork()
    except OSError:  # no process to be had (EAGAIN, ENOMEM): the caller works here
        os.close(read_fd)
        os.close(write_fd)
        return None
    if pid == 0:  # the child: answer, and leave by os._exit whatever happens
        try:
            os.close(read_fd)
            try:
                answer = ("returned", function())
            except BaseException as error:  # reported to the parent, never printed here
                answer = ("raised", f"{type(error).__name__}: {error}")
            try:
                data = pickle.dumps(answer)
            except Exception as error:
                data = pickle.dumps(("raised", f"the answer cannot be pickled: {type(error).__name__}: {error}"))
            view = memoryview(_LENGTH.pack(len(data)) + data)
            while view:
                view = view[os.write(write_fd, view) :]
        finally:
            os._exit(0)
    os.close(write_fd)
    return Child(pid, read_fd, deadline)


#: A task number in the shared task pipe of :func:`share`: 4 bytes.  Every number is in the pipe before the
#: first fork (one write of at most ``PIPE_BUF`` bytes, atomic and never blocking on an empty pipe), and every
#: read asks for one record, so no process ever gets part of one.
_TASK = struct.Struct("!I")
_MAX_TASKS = select.PIPE_BUF // _TASK.size if hasattr(select, "PIPE_BUF") else 128


def share(function: Callable[[Any], Any], items: Sequence[Any], processes: int) -> list:
    """``[function(item) for item in items]``, computed by this process and ``processes - 1`` forked children.

    Each process takes the next item nobody has taken yet (from a pipe of
    task numbers written before the fork), so a slow item does not hold up
    the others: give the slow ones first.  Items a child did not answer (it
    died, or ``function`` raised there) are computed here, so an exception
    is raised here as it would be by the plain loop.  Where :func:`fork`
    cannot fork, everything is computed here.
    """
    items = list(items)
    if processes <= 1 or len(items) <= 1 or not can_fork():
        return [function(item) for item in items]
    per_task = -(-len(items) // _MAX_TASKS)  # items per task number: 1 unless there are very many items
    tasks = -(-len(items) // per_task)
    read_fd, write_fd = os.pipe()
    try:
        os.write(write_fd, b"".join(_TASK.pack(n) for n in range(tasks)))
    finally:
        os.close(write_fd)  # every reader sees the end once the numbers are taken

    def take() -> dict:
        done: dict = {}
        while True:
            record = os.read(read_fd, _TASK.size)
            if len(record) != _TASK.size:  # the end
                return done
            (task,) = _TASK.unpack(record)
            for n in range(task * per_task, min((task + 1) * per_task, len(items))):
                try:
                    done[n] = ("returned", function(items[n]))
                except Exception:  # computed again below, in the parent, where it raises for the caller
                    done[n] = ("raised", None)

    children: list[Child | None] = []
    try:
        children = [fork(take) for _ in range(min(processes, tasks) - 1)]
        found = take()
    except BaseException:
        for child in children:
            if child is not None:
                child.kill()
        raise
    finally:
        os.close(read_fd)
    for child in children:
        outcome = child.result() if child is not None else None
        if outcome is not None and outcome.ok:
            for n, answer in outcome.value.items():
                found.setdefault(n, answer)
    return [found[n][1] if n in found and found[n][0] == "returned" else function(items[n]) for n in range(len(items))]
