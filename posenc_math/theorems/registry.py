"""The registry: theorem ids -> the functions that build them.

Theorems are built on demand (building one creates its SymPy expressions)
and cached, so ``ids()`` is cheap and a page that shows one theorem does not
build the others.  Ids are stable: a reader's citation must keep resolving.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from .core import Result, Theorem, verify_theorem

__all__ = ["all_theorems", "get", "ids", "page_of", "register", "verify", "verify_one"]

_BUILDERS: dict[str, Callable[[], Theorem]] = {}
_PAGES: dict[str, str] = {}


def register(theorem_id: str, *, page: str):
    """Register the decorated zero-argument builder under ``theorem_id``.

    ``page`` is the site page (docname, e.g. ``"translation"``) that derives
    the theorem; the theorem index links there.
    """

    def decorate(builder: Callable[[], Theorem]):
        if theorem_id in _BUILDERS:
            raise ValueError(f"theorem id {theorem_id!r} is registered twice")
        _BUILDERS[theorem_id] = functools.cache(builder)
        _PAGES[theorem_id] = page
        return builder

    return decorate


#: The modules that register theorems, in the order the index lists them.
MODULES = ("sinusoid", "binary_code", "attention", "rope", "alibi", "relative", "context_extension")


def _load() -> None:
    import importlib

    for name in MODULES:
        importlib.import_module(f"{__package__}.{name}")


def ids() -> list[str]:
    """Every registered id, in registration order.

    Examples
    --------
    >>> "shift-block" in ids()
    True
    """
    _load()
    return list(_BUILDERS)


def page_of(theorem_id: str) -> str:
    """The docname of the page that derives ``theorem_id``."""
    get(theorem_id)
    return _PAGES[theorem_id]


def get(theorem_id: str) -> Theorem:
    """The theorem with this id; ``KeyError`` naming the known ids otherwise.

    Examples
    --------
    >>> get("shift-block").title
    'One sine-cosine pair is shifted by a rotation'
    """
    _load()
    if not isinstance(theorem_id, str) or theorem_id not in _BUILDERS:
        raise KeyError(f"unknown theorem id {theorem_id!r}; known ids: {', '.join(_BUILDERS)}")
    theorem = _BUILDERS[theorem_id]()
    if theorem.id != theorem_id:
        raise RuntimeError(f"builder registered as {theorem_id!r} returned {theorem.id!r}")
    return theorem


def all_theorems() -> list[Theorem]:
    """Every registered theorem, built."""
    return [get(theorem_id) for theorem_id in ids()]


@functools.cache
def verify_one(theorem_id: str) -> Result:
    """Verify one theorem, once per process (the site shows it on two pages)."""
    return verify_theorem(get(theorem_id))


def verify(theorem_ids: Iterable[str] | None = None) -> list[Result]:
    """Verify the given theorems (default: all), in registry order.

    Unknown ids raise ``KeyError`` before anything is checked.
    """
    wanted = ids() if theorem_ids is None else list(theorem_ids)
    for theorem_id in wanted:
        get(theorem_id)
    return [verify_theorem(get(theorem_id)) for theorem_id in wanted]
