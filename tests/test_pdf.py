"""The PDF edition (``make pdf``): every page is in it, numbered as on the site.

``make test`` builds the PDF first where TeX is installed.  Without xelatex
and latexmk these tests skip locally, naming the Debian packages to install
(the list .ci/run installs); with ``CI=true`` they fail.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PDF = Path(os.environ.get("POSENC_PDF") or ROOT / "_build" / "latex" / "posenc-math.pdf")
LOG = PDF.with_suffix(".log")
SITE = Path(os.environ.get("POSENC_SITE_DIR") or ROOT / "_build" / "html")
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def ci_run_tex_packages() -> str:
    text = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    return re.search(r'^TEX_PACKAGES="([^"]+)"', text, re.M).group(1)


@pytest.fixture(scope="module")
def pdf_text() -> tuple[str, int]:
    missing = [tool for tool in ("xelatex", "latexmk") if shutil.which(tool) is None]
    if missing and not PDF.is_file():
        message = f"no {' and '.join(missing)}: apt-get install -y {ci_run_tex_packages()}, then make pdf"
        if IN_CI:
            pytest.fail(message + " (CI=true: the PDF must be checked here)", pytrace=False)
        pytest.skip(message)
    if not PDF.is_file():
        pytest.fail(f"no PDF at {PDF}: run `make pdf` (make test does it where TeX is installed)", pytrace=False)
    from pypdf import PdfReader

    reader = PdfReader(PDF)
    if shutil.which("pdftotext"):  # poppler-utils: seconds, where pypdf takes most of a minute
        run = subprocess.run(["pdftotext", "-enc", "UTF-8", str(PDF), "-"], capture_output=True, text=True, check=True)
        text = run.stdout
    else:
        text = "\n".join(page.extract_text() or "" for page in reader.pages)
    return " ".join(text.split()), len(reader.pages)


def page_titles() -> dict[str, str]:
    titles = {}
    for page in sorted((ROOT / "docs").glob("*.md")):
        match = re.search(r"^# (.+)$", page.read_text(encoding="utf-8"), re.M)
        assert match, f"{page.name} has no title"
        titles[page.stem] = match.group(1).strip()
    return titles


def test_every_page_title_is_in_the_pdf(pdf_text):
    text, _ = pdf_text
    titles = page_titles()
    assert len(titles) >= 10

    # Sphinx's smart quotes set an apostrophe typed ' as a typographic one: compare them as one.
    def plain(words: str) -> str:
        return words.replace("\u2019", "'").replace("\u2018", "'")

    text = plain(text)
    missing = {name: title for name, title in titles.items() if plain(title) not in text}
    assert not missing, f"page titles not found in {PDF.name}: {missing}"


def test_page_count_is_plausible(pdf_text):
    _, pages = pdf_text
    assert 5 * len(page_titles()) <= pages <= 1000, pages


def test_no_character_is_missing_from_the_fonts(pdf_text):
    """xelatex drops a character its font lacks, with a log line; every
    non-ASCII character of the pages' prose must reach the PDF's text."""
    text, _ = pdf_text
    assert LOG.is_file(), f"no LaTeX log beside the PDF ({LOG})"
    log = LOG.read_text(encoding="utf-8", errors="replace")
    lost = re.findall(r"Missing character: There is no (.+?) in font", log)
    assert not lost, f"characters the fonts lack: {sorted(set(lost))}"
    prose = "".join((ROOT / "docs" / f"{name}.md").read_text(encoding="utf-8") for name in page_titles())
    prose = re.sub(r"\$\$.*?\$\$|\$[^$\n]*\$|```.*?```", "", prose, flags=re.S)  # math and code: drawn by TeX
    wanted = sorted({char for char in prose if ord(char) > 127 and not char.isspace()})
    assert wanted, "no non-ASCII character in the pages' prose to check"
    absent = [char for char in wanted if char not in text]
    assert not absent, f"non-ASCII characters of the pages missing from the PDF text: {absent}"


def test_theorems_are_numbered_as_on_the_site(pdf_text):
    text, _ = pdf_text
    if not (SITE / "index.html").is_file():
        pytest.fail(f"no built site at {SITE}: run `make html`", pytrace=False)
    on_site = {}
    for page in SITE.glob("*.html"):
        html = page.read_text(encoding="utf-8")
        for number, title in re.findall(r"Theorem (\d+) </span> \(([^<()\\]+)\)", html):
            on_site[int(number)] = " ".join(title.split())
    assert len(on_site) >= 5, on_site
    wrong = {n: title for n, title in on_site.items() if f"Theorem {n} ({title[:20]}" not in text}
    assert not wrong, f"theorems numbered or titled differently in the PDF: {wrong}"
