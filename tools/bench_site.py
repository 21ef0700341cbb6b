"""``make bench``, the site sections: build times and the site in Chromium.

Run from a source checkout with ``python tools/bench_site.py [SECTION ...]``
(``make bench`` runs it after ``python tools/bench.py``).  Sections:

- ``site``: three rounds, each on a fresh copy of ``docs/`` in a temporary
  directory (nothing is shared with ``_build/``): a clean build (every
  notebook runs, every theorem is checked), a no-op rebuild, and a rebuild after editing one page's
  text (a sentence added to ``translation.md``; no code changed, so no
  notebook runs again).  The medians of the three rounds are held to the
  bars: clean <= 90 s, no-op <= 5 s, one page <= 15 s;
- ``browser``: Chromium on the built site (``_build/html``): time to typeset
  the math of the heaviest page, bytes per page;
- ``pages``: every page of the built site in Chromium, three loads each (a
  new tab, cold cache): when its math is shown at 1280 px, and at 390 px
  with the CPU slowed 4 times (a phone-class CPU), against the time the same
  page takes to load with JavaScript off under the same conditions.  Medians
  held to the bars: <= 1.5 s at 1280 px, <= 4 s at 390 px slowed, and at
  most 3 times the page without JavaScript.

``--record DIR`` also writes the measurements as JSON: ``DIR/site-build.json``
(``site``) and ``DIR/site-pages.json`` (``pages``).  With ``--record docs/data``
the contributors' page and the performance page show them
(``posenc_docs.measurements``), so no timing on the site is typed by hand.

It needs the test extra (Playwright), npm's assets and Debian's Chromium;
the helpers are the site tests' own (``tests/site/sitekit.py``).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "site"))
sys.path.insert(0, str(ROOT / "tools"))

import sitekit  # noqa: E402
from bench import Rows, run  # noqa: E402

#: The page whose text the "one page edited" rebuild changes, and what is added to it.
EDITED_PAGE = "translation.md"
EDIT = "\n\nA sentence added by tools/bench_site.py.\n"
ROUNDS = 3


def sphinx_build(source: Path, out: Path) -> subprocess.CompletedProcess:
    """``make html`` (the Makefile's one sphinx-build command) on the pages in ``source``, into ``out``."""
    return subprocess.run([*sitekit.build_command(out), f"DOCS={source}"], cwd=ROOT, capture_output=True, text=True)


def one_round(tmp: Path) -> tuple[list[float], list[float], Path]:
    """Wall seconds and CPU seconds (sphinx-build and every process it started) of a clean build, a no-op
    rebuild and a one-page rebuild of a fresh copy of docs/, and the built site."""
    source = tmp / "docs"
    shutil.copytree(ROOT / "docs", source)
    for outside in sorted({*(ROOT / "docs").glob("*.md")}):  # files the pages include from beside docs/
        for name in re.findall(r"^```\{literalinclude\} \.\./(\S+)", outside.read_text(encoding="utf-8"), re.M):
            shutil.copy(ROOT / name, tmp / name)
    seconds, cpu_seconds = [], []
    for step in STEPS:
        if step == "one_page":
            with (source / EDITED_PAGE).open("a", encoding="utf-8") as page:
                page.write(EDIT)
        began, used = time.perf_counter(), _children_cpu()
        result = sphinx_build(source, tmp / "out")
        seconds.append(time.perf_counter() - began)
        cpu_seconds.append(_children_cpu() - used)
        if result.returncode:
            raise RuntimeError(f"{step} build failed: {(result.stdout + result.stderr).strip()[-2000:]}")
    return seconds, cpu_seconds, tmp / "out" / "html"


def _children_cpu() -> float:
    """CPU seconds (user and system) of every finished child process of this one, and of theirs."""
    import resource

    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


#: The builds of a round, and their bars (median wall seconds).
STEPS = ("clean", "noop", "one_page")
BUILD_BARS = {"clean": 90.0, "noop": 5.0, "one_page": 15.0}


def measure_builds(rounds: int = ROUNDS) -> dict:
    """``rounds`` rounds of :func:`one_round`, as a record (what ``--record`` writes to ``site-build.json``)."""
    import datetime

    walls: dict[str, list[float]] = {step: [] for step in STEPS}
    cpus: dict[str, list[float]] = {step: [] for step in STEPS}
    for number in range(rounds):
        with tempfile.TemporaryDirectory(prefix="posenc-bench-site-") as tmp:
            try:
                wall, cpu, html = one_round(Path(tmp))
            except RuntimeError as error:
                raise RuntimeError(f"round {number + 1}: {error}") from None
            for step, w, c in zip(STEPS, wall, cpu, strict=True):
                walls[step].append(round(w, 1))
                cpus[step].append(round(c, 1))
            if number == 0:
                pages = len(sitekit.page_paths(html))
                pages_text = [path.read_text(encoding="utf-8") for path in (ROOT / "docs").glob("*.md")]
                notebooks = sum("kernelspec:" in text for text in pages_text)
                size = sum(path.stat().st_size for path in html.rglob("*") if path.is_file())
    return {
        "rounds": rounds,
        "date": datetime.date.today().isoformat(),
        "cores": os.cpu_count(),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "pages": pages,
        "notebooks": notebooks,
        "site_mb": round(size / 1e6, 1),
        "bars": BUILD_BARS,
        "wall_s": walls,
        "cpu_s": cpus,
    }


def build_rows(measured: dict) -> Rows:
    """The ``site`` section's rows: medians held to :data:`BUILD_BARS`, every round beside them."""
    rows: Rows = [
        ("pages built (notebooks among them)", f"{measured['pages']} ({measured['notebooks']})", None),
        ("site size on disk (MB)", f"{measured['site_mb']:.1f}", None),
    ]
    labels = {"clean": "clean build, notebooks run", "noop": "no-op rebuild", "one_page": "one page's text edited"}
    for step in STEPS:
        wall, bar = statistics.median(measured["wall_s"][step]), measured["bars"][step]
        rows.append((f"{labels[step]}: median of {measured['rounds']} (s, <= {bar:g})", f"{wall:.1f}", wall <= bar))
        rows.append(("  every round (s)", ", ".join(f"{x:.1f}" for x in measured["wall_s"][step]), None))
        rows.append(("  CPU seconds, every process", ", ".join(f"{x:.1f}" for x in measured["cpu_s"][step]), None))
    load = "/".join(f"{x:.1f}" for x in measured["load_average"])
    rows.append((f"  load average after (1/5/15 min, {measured['cores']} cores)", load, None))
    return rows


def bench_site() -> Rows:
    """Clean, no-op and one-page builds of the whole site, three rounds; medians against the bars."""
    try:
        measured = measure_builds()
    except RuntimeError as error:
        return [("sphinx-build failed", str(error)[-60:], False)]
    _record("site-build.json", measured)
    return build_rows(measured)


def bench_browser() -> Rows:
    """Chromium on the built site: time to typeset math, bytes per page."""
    directory = sitekit.site_dir()
    chromium = sitekit.find_chromium()
    if not (directory / "index.html").is_file():
        return [(f"no site in {directory}: run make html", "-", False)]
    if chromium is None:
        return [("no /usr/bin/chromium: apt-get install chromium", "-", False)]
    pages = sitekit.page_paths(directory)
    rows: Rows = []
    with sitekit.serve(directory) as url, sitekit.browser(chromium) as context:
        sitekit.visit(context, url + "index.html")  # warm up the browser
        # Request routing disables the HTTP cache: every visit is a cold load.
        visits = {page: sitekit.visit(context, url + page) for page in pages}
        heaviest = max(pages, key=lambda page: (visits[page].data["mathElements"], visits[page].data["bytes"]))
        typeset, fonts = [], []
        for _ in range(5):
            data = sitekit.visit(context, url + heaviest).data
            typeset.append(data["typesetAt"])
            fonts.append(data["fontsAt"])
    leaks = sum(len(v.external_requests) for v in visits.values())
    rows.append(("requests leaving 127.0.0.1 (= 0)", str(leaks), leaks == 0))
    n_math = visits[heaviest].data["mathElements"]
    rows.append((f"heaviest page: {heaviest} ({n_math} formulas)", "", None))
    if None in typeset:
        rows.append(("  math typeset", "never", False))
    else:
        rows.append(("  math typeset after navigation, median of 5 (ms)", f"{statistics.median(typeset):.0f}", None))
        rows.append(("  ... and its fonts loaded, median of 5 (ms)", f"{statistics.median(fonts):.0f}", None))
    rows.append(("bytes per page, cold cache, uncompressed (kB)", "all | MathJax", None))
    for page in sorted(pages, key=lambda page: -visits[page].data["bytes"]):
        data = visits[page].data
        rows.append((f"  {page}", f"{data['bytes'] / 1e3:5.0f} | {data['mathjaxBytes'] / 1e3:5.0f}", None))
    return rows


#: Bars of the ``pages`` section (issue 24).
PAGE_BARS = {"desktop_ms": 1500.0, "phone_ms": 4000.0, "ratio": 3.0}
PHONE_SLOWDOWN = 4.0


def measure_pages(rounds: int = ROUNDS) -> dict:
    """Medians over ``rounds`` loads of every page: math shown at 1280 px,
    math shown at 390 px slowed 4x, load with JavaScript off at 390 px slowed 4x (ms)."""
    directory = sitekit.site_dir()
    chromium = sitekit.find_chromium()
    if not (directory / "index.html").is_file():
        raise RuntimeError(f"no site in {directory}: run make html")
    if chromium is None:
        raise RuntimeError("no /usr/bin/chromium: apt-get install chromium")
    pages = sitekit.page_paths(directory)
    samples: dict[str, dict[str, list[float]]] = {page: {"desktop": [], "phone": [], "nojs": []} for page in pages}
    with sitekit.serve(directory) as url, sitekit.browsers(chromium, True, False) as (context, plain):
        sitekit.time_math_shown(context, url + "index.html", width=1280)  # warm up both browsers
        sitekit.time_load(plain, url + "index.html", width=1280)
        for _ in range(rounds):  # rounds outermost: a burst of load on the machine touches every page alike
            for page in pages:
                samples[page]["desktop"].append(sitekit.time_math_shown(context, url + page, width=1280)["math"])
                samples[page]["phone"].append(
                    sitekit.time_math_shown(context, url + page, width=390, cpu_slowdown=PHONE_SLOWDOWN)["math"]
                )
                samples[page]["nojs"].append(
                    sitekit.time_load(plain, url + page, width=390, cpu_slowdown=PHONE_SLOWDOWN)
                )
    result = {}
    for page, columns in samples.items():
        medians = {name: statistics.median(values) for name, values in columns.items()}
        result[page] = {
            "desktop_ms": round(medians["desktop"]),
            "phone_ms": round(medians["phone"]),
            "nojs_phone_ms": round(medians["nojs"]),
            "ratio": round(medians["phone"] / medians["nojs"], 2),
        }
    return {
        "rounds": rounds,
        "cpu_slowdown": PHONE_SLOWDOWN,
        "date": time.strftime("%Y-%m-%d"),
        "cores": os.cpu_count(),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "bars": PAGE_BARS,
        "pages": result,
    }


def page_rows(measured: dict) -> Rows:
    """The ``pages`` section's rows: one per page, held to :data:`PAGE_BARS`."""
    rows: Rows = [
        (f"math shown (ms), median of {measured['rounds']}: 1280 px | 390 px, CPU / {PHONE_SLOWDOWN:g}", "", None),
        ("  | no JavaScript, 390 px, CPU / 4 | ratio", "", None),
    ]
    for page, m in measured["pages"].items():
        met = all(m[key] <= bar for key, bar in PAGE_BARS.items())
        value = f"{m['desktop_ms']:5d} | {m['phone_ms']:5d} | {m['nojs_phone_ms']:5d} | {m['ratio']:4.1f}"
        rows.append((f"  {page}", value, met))
    load = "/".join(f"{x:.1f}" for x in measured["load_average"])
    rows.append((f"  load average after (1/5/15 min, {os.cpu_count()} cores)", load, None))
    return rows


#: Where ``--record`` writes the sections' measurements (None: nowhere).
RECORD: Path | None = None


def _record(name: str, measured: dict) -> None:
    if RECORD is not None:
        import json

        RECORD.mkdir(parents=True, exist_ok=True)
        (RECORD / name).write_text(json.dumps(measured, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def bench_pages() -> Rows:
    """Every page in Chromium: math shown at 1280 px and at 390 px on a slowed CPU, against no JavaScript."""
    try:
        measured = measure_pages()
    except RuntimeError as error:
        return [(str(error), "-", False)]
    _record("site-pages.json", measured)
    return page_rows(measured)


SECTIONS = {"site": bench_site, "browser": bench_browser, "pages": bench_pages}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/bench_site.py", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("sections", nargs="*", help=f"sections to run (default: all of {', '.join(SECTIONS)})")
    parser.add_argument(
        "--record",
        type=Path,
        metavar="DIR",
        help="write the measurements to DIR: site-build.json (site), site-pages.json (pages); the pages read docs/data",
    )
    args = parser.parse_args(argv)
    global RECORD
    RECORD = args.record
    unknown = [name for name in args.sections if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    return 0 if run(SECTIONS, args.sections or list(SECTIONS)) else 1


if __name__ == "__main__":
    sys.exit(main())
