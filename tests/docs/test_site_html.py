"""posenc_docs.site_html, on the small site tests/docs/roots/test-site, in process
(sphinx.testing's ``make_app``; no subprocess, no notebook)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest
from posenc_docs import site_html

ROOTS = Path(__file__).parent / "roots"


@pytest.fixture
def site(tmp_path):
    """A fresh copy of the test site: sources in ``src/``, output in ``src/_build``."""
    source = tmp_path / "src"
    shutil.copytree(ROOTS / "test-site", source)
    return source


def build(make_app, source: Path, *, buildername: str = "html", **kwargs):
    """Build ``source`` once (a new application, as a new sphinx-build run
    would be); fail on any warning."""
    app = make_app(buildername, srcdir=source, **kwargs)
    try:
        app.build()
    finally:
        app.cleanup()  # docutils' global registrations, so the next app starts clean
    assert app.warning.getvalue() == "", app.warning.getvalue()
    return app


def search_index(app) -> dict:
    text = (app.outdir / "searchindex.js").read_text(encoding="utf-8")
    return json.loads(text[text.index("(") + 1 : text.rindex(")")])


def test_html_carries_the_aria_axe_core_asks_for(make_app, site):
    app = build(make_app, site)
    index = (app.outdir / "index.html").read_text(encoding="utf-8")
    assert 'role="heading" aria-level="2"' in index  # toctree caption
    assert re.search(r'<pre tabindex="0"', index)  # code block: keyboard-scrollable
    assert re.search(r'<div tabindex="0" class="table-wrapper[^"]*">\s*<table', index)  # furo's table wrapper
    assert 'role="listitem"' in index and 'role="doc-biblioentry"' not in index  # citations


def pages(app) -> dict[str, str]:
    return {path.name: path.read_text(encoding="utf-8") for path in sorted(app.outdir.glob("*.html"))}


def test_an_edited_page_rewrites_every_page(make_app, site):
    before = pages(build(make_app, site))
    prose = site / "prose.rst"
    prose.write_text(prose.read_text(encoding="utf-8").replace("Prose\n=====", "Essay\n====="), encoding="utf-8")
    after = pages(build(make_app, site))
    assert "Essay" not in before["api.html"] and "Essay" in after["api.html"]  # api.html's "next" link


def written_pages(app) -> dict[str, int]:
    """Modification time of each page of the sources."""
    return {path.name: path.stat().st_mtime_ns for path in app.outdir.glob("*.html") if path.stem in app.env.found_docs}


def test_a_changed_static_file_rewrites_every_page(make_app, site):
    """Pages link ``site.css?v=<checksum>``: all must be rewritten when it changes
    (a fresh sphinx-build computes the new checksum; compared here by mtime,
    as Sphinx caches checksums per process)."""
    before = written_pages(build(make_app, site))
    (site / "_static" / "site.css").write_text("body { margin: 1px; }\n", encoding="utf-8")
    after = written_pages(build(make_app, site))
    assert sorted(after) == sorted(before) and all(after[name] > before[name] for name in before)


def test_noop_rebuild_writes_no_page(make_app, site):
    before = written_pages(build(make_app, site))
    assert len(before) == 3 and before == written_pages(build(make_app, site))


def test_noop_rebuild_keeps_the_search_index_of_a_clean_build(make_app, site):
    clean = search_index(build(make_app, site))
    assert clean["indexentries"], "the test site has index entries (autofunction, index directive)"
    again = search_index(build(make_app, site))
    assert again == clean


@pytest.mark.skipif(not site_html.KEEP_UNCHANGED_SEARCH_INDEX, reason="this Sphinx keeps the index by itself")
def test_the_search_index_workaround_is_still_needed(make_app, site, monkeypatch):
    """Without the workaround, this Sphinx loses the index entries of pages a
    rebuild does not rewrite.  When this fails, Sphinx has fixed it: narrow
    KEEP_UNCHANGED_SEARCH_INDEX's version guard."""
    clean = search_index(build(make_app, site))
    monkeypatch.setattr(site_html, "KEEP_UNCHANGED_SEARCH_INDEX", False)
    again = search_index(build(make_app, site))
    assert clean["indexentries"] and not again["indexentries"]


def test_edited_page_gives_the_search_index_of_a_clean_build(make_app, site, tmp_path):
    build(make_app, site)
    prose = site / "prose.rst"
    prose.write_text(prose.read_text(encoding="utf-8").replace("zanzibarish", "ordinary"), encoding="utf-8")
    incremental = search_index(build(make_app, site))
    assert "zanzibarish" not in incremental["terms"]  # Sphinx alone keeps it as "zanzibarish": []
    fresh = tmp_path / "fresh"
    shutil.copytree(site, fresh, ignore=shutil.ignore_patterns("_build"))
    assert incremental == search_index(build(make_app, fresh))


def test_extension_css_is_linked_with_its_checksum_from_the_first_build(make_app, site):
    app = build(make_app, site)
    assert (app.outdir / "_static" / "proof.css").is_file()
    assert re.search(r'href="_static/proof\.css\?v=[0-9a-f]{8}"', (app.outdir / "index.html").read_text("utf-8"))


def test_no_build_info_backup_in_the_site(make_app, site):
    build(make_app, site)
    app = build(make_app, site, confoverrides={"html_title": "changed"})  # a config change
    assert not (app.outdir / ".buildinfo.bak").exists()
    assert (app.outdir / ".buildinfo").is_file()


def test_other_builders_are_left_alone(make_app, site):
    """The LaTeX builder (make pdf) writes one book: no page list, no search index."""
    app = build(make_app, site, buildername="latex")
    assert any(app.outdir.glob("*.tex"))
    assert not (app.outdir / "searchindex.js").exists()


def test_repeated_ids_are_numbered_in_document_order():
    from docutils import nodes
    from docutils.utils import new_document
    from posenc_docs.site_html import number_repeated_ids

    document = new_document("page")
    for _ in range(3):
        document += nodes.section(ids=["exercise-content"])
    document += nodes.section(ids=["unique"])
    number_repeated_ids(None, document, "page")
    assert [node["ids"] for node in document.children] == [
        ["exercise-content"],
        ["exercise-content-2"],
        ["exercise-content-3"],
        ["unique"],
    ]


def _with_theorem_pages(source: Path, count: int = 6) -> Path:
    """Add ``count`` pages with a numbered sphinx-proof theorem each, and a
    reference to each from the index: enough pages for Sphinx to read in parallel."""
    names = [f"theorem{number}" for number in range(count)]
    for name in names:
        (source / f"{name}.rst").write_text(
            f"{name.title()}\n{'=' * len(name)}\n\n.. prf:theorem:: About {name}\n   :label: thm-{name}\n\n"
            f"   The statement of {name}.\n",
            encoding="utf-8",
        )
    index = source / "index.rst"
    text = index.read_text(encoding="utf-8").replace("   prose\n", "   prose\n" + "".join(f"   {n}\n" for n in names))
    text += "\n" + " ".join(f":prf:ref:`thm-{name}`" for name in names) + "\n"
    index.write_text(text, encoding="utf-8")
    return source


def test_pages_read_in_parallel_give_the_same_site(make_app, site, tmp_path):
    """``sphinx-build -j``: sphinx-proof's domain merges (site_html.parallel_proof_domain),
    and the pages, theorem numbers and references included, are the serial build's."""
    _with_theorem_pages(site)
    twin = tmp_path / "twin"
    shutil.copytree(site, twin)
    serial = build(make_app, site)
    parallel = build(make_app, twin, parallel=2)
    assert parallel.parallel == 2 and parallel.is_parallel_allowed("read")
    for page in ["index.html", "prose.html", *(f"theorem{n}.html" for n in range(6))]:
        ours, theirs = ((app.outdir / page).read_text("utf-8") for app in (serial, parallel))
        assert ours == theirs, page
    assert "Theorem 6" in (parallel.outdir / "index.html").read_text("utf-8")


def test_the_parallel_proof_domain_is_still_needed():
    """When this fails, sphinx-proof merges its domain data itself: parallel_proof_domain
    returns None and registers nothing, and it can go."""
    from sphinx_proof.domain import ProofDomain

    domain = site_html.parallel_proof_domain()
    assert domain is not None and issubclass(domain, ProofDomain)
    assert "merge_domaindata" not in vars(ProofDomain)
