"""posenc_math.cli: `posenc-math verify` prints a table or JSON and exits 1
when anything fails."""

import json
import subprocess
import sys

import pytest
import sympy

from posenc_math import cli
from posenc_math.theorems import Conclusion, Equal, Theorem, Witness, registry


def test_verify_table(capsys):
    assert cli.main(["verify", "-q", "shift-block", "dot-relative"]) == 0
    out = capsys.readouterr().out
    header = out.splitlines()[0].split()
    assert header == ["id", "title", "status", "scope", "steps", "seconds"]
    assert "shift-block" in out and "verified" in out and "general" in out
    assert "2 verified, 0 failed; 2 of 2 general" in out


def test_verify_json(capsys):
    assert cli.main(["verify", "--json", "shift-block"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    keys = [
        "id",
        "title",
        "status",
        "scope",
        "steps",
        "trivial_steps",
        "witness",
        "negative_control",
        "uses",
        "seconds",
    ]
    assert list(record)[: len(keys)] == keys
    assert record["id"] == "shift-block"
    assert record["status"] == "verified" and record["scope"] == "general"
    assert record["negative_control"] == "rejected" and record["witness"] == "passed"
    assert record["steps"] == 3 and record["trivial_steps"] == 0
    assert record["uses"] == ["angle-addition"]
    assert record["seconds"] > 0


def test_verify_json_of_everything_meets_issue_9(capsys):
    assert cli.main(["verify", "--json"]) == 0
    records = json.loads(capsys.readouterr().out)
    assert all(r["status"] == "verified" and r["negative_control"] == "rejected" for r in records)
    assert all(r["witness"] == "passed" and r["trivial_steps"] == 0 and r["scope"] for r in records)
    assert sum(r["scope"] == "general" for r in records) >= 0.8 * len(records)
    assert {"rope-long-term-decay", "yarn-ramp"} <= {r["id"] for r in records}


def test_processes_must_be_positive(capsys):
    with pytest.raises(SystemExit):
        cli.main(["verify", "--processes", "0", "shift-block"])
    assert "--processes must be a positive integer" in capsys.readouterr().err


def test_progress_goes_to_stderr(capsys):
    cli.main(["verify", "shift-block"])
    captured = capsys.readouterr()
    assert "checking 1 theorem(s)" in captured.err
    assert "checking" not in captured.out


def test_unknown_id_is_a_usage_error(capsys):
    assert cli.main(["verify", "no-such-theorem"]) == 2
    err = capsys.readouterr().err
    assert "unknown theorem id(s): no-such-theorem" in err and "shift-block" in err


def test_no_command_prints_help(capsys):
    assert cli.main([]) == 2
    assert "verify" in capsys.readouterr().err


def _register_fake(monkeypatch, theorem_id, steps, control):
    x = sympy.Symbol("x", real=True)
    first = steps(x)[0]
    fake = Theorem(
        id=theorem_id,
        title="fake",
        conclusions=(Conclusion(first.lhs, first.rhs, over=(x,)),),
        steps=steps(x),
        witness=Witness("none", lambda: 0.0, 0.0, licenses="numpy.sin"),
        negative_control=control(x),
    )
    registry.ids()  # load the real ones first
    monkeypatch.setitem(registry._BUILDERS, theorem_id, lambda: fake)
    monkeypatch.setitem(registry._PAGES, theorem_id, "theorems")


def test_failing_theorem_exits_1_and_says_which_step(monkeypatch, capsys):
    _register_fake(
        monkeypatch,
        "fake-wrong",
        steps=lambda x: [Equal(sympy.sin(2 * x), sympy.sin(x) * sympy.cos(x), "a factor 2 lost")],
        control=lambda x: Conclusion(sympy.sin(x), sympy.Integer(0), over=(x,)),
    )
    assert cli.main(["verify", "fake-wrong"]) == 1
    out = capsys.readouterr().out
    assert "fake-wrong: FAILED" in out
    assert "step 1 (a factor 2 lost)" in out and "residual" in out


def test_accepted_negative_control_exits_1(monkeypatch, capsys):
    _register_fake(
        monkeypatch,
        "fake-control",
        steps=lambda x: [Equal(sympy.sin(x) ** 2 + sympy.cos(x) ** 2, 1, "Pythagoras")],
        control=lambda x: Conclusion(sympy.cos(x) ** 2, 1 - sympy.sin(x) ** 2, over=(x,)),
    )
    assert cli.main(["verify", "--json", "fake-control"]) == 1
    (record,) = json.loads(capsys.readouterr().out)
    assert record["negative_control"] in ("accepted", "undecided") and record["status"] == "failed"


@pytest.mark.parametrize("command", [[sys.executable, "-m", "posenc_math"], ["posenc-math"]])
def test_entry_points(command, tmp_path):
    import shutil

    if command == ["posenc-math"]:
        found = shutil.which("posenc-math") or str(__import__("pathlib").Path(sys.executable).parent / "posenc-math")
        command = [found]
    run = subprocess.run([*command, "verify", "--json", "angle-addition"], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout)[0]["status"] == "verified"


def test_list_shows_id_scope_and_title(capsys):
    assert cli.main(["list"]) == 0
    rows = [line.split("\t") for line in capsys.readouterr().out.splitlines()]
    assert ["shift-block", "general", "One sine-cosine pair is shifted by a rotation"] in rows
    assert all(len(row) == 3 and row[1] in ("general", "instances", "computation") for row in rows)
