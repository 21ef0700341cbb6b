"""One time bound for every decision: CPU seconds, enforced by a timer, never by trust."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any

__all__ = ["TIME_BOUND", "TimeBoundExceeded", "bounded"]

#: CPU seconds allowed for one decision (a step, an instance of a lemma, a
#: negative control), unless ``POSENC_MATH_TIME_BOUND`` says otherwise.
TIME_BOUND: float = float(os.environ.get("POSENC_MATH_TIME_BOUND", "5"))


class TimeBoundExceeded(BaseException):
    """Raised inside a decision that ran out of time (a ``BaseException``: SymPy's ``except Exception`` cannot
    swallow it)."""


_state = threading.local()

#: CPU seconds between repeated alarms once a bound has run out (see :func:`_alarm`).
_REFIRE_SECONDS = 0.01


@contextmanager
def _alarm(seconds: float):
    armed = [True]

    def handler(signum, frame):
        if armed[0]:
            # Fire again soon: the signal can land inside a finalizer or a weakref callback run by the
            # garbage collector, where Python prints the exception and carries on ("Exception ignored in
            # ..."); the next one lands in the decision itself.
            signal.setitimer(signal.ITIMER_PROF, _REFIRE_SECONDS)
            raise TimeBoundExceeded

    old_handler = signal.signal(signal.SIGPROF, handler)
    old_delay, _ = signal.setitimer(signal.ITIMER_PROF, seconds)
    started = time.process_time()
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old_handler)
        if old_delay:  # someone else's timer was running: give it back what is left
            signal.setitimer(signal.ITIMER_PROF, max(old_delay - (time.process_time() - started), 1e-3))


def _in_forked_process(func: Callable[[], Any], seconds: float, timed_out: Any, died: Any) -> Any:
    """``bounded`` in a forked child, whose main thread is this thread (so its ``SIGPROF`` timer works), with a
    wall deadline on the child besides (it may hang on a lock another thread held at the fork)."""
    from ... import _processes

    def child():
        _state.active = False
        return bounded(func, seconds, timed_out, died)

    forked = _processes.fork(child, deadline=60 + 20 * seconds, while_threads_run=True)
    if forked is None:  # no process to be had
        return died
    outcome = forked.result()
    if outcome.status == "timed out":
        return timed_out
    if outcome.status == "died":
        return died
    if outcome.status == "raised":
        raise RuntimeError(outcome.error)
    return outcome.value


def bounded(func: Callable[[], Any], seconds: float | None, timed_out: Any, died: Any = None) -> Any:
    """``func()`` within ``seconds`` CPU seconds, else ``timed_out``.

    Nested calls run under the outermost bound.  In the main thread a
    ``SIGPROF`` timer; in another thread a forked process under its own timer
    (``died`` if it dies); where neither exists, unbounded.
    """
    if seconds is None or seconds <= 0 or getattr(_state, "active", False):
        return func()
    _state.active = True
    try:
        if threading.current_thread() is threading.main_thread() and hasattr(signal, "setitimer"):
            try:
                with _alarm(seconds):
                    return func()
            except TimeBoundExceeded:
                return timed_out
        if hasattr(os, "fork"):
            return _in_forked_process(func, seconds, timed_out, died)
        return func()
    finally:
        _state.active = False
