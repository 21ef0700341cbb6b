"""Sphinx extension: tables of measurements read from ``make bench``'s record, not typed.

``{posenc-page-timings} data/site-pages.json`` shows what ``python
tools/bench_site.py pages --record docs/data/site-pages.json`` measured:
for every page, when its math was shown at 1280 px and at 390 px with the CPU
slowed 4 times, against the same page loaded with JavaScript off, medians of
the recorded loads.  The numbers come from the file, so the page cannot
drift from the measurement; the table carries the class
``posenc-measured``, which the number lint (``tests/site/numberlint.py``)
reads as computed.  The page is read again when the file changes.

Enable with ``extensions = [..., "posenc_docs.measurements"]``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

__all__ = ["MEASURED_CLASS", "page_timings_myst", "setup"]

#: Class of the containers this extension writes (the number lint skips them).
MEASURED_CLASS = "posenc-measured"


def page_timings_myst(record: dict, bars: dict[str, float] | None = None) -> str:
    """The record of ``tools/bench_site.py pages`` as a MyST table and a note.

    Examples
    --------
    >>> record = {"rounds": 3, "cpu_slowdown": 4.0, "load_average": [1.0, 2.0, 3.0], "cores": 2,
    ...           "date": "2026-11-26", "pages": {"a.html": {"desktop_ms": 300, "phone_ms": 900,
    ...           "nojs_phone_ms": 600, "ratio": 1.5}}}
    >>> print(page_timings_myst(record))  # doctest: +NORMALIZE_WHITESPACE
    | page | 1280 px (ms) | 390 px, CPU / 4 (ms) | same, JavaScript off (ms) | ratio |
    | --- | ---: | ---: | ---: | ---: |
    | a.html | 300 | 900 | 600 | 1.5 |
    <BLANKLINE>
    Medians of 3 loads of each page (2026-11-26, 2 cores, load average 1.0 / 2.0 / 3.0).
    >>> record["bars"] = {"desktop_ms": 1500, "phone_ms": 4000, "ratio": 3}
    >>> print(page_timings_myst(record).splitlines()[-1])  # doctest: +NORMALIZE_WHITESPACE
    Medians of 3 loads of each page (2026-11-26, 2 cores, load average 1.0 / 2.0 / 3.0). Bars: at most
    1500 ms at 1280 px, at most 4000 ms at 390 px with the CPU slowed, at most 3 times the page without
    JavaScript; 1 of 1 pages meet them.
    """
    slowdown = f"{record['cpu_slowdown']:g}"
    lines = [
        f"| page | 1280 px (ms) | 390 px, CPU / {slowdown} (ms) | same, JavaScript off (ms) | ratio |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for page, m in sorted(record["pages"].items()):
        lines.append(f"| {page} | {m['desktop_ms']} | {m['phone_ms']} | {m['nojs_phone_ms']} | {m['ratio']:.1f} |")
    load = " / ".join(f"{x:.1f}" for x in record["load_average"])
    lines += [
        "",
        f"Medians of {record['rounds']} loads of each page ({record['date']}, {record['cores']} cores, "
        f"load average {load}).",
    ]
    bars = record.get("bars")
    if bars:
        lines[-1] += (
            f" Bars: at most {bars['desktop_ms']:g} ms at 1280 px, at most {bars['phone_ms']:g} ms at 390 px "
            f"with the CPU slowed, at most {bars['ratio']:g} times the page without JavaScript; "
            f"{sum(_meets(m, bars) for m in record['pages'].values())} of {len(record['pages'])} pages meet them."
        )
    return "\n".join(lines)


def _meets(measured: dict, bars: dict) -> bool:
    return all(measured[key] <= bar for key, bar in bars.items())


class PageTimingsDirective(SphinxDirective):
    """``{posenc-page-timings} PATH``: the table of a ``bench_site.py pages`` record (PATH relative to the page)."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        relative, absolute = self.env.relfn2path(self.arguments[0], self.env.docname)
        self.env.note_dependency(relative)
        try:
            record = json.loads(Path(absolute).read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise self.error(f"cannot read the bench record {self.arguments[0]!r}: {error}") from error
        container = nodes.container(classes=[MEASURED_CLASS])
        text = page_timings_myst(record)
        self.state.nested_parse(StringList(text.splitlines(), source=absolute), self.content_offset, container)
        return [container]


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directive."""
    app.add_directive("posenc-page-timings", PageTimingsDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
