"""posenc_math.theorems.render: the MyST text of a theorem comes from the object."""

import dataclasses

from posenc_math import theorems
from posenc_math.theorems import render, verify_theorem


def test_theorem_myst_has_label_statement_steps_and_check():
    theorem = theorems.get("shift-block")
    text = render.theorem_myst(theorem, theorems.verify_one("shift-block"))
    assert text.startswith(":::{prf:theorem} One sine-cosine pair is shifted by a rotation\n:label: thm-shift-block")
    assert "{prf:proof}" in text
    assert "Steps 1–3:" in text and "Step 4, checked by computation" in text
    assert "(multiply the matrix and the column)" in text
    assert "3 symbolic steps: each residual reduced to exactly 0" in text
    assert "1 fact checked by computation" in text
    assert "negative control rejected" in text
    assert "against `translation_matrix`" in text


def test_failed_theorem_renders_as_failed():
    theorem = theorems.get("shift-block")
    broken = dataclasses.replace(theorem, negative_control=theorem.steps[0])
    text = render.theorem_myst(broken, verify_theorem(broken))
    assert "FAILED when this page was built" in text
    assert "negative control accepted" in text


def test_page_text_is_stable_between_runs():
    """Timings differ from run to run; the page must not (byte-identical builds)."""
    first = render.theorem_myst(theorems.get("dot-relative"), verify_theorem(theorems.get("dot-relative")))
    second = render.theorem_myst(theorems.get("dot-relative"), verify_theorem(theorems.get("dot-relative")))
    assert first == second


def test_index_lists_every_theorem_with_a_link():
    ids = theorems.ids()
    text = render.index_myst(theorems.all_theorems(), [theorems.verify_one(i) for i in ids])
    for theorem_id in ids:
        assert f"{{prf:ref}}`{theorem_id} <thm-{theorem_id}>`" in text
    assert "|" not in "".join(t.title for t in theorems.all_theorems())  # titles sit in a table


def test_statements_with_line_breaks_are_gathered():
    assert render._statement(r"a \\ b") == r"\begin{gathered}a \\ b\end{gathered}"
    assert render._statement("a = b") == "a = b"


def test_steps_that_sympy_already_evaluated_say_so():
    text = render.theorem_myst(theorems.get("dot-symmetric"), theorems.verify_one("dot-symmetric"))
    assert "SymPy's evaluation while building both sides already agrees" in text
