"""``python -m posenc_math.bench`` from a built wheel, outside the checkout.

The wheel (``pip wheel --no-deps .``) goes into a bare venv that sees only
it and its three dependencies (numpy, SymPy, mpmath, linked from this
environment so nothing is downloaded for them); the bench runs from an
empty directory, so nothing of the source checkout can be imported.  It
must run the library's sections and say what the site sections need,
without a traceback.  Its speed bars are not checked here (the machine is
shared): the exit status may be 1 when a bar is missed, never a crash.
"""

from __future__ import annotations

import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES = ("numpy", "numpy.libs", "sympy", "mpmath")


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """Python of a bare venv with the wheel of this checkout installed."""
    tmp = tmp_path_factory.mktemp("wheel")
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp / "dist"), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    (wheel,) = (tmp / "dist").glob("posenc_math-*.whl")
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp / "venv")], check=True)
    python = tmp / "venv" / "bin" / "python"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--no-deps",
            "--no-index",
            "--quiet",
            str(wheel),
        ],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    # The dependencies, and nothing else of this environment (not the editable posenc_math).
    here = Path(sysconfig.get_paths()["purelib"])
    deps = tmp / "deps"
    deps.mkdir()
    for name in DEPENDENCIES:
        if (here / name).exists():
            (deps / name).symlink_to(here / name)
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "posenc-deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    return python


def test_bench_runs_the_library_sections_from_the_wheel(installed, tmp_path):
    where = subprocess.run(
        [str(installed), "-c", "import posenc_math; print(posenc_math.__file__)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert where.returncode == 0, where.stderr
    assert str(ROOT) not in where.stdout, "the bench must run from the wheel, not the checkout"
    run = subprocess.run(
        [str(installed), "-m", "posenc_math.bench"], cwd=tmp_path, capture_output=True, text=True, timeout=600
    )
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr[-3000:]
    assert "[tables]" in run.stdout and "[verify]" in run.stdout
    assert "theorems verified / registered" in run.stdout
    assert "[site]" not in run.stdout and "[browser]" not in run.stdout
    assert "tools/bench_site.py" in run.stdout and "source checkout" in run.stdout
