"""The outside rounds' shared independent evaluator (tests/adversarial/round3.py and round4.py).

Written with the third round by someone who had not read the kernel, and shared by the fourth: language
objects made explicit, sums written out, every closed subexpression checked defined, both sides evaluated
with mpmath at ``DIGITS`` digits; and the driver that runs each case in a forked child under a wall-clock
cap (:func:`run_case`), in the full or the fast mode.
"""

from __future__ import annotations

import json
import os
import select
import signal
import time

import mpmath
import sympy
from sympy import Add, ImmutableMatrix, exp

from posenc_math.theorems import Witness, kernel
from posenc_math.theorems.language import BlockDiagonal, Largest, RowSoftmax, Stacked, unfold

#: Digits of the independent evaluation.
DIGITS = 1000


def _explicit(e):
    """Language objects (Largest, BlockDiagonal, Stacked, RowSoftmax, definitions) made explicit, after substitution."""
    e = unfold(e) if isinstance(e, sympy.Basic) else e
    if isinstance(e, Largest):
        lo, hi = int(e.low), int(e.high)
        if hi < lo:
            raise ValueError("empty range")
        return sympy.Max(*[_explicit(e.body.xreplace({e.index: sympy.Integer(t)})) for t in range(lo, hi + 1)])
    if isinstance(e, BlockDiagonal):
        return sympy.diag(*[e.block.xreplace({e.index: t}) for t in range(int(e.count))])
    if isinstance(e, Stacked):
        return sympy.Matrix.vstack(*[e.block.xreplace({e.index: t}) for t in range(int(e.count))])
    if isinstance(e, RowSoftmax):
        a = sympy.Matrix(_explicit(e.argument))
        return sympy.Matrix(a.rows, a.cols, lambda r, s: exp(a[r, s]) / sum(exp(a[r, t]) for t in range(a.cols)))
    if isinstance(e, sympy.Basic) and e.args and not isinstance(e, (sympy.MatrixBase,)):
        args = [_explicit(a) for a in e.args]
        if any(a is not b for a, b in zip(args, e.args, strict=False)):
            try:
                return e.func(*args)
            except Exception:
                return e
    return e


def _parse_value(v):
    if isinstance(v, list):
        return ImmutableMatrix([[sympy.sympify(t) for t in row] for row in v])
    return sympy.sympify(v)


class Undefined(Exception):
    """A side, or a subexpression of it, is undefined at the point."""


def _expand_sums(e):
    """Sums with numeric limits written out term by term (SymPy's Karr convention when upper < lower)."""
    if isinstance(e, sympy.Sum) and len(e.limits) == 1:
        index, low, high = e.limits[0]
        low, high = low.doit(), high.doit()
        if low.is_Integer and high.is_Integer:
            body = _expand_sums(e.function)
            lo, hi = int(low), int(high)
            if hi >= lo:
                return Add(*[body.xreplace({index: sympy.Integer(t)}) for t in range(lo, hi + 1)], evaluate=False)
            return -Add(*[body.xreplace({index: sympy.Integer(t)}) for t in range(hi + 1, lo)], evaluate=False)
        return e
    if isinstance(e, sympy.Basic) and e.args and not isinstance(e, sympy.MatrixBase):
        args = [_expand_sums(a) for a in e.args]
        if any(a is not b for a, b in zip(args, e.args, strict=False)):
            try:
                return e.func(*args, evaluate=False)
            except TypeError:
                return e.func(*args)
    return e


def _check_defined(e):
    """Raise Undefined when a closed subexpression of ``e`` (outside Piecewise branches) is undefined."""
    if not isinstance(e, sympy.Basic) or e.is_Atom:
        return
    if not isinstance(e, (sympy.Piecewise, sympy.Sum)):
        for a in e.args:
            _check_defined(a)
    if getattr(e, "free_symbols", None):
        return
    try:
        v = e.doit()
        if isinstance(v, sympy.matrices.expressions.MatrixExpr) and not isinstance(v, sympy.MatrixBase):
            v = v.as_explicit()
        if isinstance(v, sympy.MatrixBase):
            bad = any(t.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) for t in v)
        else:
            bad = v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo)
    except Exception as error:
        raise Undefined(f"{type(error).__name__} at {e}") from error
    if bad:
        raise Undefined(str(e)[:80])


def _number(e):
    """An exact Rational, or an mpmath complex at DIGITS digits, or 'undefined'."""
    if isinstance(e, sympy.Rational):
        return e
    try:
        v = sympy.N(e, DIGITS)
    except Exception:
        return "undefined"
    if v.has(sympy.zoo, sympy.nan, sympy.oo, -sympy.oo) or v.free_symbols:
        return "undefined"
    re_, im_ = v.as_real_imag()
    return mpmath.mpc(mpmath.mpmathify(str(sympy.N(re_, DIGITS))), mpmath.mpmathify(str(sympy.N(im_, DIGITS))))


def _values(e):
    if isinstance(e, sympy.MatrixBase):
        return [_number(t) for t in e]
    return [_number(e)]


def _pair(a, b):
    """Both exact, or both mpmath complex."""
    if isinstance(a, sympy.Rational) and isinstance(b, sympy.Rational):
        return a, b, True

    def to(t):
        return mpmath.mpc(mpmath.mpf(t.p) / t.q) if isinstance(t, sympy.Rational) else t

    return to(a), to(b), False


def _symbols_of(*exprs):
    found = {}
    for e in exprs:
        if not isinstance(e, sympy.Basic):
            continue
        for s in sympy.preorder_traversal(e):
            if isinstance(s, (sympy.Symbol, sympy.MatrixSymbol)):
                found.setdefault(str(s.name), s)
            if isinstance(s, sympy.Dummy):
                found.setdefault("_" + s.name, s)
    return found


def _witness():
    return Witness("no numeric function: a test theorem", lambda: 0.0, 0.0)


def _context(*theorems):
    table = {t.id: t for t in theorems}

    def get(theorem_id):
        return table[theorem_id]

    return get


# ---------------------------------------------------------------- the driver: a forked child per case and mode
_WRITE_FD: int | None = None


def send(payload) -> None:
    """From the child: one line of its answer (the kernel's answer is sent before any slow independent check)."""
    assert _WRITE_FD is not None
    os.write(_WRITE_FD, (json.dumps(payload, default=str) + "\n").encode())


def _child(case, fast, write_fd, run_statement, run_theorem):
    global _WRITE_FD
    _WRITE_FD = write_fd

    def on_alarm(signum, frame):
        raise TimeoutError("the independent check ran out of time")

    signal.signal(signal.SIGALRM, on_alarm)
    try:
        if case["kind"] == "theorem":
            out = run_theorem(case, fast)
        else:
            with kernel.one_certificate(fast):
                out = run_statement(case)
    except TimeoutError as error:
        out = {"eval_timeout": str(error)}
    except Exception as error:
        out = {"crash": f"{type(error).__name__}: {str(error)[:200]}"}
    send(out)
    os.close(write_fd)
    os._exit(0)


def run_case(case, fast, run_statement, run_theorem, cap):
    """Run one case in one mode in a forked child under ``cap`` wall seconds: (its answer, seconds)."""
    read_fd, write_fd = os.pipe()
    started = time.time()
    pid = os.fork()
    if pid == 0:
        os.close(read_fd)
        _child(case, fast, write_fd, run_statement, run_theorem)
    os.close(write_fd)
    chunks, deadline = [], started + cap
    while True:
        remaining = deadline - time.time()
        if remaining <= 0:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            os.close(read_fd)
            got = [json.loads(t) for t in b"".join(chunks).decode().splitlines() if t.strip()]
            if got and "proved" in got[0]:
                return dict(got[0], eval_timeout="killed"), time.time() - started
            return {"hang": True}, time.time() - started
        ready, _, _ = select.select([read_fd], [], [], remaining)
        if ready:
            chunk = os.read(read_fd, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    os.close(read_fd)
    _, status = os.waitpid(pid, 0)
    seconds = time.time() - started
    lines = [json.loads(line) for line in b"".join(chunks).decode().splitlines() if line.strip()]
    if not lines:
        return {"crash": f"child died (status {status})"}, seconds
    merged = {}
    for line in lines:
        merged.update(line)
    if "crash" in merged and len(lines) > 1 and "proved" in lines[0]:
        merged["check_error"] = merged.pop("crash")  # the harness's own check failed, not the kernel
    return merged, seconds
