"""Run one call in a forked process with a wall-clock cap: a hang is reported, not waited for.

The checker must answer within its own time bound; the cap here is a hang
detector (generous), not a timing test.  A forked child shares the imported
modules (SymPy is not imported again), runs the call, and sends back a
picklable summary; the parent kills it when the cap runs out.

Examples
--------
>>> run(sum, [1, 2, 3], cap=10.0).value
6
>>> run(int, "not a number", cap=10.0).status
'error'
"""

from __future__ import annotations

import dataclasses
import multiprocessing
import pickle
import sys
import time
import traceback
from collections.abc import Callable
from typing import Any

#: What a Decision attribute is when the checker does not have it (yet).
MISSING = "<missing>"


def is_missing(value: Any) -> bool:
    """Whether ``value`` stands for an attribute the checker does not have (it came back through a pipe)."""
    return isinstance(value, str) and value == MISSING


@dataclasses.dataclass
class Outcome:
    """``status``: ``"ok"``, ``"error"`` (the call raised), ``"hang"`` (cap reached) or ``"died"``."""

    status: str
    value: Any = None
    error: str = ""
    seconds: float = 0.0

    def problem(self) -> str:
        """Why this outcome is a failure of the checker ("" when the call returned)."""
        if self.status == "ok":
            return ""
        if self.status == "hang":
            return f"no answer within {self.seconds:.1f} s (a hang: the checker must answer within its time bound)"
        if self.status == "died":
            return f"the process running the checker died ({self.error})"
        return f"the checker raised an exception (a crash, not a refusal):\n{self.error}"


def safe_str(value: Any, limit: int = 400) -> str:
    """``str(value)``, shortened; never raises (SymPy's printer fails on deep trees and huge integers)."""
    try:
        text = str(value)
    except (RecursionError, ValueError, TypeError, AttributeError) as error:
        text = f"<unprintable {type(value).__name__}: {type(error).__name__}>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def portable(value: Any) -> Any:
    """``value`` if it survives pickling, else its (safe) string."""
    try:
        pickle.dumps(value)
    except Exception:
        return safe_str(value, 10_000)
    return value


def _shortened(text: str, head: int = 40, tail: int = 20) -> str:
    """A long traceback's first and last lines (where it started, and what was raised)."""
    lines = text.splitlines()
    if len(lines) <= head + tail:
        return text
    return "\n".join([*lines[:head], f"... ({len(lines) - head - tail} lines) ...", *lines[-tail:]])


def _child(connection: Any, function: Callable[..., Any], args: tuple) -> None:
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    try:
        message = ("ok", portable(function(*args)))
    except BaseException:
        message = ("error", _shortened("".join(traceback.format_exception(*sys.exc_info(), chain=False))))
    try:
        connection.send(message)
    except Exception:
        connection.send(("error", "the result could not be sent back:\n" + traceback.format_exc(limit=5)))
    connection.close()


def run(function: Callable[..., Any], *args: Any, cap: float) -> Outcome:
    """``function(*args)`` in a forked child, killed after ``cap`` seconds."""
    context = multiprocessing.get_context("fork")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, function, args), daemon=True)
    start = time.perf_counter()
    process.start()
    send.close()
    try:
        if receive.poll(cap):
            try:
                status, payload = receive.recv()
            except EOFError:
                process.join()
                return Outcome("died", error=f"exit code {process.exitcode}", seconds=time.perf_counter() - start)
            seconds = time.perf_counter() - start
            process.join(timeout=30)
            if status == "ok":
                return Outcome("ok", value=payload, seconds=seconds)
            return Outcome("error", error=payload, seconds=seconds)
        seconds = time.perf_counter() - start
        process.kill()
        process.join()
        return Outcome("hang", seconds=seconds)
    finally:
        receive.close()
        if process.is_alive():
            process.kill()
            process.join()


def summarize(decision: Any) -> dict[str, Any]:
    """The parts of a ``Decision`` that the tests read, in a form that pickles."""
    summary: dict[str, Any] = {"type": type(decision).__name__}
    for attribute in ("proved", "method", "conditions", "counterexample"):
        summary[attribute] = portable(getattr(decision, attribute, MISSING))
    summary["residual"] = safe_str(getattr(decision, "residual", MISSING))
    summary["method"] = safe_str(summary["method"])
    return summary
