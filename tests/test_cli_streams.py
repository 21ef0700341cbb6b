"""posenc_math.cli main(): --version, a closed pipe and a full disk end quietly
with a documented exit status (real processes: the behaviour lives in file
descriptors and the interpreter's exit)."""

import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import posenc_math
from posenc_math import cli

COMMAND = [sys.executable, "-m", "posenc_math"]


def test_version_prints_the_version():
    run = subprocess.run([*COMMAND, "--version"], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0
    assert run.stdout.strip() == f"posenc-math {posenc_math.__version__}"


def test_closed_pipe_ends_quietly_with_status_141():
    # The reader is gone before anything is written: every write fails with EPIPE.
    process = subprocess.Popen(
        [*COMMAND, "verify", "-q", "shift-block"], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    process.stdout.close()
    _, err = process.communicate(timeout=300)
    assert process.returncode == cli.EXIT_BROKEN_PIPE == 141
    assert b"Traceback" not in err and b"Exception ignored" not in err
    assert err == b""


def test_head_c_1_takes_one_byte_and_nothing_else_is_printed():
    shell = f'{" ".join(COMMAND)} list | head -c 1; echo " status=${{PIPESTATUS[0]}}"'
    run = subprocess.run(["bash", "-c", shell], capture_output=True, text=True, timeout=300)
    assert len(run.stdout.split(" status=")[0]) == 1
    status = int(run.stdout.split("status=")[1])
    assert status in (0, 141)  # 0 when everything was written before head closed the pipe
    assert "Traceback" not in run.stderr and "Exception ignored" not in run.stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("arguments", [["--version"], ["list"], ["verify", "-q", "shift-block"]])
def test_full_disk_is_one_line_on_stderr_and_status_1(arguments):
    with open("/dev/full", "w") as full:
        run = subprocess.run([*COMMAND, *arguments], stdout=full, stderr=subprocess.PIPE, text=True, timeout=300)
    assert run.returncode == cli.EXIT_WRITE_ERROR == 1
    assert run.stderr.strip() == "posenc-math: cannot write the output: No space left on device"


@pytest.mark.parametrize(
    "arguments",
    [["list"], ["--version"], ["verify", "-q", "shift-block"], ["--help"], [], ["verify", "nosuch"], ["bogus"]],
    ids=["list", "version", "verify", "help", "no-command", "unknown-id", "unknown-command"],
)
@pytest.mark.parametrize("how", ["console-script", "python-m"])
def test_closed_stdout_is_one_line_on_stderr_and_a_nonzero_status(arguments, how):
    """`posenc-math list >&-`: Python starts with sys.stdout None; every command says so once and exits 1."""
    program = [str(Path(sys.executable).parent / "posenc-math")] if how == "console-script" else COMMAND
    line = " ".join(shlex.quote(part) for part in [*program, *arguments])
    run = subprocess.run(["bash", "-c", f"exec {line} >&-"], capture_output=True, text=True, timeout=300)
    assert run.returncode == cli.EXIT_WRITE_ERROR != 0
    assert run.stderr.splitlines() == ["posenc-math: cannot write the output: standard output is closed"]
