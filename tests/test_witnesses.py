"""posenc_math.witnesses: the theorems' numeric witnesses, computed without SymPy."""

from __future__ import annotations

import json
import math
import subprocess
import sys

import numpy as np
import pytest

from posenc_math import cli, theorems, witnesses
from posenc_math.theorems import get, verify, verify_theorem
from posenc_math.witnesses import context_extension, relative


def test_every_theorem_uses_its_registered_witness():
    witnesses.compute(["shift-orthogonal"])  # loads every witness module
    assert set(witnesses.WITNESSES) == set(theorems.ids())
    for theorem_id in theorems.ids():
        assert get(theorem_id).witness.compute is witnesses.WITNESSES[theorem_id], theorem_id


def test_witnesses_run_without_sympy():
    """The point of the package: a process can compute every witness while another imports SymPy."""
    code = (
        "import sys; from posenc_math import witnesses; values = witnesses.compute(); "
        "print(len(values), 'sympy' in sys.modules)"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert run.stdout.split() == [str(len(theorems.ids())), "False"]


def test_a_failing_witness_is_reported_not_raised(monkeypatch):
    def broken():
        raise ArithmeticError("no such number")

    monkeypatch.setitem(witnesses.WITNESSES, "shift-orthogonal", broken)
    values = witnesses.compute(["shift-orthogonal", "angle-addition"])
    assert values["shift-orthogonal"] == "ArithmeticError: no such number"
    assert values["angle-addition"] < 1e-12
    with pytest.raises(KeyError, match="no witness for 'no-such-theorem'"):
        witnesses.compute(["no-such-theorem"])


def test_the_background_process_gives_what_compute_gives():
    """Run in a fresh process, as the command line does (start() forks only when no other thread runs)."""
    code = (
        "import json; from posenc_math import witnesses; background = witnesses.start(); "
        "print(json.dumps(background.values()))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(run.stdout) == witnesses.compute()


def test_no_background_process_while_another_thread_runs():
    """A fork would copy only this thread, and a lock the other one held would stay held."""
    import threading

    release = threading.Event()
    other = threading.Thread(target=release.wait)
    other.start()
    try:
        assert witnesses.start() is None
    finally:
        release.set()
        other.join()


def test_a_background_process_that_fails_gives_no_values():
    """Then every theorem's check computes its witness itself (verify_theorem without values)."""
    code = (
        "import json; from posenc_math import witnesses\n"
        "def broken(theorem_ids=None):\n    raise MemoryError('out of memory')\n"
        "witnesses.compute = broken\n"
        "print(json.dumps(witnesses.start().values()))"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(run.stdout) == {} and run.stderr == ""


def test_precomputed_values_are_used_and_judged():
    theorem = get("shift-orthogonal")
    assert verify_theorem(theorem, witness_values={"shift-orthogonal": 0.5}).witness == "failed"
    failed = verify_theorem(theorem, witness_values={"shift-orthogonal": "ValueError: gone"})
    assert failed.status == "failed" and "witness: ValueError: gone" in failed.failures
    assert verify(["shift-orthogonal"], witness_values={"shift-orthogonal": 0.0})[0].witness_error == 0.0


def test_a_value_for_another_function_is_not_taken(monkeypatch):
    """A value stands in only for the function registered under the theorem's id."""
    monkeypatch.setitem(witnesses.WITNESSES, "shift-orthogonal", lambda: 0.0)
    result = verify_theorem(get("shift-orthogonal"), witness_values={"shift-orthogonal": 0.5})
    assert result.witness == "passed" and result.witness_error < 1e-13


def test_the_command_line_uses_the_background_values(monkeypatch, capsys):
    class Stub:
        def values(self):
            return {"shift-orthogonal": 1.0}

    monkeypatch.setattr(witnesses, "start", Stub)
    assert cli.main(["verify", "--json", "--processes", "2"]) == 1
    rows = {row["id"]: row for row in json.loads(capsys.readouterr().out)}
    assert rows["shift-orthogonal"]["witness"] == "failed" and rows["shift-orthogonal"]["witness_error"] == 1.0
    assert rows["angle-addition"]["witness"] == "passed"


def test_a_deferred_witness_waits_for_its_value_and_is_then_judged():
    from posenc_math.theorems import core

    pending = verify_theorem(get("shift-orthogonal"), defer_witness=True)
    assert (pending.status, pending.witness, pending.witness_error) == ("pending", "pending", None)
    assert not pending.ok
    core.judge_witness(pending, 0.5)
    assert pending.status == "failed" and pending.witness == "failed" and pending.witness_error == 0.5
    assert any("exceeds" in failure for failure in pending.failures)
    with pytest.raises(ValueError, match="not pending"):
        core.judge_witness(pending, 0.0)
    passed = verify_theorem(get("shift-orthogonal"), defer_witness=True)
    core.judge_witness(passed, 0.0)
    assert passed.ok and passed.witness == "passed"


def test_a_witness_that_is_not_the_registered_one_is_not_deferred(monkeypatch):
    monkeypatch.setitem(witnesses.WITNESSES, "shift-orthogonal", lambda: 0.0)
    result = verify_theorem(get("shift-orthogonal"), defer_witness=True)
    assert result.witness == "passed" and result.ok


@pytest.mark.parametrize("processes", [1, 2])
def test_values_given_late_are_asked_for_once_after_every_check(processes):
    """A callable for witness_values is called once, when the checks are done; an id missing from what it
    returns (its process failed) is computed here."""
    calls = []

    def late():
        calls.append(1)
        return {"shift-orthogonal": 1.0}

    results = {r.id: r for r in verify(["shift-orthogonal", "shift-full"], processes=processes, witness_values=late)}
    assert calls == [1]
    assert results["shift-orthogonal"].witness == "failed" and results["shift-orthogonal"].status == "failed"
    assert results["shift-full"].witness == "passed" and results["shift-full"].ok
    assert all(r.witness != "pending" for r in results.values())


def test_t5_exact_arithmetic_agrees_with_float32():
    # the witness's claim, on one more configuration
    config = (True, 16, 64)
    offsets = np.arange(-200, 201)
    assert np.array_equal(relative.exact_buckets(offsets, config), relative.buckets_of(offsets, config))


def test_exact_ramp_matches_the_float_formula():
    """The page's example (d = 128, b = 500000, s = 8, L = 8192): the ramp runs from pair 18 to pair 35."""

    def end(beta):  # j(beta) = d ln(L / (2 pi beta)) / (2 ln b), in float64
        return 128 * math.log(8192 / (2 * math.pi * beta)) / (2 * math.log(500000.0))

    low, high, ramp, _ = context_extension.yarn_ramp_exact(128, 500000.0, 8.0, 8192)
    assert (int(low), int(high)) == (math.floor(end(32)), math.ceil(end(1))) == (18, 35)
    assert ramp[0] == 0 and ramp[-1] == 1
    assert np.all(np.diff(np.array([float(r) for r in ramp])) >= 0)


def test_deberta_exact_buckets_agree_with_float32_near_zero_and_at_an_integer_end():
    config = (256, 512)
    distances = np.arange(0, 4097)
    assert np.array_equal(relative.exact_log_buckets(distances, config), relative.log_buckets(distances, config))
    # ln(511 / 128) / ln(511 / 128) * 127 is exactly 127: |d| = M - 1 is the last distance of bucket 255
    assert relative.exact_log_buckets([510, 511, 512], config).tolist() == [255, 255, 256]


def test_deberta_float32_steps_explain_where_exact_arithmetic_differs():
    """Where the library's float32 bucket is not the exact one, rounding each step to float32 gives the
    library's; the exact one is off by one there (the witness would count such an offset otherwise)."""
    config = (256, 512)
    distances = np.arange(0, 2**17 + 1)
    exact, got = relative.exact_log_buckets(distances, config), relative.log_buckets(distances, config)
    differ = np.nonzero(exact != got)[0]
    assert differ.size >= 3 and np.all(np.abs(exact[differ] - got[differ]) == 1)
    for distance in differ:
        assert relative.float32_log_bucket(int(distance), config) == got[distance]
    assert [relative.float32_log_bucket(d, config) for d in (132, 200, 5000)] == [131, 169, 465]


def test_deberta_exact_buckets_reach_as_far_as_asked_and_no_less():
    config = (256, 512)
    distances = np.arange(0, 5000)
    assert np.array_equal(
        relative.exact_log_buckets(distances, config, up_to=2**20), relative.exact_log_buckets(distances, config)
    )
    with pytest.raises(ValueError, match="up_to must be at least the largest distance, 4999; got 100"):
        relative.exact_log_buckets(distances, config, up_to=100)
