"""The reader's toolkit on every page of the site (a Sphinx extension).

Enable with ``extensions = [..., "posenc_docs.reader"]``.  For the HTML
builders, at the end of every page it adds a block (``#reader-toolkit``) with:

- **the page as a notebook**: a page that MyST-NB executes (MyST text
  notebook: jupytext front matter with a ``kernelspec``) is converted with
  jupytext, while the site is written, to ``_downloads/notebooks/NAME.ipynb``
  and linked.  The notebook runs on its own against the installed package:
  MyST target lines are dropped, and ``from myst_nb import glue`` (the site's
  way to put numbers into prose) falls back to displaying the value when
  MyST-NB is not installed;
- **the PDF edition**: when ``posenc_reader_pdf`` (a path relative to the
  configuration directory) exists, it is copied to the site's root and
  linked from every page; a copy of the site built without it (no TeX)
  says nothing about it;
- **"Cite this page"**: BibTeX generated from the build, with the page's
  title, its URL (``html_baseurl`` + the page), the version, and the ids of
  the theorems on the page (the ``thm-`` anchors found in its doctree).

Other builders (LaTeX) get nothing: the PDF is the whole book.  ``setup()``
only registers; the work is in the functions below.
"""

from __future__ import annotations

import os
import posixpath
import re
import shutil
import textwrap
import time
from pathlib import Path

from docutils import nodes

__all__ = ["bibtex_entry", "notebook_for_download", "setup"]

#: Where notebooks go inside the built site.
NOTEBOOK_DIR = "_downloads/notebooks"
#: The PDF's name inside the built site.
PDF_NAME = "posenc-math.pdf"
#: Prefix of the stable anchors of theorems (``thm-ID``).
THEOREM_PREFIX = "thm-"

_GLUE_IMPORT = re.compile(r"^from myst_nb import glue\s*$", re.M)
_GLUE_FALLBACK = """\
try:
    from myst_nb import glue
except ImportError:  # outside the site's build: show the value instead
    from IPython.display import display as _show

    def glue(name, variable, display=True):
        if display:
            _show(variable)
"""
_TARGET_LINE = re.compile(r"^\([\w.:-]+\)=\s*$\n?", re.M)


def is_notebook(source: str) -> bool:
    """True when a MyST page is a text notebook (front matter with a kernelspec).

    Examples
    --------
    >>> is_notebook("---\\nkernelspec:\\n  name: python3\\n---\\n# Page\\n")
    True
    >>> is_notebook("# Page\\n\\nNo code here.\\n")
    False
    """
    if not source.startswith("---"):
        return False
    end = source.find("\n---", 3)
    return end > 0 and re.search(r"^kernelspec:", source[3:end], re.M) is not None


def notebook_for_download(source: str, *, version: str, url: str) -> str:
    """A MyST text notebook as the ``.ipynb`` text readers download.

    Parameters
    ----------
    source : str
        The page's MyST text (jupytext ``myst`` format).
    version : str
        The posenc-math version the site was built with.
    url : str
        The page's address, named in the notebook's first cell.

    Returns
    -------
    str
        nbformat 4 JSON without outputs: run it with a Python 3 kernel that
        can import posenc_math (with its ``plot`` extra for figures).

    Examples
    --------
    >>> import json
    >>> text = "---\\nkernelspec:\\n  name: python3\\n  display_name: Python 3\\n  language: python\\n---\\n"
    >>> text += "(page-x)=\\n# X\\n\\n```{code-cell} ipython3\\nfrom myst_nb import glue\\n1 + 1\\n```\\n"
    >>> notebook = json.loads(notebook_for_download(text, version="0.1.0", url="https://example.org/x.html"))
    >>> [cell["cell_type"] for cell in notebook["cells"]]
    ['markdown', 'markdown', 'code']
    >>> sources = ["".join(cell["source"]) for cell in notebook["cells"]]
    >>> "(page-x)=" in sources[1], "except ImportError" in sources[2]
    (False, True)
    """
    import jupytext
    import nbformat

    notebook = jupytext.reads(source, fmt="md:myst")
    notebook.metadata.pop("jupytext", None)
    for cell in notebook.cells:
        if cell.cell_type == "code":
            cell.source = _GLUE_IMPORT.sub(_GLUE_FALLBACK, cell.source)
        elif cell.cell_type == "markdown":
            cell.source = _TARGET_LINE.sub("", cell.source)
    intro = (
        f"*From posenc-math {version}, {url}.* This notebook runs on its own: "
        "install posenc-math with its `plot` extra (from a source checkout, "
        "`pip install -e '.[plot]'`; or from a built wheel) and a Jupyter kernel. "
        "Cross-references and directives of the site show here as plain text."
    )
    notebook.cells.insert(0, nbformat.v4.new_markdown_cell(intro))
    for cell in notebook.cells:  # nbformat 4.5 wants ids: stable ones, for identical builds
        cell.pop("id", None)
    notebook.nbformat_minor = 4
    return nbformat.writes(notebook) + "\n"


def bibtex_entry(*, key: str, title: str, url: str, version: str, theorems: list[str], year: str | None) -> str:
    """The "Cite this page" entry (biblatex ``@online``).

    Examples
    --------
    >>> print(bibtex_entry(key="posenc-math:rope", title="RoPE", url="https://x/rope.html",
    ...                    version="0.1.0", theorems=["thm-a", "thm-b"], year="2026"))
    @online{posenc-math:rope,
      title   = {{RoPE}},
      author  = {{The posenc-math developers}},
      url     = {https://x/rope.html},
      version = {0.1.0},
      year    = {2026},
      note    = {posenc-math 0.1.0; theorems on this page: thm-a, thm-b},
    }
    """
    note = f"posenc-math {version}"
    if theorems:
        note += "; theorems on this page: " + ", ".join(theorems)
    fields = [
        ("title", "{" + _bibtex_escape(title) + "}"),
        ("author", "{The posenc-math developers}"),
        ("url", url),
        ("version", version),
    ]
    if year:
        fields.append(("year", year))
    fields.append(("note", note))
    body = "".join(f"  {name:<7} = {{{_wrapped(value)}}},\n" for name, value in fields)
    return f"@online{{{key},\n{body}}}"


#: Where a field's value starts in :func:`bibtex_entry` (``  note    = {``), and the widest line it writes.
_VALUE_COLUMN, _WIDEST = 13, 72


def _wrapped(value: str) -> str:
    """``value`` on lines that fit a code box at a laptop's width, continued under its first character
    (BibTeX reads a line break inside braces as a space).

    Examples
    --------
    >>> print(_wrapped("posenc-math 0.1.0; theorems on this page: " + ", ".join(f"thm-{n:02}" for n in range(12))))
    posenc-math 0.1.0; theorems on this page: thm-00, thm-01, thm-02,
                 thm-03, thm-04, thm-05, thm-06, thm-07, thm-08, thm-09,
                 thm-10, thm-11
    """
    lines = textwrap.wrap(value, _WIDEST - _VALUE_COLUMN, break_long_words=False, break_on_hyphens=False)
    return ("\n" + " " * _VALUE_COLUMN).join(lines) if lines else value


def _bibtex_escape(text: str) -> str:
    return re.sub(r"([{}&%$#_])", r"\\\1", text)


def _year() -> str | None:
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    return str(time.gmtime(int(epoch)).tm_year) if epoch and epoch.isdigit() and int(epoch) > 0 else None


def _pdf_source(app) -> Path | None:
    if not app.config.posenc_reader_pdf:
        return None
    path = Path(app.confdir, app.config.posenc_reader_pdf)
    return path if path.is_file() else None


def _page_url(app, docname: str) -> str:
    base = app.config.html_baseurl or ""
    if base and not base.endswith("/"):
        base += "/"
    return base + app.builder.get_target_uri(docname)


def _relative(app, docname: str, target: str) -> str:
    here = posixpath.dirname(app.builder.get_target_uri(docname))
    return posixpath.relpath(target, here or ".")


def _theorem_ids(doctree) -> list[str]:
    found = {
        node_id
        for node in doctree.findall(nodes.Element)
        for node_id in node.get("ids", ())
        if node_id.startswith(THEOREM_PREFIX)
    }
    return sorted(found)


def _add_toolkit(app, doctree, docname: str) -> None:
    if app.builder.format != "html":
        return
    version = app.config.release or app.config.version
    url = _page_url(app, docname)
    links = []
    source_path = Path(app.env.doc2path(docname))
    source = source_path.read_text(encoding="utf-8") if source_path.suffix == ".md" else ""
    if is_notebook(source):
        name = f"{NOTEBOOK_DIR}/{docname}.ipynb"
        target = Path(app.outdir, name)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(notebook_for_download(source, version=version, url=url), encoding="utf-8")
        href = _relative(app, docname, name)
        links.append(
            f'<a class="reference download" href="{href}" download="{Path(name).name}">'
            f"this page as a notebook ({Path(name).name})</a>"
        )
    if _pdf_source(app) is not None:
        links.append(
            f'<a class="reference download" href="{_relative(app, docname, PDF_NAME)}">'
            f"the whole book as a PDF ({PDF_NAME})</a>"
        )
    title = " ".join(app.env.titles[docname].astext().split()) if docname in app.env.titles else docname
    entry = bibtex_entry(
        key=f"posenc-math:{docname}",
        title=title,
        url=url,
        version=version,
        theorems=_theorem_ids(doctree),
        year=_year(),
    )
    block = nodes.container(ids=["reader-toolkit"], classes=["reader-toolkit"])
    block += nodes.raw(
        "",
        f'<p class="reader-version">posenc-math {version}.'
        + (f" Download: {'; '.join(links)}." if links else "")
        + "</p>",
        format="html",
    )
    block += nodes.rubric("", "Cite this page", ids=["cite-this-page"])
    code = nodes.literal_block(entry, entry, language="bibtex")
    code["classes"].append("cite-this-page")
    block += code
    doctree += block


def _copy_pdf(app, exception) -> None:
    if exception is not None or app.builder.format != "html":
        return
    pdf = _pdf_source(app)
    target = Path(app.outdir, PDF_NAME)
    if pdf is not None:
        shutil.copyfile(pdf, target)
    else:
        target.unlink(missing_ok=True)


def _note_pdf(app, env, added, changed, removed) -> list[str]:
    """When the PDF appears or disappears, every page's link changes: rewrite them."""
    present = _pdf_source(app) is not None
    if getattr(env, "posenc_reader_pdf_present", None) != present:
        env.posenc_reader_pdf_present = present
        env.posenc_reader_rewrite = True
    return []


def _rewrite(app, env) -> list[str]:
    if getattr(env, "posenc_reader_rewrite", False):
        env.posenc_reader_rewrite = False
        return sorted(env.found_docs)
    return []


def setup(app) -> dict:
    """Register the config value, the event handlers and the stylesheet."""
    app.add_config_value("posenc_reader_pdf", "", "html", types=[str])
    app.connect("env-get-outdated", _note_pdf)
    app.connect("env-updated", _rewrite)
    app.connect("doctree-resolved", _add_toolkit)
    app.connect("build-finished", _copy_pdf)
    app.add_css_file("posenc-reader.css")
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
