"""Sphinx directives that put checked theorems on the site.

``{posenc-theorem} ID`` verifies the theorem while the page is built and
writes its statement and step-by-step proof (sphinx-proof ``prf:theorem`` and
``prf:proof``, label ``thm-ID``).  ``{posenc-theorem-index}`` writes the table
of every registered theorem.  A theorem that fails to verify, or whose
negative control is accepted, is a build warning, and the site is built with
warnings as errors: the site cannot show a proof that did not check.
Pages that show theorems are read again whenever the library's source has
changed since the last build, so an incremental build re-checks them too.

Enable with ``extensions = [..., "posenc_math.sphinxext"]`` after
``sphinx_proof`` and ``myst_nb``.
"""

from __future__ import annotations

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

__all__ = ["setup"]

logger = logging.getLogger(__name__)

#: Marks, in the environment, a page that shows the theorem index.
_INDEX = "(index)"


def _parse(directive: SphinxDirective, text: str) -> list:
    container = nodes.container()
    directive.state.nested_parse(
        StringList(text.splitlines(), source=directive.get_source_info()[0]), directive.content_offset, container
    )
    return container.children


def _report(directive, result) -> None:
    if not result.ok:
        logger.warning(
            "theorem %r did not verify: %s", result.id, "; ".join(result.failures), location=directive.get_location()
        )


class TheoremDirective(SphinxDirective):
    """``{posenc-theorem} ID``: a theorem from the registry, checked now."""

    required_arguments = 1
    has_content = False

    def run(self):
        from . import theorems
        from .theorems import render

        theorem_id = self.arguments[0]
        try:
            theorem = theorems.get(theorem_id)
        except KeyError as error:
            logger.warning("%s", error.args[0], location=self.get_location())
            return []
        registered = theorems.page_of(theorem_id)
        if registered != self.env.docname:
            logger.warning(
                "theorem %r is registered for page %r but shown on %r (the index links to the registered page)",
                theorem_id,
                registered,
                self.env.docname,
                location=self.get_location(),
            )
        result = theorems.verify_one(theorem_id)
        _report(self, result)
        _shown(self.env).setdefault(self.env.docname, set()).add(theorem_id)
        return _parse(self, render.theorem_myst(theorem, result))


class TheoremIndexDirective(SphinxDirective):
    """``{posenc-theorem-index}``: every registered theorem, checked now."""

    has_content = False

    def run(self):
        from . import theorems
        from .theorems import render

        results = [theorems.verify_one(theorem_id) for theorem_id in theorems.ids()]
        for result in results:
            _report(self, result)
        _shown(self.env).setdefault(self.env.docname, set()).add(_INDEX)
        return _parse(self, render.index_myst(theorems.all_theorems(), results))


def _shown(env) -> dict:
    """docname -> ids of the theorems shown on it (kept in the environment)."""
    if not hasattr(env, "posenc_theorems"):
        env.posenc_theorems = {}
    return env.posenc_theorems


def _purge(app, env, docname) -> None:
    _shown(env).pop(docname, None)


def _merge(app, env, docnames, other) -> None:
    for docname in docnames:
        if docname in _shown(other):
            _shown(env)[docname] = _shown(other)[docname]


def library_digest() -> str:
    """sha256 over the source of the ``posenc_math`` package (what proofs depend on)."""
    import hashlib
    from pathlib import Path

    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _reread_proofs(app, env, added, changed, removed) -> list:
    """When the library changed since the last build, pages that show theorems
    are read again, so their proofs are checked against the new code even if
    the pages themselves did not change.  A no-op rebuild reads nothing.

    Pages are found by their source text, so the first build catches them too.
    """
    digest = library_digest()
    if getattr(env, "posenc_library_digest", None) == digest:
        return []
    env.posenc_library_digest = digest
    pages = []
    for docname in sorted(env.found_docs):
        try:
            source = env.doc2path(docname).read_text(encoding="utf-8")
        except OSError:
            continue
        if "{posenc-theorem" in source:
            pages.append(docname)
    return pages


def _check_every_theorem_is_shown(app, env) -> None:
    """Each registered theorem must appear on the page it is registered for."""
    from . import theorems

    shown = _shown(env)
    for theorem_id in theorems.ids():
        page = theorems.page_of(theorem_id)
        if theorem_id not in shown.get(page, ()):
            logger.warning(
                "theorem %r is not shown on its page %r (add ```{posenc-theorem} %s```)", theorem_id, page, theorem_id
            )


def setup(app):
    app.add_directive("posenc-theorem", TheoremDirective)
    app.add_directive("posenc-theorem-index", TheoremIndexDirective)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _reread_proofs)
    app.connect("env-check-consistency", _check_every_theorem_is_shown)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
