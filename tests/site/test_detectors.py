"""The site checks can fail: a deliberately broken page trips each detector."""

from __future__ import annotations

import pytest
import sitekit

BROKEN_PAGE = """<!DOCTYPE html><html lang="en"><head><title>broken</title>
<script src="https://cdn.example.com/tracker.js"></script></head>
<body><main><img src="missing.png" alt="">
<a href="nowhere.html">x</a><a href="#no-such-anchor">y</a>
<script>console.error("boom")</script></main></body></html>"""


@pytest.fixture(scope="module")
def broken_visit(tmp_path_factory, browser_context, axe_path):
    directory = tmp_path_factory.mktemp("broken-site")
    (directory / "index.html").write_text(BROKEN_PAGE, encoding="utf-8")
    with sitekit.serve(directory) as url:
        return sitekit.visit(browser_context, url + "index.html", axe_path=axe_path)


def test_external_request_is_recorded_and_blocked(broken_visit):
    assert broken_visit.external_requests == ["https://cdn.example.com/tracker.js"]


def test_missing_file_and_console_error_are_recorded(broken_visit):
    assert any("missing.png" in failure for failure in broken_visit.failed_requests)
    assert any("boom" in message for message in broken_visit.console_errors)


def test_undecodable_image_is_seen(broken_visit):
    assert [img["width"] for img in broken_visit.data["images"]] == [0]


def test_links_are_collected(broken_visit):
    assert any(link.endswith("nowhere.html") for link in broken_visit.data["links"])
    assert "no-such-anchor" not in broken_visit.data["ids"]


def test_axe_runs(broken_visit):
    assert isinstance(broken_visit.axe_violations, list)
    assert "image-alt" not in {v["id"] for v in broken_visit.axe_violations}  # alt="" is decorative
