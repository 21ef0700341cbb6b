"""Sphinx extension: a shorter single-core end of the build, with the same pages.

After the last notebook has run, a clean build of the site uses one core:
Sphinx resolves and writes the pages one after the other, then the process
exits.  Two costs there have nothing to do with the pages:

- **pybtex's plugin lookups.**  pybtex (0.26) finds a plugin (a backend, a
  style) through the entry points of the installed packages, and
  ``importlib.metadata`` reads the metadata of every installed package for
  each lookup: about 18 ms here.  sphinxcontrib-bibtex (2.7) looks up the
  plain-text backend for every citation it resolves (it writes the
  reference's title attribute with it): 105 lookups on this site, about a
  second.  At ``builder-inited``, :func:`register_found_plugins` looks each
  plugin of :data:`PER_CITATION` up once and registers the class it found
  under the same name with pybtex's own ``register_plugin``, which pybtex
  checks before the entry points.  The class is the one the entry point
  gives, so every page is the same.
- **The final garbage collection.**  When ``sphinx-build`` exits, Python
  collects garbage once more over every object still alive, the whole
  build's (1.4 s here, for nothing: the process is ending).  At
  ``build-finished``, :func:`freeze_at_exit` registers an exit handler that
  moves the surviving objects out of the collector's reach
  (``gc.freeze``), so that collection has nothing to walk.  It runs only
  when the interpreter exits: a process that goes on building (a test
  session) collects garbage as usual until then.

Enable with ``extensions = [..., "sphinxcontrib.bibtex", "posenc_math.sphinx_speed"]``.
"""

from __future__ import annotations

import atexit
import gc
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


def freeze_at_exit(app: Any = None, exception: BaseException | None = None) -> None:
    """Have the interpreter's exit skip the final garbage collection over what is alive then.

    Registered once per process, however many builds it runs.

    Examples
    --------
    >>> import atexit, gc
    >>> freeze_at_exit()
    >>> freeze_at_exit()
    >>> atexit.unregister(gc.freeze)  # (a doctest must not freeze the test process at its exit)
    """
    atexit.unregister(gc.freeze)
    atexit.register(gc.freeze)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", register_found_plugins)
    app.connect("build-finished", freeze_at_exit)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
