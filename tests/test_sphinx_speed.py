"""posenc_math.sphinx_speed: pybtex looks the citation plugins up once per build, the pages do not change,
and the process exits without collecting the build's objects."""

from __future__ import annotations

import collections
import subprocess
import sys

import pybtex.plugin
import pytest
from sphinx.application import Sphinx

from posenc_math import sphinx_speed

BIB = """@article{vaswani2017,
  author = {Vaswani, Ashish and Shazeer, Noam},
  title = {Attention Is All You Need},
  journal = {NeurIPS},
  year = {2017},
}
"""

#: reStructuredText, not MyST: after a MyST-NB build in the same test process,
#: later applications find ``.md`` mapped to MyST-NB's parser ("Source parser
#: for myst-nb not registered" without it).
INDEX = """Citations
=========

First :cite:p:`vaswani2017`, again :cite:t:`vaswani2017`, and once more :cite:p:`vaswani2017`.

.. bibliography::
"""


@pytest.fixture
def lookups(monkeypatch):
    """(group, name) -> how often pybtex searched the entry points for it; a clean registry meanwhile."""
    counts: collections.Counter = collections.Counter()
    search = pybtex.plugin.entry_points

    def counting(**query):
        counts[query.get("group"), query.get("name")] += 1
        return search(**query)

    monkeypatch.setattr(pybtex.plugin, "entry_points", counting)
    monkeypatch.setattr(pybtex.plugin, "_RUNTIME_PLUGINS", {})
    return counts


def build(tmp_path, extensions) -> str:
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(
        f"extensions = {['sphinxcontrib.bibtex', *extensions]!r}\nbibtex_bibfiles = ['refs.bib']\n"
    )
    (source / "refs.bib").write_text(BIB)
    (source / "index.rst").write_text(INDEX)
    out = tmp_path / "html"
    app = Sphinx(str(source), str(source), str(out), str(tmp_path / "doctrees"), "html", status=None, warning=None)
    app.build()
    return (out / "index.html").read_text()


def test_the_citations_search_for_no_plugin_after_the_registration(tmp_path, lookups, monkeypatch):
    sphinx_speed.register_found_plugins()
    registering = collections.Counter(lookups)
    assert set(sphinx_speed.PER_CITATION) <= set(registering)
    lookups.clear()
    monkeypatch.setattr(pybtex.plugin, "_RUNTIME_PLUGINS", {})
    build(tmp_path, ["posenc_math.sphinx_speed"])
    for plugin in sphinx_speed.PER_CITATION:
        assert lookups[plugin] == registering[plugin], plugin


def test_without_it_pybtex_searches_for_every_citation(tmp_path, lookups):
    # What the extension is for: without it the plain-text backend is looked
    # up once per citation (three here), each time through every package's metadata.
    build(tmp_path, [])
    assert lookups["pybtex.backends", "plaintext"] == 3


def test_the_page_is_the_same_with_and_without_it(tmp_path, monkeypatch):
    monkeypatch.setattr(pybtex.plugin, "_RUNTIME_PLUGINS", {})
    (tmp_path / "without").mkdir()
    (tmp_path / "with").mkdir()
    without = build(tmp_path / "without", [])
    with_it = build(tmp_path / "with", ["posenc_math.sphinx_speed"])
    assert with_it.count('title="Ashish Vaswani and Noam Shazeer. Attention is all you need.') == 3
    assert with_it == without


EXITING = """
import atexit, gc, sys
from sphinx.cmd.build import main

# Registered first, so it runs last of the exit handlers: what the final
# garbage collection will find frozen.
atexit.register(lambda: print("frozen at exit:", gc.get_freeze_count()))
status = main(["-q", "-b", "html", sys.argv[1], sys.argv[2]])
print("frozen after the build:", gc.get_freeze_count())
sys.exit(status)
"""


@pytest.mark.parametrize("extensions", [["posenc_math.sphinx_speed"], []])
def test_sphinx_build_exits_with_the_builds_objects_frozen(tmp_path, extensions):
    source = tmp_path / "src"
    source.mkdir()
    (source / "conf.py").write_text(f"extensions = {extensions!r}\n")
    (source / "index.rst").write_text("Title\n=====\n\nText.\n")
    run = subprocess.run(
        [sys.executable, "-c", EXITING, str(source), str(tmp_path / "html")], capture_output=True, text=True, check=True
    )
    after_build, at_exit = (int(line.split(":")[1]) for line in run.stdout.splitlines())
    assert after_build == 0  # nothing is frozen while the process goes on
    if extensions:
        assert at_exit > 10_000  # every object alive at exit: the build's, Sphinx's, the modules'
    else:
        assert at_exit == 0
