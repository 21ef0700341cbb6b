"""Sphinx directives that put checked theorems on the site.

``{posenc-theorem} ID`` verifies the theorem while the page is built and
writes its box (sphinx-proof ``prf:theorem``, label ``thm-ID``): the
statement rendered from its conclusions, its scope, a human proof
(``posenc-proof``, element id ``proof-ID``) and the whole machine-checked
chain folded in ``<details class="machine-proof">`` (``posenc-machine-proof``,
closed on load).  ``{posenc-theorem-index}`` writes the table of every
registered theorem and the dependency graph of their ``uses``, drawn at build
time as an inline SVG (no script, nothing fetched).  A theorem that fails to verify, or whose
negative control is accepted, is a build warning, and the site is built with
warnings as errors: the site cannot show a proof that did not check.
Pages that show theorems are read again whenever the library code the
theorems depend on has changed since the last build (:func:`library_digest`),
so an incremental build re-checks them too.

Enable with ``extensions = [..., "posenc_docs.theorem_pages"]`` after
``sphinx_proof`` and ``myst_nb`` (conf.py puts ``tools/`` on ``sys.path``).
"""

from __future__ import annotations

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.util import logging
from sphinx.util.docutils import SphinxDirective

__all__ = ["GENERATED_CLASS", "setup", "standalone_myst"]

logger = logging.getLogger(__name__)

#: Class of text written from the theorem registry (tests/site/numberlint.py reads its numbers as computed).
GENERATED_CLASS = "posenc-generated"

#: Marks, in the environment, a page that shows the theorem index.
_INDEX = "(index)"


def _parse(directive: SphinxDirective, text: str, theorem_id: str = "") -> list:
    container = nodes.container()
    directive.state.nested_parse(
        StringList(text.splitlines(), source=directive.get_source_info()[0]), directive.content_offset, container
    )
    if theorem_id:  # sphinx-proof gives every theorem body the same id; make it unique
        for node in container.findall(nodes.Element):
            node["ids"] = [f"statement-{theorem_id}" if i == "proof-content" else i for i in node["ids"]]
    return container.children


class machine_proof(nodes.General, nodes.Element):
    """The folded machine chain: ``<details class="machine-proof">`` in HTML."""


class human_proof(nodes.General, nodes.Element):
    """A theorem's human proof: ``<div class="proof" id="proof-ID">`` in HTML."""


def _visit_machine_proof(translator, node) -> None:
    translator.body.append('<details class="machine-proof">')
    translator.body.append(f"<summary>{translator.encode(node['summary'])}</summary>")


def _depart_machine_proof(translator, node) -> None:
    translator.body.append("</details>")


def _visit_human_proof(translator, node) -> None:
    translator.body.append(f'<div class="proof posenc-proof" id="proof-{node["theorem"]}">')
    translator.body.append('<p class="proof-title"><em>Proof.</em></p>')


def _depart_human_proof(translator, node) -> None:
    translator.body.append("</div>")


def _skip(translator, node) -> None:
    pass


class MachineProofDirective(SphinxDirective):
    """``posenc-machine-proof SUMMARY``: content folded in ``<details class="machine-proof">``."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = True

    def run(self):
        node = machine_proof(summary=self.arguments[0])
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


class HumanProofDirective(SphinxDirective):
    """``posenc-proof ID``: the human proof of theorem ID (element id ``proof-ID``)."""

    required_arguments = 1
    has_content = True

    def run(self):
        node = human_proof(theorem=self.arguments[0])
        self.state.nested_parse(self.content, self.content_offset, node)
        return [node]


def _check_before_reading(app, env, docnames) -> None:
    """Before reading: check the theorems of the pages about to be read, on every core.

    :func:`posenc_math.theorems.verify` (``remember=True``) keeps the
    results, so each directive below finds its theorem already checked.
    """
    if not docnames:
        return  # a no-op rebuild: nothing to read, SymPy not even imported
    import os

    from posenc_math import theorems

    reading = set(docnames)
    wanted = [theorem_id for theorem_id in theorems.ids() if theorems.page_of(theorem_id) in reading]
    if wanted:
        theorems.verify(wanted, processes=min(len(wanted), os.cpu_count() or 1), remember=True)


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
        from posenc_math import theorems
        from posenc_math.theorems import render

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
        text = render.theorem_myst(theorem, result)
        return _parse(self, text, theorem_id)


class TheoremIndexDirective(SphinxDirective):
    """``{posenc-theorem-index}``: every registered theorem, checked now."""

    has_content = False

    def run(self):
        from posenc_math import theorems
        from posenc_math.theorems import render

        results = [theorems.verify_one(theorem_id) for theorem_id in theorems.ids()]
        for result in results:
            _report(self, result)
        _shown(self.env).setdefault(self.env.docname, set()).add(_INDEX)
        graph = theorems.dependencies()
        linked = {node for node, used in graph.items() if used} | {used for uses in graph.values() for used in uses}
        connected = {node: [used for used in uses if used in linked] for node, uses in graph.items() if node in linked}
        pages = {theorem_id: theorems.page_of(theorem_id) for theorem_id in graph}
        scopes = {result.id: result.scope for result in results}
        table = nodes.container(classes=[GENERATED_CLASS])  # from the registry: computed, for the number lint
        table += _parse(self, render.index_myst(theorems.all_theorems(), results))
        parts: list[nodes.Node] = [table]
        if connected:
            svg = render.dependency_graph_svg(connected, pages, scopes)
            parts.append(
                nodes.raw(
                    "",
                    '<figure class="posenc-dependency-graph" id="theorem-dependency-graph">'
                    f'<div role="img" aria-label="{_GRAPH_ALT}">{svg}</div>'
                    f"<figcaption>{_GRAPH_CAPTION}</figcaption></figure>",
                    format="html",
                )
            )
        alone = [node for node in graph if node not in linked]
        if alone:
            parts += _parse(self, standalone_myst(alone, pages))
        return parts


def standalone_myst(alone: list[str], pages: dict[str, str]) -> str:
    """The theorems that use none and that none uses, as MyST: one line per page, in order.

    Examples
    --------
    >>> print(standalone_myst(["a", "b", "c"], {"a": "p", "b": "q", "c": "p"}))
    The theorems that use no other and that no other uses, by page:
    <BLANKLINE>
    - {doc}`p`: {prf:ref}`a <thm-a>`, {prf:ref}`c <thm-c>`
    - {doc}`q`: {prf:ref}`b <thm-b>`
    <BLANKLINE>
    """
    from posenc_math.theorems.render import label

    by_page: dict[str, list[str]] = {}
    for node in alone:
        by_page.setdefault(pages[node], []).append(node)
    lines = ["The theorems that use no other and that no other uses, by page:", ""]
    for page, ids in by_page.items():
        lines.append(f"- {{doc}}`{page}`: " + ", ".join(f"{{prf:ref}}`{i} <{label(i)}>`" for i in ids))
    return "\n".join(lines) + "\n"


_GRAPH_ALT = (
    "The dependency graph of the theorems that use another or are used: each theorem is a box, coloured by its "
    "scope, with an arrow to every theorem it uses; theorems that use nothing are in the leftmost column."
)
_GRAPH_CAPTION = (
    "Which theorem uses which (an arrow points to the theorem used), built from the registry when this page "
    "was built. Each box links to the theorem; the theorems that stand alone are listed below."
)


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


#: What the proofs depend on, inside the ``posenc_math`` package: everything but
#: the figures (``plotting``) and the command line.  A change there re-checks
#: every theorem page; a change to the site's build code (this package) does not.
_NOT_PROOF_CODE = ("plotting/", "cli.py", "__main__.py")


def library_digest() -> str:
    """sha256 over the source the theorems depend on: ``posenc_math`` without :data:`_NOT_PROOF_CODE`.

    Examples
    --------
    >>> len(library_digest())
    64
    """
    import hashlib
    from pathlib import Path

    import posenc_math

    digest = hashlib.sha256()
    package = Path(posenc_math.__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        name = path.relative_to(package).as_posix()
        if name.startswith(_NOT_PROOF_CODE):
            continue
        digest.update(name.encode() + b"\0")
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
    from posenc_math import theorems

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
    app.add_directive("posenc-proof", HumanProofDirective)
    app.add_directive("posenc-machine-proof", MachineProofDirective)
    others = dict.fromkeys(("latex", "text", "man", "texinfo"), (_skip, _skip))
    app.add_node(machine_proof, html=(_visit_machine_proof, _depart_machine_proof), **others)
    app.add_node(human_proof, html=(_visit_human_proof, _depart_human_proof), **others)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("env-get-outdated", _reread_proofs)
    app.connect("env-before-read-docs", _check_before_reading)
    app.connect("env-check-consistency", _check_every_theorem_is_shown)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
