"""Sphinx extension: pybtex finds the plugin each citation needs once per build, not once per citation.

pybtex (0.26) finds a plugin (a backend, a style) through the entry points
of the installed packages, and ``importlib.metadata`` reads the metadata of
every installed package for each lookup: about 18 ms here.
sphinxcontrib-bibtex (2.7) looks up the plain-text backend for every
citation it resolves (it writes the reference's title attribute with it):
105 lookups on this site, about a second of the single-core end of a
build, where Sphinx writes the pages.

At ``builder-inited`` this extension looks each plugin in :data:`PER_CITATION`
up once and registers the class it found under the same name, with pybtex's
own ``register_plugin``; pybtex checks plugins registered that way before
the entry points.  The class is the one the entry point gives, so every
page is the same as without this extension.

Enable with ``extensions = [..., "sphinxcontrib.bibtex", "posenc_math.sphinx_pybtex"]``.
"""

from __future__ import annotations

from typing import Any

#: (entry point group, name) of the plugins sphinxcontrib-bibtex looks up for every citation.
PER_CITATION = (("pybtex.backends", "plaintext"),)


def register_found_plugins(app: Any = None) -> None:
    """Look up each plugin of :data:`PER_CITATION` once and register it, so later lookups skip the entry points.

    Examples
    --------
    >>> from pybtex.plugin import find_plugin
    >>> from_entry_point = find_plugin("pybtex.backends", "plaintext")
    >>> register_found_plugins()
    >>> find_plugin("pybtex.backends", "plaintext") is from_entry_point
    True
    """
    from pybtex.plugin import find_plugin, register_plugin

    for group, name in PER_CITATION:
        register_plugin(group, name, find_plugin(group, name), force=True)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", register_found_plugins)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
