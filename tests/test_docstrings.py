"""Every public name reads well on the API page: numpydoc sections parse as sections, constants have their own words.

The API page is built by autodoc and napoleon from these docstrings; a paragraph
placed inside ``Parameters`` shows as a bold "parameter" made of a sentence,
and a constant without a ``#:`` comment shows the docstring of its type
(``tuple``'s "Built-in immutable sequence...").
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import posenc_math

ENTRY = re.compile(r"^\*{0,2}[A-Za-z_]\w*(, \*{0,2}[A-Za-z_]\w*)*( : .+)?$")


def _modules():
    yield posenc_math
    for info in pkgutil.walk_packages(posenc_math.__path__, "posenc_math."):
        if info.name.endswith("__main__"):
            continue
        yield importlib.import_module(info.name)


def _public():
    seen = set()
    for module in _modules():
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            key = (getattr(value, "__module__", module.__name__), name)
            if key not in seen:
                seen.add(key)
                yield module, name, value


PUBLIC = list(_public())


def parameter_entries(doc: str) -> list[str]:
    """The lines of a numpydoc ``Parameters`` section that name parameters (not their descriptions)."""
    lines = inspect.cleandoc(doc).splitlines()
    for i, line in enumerate(lines[:-1]):
        if line.strip() == "Parameters" and set(lines[i + 1].strip()) == {"-"}:
            entries = []
            for entry in lines[i + 2 :]:
                if entry.strip() and set(entry.strip()) == {"-"}:
                    entries.pop()  # the next section's title
                    break
                if entry and not entry[0].isspace():
                    entries.append(entry)
            return entries
    return []


def test_the_check_sees_a_sentence_among_the_parameters():
    doc = "Summary.\n\nParameters\n----------\nAs :func:`f`.\nx : int\n    The value.\n\nReturns\n-------\nint\n"
    assert [e for e in parameter_entries(doc) if not ENTRY.match(e)] == ["As :func:`f`."]


@pytest.mark.parametrize(
    "module, name, value", [p for p in PUBLIC if callable(p[2])], ids=lambda v: getattr(v, "__name__", "")
)
def test_parameters_sections_name_parameters(module, name, value):
    doc = inspect.getdoc(value) or ""
    wrong = [entry for entry in parameter_entries(doc) if not ENTRY.match(entry)]
    assert not wrong, f"{module.__name__}.{name}: lines in Parameters that name no parameter: {wrong}"


CONSTANTS = [p for p in PUBLIC if not callable(p[2]) and not inspect.ismodule(p[2])]


@pytest.mark.parametrize("module, name, value", CONSTANTS, ids=lambda v: v if isinstance(v, str) else "")
def test_constants_have_their_own_doc_comment(module, name, value):
    source = inspect.getsource(importlib.import_module(_defining_module(module, name)))
    assert re.search(rf"^#: .*\n(#: .*\n)*{re.escape(name)}\b", source, re.MULTILINE), (
        f"{module.__name__}.{name} has no '#:' comment above its assignment: the API page would show its type's "
        "docstring"
    )


def _defining_module(module, name: str) -> str:
    """The module whose source assigns ``name`` (a package re-exports names from elsewhere in the library)."""
    for candidate in [module, *_modules()]:
        if re.search(rf"^{re.escape(name)}\s*(:[^=]*)?=", inspect.getsource(candidate), re.MULTILINE):
            return candidate.__name__
    raise AssertionError(f"no module of posenc_math assigns {name}")
