"""posenc_math/__init__.py: the public names, once; lazy submodules."""

import subprocess
import sys

import pytest

import posenc_math
from posenc_math import encodings


def test_every_encoding_is_public_from_the_package():
    assert set(encodings.__all__) <= set(posenc_math.__all__)
    for name in posenc_math.__all__:
        assert getattr(posenc_math, name) is not None


def test_theorems_and_plotting_are_imported_on_first_use():
    """``posenc_math.theorems`` works without its own import, and plain
    ``import posenc_math`` does not import SymPy or matplotlib."""
    code = (
        "import sys, posenc_math\n"
        "assert 'sympy' not in sys.modules and 'matplotlib' not in sys.modules, 'eager import'\n"
        "assert 'shift-block' in posenc_math.theorems.ids()\n"
        "assert 'sympy' in sys.modules\n"
        "assert callable(posenc_math.plotting.heatmap)\n"
    )
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert run.returncode == 0, run.stderr


def test_unknown_attribute_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no attribute 'no_such_thing'"):
        _ = posenc_math.no_such_thing
    assert "theorems" in dir(posenc_math)


#: Public functions of rope_scaling.py, which issue 23's branch owns (its annotations come from there).
NOT_YET_ANNOTATED: set[str] = set()


@pytest.mark.parametrize(
    "module_name",
    [
        "posenc_math",
        "posenc_math.analysis",
        "posenc_math.conventions",
        "posenc_math.precision",
        "posenc_math.pretrained",
        "posenc_math.residual",
        "posenc_math.plotting",
        "posenc_math.cli",
    ],
)
def test_every_public_function_is_annotated(module_name):
    """Every parameter and the return of every public function has a type annotation (mypy --strict users
    call them from typed code); tests/test_wheel.py runs mypy --strict on the README's examples."""
    import importlib
    import inspect

    module = importlib.import_module(module_name)
    missing, done = [], []
    for name in getattr(module, "__all__", []):
        function = getattr(module, name)
        if not inspect.isfunction(function):
            continue
        signature = inspect.signature(function)
        unannotated = [p for p, v in signature.parameters.items() if v.annotation is inspect.Parameter.empty]
        if unannotated or signature.return_annotation is inspect.Signature.empty:
            if name not in NOT_YET_ANNOTATED:
                missing.append(f"{name}{signature}")
        elif name in NOT_YET_ANNOTATED:
            done.append(name)
    assert not missing, missing
    assert not done, f"annotated now: remove {done} from NOT_YET_ANNOTATED"
