"""posenc_math.cli: `posenc-math verify` prints a table or JSON and exits 1
when anything fails."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
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


def test_fast_mode_is_labelled_in_the_table_the_progress_line_and_the_json(capsys):
    assert cli.main(["verify", "--fast", "shift-block"]) == 0
    captured = capsys.readouterr()
    assert "FAST MODE" in captured.out.splitlines()[-1] and "FAST MODE" in captured.err
    assert cli.main(["verify", "--json", "--fast", "shift-block"]) == 0
    (record,) = json.loads(capsys.readouterr().out)
    assert record["mode"] == "fast" and record["status"] == "verified"
    assert cli.main(["verify", "--json", "shift-block"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["mode"] == "full"
    assert cli.main(["verify", "shift-block"]) == 0
    assert "FAST" not in capsys.readouterr().out


@pytest.mark.parametrize("command", [[sys.executable, "-m", "posenc_math"], ["posenc-math"]])
def test_entry_points_exit_with_mains_status_and_all_of_its_output(command, tmp_path):
    """The console command leaves by os._exit once main has returned: its status and every line it wrote,
    to a pipe and to a file, still arrive."""
    import shutil

    if command == ["posenc-math"]:
        command = [
            shutil.which("posenc-math") or str(__import__("pathlib").Path(sys.executable).parent / "posenc-math")
        ]
    run = subprocess.run([*command, "list"], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 0 and run.stdout.count("\n") == len(cli_ids())
    out = tmp_path / "out.json"
    with out.open("w") as stream:
        run = subprocess.run(
            [*command, "verify", "--json", "fake-id"], stdout=stream, stderr=subprocess.PIPE, text=True
        )
    assert run.returncode == 2 and "unknown theorem id" in run.stderr
    with out.open("w") as stream:
        run = subprocess.run([*command, "verify", "--json", "shift-block"], stdout=stream, text=True, cwd=tmp_path)
    assert run.returncode == 0 and json.loads(out.read_text())[0]["id"] == "shift-block"


def cli_ids() -> list[str]:
    from posenc_math import theorems

    return theorems.ids()


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


# --- posenc-math check-config -----------------------------------------------------------

CONFIGS = Path(__file__).resolve().parent / "data" / "configs"


def test_check_config_table(capsys):
    assert cli.main(["check-config", str(CONFIGS / "gemma-3-1b-it.json")]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert "model_type gemma3_text (Gemma 3), 26 layers" in lines[0]
    header = lines[2].split()
    assert header[:5] == ["layers", "kind", "type", "rope_type", "base"]
    assert "f32" in header and "bf16" in header
    rows = lines[4:6]
    assert rows[0].startswith("0-4, 6-10, 12-16, 18-22, 24-25") and " 10,000 " in rows[0]
    assert rows[1].startswith("5, 11, 17, 23") and " 1 million " in rows[1] and "1,048,576" in rows[1]


def test_check_config_json_and_notes(capsys):
    assert cli.main(["check-config", "--json", str(CONFIGS / "edge_pythia-70m_generic-rope-keys.json")]) == 0
    record = json.loads(capsys.readouterr().out)
    assert (record["model_type"], record["n_layers"]) == ("gpt_neox", 6)
    (row,) = record["layers"]
    assert row["layer_indices"] == list(range(6)) and row["rotary_dim"] == 16 and len(row["notes"]) == 2
    assert cli.main(["check-config", str(CONFIGS / "deepseek-v3.json")]) == 0
    assert "attention logits also scaled by 1.87385" in capsys.readouterr().out


def dump(path, layer_config, layer_index, ids, transform=None, **extra):
    """Save a layer's exact caches (transformed) as float32 in an .npz, with extra arrays."""
    from posenc_math import rope_from_config

    cos, sin = rope_from_config(layer_config, layer=layer_index).cos_sin(ids)
    if transform is not None:
        cos, sin = transform(cos), transform(sin)
    np.savez(path, cos=cos.astype(np.float32), sin=sin.astype(np.float32), **extra)
    return str(path)


def test_check_config_compare_agrees(tmp_path, capsys):
    config = CONFIGS / "phi-3.5-mini-instruct.json"
    positions = np.arange(0, 5000, 3)
    path = dump(tmp_path / "ok.npz", config, 0, positions, positions=positions)
    assert cli.main(["check-config", str(config), "--compare", path]) == 0
    out = capsys.readouterr().out
    assert "AGREES with the exact values" in out and "seq_len 4999" in out


def test_check_config_compare_names_the_mistake(tmp_path, capsys):
    config = CONFIGS / "gemma-3-1b-it.json"
    # the sliding layer's caches, dumped for the full-attention layer 5
    path = dump(tmp_path / "swapped.npz", config, 0, np.arange(400), layer=np.array(5))
    assert cli.main(["check-config", str(config), "--compare", path]) == 1
    out = capsys.readouterr().out
    assert "layer 5 (full_attention)" in out and "DIFFERS" in out
    assert "Explained by: local/global base swapped (local_global_swapped)" in out
    assert cli.main(["check-config", str(config), "--compare", path, "--layer", "0"]) == 0  # --layer wins
    capsys.readouterr()
    assert cli.main(["check-config", "--json", str(config), "--compare", path]) == 1
    compare = json.loads(capsys.readouterr().out)["compare"]
    assert compare["explanation"] == "local_global_swapped" and compare["agrees"] is False
    assert compare["n_positions"] == 400 and compare["worst_error"] > 1


def test_check_config_compare_without_an_explanation(tmp_path, capsys):
    config = CONFIGS / "llama-2-7b-hf.json"
    path = dump(tmp_path / "scaled.npz", config, 0, np.arange(50), transform=lambda array: 0.5 * array)
    assert cli.main(["check-config", str(config), "--compare", path]) == 1
    assert "No known mistake explains it." in capsys.readouterr().out


@pytest.mark.parametrize(
    "arguments,words",
    [
        (["/no/such/config.json"], "no such file"),
        ([str(CONFIGS / "gemma-3-1b-it.json"), "--compare", "/no/such/dump.npz"], "cannot read"),
        ([str(CONFIGS / "gemma-3-1b-it.json"), "--layer", "99", "--compare", "{empty}"], "no array cos or sin"),
        ([str(CONFIGS / "gemma-3-1b-it.json"), "--layer", "99", "--compare", "{ok}"], r"layer must be in 0 .. 25"),
    ],
)
def test_check_config_errors_exit_2(tmp_path, capsys, arguments, words):
    np.savez(tmp_path / "empty.npz", other=np.zeros(3))
    np.savez(tmp_path / "ok.npz", cos=np.ones((2, 256)), sin=np.zeros((2, 256)))
    arguments = [a.format(empty=tmp_path / "empty.npz", ok=tmp_path / "ok.npz") for a in arguments]
    assert cli.main(["check-config", *arguments]) == 2
    assert re.search(words, capsys.readouterr().err)
