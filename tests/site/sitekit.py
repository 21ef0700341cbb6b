"""Look at the built site the way a reader's browser does (tests and bench).

Shared by ``tests/site`` and ``tools/bench_site.py`` (the site and browser
sections of ``make bench``); test code, not part of the package.  The site is served by ``python -m http.server`` on
127.0.0.1 and visited with Debian's Chromium through Playwright's Python
package (never ``playwright install``).  Every request that would leave
127.0.0.1 is recorded and aborted, so a visit both proves and enforces that
the site works offline and leaks nothing to third parties.

Playwright is imported only inside the functions that need it (it belongs to
the ``test`` extra).
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urlsplit

#: The repository root (conf.py, docs/, the Makefile, _build/ live here).
ROOT = Path(__file__).resolve().parents[2]

#: No GPU, no sandbox (root in CI), nothing that phones home.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

#: Directories of the built site that hold assets, not pages.
ASSET_DIRS = ("_static", "_sources", "_images", "_downloads", "reports")


def site_dir() -> Path:
    """The built site to check: ``$POSENC_SITE_DIR``, else ``_build/html``.

    Examples
    --------
    >>> site_dir().name in {"html", os.path.basename(os.environ.get("POSENC_SITE_DIR", "html"))}
    True
    """
    return Path(os.environ.get("POSENC_SITE_DIR") or ROOT / "_build" / "html")


def find_chromium() -> str | None:
    """Path of Debian's Chromium, or None when it is not installed."""
    for candidate in ("/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def build_command(out_dir: Path) -> list[str]:
    """``make html`` with everything written under ``out_dir``.

    The Makefile is the one place that holds the sphinx-build command, its
    flags and the reproducibility settings (SOURCE_DATE_EPOCH from git,
    PYTHONHASHSEED); ``BUILD=out_dir`` moves the site, the doctrees and the
    notebook cache there, so the build is clean when ``out_dir`` is new.
    """
    return ["make", "--no-print-directory", "-C", str(ROOT), "html", f"BUILD={out_dir}"]


def build_site(out_dir: Path) -> subprocess.CompletedProcess:
    """Run :func:`build_command`; the site lands in ``out_dir / "html"``."""
    return subprocess.run(build_command(out_dir), cwd=ROOT, capture_output=True, text=True)


def page_paths(directory: Path) -> list[str]:
    """Every HTML page of the built site, as paths relative to ``directory``.

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     for name in ("index.html", "a/b.html", "_static/x.html", "c.txt"):
    ...         (Path(tmp) / name).parent.mkdir(parents=True, exist_ok=True)
    ...         _ = (Path(tmp) / name).write_text("")
    ...     page_paths(Path(tmp))
    ['a/b.html', 'index.html']
    """
    pages = []
    for path in sorted(directory.rglob("*.html")):
        relative = path.relative_to(directory)
        if relative.parts[0] not in ASSET_DIRS:
            pages.append(relative.as_posix())
    return pages


_TOCTREE = re.compile(r"^(`{3,}|:{3,})\{toctree\}[^\n]*\n(.*?)^\1", re.MULTILINE | re.DOTALL)


def toctree_entries(text: str) -> list[str]:
    """The documents a MyST page lists in its ``{toctree}`` blocks, in order.

    Examples
    --------
    >>> toctree_entries("# Home\\n```{toctree}\\n:maxdepth: 2\\n:caption: A\\n\\nintro\\nuse\\n```\\n"
    ...                 "text\\n:::{toctree}\\nReference <api>\\n:::\\n")
    ['intro', 'use', 'api']
    """
    entries = []
    for block in _TOCTREE.finditer(text):
        for line in block.group(2).splitlines():
            line = line.strip()
            if not line or line.startswith(":"):
                continue
            target = re.search(r"<([^<>]+)>$", line)
            entries.append(target.group(1) if target else line)
    return entries


def toctree_pages(docs: Path, root_doc: str = "index") -> list[str]:
    """Every page the site's navigation reaches from ``root_doc``, as the
    HTML paths the build must write (``index.html`` first): the list of
    pages a test expects, read from the sources rather than written down."""
    pages, queue = [], [root_doc]
    while queue:
        name = queue.pop(0)
        if f"{name}.html" in pages:
            continue
        pages.append(f"{name}.html")
        source = docs / f"{name}.md"
        if source.is_file():
            queue += toctree_entries(source.read_text(encoding="utf-8"))
    return pages


class _MathCounter(HTMLParser):
    """Count the elements Sphinx marks as math (``class="math ..."``)."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def handle_starttag(self, tag, attrs):
        classes = (dict(attrs).get("class") or "").split()
        if tag in ("span", "div") and "math" in classes:
            self.count += 1


def count_math_sources(html: str) -> int:
    """Number of math elements in a page's HTML as Sphinx wrote it.

    Examples
    --------
    >>> count_math_sources('<p><span class="math notranslate nohighlight">\\\\(x\\\\)</span></p>'
    ...                    '<div class="math notranslate nohighlight">\\\\[y\\\\]</div>')
    2
    """
    counter = _MathCounter()
    counter.feed(html)
    return counter.count


def is_local(url: str) -> bool:
    """True for URLs served by this machine's 127.0.0.1 (and data:/blob:).

    Examples
    --------
    >>> is_local("http://127.0.0.1:8000/index.html"), is_local("https://cdn.jsdelivr.net/x.js")
    (True, False)
    >>> is_local("data:font/woff2;base64,AAAA")
    True
    """
    parts = urlsplit(url)
    if parts.scheme in ("data", "blob", "about"):
        return True
    return parts.hostname == "127.0.0.1"


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def serve(directory: Path):
    """Serve ``directory`` on 127.0.0.1 (``python -m http.server``); yield its URL."""
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "http.server", "--bind", "127.0.0.1", "--directory", str(directory), str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/"
    try:
        deadline = time.monotonic() + 10
        while True:
            try:
                urllib.request.urlopen(url, timeout=1).close()
                break
            except OSError:
                if time.monotonic() > deadline or server.poll() is not None:
                    raise RuntimeError(f"http.server did not start on {url}") from None
                time.sleep(0.05)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


@contextlib.contextmanager
def browsers(chromium: str, *javascript: bool):
    """One Chromium context per entry of ``javascript`` (scripts on or off),
    each with a fresh, throw-away profile, under one Playwright instance."""
    from playwright.sync_api import sync_playwright

    with contextlib.ExitStack() as stack:
        playwright = stack.enter_context(sync_playwright())
        contexts = []
        for enabled in javascript:
            profile = stack.enter_context(tempfile.TemporaryDirectory(prefix="posenc-chromium-"))
            context = playwright.chromium.launch_persistent_context(
                profile,
                executable_path=chromium,
                headless=True,
                args=CHROMIUM_ARGS,
                viewport={"width": 1280, "height": 900},
                service_workers="block",
                java_script_enabled=enabled,
            )
            stack.callback(context.close)
            contexts.append(context)
        yield contexts


@contextlib.contextmanager
def browser(chromium: str):
    """A Chromium context with a fresh, throw-away profile."""
    with browsers(chromium, True) as (context,):
        yield context


# Runs before any script of the page: note when MathJax has typeset the page
# and when the fonts it asked for have arrived (milliseconds since navigation).
_TIMING_SCRIPT = """
(() => {
  const poll = setInterval(() => {
    const startup = window.MathJax && window.MathJax.startup;
    if (!startup || !startup.promise) return;
    clearInterval(poll);
    startup.promise.then(() => {
      window.__posencTypesetAt = performance.now();
      return document.fonts.ready;
    }).then(() => { window.__posencFontsAt = performance.now(); },
            (error) => { window.__posencTypesetError = String(error); });
  }, 2);
})();
"""

# What a visit reads from the page once it is typeset (see Visit).
_COLLECT_SCRIPT = """
async () => {
  for (const img of document.images) img.loading = "eager";
  await Promise.all([...document.images].map((img) => img.decode().catch(() => null)));
  const mathElements = [...document.querySelectorAll("span.math, div.math")];
  const containers = [...document.querySelectorAll("mjx-container")];
  const nav = performance.getEntriesByType("navigation")[0];
  const resources = performance.getEntriesByType("resource");
  return {
    title: document.title,
    mathElements: mathElements.length,
    mathTypeset: mathElements.filter((el) => el.querySelector("mjx-container")).length,
    mathUntypeset: mathElements.filter((el) => !el.querySelector("mjx-container"))
      .map((el) => el.textContent.slice(0, 80)),
    containers: containers.length,
    assistive: containers.filter((el) => el.querySelector("mjx-assistive-mml math")).length,
    mathErrors: [...document.querySelectorAll("mjx-merror")]
      .map((el) => el.getAttribute("data-mjx-error") || el.textContent),
    fonts: [...document.fonts].map((font) => [font.family, font.status]),
    images: [...document.images].map((img) => ({
      src: img.currentSrc || img.src, width: img.naturalWidth, alt: img.getAttribute("alt"),
    })),
    figuresWithoutCaption: [...document.querySelectorAll("figure")]
      .filter((fig) => !(fig.querySelector("figcaption") && fig.querySelector("figcaption").textContent.trim()))
      .map((fig) => fig.id || fig.outerHTML.slice(0, 80)),
    links: [...document.querySelectorAll("a[href]")].map((a) => a.href),
    ids: [...document.querySelectorAll("[id]")].map((el) => el.id)
      .concat([...document.querySelectorAll("a[name]")].map((el) => el.name)),
    typesetAt: window.__posencTypesetAt ?? null,
    fontsAt: window.__posencFontsAt ?? null,
    typesetError: window.__posencTypesetError ?? null,
    bytes: (nav ? nav.encodedBodySize : 0) + resources.reduce((sum, r) => sum + r.encodedBodySize, 0),
    mathjaxBytes: resources.filter((r) => r.name.includes("/_static/mathjax/"))
      .reduce((sum, r) => sum + r.encodedBodySize, 0),
  };
}
"""

# axe reads the geometry of the whole page at once (which element lies behind
# a text, for its contrast).  A section the browser skips for being far from
# the screen (``content-visibility: auto`` in posenc.css) reports a placeholder
# geometry, and axe once took a theorem box, laid out past the page's end, for
# the background of the footer.  The reader sees every section drawn when it is
# on screen, so axe checks the page with every section drawn.
_AXE_SCRIPT = """
async () => {
  const drawn = document.createElement("style");
  drawn.textContent = "* { content-visibility: visible !important; }";
  document.head.append(drawn);
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  const result = await axe.run(document, {resultTypes: ["violations"]});
  drawn.remove();
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.map((n) => n.target.join(" ")).slice(0, 5),
    summary: v.nodes.length ? v.nodes[0].failureSummary : "",
  }));
}
"""


@dataclass
class Visit:
    """What one page load showed; see :func:`visit`."""

    url: str
    data: dict = field(default_factory=dict)
    external_requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    font_responses: list[tuple[str, int]] = field(default_factory=list)
    axe_violations: list[dict] | None = None


def visit(context, url: str, *, axe_path: Path | None = None, timeout_ms: int = 120_000) -> Visit:
    """Load ``url`` in a new tab of ``context``; wait for math; collect facts.

    Every request to anywhere but 127.0.0.1 is recorded in
    ``external_requests`` and aborted.  Local responses with status >= 400,
    failed local requests, console errors and uncaught page errors are
    recorded too.  With ``axe_path`` the page is also checked by axe-core.
    The time limit is generous (two minutes per wait): it catches a page that
    never settles, not a slow one; on a shared 2-core machine under a load of
    10, pages took more than the 30 s it used to be.
    """
    record = Visit(url)
    page = context.new_page()

    def route(route_request):
        if is_local(route_request.request.url):
            route_request.continue_()
        else:
            record.external_requests.append(route_request.request.url)
            route_request.abort("blockedbyclient")

    def on_response(response):
        if response.status >= 400:
            record.failed_requests.append(f"{response.status} {response.url}")
        if urlsplit(response.url).path.endswith((".woff", ".woff2", ".ttf", ".otf")):
            record.font_responses.append((response.url, response.status))

    def on_failed(request):
        if is_local(request.url):
            record.failed_requests.append(f"{request.failure} {request.url}")

    def on_console(message):
        if message.type == "error":
            location = message.location.get("url", "") if message.location else ""
            record.console_errors.append(f"{message.text} ({location})")

    page.route("**/*", route)
    page.on("response", on_response)
    page.on("requestfailed", on_failed)
    page.on("console", on_console)
    page.on("pageerror", lambda error: record.console_errors.append(f"uncaught: {error}"))
    page.add_init_script(_TIMING_SCRIPT)
    try:
        page.goto(url, wait_until="load", timeout=timeout_ms)
        has_mathjax = page.evaluate("() => Boolean(window.MathJax && window.MathJax.startup)")
        if has_mathjax:
            page.wait_for_function(
                "() => window.__posencFontsAt !== undefined || window.__posencTypesetError !== undefined",
                timeout=timeout_ms,
            )
        page.wait_for_load_state("networkidle", timeout=timeout_ms)
        record.data = page.evaluate(_COLLECT_SCRIPT)
        if axe_path is not None:
            page.add_script_tag(path=str(axe_path))
            record.axe_violations = page.evaluate(_AXE_SCRIPT)
    finally:
        page.close()
    return record


# Runs before any script of the page: the time (ms since navigation) at which
# the page's math is shown in its own fonts.  With MathJax in the page, that
# is when MathJax has typeset it and the fonts it asked for have arrived; with
# math written into the HTML at build time, when the page has loaded, been
# laid out, and the fonts its math uses have arrived.
_MATH_SHOWN_SCRIPT = """
(() => {
  const shown = () => document.fonts.ready.then(() => { window.__posencMathShownAt = performance.now(); });
  const poll = setInterval(() => {
    const startup = window.MathJax && window.MathJax.startup;
    if (!startup || !startup.promise) return;
    clearInterval(poll);
    startup.promise.then(shown, (error) => { window.__posencMathShownAt = -1; });
  }, 2);
  window.addEventListener("load", () => {
    if (window.MathJax) return;  // MathJax's promise above decides
    clearInterval(poll);
    requestAnimationFrame(() => requestAnimationFrame(shown));
  });
})();
"""


def time_math_shown(
    context, url: str, *, width: int, cpu_slowdown: float = 1.0, timeout_ms: int = 120000
) -> dict[str, float]:
    """Load ``url`` in a new tab ``width`` px wide, the CPU slowed ``cpu_slowdown``
    times (Chrome DevTools' ``Emulation.setCPUThrottlingRate``), and return
    ``{"math": ms, "load": ms}``: when the math was shown (see
    ``_MATH_SHOWN_SCRIPT``) and when the ``load`` event ended, both from the
    start of navigation.  Requests that would leave 127.0.0.1 are aborted.
    """
    page = context.new_page()
    try:
        page.set_viewport_size({"width": width, "height": 900})
        page.route("**/*", lambda r: r.continue_() if is_local(r.request.url) else r.abort("blockedbyclient"))
        if cpu_slowdown != 1.0:
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
        page.add_init_script(_MATH_SHOWN_SCRIPT)
        page.goto(url, wait_until="load", timeout=timeout_ms)
        page.wait_for_function("() => window.__posencMathShownAt !== undefined", timeout=timeout_ms)
        shown, load = page.evaluate(
            "() => [window.__posencMathShownAt, performance.getEntriesByType('navigation')[0].loadEventEnd]"
        )
        if shown < 0:
            raise RuntimeError(f"MathJax failed on {url}")
        return {"math": shown, "load": load}
    finally:
        page.close()


def time_load(context, url: str, *, width: int, cpu_slowdown: float = 1.0, timeout_ms: int = 120000) -> float:
    """Milliseconds from the start of navigation to the end of the ``load``
    event of ``url`` (in a context with or without JavaScript: the reading
    is done by Playwright, not by the page's scripts)."""
    page = context.new_page()
    try:
        page.set_viewport_size({"width": width, "height": 900})
        page.route("**/*", lambda r: r.continue_() if is_local(r.request.url) else r.abort("blockedbyclient"))
        if cpu_slowdown != 1.0:
            page.context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": cpu_slowdown})
        page.goto(url, wait_until="load", timeout=timeout_ms)
        return page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
    finally:
        page.close()
