"""posenc_math.theorems.render: the theorem box is written from the objects."""

import dataclasses

from posenc_math import theorems
from posenc_math.theorems import Conclusion, render, verify_theorem


def test_theorem_box_has_statement_scope_proof_and_fold():
    theorem = theorems.get("shift-block")
    text = render.theorem_myst(theorem, theorems.verify_one("shift-block"))
    assert text.startswith("::::{prf:theorem} One sine-cosine pair is shifted by a rotation\n:label: thm-shift-block")
    assert "**verified** when this page was built" in text and "scope **general**" in text
    assert "{doc}`How this is checked <checking>`" in text
    assert "::::{posenc-proof} shift-block" in text
    assert ":::{posenc-machine-proof} 3 machine-checked steps" in text
    assert "for every positive real $\\omega$ and real $t$, $k$" in text


def test_statement_is_rendered_from_the_conclusions():
    theorem = theorems.get("dot-relative")
    text = render.theorem_myst(theorem, theorems.verify_one("dot-relative"))
    for conclusion in theorem.conclusions:
        render._NOTATION.update(theorem.notation)
        try:
            assert render.statement_latex([conclusion]) in text
        finally:
            render._NOTATION.clear()
    assert "where $\\omega_{i} = b^{- \\frac{2 i}{d}}$" in text


def test_checker_vocabulary_stays_in_the_fold():
    """Readers' text (statement and human proof) does not speak of controls, residuals or witnesses."""
    for theorem_id in ("shift-full", "norm-constant", "binary-bit"):
        text = render.theorem_myst(theorems.get(theorem_id), theorems.verify_one(theorem_id))
        reader, fold = text.split(":::{posenc-machine-proof}")
        for word in ("negative control", "residual", "witness"):
            assert word not in reader.lower(), (theorem_id, word)
        assert "Negative control (rejected)" in fold and "Numeric witness" in fold


def test_instances_show_their_scope_note():
    text = render.theorem_myst(theorems.get("binary-bit"), theorems.verify_one("binary-bit"))
    assert "scope **instances**: both sides have period" in text


def test_failed_theorem_renders_as_failed():
    theorem = theorems.get("shift-block")
    broken = dataclasses.replace(theorem, negative_control=theorem.conclusions[0])
    text = render.theorem_myst(broken, verify_theorem(broken))
    assert "**FAILED** when this page was built" in text
    assert "negative control accepted" in text or "negative control not refuted" in text


def test_page_text_is_stable_between_runs():
    """Timings differ from run to run; the page must not (byte-identical builds)."""
    first = render.theorem_myst(theorems.get("dot-relative"), verify_theorem(theorems.get("dot-relative")))
    second = render.theorem_myst(theorems.get("dot-relative"), verify_theorem(theorems.get("dot-relative")))
    assert first == second


def test_chains_put_each_justification_on_its_own_line():
    text = render.theorem_myst(theorems.get("shift-block"), theorems.verify_one("shift-block"))
    assert "&\\quad\\text{(angle addition, both rows)}" in text
    assert "&\\quad\\text{(multiply the matrix and the}" in text  # long ones wrap under the step
    assert "&&" not in text  # no justification squeezed beside a step


def test_wide_relations_break_before_the_relation():
    rows = render._relation_rows("a" * 50, "=", "b" * 50)
    assert rows == ["&" + "a" * 50, "&= " + "b" * 50]


def test_long_sums_break_at_their_terms():
    import sympy

    x = sympy.symbols("x0:12", real=True)
    rows = render._side_rows(sympy.Add(*(sympy.sin(v) for v in x)), "&= ")
    assert len(rows) > 1 and rows[0].startswith("&= ") and rows[1].startswith("&\\quad + ")
    assert all(render.visible_length(row) <= render._WIDE + 12 for row in rows)


def test_index_lists_every_theorem_with_scope_and_link():
    ids = theorems.ids()
    text = render.index_myst(theorems.all_theorems(), [theorems.verify_one(i) for i in ids])
    for theorem_id in ids:
        assert f"{{prf:ref}}`{theorem_id} <thm-{theorem_id}>`" in text
    assert "| theorem | status | scope | steps | uses |" in text
    assert "|" not in "".join(t.title for t in theorems.all_theorems())  # titles sit in a table


def test_dependency_graph_is_an_svg_of_the_registry():
    graph = theorems.dependencies()
    svg = render.dependency_graph_svg(graph, {i: theorems.page_of(i) for i in graph})
    assert svg.startswith("<svg") and "<script" not in svg
    for theorem_id in graph:
        assert theorem_id in svg
    assert 'href="translation.html#thm-shift-full"' in svg


def test_dependency_graph_refuses_a_cycle():
    import pytest

    with pytest.raises(ValueError, match="cycle"):
        render._layers({"a": ["b"], "b": ["a"]})


def test_domain_text_names_matrices_and_integers():
    import sympy

    m = sympy.Symbol("m", integer=True, positive=True)
    a = sympy.MatrixSymbol("A", m, m)
    n = sympy.Symbol("n", integer=True, nonzero=True)
    text = render.domain_text([Conclusion(a * n, a * n, over=(a, n))])
    assert "$m \\times m$ matrix" in text and "nonzero integer $n$" in text
