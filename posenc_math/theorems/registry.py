"""The registry: theorem ids -> the functions that build them.

Theorems are built on demand (building one creates its SymPy expressions)
and cached, so ``ids()`` is cheap and a page that shows one theorem does not
build the others.  Ids are stable: a reader's citation must keep resolving.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Callable, Iterable, Mapping

from ..witnesses import MODULES as WITNESS_MODULES
from . import core, kernel
from .core import Result, Theorem

__all__ = [
    "all_theorems",
    "dependencies",
    "get",
    "ids",
    "page_of",
    "register",
    "verify",
    "verify_one",
    "verify_theorem",
]

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


#: The modules that register theorems, one per docs page of the same name,
#: in the order the index lists them: each has a namesake in
#: :mod:`posenc_math.witnesses` with its theorems' witnesses.
MODULES = WITNESS_MODULES


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


def dependencies() -> dict[str, list[str]]:
    """Theorem id -> the ids it uses (its ``uses``), for every registered theorem.

    Examples
    --------
    >>> "shift-block" in dependencies()["shift-full"]
    True
    """
    return {theorem_id: list(get(theorem_id).uses) for theorem_id in ids()}


_RESULTS: dict[str, Result] = {}


def _with_dependencies(new: dict[str, Result], known: dict[str, Result]) -> None:
    """A theorem in ``new`` fails when a theorem it uses (transitively) fails."""
    lookup = {**known, **new}
    changed = True
    while changed:
        changed = False
        for result in new.values():
            broken = [used for used in result.uses if used in lookup and not lookup[used].ok]
            if broken and result.ok:
                result.status = "failed"
                result.failures += [f"uses {used!r}, which did not verify" for used in broken]
                changed = True


def _closure(wanted: list[str]) -> list[str]:
    """``wanted`` and everything it uses, in registry order."""
    needed, stack = set(), list(wanted)
    while stack:
        current = stack.pop()
        if current in needed:
            continue
        needed.add(current)
        with contextlib.suppress(KeyError):
            stack += list(get(current).uses)
    return [theorem_id for theorem_id in ids() if theorem_id in needed]


def verify_theorem(
    theorem: Theorem,
    *,
    context: Callable[[str], Theorem] | None = None,
    witness_values: Mapping[str, float | str] | None = None,
    defer_witness: bool = False,
    fast: bool = False,
) -> Result:
    """``posenc_math.theorems.core.verify_theorem``, resolving ``uses`` in the registry by default.

    Examples
    --------
    >>> verify_theorem(get("shift-block")).status
    'verified'
    """
    return core.verify_theorem(
        theorem, context=context or get, witness_values=witness_values, defer_witness=defer_witness, fast=fast
    )


def _verify_ids(theorem_ids: list[str]) -> list[Result]:
    return [_verify_id(theorem_id) for theorem_id in theorem_ids]


def _verify_id(theorem_id: str, **options) -> Result:
    """:func:`verify_theorem` of the registered theorem, with its keyword ``options``."""
    return verify_theorem(get(theorem_id), **options)


def _verify_in_processes(task: Callable[[str], Result], theorem_ids: list[str], processes: int) -> list[Result]:
    """``task`` of each id in ``processes`` processes (this one and forked children,
    :func:`posenc_math._processes.share`), each taking the next theorem nobody has taken (the slow ones do not
    queue).

    The children inherit the imports; each builds the theorems it checks.
    Where this process cannot fork (no ``os.fork``, or other threads run), it
    checks them all itself.
    """
    from .. import _processes

    # The later pages' theorems (RoPE, context extension) are the slowest to
    # check: handing them out first keeps the last tasks short.
    return _processes.share(task, theorem_ids[::-1], processes)[::-1]


def _judge_pending(results: Iterable[Result], values: Mapping[str, float | str]) -> None:
    """Judge every pending witness with its value from ``values``; one missing there (the process that computed
    them failed) is computed here."""
    from .. import witnesses

    for result in results:
        if result.witness == "pending":
            value = values[result.id] if result.id in values else witnesses.compute([result.id])[result.id]
            core.judge_witness(result, value)


def verify(
    theorem_ids: Iterable[str] | None = None,
    *,
    processes: int = 1,
    remember: bool = False,
    witness_values: Mapping[str, float | str] | Callable[[], Mapping[str, float | str]] | None = None,
    fast: bool = False,
) -> list[Result]:
    """Verify the given theorems (default: all) afresh, in the order given.

    The theorems they use are verified too; a theorem that uses one that
    fails is reported failed.  Unknown ids raise ``KeyError`` before
    anything is checked.  ``processes > 1`` checks in that many processes,
    this one and forked children (same results, sooner; all here where this
    process cannot fork: no ``os.fork``, or other threads run).
    ``remember=True`` keeps the results (of the theorems used, too) for
    :func:`verify_one` in this process: the site build checks every theorem
    once, in parallel, before its pages show them.  ``witness_values`` (theorem id -> largest error, as
    :func:`posenc_math.witnesses.compute` gives them) are used instead of
    computing those witnesses again (see :func:`verify_theorem`); a callable returning them
    (:meth:`posenc_math.witnesses.Background.values`) is called only once every check but the
    witnesses is done, so the checks need not wait for a process still computing them.  ``fast=True``: each
    step the symbolic procedures prove is certified by them alone (``posenc-math verify --fast``; see
    :func:`posenc_math.theorems.kernel.one_certificate`).

    Examples
    --------
    >>> [r.status for r in verify(["shift-block"])]
    ['verified']
    """
    known = ids()
    wanted = known if theorem_ids is None else list(theorem_ids)
    kernel.self_test()  # once, before any worker starts: every theorem fails if it does
    for theorem_id in wanted:
        if theorem_id not in known:
            get(theorem_id)  # raises KeyError naming the known ids
    # Every theorem wanted: nothing to close over, and nothing built here (the
    # workers build what they check; the closure would build all of it first).
    todo = known if set(wanted) >= set(known) else _closure(wanted)
    parallel = processes > 1 and len(todo) > 1
    values, later = None, None  # the witnesses' values now, or a callable asked for them at the end
    if isinstance(witness_values, Mapping):
        values = witness_values
    elif witness_values is not None:
        later = witness_values
    task = functools.partial(_verify_id, witness_values=values, defer_witness=later is not None, fast=fast)
    fresh = _verify_in_processes(task, todo, processes) if parallel else [task(theorem_id) for theorem_id in todo]
    if later is not None:
        _judge_pending(fresh, later())
    found = {result.id: result for result in fresh}
    _with_dependencies(found, {})
    if remember:
        _RESULTS.update(found)
    return [found[theorem_id] for theorem_id in wanted]


def verify_one(theorem_id: str) -> Result:
    """Verify one theorem (and what it uses), once per process (the site shows it twice)."""
    if theorem_id not in _RESULTS:
        todo = [i for i in _closure([theorem_id]) if i not in _RESULTS]
        found = {result.id: result for result in _verify_ids(todo)}
        _with_dependencies(found, _RESULTS)
        _RESULTS.update(found)
    return _RESULTS[theorem_id]
