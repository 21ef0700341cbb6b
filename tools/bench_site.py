"""``make bench``, the site sections: build times and the site in Chromium.

Run from a source checkout with ``python tools/bench_site.py [SECTION ...]``
(``make bench`` runs it after ``python -m posenc_math.bench``).  Sections:

- ``site``: a clean ``make html`` into a new directory (every notebook runs,
  nothing is shared with ``_build/``), then a no-op rebuild of it;
- ``browser``: Chromium on the built site (``_build/html``): time to typeset
  the math of the heaviest page, bytes per page.

It needs the test extra (Playwright), npm's assets and Debian's Chromium;
the helpers are the site tests' own (``tests/site/sitekit.py``).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "site"))

import sitekit  # noqa: E402

from posenc_math.bench import Rows, run  # noqa: E402


def bench_site() -> Rows:
    """A clean build of the whole site, then a no-op rebuild of it."""
    rows: Rows = []
    with tempfile.TemporaryDirectory(prefix="posenc-bench-site-") as tmp:
        out = Path(tmp)
        times = []
        for _ in range(2):
            began = time.perf_counter()
            result = sitekit.build_site(out)
            times.append(time.perf_counter() - began)
            if result.returncode:
                return [("make html failed", (result.stdout + result.stderr).strip()[-40:], False)]
        pages = len(sitekit.page_paths(out / "html"))
        size = sum(path.stat().st_size for path in (out / "html").rglob("*") if path.is_file())
    clean, noop = times
    load = os.getloadavg()
    rows.append(("pages built", str(pages), None))
    rows.append(("site size on disk (MB)", f"{size / 1e6:.1f}", None))
    rows.append(("clean build, notebooks executed (s, <= 60)", f"{clean:.1f}", clean <= 60))
    rows.append(("no-op rebuild (s, <= 5)", f"{noop:.1f}", noop <= 5))
    rows.append(("  no-op / clean", f"{noop / clean:.2f}", None))
    rows.append(
        (f"  load average after (1/5/15 min, {os.cpu_count()} cores)", "/".join(f"{x:.1f}" for x in load), None)
    )
    return rows


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


SECTIONS = {"site": bench_site, "browser": bench_browser}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python tools/bench_site.py", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("sections", nargs="*", help=f"sections to run (default: all of {', '.join(SECTIONS)})")
    args = parser.parse_args(argv)
    unknown = [name for name in args.sections if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    return 0 if run(SECTIONS, args.sections or list(SECTIONS)) else 1


if __name__ == "__main__":
    sys.exit(main())
