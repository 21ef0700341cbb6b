"""The package as a reader installs it: a wheel built from this checkout, in
a bare venv.

``pip wheel --no-deps .`` builds the wheel; it is installed with
``--no-index`` into a venv made without pip, which sees only the wheel and
its three dependencies (numpy, SymPy, mpmath: linked from this environment
through a ``.pth`` file, so nothing is downloaded).  Commands run from an
empty directory, so nothing of the checkout can be imported.  The optional
dependencies (matplotlib, safetensors, tokenizers) are absent there, which
is what the missing-extra messages need.
"""

from __future__ import annotations

import re
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import pytest

import posenc_math

ROOT = Path(__file__).resolve().parent.parent
DEPENDENCIES = ("numpy", "numpy.libs", "sympy", "mpmath")


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(out), str(ROOT)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    (built,) = out.glob("posenc_math-*.whl")
    return built


def bare_venv_with(wheel: Path, tmp: Path, visible: Path) -> Path:
    """The bin/ directory of a venv made without pip, with only ``wheel`` installed
    in it, that also sees the packages in ``visible`` (through a ``.pth`` file)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(tmp / "venv")], check=True)
    python = tmp / "venv" / "bin" / "python"
    run = subprocess.run(
        [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps", "--no-index", "-q", str(wheel)],
        capture_output=True,
        text=True,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    purelib = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(purelib) / "posenc-visible.pth").write_text(f"{visible}\n", encoding="utf-8")
    return python.parent


@pytest.fixture(scope="module")
def venv(wheel, tmp_path_factory) -> Path:
    """A bare venv with the wheel and its three dependencies only."""
    tmp = tmp_path_factory.mktemp("venv")
    here = Path(sysconfig.get_paths()["purelib"])
    deps = tmp / "deps"
    deps.mkdir()
    for name in DEPENDENCIES:
        if (here / name).exists():
            (deps / name).symlink_to(here / name)
    return bare_venv_with(wheel, tmp, deps)


@pytest.fixture(scope="module")
def venv_with_extras(wheel, tmp_path_factory) -> Path:
    """A second bare venv with the wheel, seeing every package of this environment
    (the extras: matplotlib, safetensors, ...) but not the checkout: the package is the wheel's."""
    return bare_venv_with(wheel, tmp_path_factory.mktemp("venv-extras"), Path(sysconfig.get_paths()["purelib"]))


#: Imports each module named on the command line; prints one line per module: OK, or the error's last line.
IMPORT_EACH = """
import importlib, sys
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        print(name, "OK")
    except Exception as error:
        print(name, type(error).__name__, str(error).splitlines()[-1] if str(error) else "")
"""


def shipped_modules(wheel: Path) -> list[str]:
    """Every Python module in the wheel, as an import name."""
    names = [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith(".py")]
    modules = [n[: -len(".py")].replace("/", ".").removesuffix(".__init__") for n in names]
    return sorted(m for m in modules if not m.endswith("__main__"))


def test_the_wheel_holds_the_library_alone(wheel):
    """No Sphinx extension, notebook executor or benchmark: those are the docs' own (tools/)."""
    modules = shipped_modules(wheel)
    assert "posenc_math" in modules and "posenc_math.theorems.core" in modules
    assert all(m == "posenc_math" or m.startswith("posenc_math.") for m in modules), modules
    unwanted = [m for m in modules if any(word in m for word in ("sphinx", "kernel_", "notebook", "bench"))]
    assert not unwanted, unwanted


def test_every_shipped_module_imports_from_the_wheel(wheel, venv_with_extras, tmp_path):
    """With the optional extras present (and no Sphinx needed), every module of the wheel imports."""
    run = run_in(venv_with_extras, tmp_path, "python", "-c", IMPORT_EACH, *shipped_modules(wheel))
    assert run.returncode == 0, run.stderr[-2000:]
    failed = [line for line in run.stdout.splitlines() if not line.endswith(" OK")]
    assert not failed, failed
    assert len(run.stdout.splitlines()) == len(shipped_modules(wheel))
    where = run_in(venv_with_extras, tmp_path, "python", "-c", "import posenc_math; print(posenc_math.__file__)")
    assert str(ROOT) not in where.stdout, "the modules must come from the wheel, not the checkout"


def test_without_extras_every_module_imports_or_names_its_extra(wheel, venv, tmp_path):
    """``pip install`` of the wheel alone (numpy, SymPy, mpmath): every module imports, except
    those of an optional extra, which say which extra to install."""
    run = run_in(venv, tmp_path, "python", "-c", IMPORT_EACH, *shipped_modules(wheel))
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    assert len(lines) == len(shipped_modules(wheel))
    for line in lines:
        if not line.endswith(" OK"):
            assert re.search(r"install posenc-math\[(plot|pretrained|precision)\]", line), line
    imported = {line.split()[0] for line in lines if line.endswith(" OK")}
    assert {"posenc_math", "posenc_math.theorems", "posenc_math.theorems.core", "posenc_math.witnesses"} <= imported


def run_in(venv: Path, tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([str(venv / args[0]), *args[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=600)


def test_wheel_ships_the_package_its_type_hints_and_nothing_else(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "posenc_math/py.typed" in names
    assert "posenc_math/__init__.py" in names and "posenc_math/theorems/__init__.py" in names
    assert not [name for name in names if name.startswith(("tests/", "docs/"))]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("/METADATA"))).decode()
    assert f"Version: {posenc_math.__version__}" in metadata
    for extra in ("plot", "pretrained"):
        assert f"Provides-Extra: {extra}" in metadata


def test_installed_package_is_the_wheel_not_the_checkout(venv, tmp_path):
    where = run_in(venv, tmp_path, "python", "-c", "import posenc_math; print(posenc_math.__file__)")
    assert where.returncode == 0, where.stderr
    assert str(ROOT) not in where.stdout and "site-packages" in where.stdout


def test_version(venv, tmp_path):
    run = run_in(venv, tmp_path, "posenc-math", "--version")
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"posenc-math {posenc_math.__version__}"


def test_verify(venv, tmp_path):
    run = run_in(venv, tmp_path, "posenc-math", "verify", "--quiet")
    assert run.returncode == 0, (run.stdout[-2000:], run.stderr[-2000:])
    summary = re.search(r"(\d+) verified, (\d+) failed", run.stdout)
    assert summary and int(summary.group(1)) >= 10 and summary.group(2) == "0", run.stdout[-500:]


@pytest.mark.parametrize(
    "code, extra",
    [
        ("import posenc_math.plotting", "plot"),
        ("from posenc_math.plotting import heatmap", "plot"),
        ("from posenc_math import pretrained; pretrained.load_tokenizer()", "pretrained"),
    ],
)
def test_missing_extra_is_named(venv, tmp_path, code, extra):
    run = run_in(venv, tmp_path, "python", "-c", code)
    assert run.returncode != 0
    last = run.stderr.strip().splitlines()[-1]
    assert "ModuleNotFoundError" in last or "MissingExtraError" in last, last
    assert f"install posenc-math[{extra}]" in last, last


def test_install_instructions_name_only_a_checkout_or_a_wheel():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    home = (ROOT / "docs" / "index.md").read_text(encoding="utf-8")
    for name, text in (("README.md", readme), ("docs/index.md", home)):
        # An install from an index names the project; a checkout installs ".", a wheel its file.
        from_index = re.findall(r"pip install (?:-U |--upgrade )?['\"]?posenc[-_]math\b", text)
        assert not from_index, f"{name} tells readers to install from a package index: {from_index}"
        assert "pip install '.[plot]'" in text and "pip wheel --no-deps ." in text, name
    assert f"dist/posenc_math-{posenc_math.__version__}-py3-none-any.whl" in readme


def test_bench_runs_the_library_sections_from_the_wheel(venv, tmp_path):
    """``python tools/bench.py`` with the wheel's Python runs the library's sections and says what the site
    sections need, without a traceback; its speed bars are not checked here (the machine is shared), so
    the exit status may be 1 when a bar is missed, never a crash."""
    where = run_in(venv, tmp_path, "python", "-c", "import posenc_math; print(posenc_math.__file__)")
    assert where.returncode == 0, where.stderr
    assert str(ROOT) not in where.stdout, "the bench must run from the wheel, not the checkout"
    run = run_in(venv, tmp_path, "python", str(ROOT / "tools" / "bench.py"))
    assert run.returncode in (0, 1) and "Traceback" not in run.stderr, run.stderr[-3000:]
    assert "[tables]" in run.stdout and "[verify]" in run.stdout
    assert "theorems verified / registered" in run.stdout
    assert "[site]" not in run.stdout and "[browser]" not in run.stdout
    assert "tools/bench_site.py" in run.stdout and "source checkout" in run.stdout


def readme_examples() -> str:
    """The README's Python examples, as one script."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.DOTALL)
    assert blocks, "README.md has no ```python example"
    return "\n".join(blocks)


def test_readme_examples_run_and_pass_mypy_strict_against_the_installed_package(venv, tmp_path):
    """A user's script with the README's examples: it runs from the wheel, and `mypy --strict` accepts it with
    the wheel's type hints (py.typed); a deliberately wrong line is refused, so the hints are really read."""
    script = tmp_path / "user_script.py"
    script.write_text(readme_examples(), encoding="utf-8")
    ran = run_in(venv, tmp_path, "python", str(script))
    assert ran.returncode == 0, ran.stderr[-2000:]

    def mypy(path: Path) -> subprocess.CompletedProcess:
        command = [sys.executable, "-m", "mypy", "--strict", "--no-incremental"]
        command += ["--python-executable", str(venv / "python"), str(path)]
        return subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, timeout=600)

    checked = mypy(script)
    assert checked.returncode == 0, checked.stdout[-3000:]
    wrong = tmp_path / "wrong_script.py"
    wrong.write_text(readme_examples() + "\nwrong: str = pm.rope(q, position_ids)\n", encoding="utf-8")
    refused = mypy(wrong)
    assert refused.returncode == 1 and '(expression has type "ndarray' in refused.stdout, refused.stdout
