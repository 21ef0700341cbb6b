"""``make bench``: speed as ratios measured in one run, plus accuracy.

Run from a source checkout with ``python tools/bench.py [SECTION ...]``: the
library's own sections, which need only the installed package (any install:
the checkout's ``.venv`` or a wheel).  The site sections (builds of the site,
the site in Chromium) need the test extra; they are ``tools/bench_site.py``,
and ``make bench`` runs both.

Machines here are shared and noisy, so every figure that matters is a
*ratio* of two timings taken in the same run (best of several repeats),
never an absolute time checked by a test.  Each section prints its figures and a PASS/FAIL line for
the bar it is held to; the exit status is 1 if any bar is missed.

``--record DIR`` also writes the sections' figures to ``DIR/bench-library.json``
(a section run again replaces its own entry, the others stay): with
``--record docs/data`` the performance page shows them
(``posenc_docs.measurements``), so no figure on the page is typed by hand.
"""

from __future__ import annotations

import argparse
import datetime
import functools
import json
import os
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np

#: A section's figures: (label, value, bar met, or None when there is no bar).
Rows = list[tuple[str, str, bool | None]]

#: name -> function returning the section's rows.
SECTIONS: dict[str, Callable[[], Rows]] = {}


def section(name: str) -> Callable[[Callable[[], Rows]], Callable[[], Rows]]:
    """Register a benchmark section under ``name``."""

    def register(function: Callable[[], Rows]) -> Callable[[], Rows]:
        SECTIONS[name] = function
        return function

    return register


def best_time(function: Callable[[], object], *, repeat: int = 15) -> float:
    """Best wall time of ``function()`` over ``repeat`` runs, in seconds."""
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        function()
        times.append(time.perf_counter() - began)
    return min(times)


def seed_formula(n_positions: int, dim: int) -> np.ndarray:
    """The source notebooks' table: zeros, then sin/cos into strided slices."""
    table = np.zeros((n_positions, dim))
    position = np.arange(n_positions)[:, None]
    div_term = np.exp(np.arange(0, dim, 2) * -(np.log(10000.0) / dim))
    table[:, 0::2] = np.sin(position * div_term)
    table[:, 1::2] = np.cos(position * div_term)
    return table


def mpmath_error(table: np.ndarray, *, layout: str, samples: int = 400, seed: int = 0) -> float:
    """Largest error of ``table`` against 40-digit mpmath at random entries."""
    import mpmath

    rng = random.Random(seed)
    n_positions, dim = table.shape
    n_pairs = dim // 2
    worst = 0.0
    with mpmath.workdps(40):
        for _ in range(samples):
            position, pair = rng.randrange(n_positions), rng.randrange(n_pairs)
            angle = position * mpmath.power(10000, -mpmath.mpf(2 * pair) / dim)
            if layout == "interleaved":
                sin_col, cos_col = 2 * pair, 2 * pair + 1
            else:
                sin_col, cos_col = pair, n_pairs + pair
            worst = max(
                worst,
                abs(float(mpmath.sin(angle) - table[position, sin_col])),
                abs(float(mpmath.cos(angle) - table[position, cos_col])),
            )
    return worst


@section("tables")
def bench_tables() -> Rows:
    """The 8192 x 1024 table against the seed formula and a plain fill."""
    from posenc_math import sinusoidal

    n_positions, dim = 8192, 1024
    rows: Rows = []
    t_fill = best_time(lambda: np.full((n_positions, dim), 0.5))
    t_seed = best_time(lambda: seed_formula(n_positions, dim), repeat=5)
    rows.append(("np.full 8192x1024 (ms)", f"{t_fill * 1e3:.2f}", None))
    rows.append(("seed formula (ms)", f"{t_seed * 1e3:.2f}", None))
    seed_table = seed_formula(n_positions, dim)
    for layout in ("interleaved", "split"):
        t_table = best_time(functools.partial(sinusoidal, n_positions, dim, layout=layout))
        table = sinusoidal(n_positions, dim, layout=layout)
        rows.append((f"sinusoidal {layout} (ms)", f"{t_table * 1e3:.2f}", None))
        rows.append(("  speed-up over seed formula (>= 8)", f"{t_seed / t_table:.1f}x", t_seed / t_table >= 8))
        rows.append(("  time / np.full time (<= 2)", f"{t_table / t_fill:.2f}", t_table / t_fill <= 2))
        if layout == "interleaved":
            diff = float(np.abs(table - seed_table).max())
            rows.append(("  max |table - seed| (< 1e-11)", f"{diff:.2e}", diff < 1e-11))
        error = mpmath_error(table, layout=layout)
        rows.append(("  max |table - mpmath 40 digits| (< 1e-12)", f"{error:.2e}", error < 1e-12))
    return rows


def traced_peak(function: Callable[[], np.ndarray]) -> tuple[np.ndarray, int]:
    """``function()`` and its peak memory in bytes (numpy reports its allocations to tracemalloc)."""
    import tracemalloc

    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        result = function()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def exact_entry_error(table: np.ndarray, start: int, *, samples: int = 60, seed: int = 0) -> float:
    """Largest error of an interleaved table (base 10000, paper spacing) against 40-digit mpmath."""
    import mpmath

    rng = random.Random(seed)
    n_positions, dim = table.shape
    worst = 0.0
    with mpmath.workdps(40):
        for _ in range(samples):
            row, pair = rng.randrange(n_positions), rng.randrange(dim // 2)
            angle = (start + row) * mpmath.power(10000, -mpmath.mpf(2 * pair) / dim)
            worst = max(
                worst,
                abs(float(mpmath.sin(angle) - table[row, 2 * pair])),
                abs(float(mpmath.cos(angle) - table[row, 2 * pair + 1])),
            )
    return worst


@section("memory")
def bench_memory() -> Rows:
    """Peak memory of tall and wide tables over their output, and the wide table's time."""
    from posenc_math import sinusoidal

    rows: Rows = []
    cases = [("200000x64", 200_000, 64, 1.3), ("8192x1024", 8192, 1024, 1.3)]
    cases += [("1x10**7", 1, 10**7, 2.0), ("16x10**6", 16, 10**6, 2.0)]
    for label, n_positions, dim, bar in cases:
        for layout in ("interleaved", "split"):

            def build(n: int = n_positions, d: int = dim, layout: str = layout) -> np.ndarray:
                return sinusoidal(n, d, layout=layout)

            table, peak = traced_peak(build)
            ratio = peak / table.nbytes
            rows.append((f"{label} {layout[:5]} peak/output (<= {bar})", f"{ratio:.3f}", ratio <= bar))
            del table
    table, peak = traced_peak(lambda: sinusoidal(1, 10**7, dtype="float16"))
    rows.append(("1x10**7 float16 peak/output (<= 2.0)", f"{peak / table.nbytes:.3f}", peak <= 2 * table.nbytes))
    del table
    t_plain = best_time(lambda: seed_formula(1, 10**7), repeat=3)
    t_table = best_time(lambda: sinusoidal(1, 10**7), repeat=3)
    rows.append(("1x10**7 plain formula (s)", f"{t_plain:.3f}", None))
    rows.append(("1x10**7 sinusoidal (s)", f"{t_table:.3f}", None))
    rows.append(("  sinusoidal / plain formula (<= 2)", f"{t_table / t_plain:.2f}", t_table / t_plain <= 2))
    return rows


@section("accuracy")
def bench_accuracy() -> Rows:
    """Table entries at large positions against 40-digit mpmath (bar 1e-14 up to 2**31)."""
    from posenc_math import sinusoidal

    rows: Rows = []
    for label, start in (("1e5", 10**5), ("1e9", 10**9), ("2**31", 2**31 - 256), ("-2**31", -(2**31))):
        error = exact_entry_error(sinusoidal(256, 128, start=start), start)
        rows.append((f"max error near {label} (< 1e-14)", f"{error:.2e}", error < 1e-14))
    for label, start in (("2**40", 2**40), ("2**53", 2**53 - 256)):
        error = exact_entry_error(sinusoidal(256, 128, start=start), start)
        rows.append((f"max error near {label} (measured; < 1e-14)", f"{error:.2e}", error < 1e-14))
    return rows


@section("verify")
def bench_verify() -> Rows:
    """``posenc-math verify`` as a reader runs it (a fresh process, every theorem), in its full mode and in its
    fast mode (``--fast``: a step proved symbolically is not cross-checked by intervals), side by side with a
    process that only imports sympy: the ratios of the best-of-5 wall times.  The bar, 4 (issues 9 and 22),
    holds the fast mode; the full mode's ratio is what the second certificate costs on top."""
    import json
    import os
    import subprocess

    full = [sys.executable, "-m", "posenc_math", "verify", "--json"]
    fast = [*full, "--fast"]
    baseline = [sys.executable, "-c", "import sympy"]
    # Every command runs from bytecode, as after ``pip install`` (which compiles
    # SymPy and posenc-math alike): an untimed first run writes the cache of
    # an editable install, even where PYTHONDONTWRITEBYTECODE is set.
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    for warm_up in (baseline, full):
        subprocess.run(warm_up, capture_output=True, env=env)
    walls: dict[str, list[float]] = {"sympy": [], "full": [], "fast": []}
    runs = {}
    for _ in range(5):  # interleaved, so all three see the same load
        for name, command in (("sympy", baseline), ("full", full), ("fast", fast)):
            began = time.perf_counter()
            run = subprocess.run(command, capture_output=True, text=True, env=env)
            walls[name].append(time.perf_counter() - began)
            if run.returncode:
                return [(f"{' '.join(command[1:])} failed", (run.stdout + run.stderr).strip()[-40:], False)]
            runs[name] = run
    results = json.loads(runs["full"].stdout)
    fast_results = json.loads(runs["fast"].stdout)
    sympy_import, wall, fast_wall = (min(walls[name]) for name in ("sympy", "full", "fast"))
    general = sum(r["scope"] == "general" for r in results)
    rows = [
        ("theorems verified / registered", f"{sum(r['status'] == 'verified' for r in results)}/{len(results)}", None),
        (
            "theorems verified in fast mode",
            f"{sum(r['status'] == 'verified' and r['mode'] == 'fast' for r in fast_results)}/{len(fast_results)}",
            None,
        ),
        ("negative controls rejected", f"{sum(r['negative_control'] == 'rejected' for r in results)}", None),
        ("general / registered (>= 80%)", f"{general}/{len(results)}", general >= 0.8 * len(results)),
        ("python -c 'import sympy' wall time, best of 5 (s)", f"{sympy_import:.2f}", None),
        ("posenc-math verify wall time, best of 5 (s)", f"{wall:.2f}", None),
        ("posenc-math verify --fast wall time, best of 5 (s)", f"{fast_wall:.2f}", None),
        ("verify / import sympy (both certificates; measured)", f"{wall / sympy_import:.2f}", None),
        ("verify --fast / import sympy (<= 4)", f"{fast_wall / sympy_import:.2f}", fast_wall / sympy_import <= 4.0),
        ("verify / verify --fast (what the intervals cost)", f"{wall / fast_wall:.2f}", None),
    ]
    slowest = sorted(results, key=lambda r: -r["seconds"])[:3]
    rows += [(f"  slowest: {r['id']} (s)", f"{r['seconds']:.3f}", None) for r in slowest]
    return rows


#: Printed after the library sections: where the site's figures come from.
@section("rope")
def bench_rope() -> Rows:
    """``rope`` on a model's shape against a plain rotate_half rotation: time, peak memory, accuracy
    (the figures and bars of ``tools/bench_rope.py``, issue 25)."""
    try:
        import ml_dtypes  # noqa: F401  (bfloat16)
    except ImportError:
        return [("rope: needs ml_dtypes (pip install posenc-math[precision])", "-", None)]
    import bench_rope

    return [(f"{name} ({bar})" if bar else name, value, ok) for name, value, bar, ok in bench_rope.run()]


SITE_SECTIONS_NEED = (
    "The site sections (clean and no-op build times, the site in Chromium) are not part of the "
    "installed package: they need a source checkout of posenc-math with its docs/, node and npm, "
    "and Chromium (/usr/bin/chromium). There, `make bench` runs these sections and then "
    "`python tools/bench_site.py`."
)


#: The file ``--record DIR`` writes in DIR.
RECORD_NAME = "bench-library.json"


def run(sections: dict[str, Callable[[], Rows]], names: list[str], record: Path | None = None) -> bool:
    """Run the named ``sections`` and print their rows; True if every bar is met.

    With ``record`` (a directory), each section's rows also go to its
    :data:`RECORD_NAME`, as :func:`section_record` makes them.
    """
    failed = False
    for name in names:
        print(f"\n[{name}]", flush=True)
        rows = sections[name]()
        for label, value, met in rows:
            verdict = "" if met is None else ("  PASS" if met else "  FAIL")
            failed |= met is False
            print(f"{label:<64} {value:>12}{verdict}", flush=True)
        if record is not None:
            write_record(record / RECORD_NAME, name, section_record(sections[name], rows))
    return not failed


def section_record(function: Callable[[], Rows], rows: Rows) -> dict:
    """What ``--record`` keeps of one section's run: what it measures, where and when, and its rows.

    Examples
    --------
    >>> entry = section_record(bench_accuracy, [("max error near 1e5 (< 1e-14)", "4.0e-16", True)])
    >>> entry["description"], entry["rows"]
    ('Table entries at large positions against 40-digit mpmath (bar 1e-14 up to 2**31).', \
[{'figure': 'max error near 1e5 (< 1e-14)', 'value': '4.0e-16', 'met': True}])
    >>> sorted(entry)
    ['command', 'cores', 'date', 'description', 'load_average', 'machine', 'numpy', 'python', 'rows']
    """
    name = next(key for key, value in SECTIONS.items() if value is function)
    return {
        "command": f"python tools/bench.py {name}",
        "description": " ".join((function.__doc__ or "").split("\n\n")[0].split()),
        "date": datetime.date.today().isoformat(),
        "machine": platform.machine(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "rows": [{"figure": label, "value": value, "met": met} for label, value, met in rows],
    }


def write_record(path: Path, name: str, entry: dict) -> None:
    """Put section ``name``'s ``entry`` into the JSON record at ``path`` (created if absent), keeping the others."""
    record = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    record[name] = entry
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record, indent=1, sort_keys=True) + "\n", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    """``python tools/bench.py``: the library sections; exit status 1 if a bar is missed."""
    parser = argparse.ArgumentParser(prog="python tools/bench.py", description=(__doc__ or "").split("\n")[0])
    parser.add_argument("sections", nargs="*", help=f"sections to run (default: all of {', '.join(SECTIONS)})")
    parser.add_argument(
        "--record",
        type=Path,
        metavar="DIR",
        help=f"also write the figures to DIR/{RECORD_NAME} (the performance page reads docs/data)",
    )
    args = parser.parse_args(argv)
    unknown = [name for name in args.sections if name not in SECTIONS]
    if unknown:
        parser.error(f"unknown section(s) {', '.join(unknown)}; choose from {', '.join(SECTIONS)}")
    print(f"posenc-math bench on {platform.machine()}, Python {platform.python_version()}, numpy {np.__version__}")
    passed = run(SECTIONS, args.sections or list(SECTIONS), args.record)
    print(f"\n{SITE_SECTIONS_NEED}")
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
