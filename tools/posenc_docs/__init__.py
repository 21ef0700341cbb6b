"""The posenc-math site's own Sphinx extensions (not part of the ``posenc_math`` wheel).

``conf.py`` puts ``tools/`` on ``sys.path`` and lists them, as SymPy's docs
load theirs from ``doc/ext``:

- :mod:`posenc_docs.theorem_pages`: the theorem directives; every theorem a
  page shows is checked while the page is built;
- :mod:`posenc_docs.site_html`: accessible HTML, the same bytes from every build;
- :mod:`posenc_docs.figures`: figures a phone can read (a second rendering
  for narrow screens, made in the kernels by :mod:`posenc_docs.figure_display`),
  enlarged in place on a tap;
- :mod:`posenc_docs.tables`: tables on a phone fit or say that they scroll;
- :mod:`posenc_docs.typeset`: every formula typeset by MathJax (node) when
  the site is built;
- :mod:`posenc_docs.measurements`: tables read from ``make bench``'s records;
- :mod:`posenc_docs.figure_alt`: a figure's alt text from its PNG's
  description, computed from the data it draws;
- :mod:`posenc_docs.reader`: the reader's toolkit (the page as a notebook, the
  PDF, "Cite this page").

They need the ``docs`` extra (Sphinx, MyST-NB, ...); the library does not
need them, and nothing in ``posenc_math`` imports them.
"""
