"""Optional dependencies: a missing one names the extra that installs it.

posenc-math's core needs numpy, SymPy and mpmath only.  Figures need the
``plot`` extra (matplotlib), the pretrained table the ``pretrained`` extra
(safetensors, tokenizers); without them a bare ``ModuleNotFoundError`` would
not say what to install, so the modules that need them ask through
:func:`require`.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType

__all__ = ["MissingExtraError", "install_hint", "require", "require_available"]


class MissingExtraError(ModuleNotFoundError):
    """An optional dependency is not installed; the message names the extra."""


def install_hint(extra: str) -> str:
    """How to install ``extra`` from a source checkout or a built wheel.

    Examples
    --------
    >>> install_hint("plot").split(":")[0]
    'install posenc-math[plot]'
    """
    return (
        f"install posenc-math[{extra}]: pip install -e '.[{extra}]' in a source checkout, "
        f"or pip install 'posenc_math-<version>-py3-none-any.whl[{extra}]'"
    )


def _error(module: str, extra: str, what: str) -> MissingExtraError:
    top = module.split(".")[0]
    return MissingExtraError(f"{what} needs {top}, which is not installed; {install_hint(extra)}", name=top)


def require(module: str, extra: str, what: str) -> ModuleType:
    """Import ``module``; when it is missing, say which extra installs it.

    Parameters
    ----------
    module : str
        Module to import, e.g. ``"safetensors"``.
    extra : str
        The posenc-math extra that installs it, e.g. ``"pretrained"``.
    what : str
        What needs it, for the message (``"posenc_math.pretrained"``).

    Returns
    -------
    types.ModuleType
        The imported module.

    Raises
    ------
    MissingExtraError
        (a ``ModuleNotFoundError``) naming ``posenc-math[extra]`` when the
        module, or the package it belongs to, is not installed.  Errors from
        inside an installed module are not masked.

    Examples
    --------
    >>> require("json", "plot", "an example").__name__
    'json'
    >>> require("no_such_module_here", "plot", "an example")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    posenc_math._extras.MissingExtraError: an example needs no_such_module_here, ...; install posenc-math[plot]: ...
    """
    try:
        return importlib.import_module(module)
    except ModuleNotFoundError as error:
        if error.name is None or error.name.split(".")[0] != module.split(".")[0]:
            raise  # something the installed module itself imports: not ours to rename
        raise _error(module, extra, what) from error


def require_available(module: str, extra: str, what: str) -> None:
    """Like :func:`require` without importing: for modules imported lazily later.

    Examples
    --------
    >>> require_available("json", "plot", "an example")
    >>> require_available("no_such_module_here", "plot", "an example")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    posenc_math._extras.MissingExtraError: an example needs no_such_module_here, ...; install posenc-math[plot]: ...
    """
    try:
        found = importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a parent package missing, or a None in sys.modules
        found = False
    if not found:
        raise _error(module, extra, what)
