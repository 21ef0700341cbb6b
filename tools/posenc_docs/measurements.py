"""Sphinx extension: tables of measurements read from ``make bench``'s record, not typed.

``{posenc-page-timings} data/site-pages.json`` shows what ``python
tools/bench_site.py pages --record docs/data`` measured:
for every page, when its math was shown at 1280 px and at 390 px with the CPU
slowed 4 times, against the same page loaded with JavaScript off, medians of
the recorded loads.  The numbers come from the file, so the page cannot
drift from the measurement.  ``{posenc-build-timings} data/site-build.json``
shows the ``site`` section's record the same way: the clean, no-op and
one-page builds, every round.  ``{posenc-bench-section} data/bench-library.json``
with ``:section: NAME`` shows one section of ``python tools/bench.py NAME
--record docs/data``: what it measures, its figures with their bars, and
where and when they were taken.  The tables carry the class
``posenc-measured``, which the number lint (``tests/site/numberlint.py``)
reads as computed.  The page is read again when the file changes.

Enable with ``extensions = [..., "posenc_docs.measurements"]``.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, ClassVar

from docutils import nodes
from docutils.statemachine import StringList
from sphinx.application import Sphinx
from sphinx.util.docutils import SphinxDirective

from posenc_math._words import superscript

__all__ = ["BUILD_STEPS", "MEASURED_CLASS", "bench_section_myst", "build_timings_myst", "page_timings_myst", "setup"]

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


#: The builds of a ``bench_site.py site`` record, in its order, as the table names them.
BUILD_STEPS = {
    "clean": "clean build (every notebook run, every theorem checked)",
    "noop": "no-op rebuild (nothing changed)",
    "one_page": "one page's text edited (no code changed)",
}


def build_timings_myst(record: dict) -> str:
    """The record of ``tools/bench_site.py site`` as a MyST table and a note.

    Examples
    --------
    >>> record = {"rounds": 2, "date": "2026-11-26", "cores": 2, "load_average": [0.5, 1.0, 1.5],
    ...           "pages": 30, "notebooks": 20, "site_mb": 40.0,
    ...           "bars": {"clean": 90.0, "noop": 5.0, "one_page": 15.0},
    ...           "wall_s": {"clean": [80.0, 84.0], "noop": [4.0, 4.4], "one_page": [16.0, 17.0]},
    ...           "cpu_s": {"clean": [100.0, 101.0], "noop": [3.9, 4.0], "one_page": [15.0, 15.5]}}
    >>> print(build_timings_myst(record))  # doctest: +NORMALIZE_WHITESPACE
    | build | every round (s) | median (s) | bar (s) | CPU seconds, every process |
    | --- | ---: | ---: | ---: | ---: |
    | clean build (every notebook run, every theorem checked) | 80.0, 84.0 | 82.0 | ≤ 90 | 100.0, 101.0 |
    | no-op rebuild (nothing changed) | 4.0, 4.4 | 4.2 | ≤ 5 | 3.9, 4.0 |
    | one page's text edited (no code changed) | 16.0, 17.0 | 16.5 | ≤ 15 (over) | 15.0, 15.5 |
    <BLANKLINE>
    2 rounds (2026-11-26, 2 cores, load average 0.5 / 1.0 / 1.5 after), 30 pages of which 20 are notebooks,
    40.0 MB on disk.
    """
    import statistics

    lines = [
        "| build | every round (s) | median (s) | bar (s) | CPU seconds, every process |",
        "| --- | ---: | ---: | ---: | ---: |",
    ]
    for step, label in BUILD_STEPS.items():
        walls, bar = record["wall_s"][step], record["bars"][step]
        median = statistics.median(walls)
        every = ", ".join(f"{x:.1f}" for x in walls)
        cpus = ", ".join(f"{x:.1f}" for x in record["cpu_s"][step])
        lines.append(f"| {label} | {every} | {median:.1f} | ≤ {bar:g}{'' if median <= bar else ' (over)'} | {cpus} |")
    load = " / ".join(f"{x:.1f}" for x in record["load_average"])
    lines += [
        "",
        f"{record['rounds']} rounds ({record['date']}, {record['cores']} cores, load average {load} after), "
        f"{record['pages']} pages of which {record['notebooks']} are notebooks, {record['site_mb']:.1f} MB on disk.",
    ]
    return "\n".join(lines)


def _readable(text: str) -> str:
    """``text`` with the bench's Python notation written as a reader writes it.

    ``2**31`` becomes ``2³¹``, ``1x10**7`` ``1 × 10⁷``, ``8192 x 1024`` ``8192 × 1024``, ``<=`` ``≤`` and
    ``4.1e-16`` ``4.1 × 10⁻¹⁶`` (``1e-14`` ``10⁻¹⁴``).

    Examples
    --------
    >>> _readable("1x10**7 float16 peak/output (<= 2.0), bar 1e-14 up to 2**31, 8192 x 1024, 4.1e-16")
    '1 × 10⁷ float16 peak/output (≤ 2.0), bar 10⁻¹⁴ up to 2³¹, 8192 × 1024, 4.1 × 10⁻¹⁶'
    """
    power = r"\*\*(-?\d+)"
    text = re.sub(r"(\d+)x10" + power, lambda m: f"{m.group(1)} × 10{superscript(m.group(2))}", text)
    text = re.sub(r"(\d+)" + power, lambda m: m.group(1) + superscript(m.group(2)), text)
    text = re.sub(r"(?<![\w.])1e([-+]?\d+)\b", lambda m: "10" + superscript(m.group(1)), text)
    text = re.sub(
        r"(?<![\w.])(\d+(?:\.\d+)?)e([-+]?\d+)\b", lambda m: f"{m.group(1)} × 10{superscript(m.group(2))}", text
    )
    text = re.sub(r"(\d) x (\d)", r"\1 × \2", text)
    return text.replace("<=", "≤").replace(">=", "≥")


def _myst_text(text: str) -> str:
    """``text`` with the characters MyST would read as markup escaped (``2**31``, ``|x|`` in a table cell),
    and command-line options (``--fast``) set as code: in prose, typography would join their two hyphens
    into a dash.

    Examples
    --------
    >>> _myst_text("2**31 and |x|")
    '2³¹ and \\\\|x\\\\|'
    >>> _myst_text("verify --fast / import sympy")
    'verify `--fast` / import sympy'
    """
    text = _readable(text)
    for char in "\\*_|`[]<":
        text = text.replace(char, "\\" + char)
    return re.sub(r"(?<![\w-])(--[a-z][\w-]*)", r"`\1`", text)


def _myst_description(text: str) -> str:
    """A docstring's sentence for a MyST page: its reST literals (````name````) become code, the rest is
    :func:`_myst_text`.

    Examples
    --------
    >>> _myst_description("``posenc-math verify`` in 2**5 s")
    '`posenc-math verify` in 2⁵ s'
    """
    pieces = text.split("``")
    return "".join(f"`{piece}`" if index % 2 else _myst_text(piece) for index, piece in enumerate(pieces))


def bench_section_myst(record: dict, section: str) -> str:
    """One section of ``tools/bench.py``'s record (``--record``) as a paragraph, a MyST table and a note.

    Examples
    --------
    >>> record = {"accuracy": {"command": "python tools/bench.py accuracy", "description": "Entries near 2**31.",
    ...     "date": "2026-11-26", "machine": "x86_64", "python": "3.11.2", "numpy": "2.4.0", "cores": 2,
    ...     "load_average": [1.0, 2.0, 3.0], "rows": [{"figure": "max |error| near 2**31 (< 1e-14)",
    ...     "value": "4.1e-16", "met": True}, {"figure": "time (s)", "value": "0.5", "met": None}]}}
    >>> print(bench_section_myst(record, "accuracy"))  # doctest: +NORMALIZE_WHITESPACE
    Entries near 2³¹.
    <BLANKLINE>
    | figure | value | bar |
    | --- | ---: | --- |
    | max \\|error\\| near 2³¹ (\\< 10⁻¹⁴) | 4.1 × 10⁻¹⁶ | met |
    | time (s) | 0.5 |  |
    <BLANKLINE>
    `python tools/bench.py accuracy` on 2026-11-26: x86_64, Python 3.11.2, numpy 2.4.0, 2 cores, load average
    1.0 / 2.0 / 3.0.
    >>> bench_section_myst(record, "tables")
    Traceback (most recent call last):
    ...
    KeyError: "no section 'tables' in the record (it has: accuracy)"
    """
    if section not in record:
        raise KeyError(f"no section {section!r} in the record (it has: {', '.join(sorted(record))})")
    entry = record[section]
    verdicts = {True: "met", False: "**missed**", None: ""}
    lines = [_myst_description(entry["description"]), "", "| figure | value | bar |", "| --- | ---: | --- |"]
    for row in entry["rows"]:
        lines.append(f"| {_myst_text(row['figure'].strip())} | {_myst_text(row['value'])} | {verdicts[row['met']]} |")
    load = " / ".join(f"{x:.1f}" for x in entry["load_average"])
    lines += [
        "",
        f"`{entry['command']}` on {entry['date']}: {entry['machine']}, Python {entry['python']}, "
        f"numpy {entry['numpy']}, {entry['cores']} cores, load average {load}.",
    ]
    return "\n".join(lines)


def _meets(measured: dict, bars: dict) -> bool:
    return all(measured[key] <= bar for key, bar in bars.items())


class _RecordDirective(SphinxDirective):
    """A table written from a ``make bench`` record (PATH relative to the page); the page is read again when
    the record changes."""

    required_arguments = 1
    render: Any = None

    def run(self) -> list[nodes.Node]:
        relative, absolute = self.env.relfn2path(self.arguments[0], self.env.docname)
        self.env.note_dependency(relative)
        try:
            record = json.loads(Path(absolute).read_text(encoding="utf-8"))
            text = self.render(record)
        except (OSError, ValueError, KeyError) as error:
            raise self.error(f"cannot read the bench record {self.arguments[0]!r}: {error!r}") from error
        container = nodes.container(classes=[MEASURED_CLASS])
        self.state.nested_parse(StringList(text.splitlines(), source=absolute), self.content_offset, container)
        return [container]


class PageTimingsDirective(_RecordDirective):
    """``{posenc-page-timings} PATH``: the table of a ``bench_site.py pages`` record."""

    render = staticmethod(page_timings_myst)


class BuildTimingsDirective(_RecordDirective):
    """``{posenc-build-timings} PATH``: the table of a ``bench_site.py site`` record."""

    render = staticmethod(build_timings_myst)


class BenchSectionDirective(_RecordDirective):
    """``{posenc-bench-section} PATH`` with ``:section: NAME``: one section of a ``tools/bench.py`` record."""

    option_spec: ClassVar[dict[str, Any]] = {"section": str}

    def run(self) -> list[nodes.Node]:
        if "section" not in self.options:
            raise self.error("posenc-bench-section needs :section: (a section of tools/bench.py)")
        section = self.options["section"]
        self.render = lambda record: bench_section_myst(record, section)
        return super().run()


def setup(app: Sphinx) -> dict[str, Any]:
    """Register the directives."""
    app.add_directive("posenc-page-timings", PageTimingsDirective)
    app.add_directive("posenc-bench-section", BenchSectionDirective)
    app.add_directive("posenc-build-timings", BuildTimingsDirective)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
