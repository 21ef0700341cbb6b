"""posenc_docs.measurements: the performance page's tables come from make bench's record."""

from __future__ import annotations

import io
import json

import pytest

RECORD = {
    "rounds": 3,
    "cpu_slowdown": 4.0,
    "date": "2026-11-26",
    "cores": 2,
    "load_average": [1.5, 1.2, 1.0],
    "pages": {
        "rope.html": {"desktop_ms": 412, "phone_ms": 1733, "nojs_phone_ms": 1210, "ratio": 1.43},
        "index.html": {"desktop_ms": 120, "phone_ms": 480, "nojs_phone_ms": 470, "ratio": 1.02},
    },
}


def build(make_app, tmp_path, record: dict | None):
    source = tmp_path / "src"
    (source / "data").mkdir(parents=True)
    (source / "conf.py").write_text("extensions = ['myst_nb', 'posenc_docs.measurements']\n")
    (source / "index.md").write_text("# Speed\n\n```{posenc-page-timings} data/pages.json\n```\n")
    if record is not None:
        (source / "data" / "pages.json").write_text(json.dumps(record))
    warnings = io.StringIO()
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", warning=warnings)
    app.build()
    return app.outdir, warnings.getvalue()


def test_the_table_is_read_from_the_record(make_app, tmp_path):
    out, warnings = build(make_app, tmp_path, RECORD)
    html = (out / "index.html").read_text()
    assert "bench record" not in warnings and "posenc" not in warnings  # (other tests' registrations may warn)
    table = html[html.index('class="posenc-measured') :]
    for value in ("412", "1733", "1210", "1.4", "480", "2026-11-26"):
        assert f">{value}<" in table or value in table
    assert table.index("index.html") < table.index("rope.html")  # pages in order


def test_a_missing_record_is_a_build_error(make_app, tmp_path):
    _, warnings = build(make_app, tmp_path, None)
    assert "cannot read the bench record 'data/pages.json'" in warnings


@pytest.mark.parametrize("key", ["pages", "rounds"])
def test_an_incomplete_record_fails(key):
    from posenc_docs.measurements import page_timings_myst

    with pytest.raises(KeyError):
        page_timings_myst({k: v for k, v in RECORD.items() if k != key})


BUILD_RECORD = {
    "rounds": 3,
    "date": "2026-11-26",
    "cores": 2,
    "load_average": [0.4, 0.9, 1.1],
    "pages": 33,
    "notebooks": 21,
    "site_mb": 48.3,
    "bars": {"clean": 90.0, "noop": 5.0, "one_page": 15.0},
    "wall_s": {"clean": [81.5, 84.2, 96.0], "noop": [4.1, 4.3, 4.2], "one_page": [11.0, 12.5, 11.8]},
    "cpu_s": {"clean": [95.1, 96.3, 97.0], "noop": [3.8, 3.9, 3.9], "one_page": [10.2, 10.4, 10.1]},
}


def test_the_build_table_is_read_from_the_record(make_app, tmp_path):
    source = tmp_path / "src"
    (source / "data").mkdir(parents=True)
    (source / "conf.py").write_text("extensions = ['myst_nb', 'posenc_docs.measurements']\n")
    (source / "index.md").write_text("# Builds\n\n```{posenc-build-timings} data/build.json\n```\n")
    (source / "data" / "build.json").write_text(json.dumps(BUILD_RECORD))
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", warning=io.StringIO())
    app.build()
    table = (app.outdir / "index.html").read_text()
    table = table[table.index('class="posenc-measured') :]
    for value in ("81.5, 84.2, 96.0", ">84.2<", ">4.2<", ">11.8<", "95.1, 96.3, 97.0", "33 pages", "21 are notebooks"):
        assert value in table, value
    assert "(over)" not in table  # the medians meet the bars


def test_a_median_over_its_bar_is_marked():
    from posenc_docs.measurements import build_timings_myst

    slow = {**BUILD_RECORD, "wall_s": {**BUILD_RECORD["wall_s"], "noop": [5.5, 6.0, 4.0]}}
    rows = build_timings_myst(slow).splitlines()
    assert [row for row in rows if "(over)" in row] == [row for row in rows if row.startswith("| no-op")]
    with pytest.raises(KeyError):
        build_timings_myst({k: v for k, v in BUILD_RECORD.items() if k != "cpu_s"})


LIBRARY_RECORD = {
    "tables": {
        "command": "python tools/bench.py tables",
        "description": "The 8192 x 1024 table against the seed formula and a plain fill.",
        "date": "2026-11-26",
        "machine": "x86_64",
        "python": "3.11.2",
        "numpy": "2.4.0",
        "cores": 2,
        "load_average": [2.5, 2.0, 1.5],
        "rows": [
            {"figure": "np.full 8192x1024 (ms)", "value": "21.07", "met": None},
            {"figure": "  speed-up over seed formula (>= 8)", "value": "13.9x", "met": True},
            {"figure": "  max |table - mpmath 40 digits| (< 1e-12)", "value": "7.77e-16", "met": False},
        ],
    }
}


def build_section(make_app, tmp_path, section: str):
    source = tmp_path / "src"
    (source / "data").mkdir(parents=True)
    (source / "conf.py").write_text("extensions = ['myst_nb', 'posenc_docs.measurements']\n")
    directive = f"```{{posenc-bench-section}} data/lib.json\n:section: {section}\n```\n"
    (source / "index.md").write_text(f"# Speed\n\n{directive}")
    (source / "data" / "lib.json").write_text(json.dumps(LIBRARY_RECORD))
    warnings = io.StringIO()
    app = make_app("html", srcdir=source, builddir=tmp_path / "build", warning=warnings)
    app.build()
    return (app.outdir / "index.html").read_text(), warnings.getvalue()


def test_a_library_section_is_read_from_the_record(make_app, tmp_path):
    html, _ = build_section(make_app, tmp_path, "tables")
    table = html[html.index('class="posenc-measured') :]
    for value in ("8192 × 1024 table", ">13.9x<", ">7.77 × 10⁻¹⁶<", "missed", "tools/bench.py", "2026-11-26"):
        assert value in table, value
    assert "max |table - mpmath 40 digits|" in table  # escaped for the table, shown as measured


def test_a_section_the_record_lacks_is_a_build_error(make_app, tmp_path):
    _, warnings = build_section(make_app, tmp_path, "memory")
    assert "no section 'memory' in the record (it has: tables)" in warnings


def test_the_recorded_page_timings_cover_every_page():
    """The performance page's timings are of the site as it is: a page added since the last
    `tools/bench_site.py pages --record docs/data` fails here (three pages were missing once)."""
    from pathlib import Path

    docs = Path(__file__).resolve().parents[2] / "docs"
    recorded = set(json.loads((docs / "data" / "site-pages.json").read_text(encoding="utf-8"))["pages"])
    pages = {f"{page.stem}.html" for page in docs.glob("*.md")} | {"genindex.html", "search.html"}
    assert recorded == pages, {"not measured": sorted(pages - recorded), "no longer built": sorted(recorded - pages)}
