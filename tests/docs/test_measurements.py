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
