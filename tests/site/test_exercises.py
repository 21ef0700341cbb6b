"""The exercises, as a reader meets them in Chromium: enough of them, each
with a solution that is folded when the page opens and unfolds on a click.

Whether the solutions are *right* is checked when the site is built: every
number a solution states is glued from a hidden cell that asserts it against
the library, so a wrong solution fails ``make html``.
"""

from __future__ import annotations

import re

MIN_EXERCISES = 20


def _exercise_pages(site_dir, pages):
    counts = {}
    for page in pages:
        text = (site_dir / page).read_text(encoding="utf-8")
        found = len(re.findall(r'class="exercise admonition"', text))
        if found:
            counts[page] = found
    return counts


def test_enough_exercises_with_a_solution_each(site_dir, pages):
    counts = _exercise_pages(site_dir, pages)
    assert sum(counts.values()) >= MIN_EXERCISES, counts
    for page in counts:
        text = (site_dir / page).read_text(encoding="utf-8")
        solutions = len(re.findall(r'class="solution dropdown admonition"', text))
        assert solutions == counts[page], f"{page}: {counts[page]} exercises, {solutions} folded solutions"


def test_solutions_are_folded_on_load_and_open_on_click(site_dir, pages, site_url, browser_context):
    counts = _exercise_pages(site_dir, pages)
    assert counts, "no page has exercises"
    problems = {}
    for page in counts:
        tab = browser_context.new_page()
        try:
            tab.goto(site_url + page, wait_until="load")
            tab.wait_for_selector(".solution.dropdown button.toggle-button", state="attached", timeout=15_000)
            solutions = tab.locator(".solution.dropdown")
            issues = []
            for index in range(solutions.count()):
                solution = solutions.nth(index)
                body = solution.locator(".admonition-title ~ *").first
                if body.is_visible():
                    issues.append(f"solution {index + 1} is open on load")
                    continue
                solution.locator("button.toggle-button").first.click()
                body.wait_for(state="visible", timeout=5_000)
            problems[page] = issues
        finally:
            tab.close()
    assert not any(problems.values()), problems
