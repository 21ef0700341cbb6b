"""posenc_math.theorems.render: the theorem box is written from the objects."""

import dataclasses
import re

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
        assert render.statement_latex([conclusion]) in text
    # the statement names the definitions; each is printed from the object the kernel unfolds
    assert "\\langle \\mathrm{PE}(t), \\mathrm{PE}(t + k) \\rangle" in text  # as written, t + k
    assert "\\omega_{i} &= b^{- \\frac{2 i}{d}}" in text


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
    assert any(words in text for words in ("negative control accepted", "not refuted", "not a variant"))


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


def test_dependency_graph_draws_no_crossing_arrows():
    """The theorem index's graph (the theorems that use or are used) is drawn with no two arrows
    crossing: the search from the registry's order alone left shift-full's arrow to
    blockdiag-blockwise across two arrows to angle-addition (issue 24).  Arrows join adjacent
    layers (longer ones through waypoints) and each layer is drawn in its order, so two arrows
    cross exactly when their ends are in opposite orders."""
    graph = theorems.dependencies()
    linked = {node for node, used in graph.items() if used} | {used for uses in graph.values() for used in uses}
    connected = {node: [used for used in uses if used in linked] for node, uses in graph.items() if node in linked}
    chained, depth = render._with_waypoints(connected)
    assert any(name.startswith("\0") for name in chained), "no arrow skips a layer: the waypoints are untested"
    layers = render._ordered_layers(chained, depth)
    assert render._crossings(chained, depth, layers) == 0, layers
    # the count sees a crossing: two arrows between the same layers, their ends in opposite orders
    assert (
        render._crossings(
            {"a": [], "b": [], "c": ["b"], "d": ["a"]}, {"a": 0, "b": 0, "c": 1, "d": 1}, {0: ["a", "b"], 1: ["c", "d"]}
        )
        == 1
    )


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


# --------------------------------------------------------------------------
# Every theorem box reads as written mathematics: formulas are set as math, never as words in \text,
# and SymPy's unevaluated forms do not leak into the page.
_MATH = re.compile(r"\$\$(.*?)\$\$|\$([^$\n]+)\$", re.DOTALL)
_TEXT = re.compile(r"\\text\{((?:[^{}]|\{[^{}]*\})*)\}")
#: Words in \text that are formulas: relations, powers, indices, Greek or function names, lone variables.
_FORMULA_IN_TEXT = re.compile(
    r"[=<>|^]|\\\^|\\_|\b(pi|omega|lambda|beta|delta|theta|phi|sin|cos|log|ln|exp|sqrt)\b|(?<![\w'-])[b-zA-HJ-Z](?![\w'-])"
)
_GREEK = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "epsilon",
    "theta",
    "lambda",
    "mu",
    "pi",
    "rho",
    "sigma",
    "tau",
    "phi",
    "varphi",
    "psi",
    "omega",
]
#: Shapes no textbook writes: a doubled sign, a product by 1, and a number written right after a factor.
_UNEVALUATED = re.compile(
    r"[-+] -|(?<![\w.])1 \\cdot|\\left\(-\d+\\right\) \d|(\\[a-zA-Z]+|\b[a-zA-Z]|\}|\\right\)) \d"
)


def _box_problems(text: str) -> list[str]:
    problems = []
    for match in _MATH.finditer(text):
        math = match.group(1) or match.group(2)
        for words in _TEXT.findall(math):
            if _FORMULA_IN_TEXT.search(re.sub(r"\([a-z]\)", "", words)):  # "(b)" labels a term, not a variable
                problems.append(f"formula set as words: \\text{{{words}}}")
        bare = re.sub(r"\\sum_\{[^{}]*\}\^\{(?:[^{}]|\{[^{}]*\})*\}", r"\\sum", _TEXT.sub("", math))
        for shape in _UNEVALUATED.finditer(bare):
            before = shape.group(1)
            if before is None or before in ("}", "\\right)") or before.lstrip("\\") in _GREEK or len(before) == 1:
                problems.append(f"{shape.group()!r} in {bare[max(0, shape.start() - 30) : shape.end() + 10]!r}")
    return problems


def test_no_theorem_box_sets_formulas_as_words_or_shows_unevaluated_forms():
    problems = {}
    for theorem in theorems.all_theorems():
        text = render.theorem_myst(theorem, theorems.verify_one(theorem.id))
        if found := _box_problems(text):
            problems[theorem.id] = found
    assert not problems, problems


def test_the_box_checks_can_fail():
    """Each class the test above looks for is found in a box that has it."""
    assert _box_problems(r"$$a &= b \\ &\quad\text{(e^(-ln x) = 1)}$$")
    assert _box_problems(r"$$a &= b \\ &\quad\text{(bit j is unchanged)}$$")
    assert not _box_problems(r"$$a &= b \\ &\quad\text{(terms (b) and (d))}$$")
    assert _box_problems(r"$$x^{- \frac{\left(-2\right) 0}{d}}$$")
    assert _box_problems(r"$$\cos{\left(\omega 0 \right)}$$")
    assert _box_problems(r"$$a - - b$$")
    assert _box_problems(r"$$1 \cdot x$$")
    assert not _box_problems(
        r"$$\left\lfloor t \right\rfloor \bmod 2 &= 1 \\ &\quad\text{(angle addition, both rows)}$$"
    )


def test_justifications_set_their_formulas_as_math():
    rows = render._why_rows(r"$u$ pairs faster turn $e^{2 \lambda u / d} > 1$ times more")
    assert rows == [
        r"&\quad\text{(}{u}\text{ pairs faster turn}",
        r"&\quad{e^{2 \lambda u / d} > 1}\text{ times more)}",
    ]


def test_justifications_break_only_at_spaces():
    """A parenthesis stays with the formula it touches: alibi's "(" and ")" each had a line of their own."""
    rows = render._why_rows(r"$2^{-8/n}\, 2^{-8(h-1)/n} = 2^{-8h/n}$")
    assert rows == [r"&\quad\text{(}{2^{-8/n}\, 2^{-8(h-1)/n} = 2^{-8h/n}}\text{)}"]
    rows = render._why_rows(r"Euler: $\sin z = (e^{iz} - e^{-iz})/2i$")
    assert rows == [r"&\quad\text{(Euler:}", r"&\quad{\sin z = (e^{iz} - e^{-iz})/2i}\text{)}"]


def test_wide_products_break_between_factors_with_the_number_in_front():
    """Angle addition's step (a - b) * 1/(2i) was broken inside its parentheses, and its factor -i/2,
    left at the end, started a line of its own and read as a subtraction."""
    import sympy

    x, y = sympy.symbols("x y", real=True)
    plus = (sympy.cos(x) + sympy.I * sympy.sin(x)) * (sympy.cos(y) + sympy.I * sympy.sin(y))
    minus = (sympy.cos(x) - sympy.I * sympy.sin(x)) * (sympy.cos(y) - sympy.I * sympy.sin(y))
    rows = render._side_rows(sympy.Mul(plus - minus, 1 / (2 * sympy.I), evaluate=False), "&= ")
    assert rows[0].startswith(r"&= - \frac{i}{2} \bigl(") and rows[-1].endswith(r"\bigr)")
    assert not any(row.startswith(r"&\quad - \frac") for row in rows)
    assert [row.startswith(r"&\quad \quad \quad \cdot") for row in rows] == [False, True, False, True]
    assert all(render.visible_length(row) <= render._WIDE + 4 for row in rows), rows


def test_unevaluated_products_join_numbers_with_a_dot():
    import sympy

    d, w, x = sympy.symbols("d omega x")
    assert render.latex(sympy.Mul(-2, 0, 1 / d, evaluate=False)) == r"- \frac{2 \cdot 0}{d}"
    assert render.latex(sympy.Mul(w, 0, evaluate=False)) == r"\omega \cdot 0"
    assert render.latex(sympy.Mul(1, x, evaluate=False)) == "x"
    assert render.latex(-3 * x) == "- 3 x"


def test_wide_matrices_break_their_long_entries_inside_the_cell():
    import sympy

    k, m = sympy.symbols("k m", real=True)
    entry = sympy.cos(k) * sympy.cos(m) - sympy.sin(k) * sympy.sin(m)
    tex = render.latex(sympy.Matrix([[entry, entry], [entry, entry]]))
    assert tex.count(r"\begin{aligned}") == 4 and r"\\[1ex]" in tex
    assert render.latex(sympy.Matrix([[k, m], [m, k]])) == r"\begin{pmatrix}k & m\\m & k\end{pmatrix}"


def test_a_short_step_and_its_justification_start_at_the_left():
    import sympy

    from posenc_math.theorems import Equal

    x = sympy.Symbol("x", real=True)
    rows = render._step_rows(Equal(sympy.sin(2 * x), 2 * sympy.sin(x) * sympy.cos(x), "double angle"))
    assert rows[0].startswith("&") and rows[0].count("&") == 1 and "&=" not in rows[0]
    assert rows[1] == r"&\quad\text{(double angle)}"


def test_wide_sums_over_an_index_break_inside_their_summand():
    """rope-relative's sum over the pairs was one row, and a phone broke it inside its parentheses."""
    import sympy

    j, n = sympy.symbols("j n", integer=True)
    k, q = sympy.IndexedBase("k"), sympy.IndexedBase("q")
    summand = (k[j] * sympy.sin(n) + k[j + 1] * sympy.cos(n)) * (q[j] * sympy.sin(n) + q[j + 1] * sympy.cos(n))
    rows = render._side_rows(sympy.Sum(summand + q[j] * k[j] * sympy.cos(2 * n), (j, 0, n - 1)), "&= ")
    assert rows[0].startswith(r"&= \sum_{j=0}^{n - 1} \bigl(") and rows[-1].endswith(r"\bigr)")
    assert len(rows) > 2 and all(render.visible_length(row) <= render._WIDE + 6 for row in rows), rows


def test_each_conclusion_has_its_own_condition_under_it():
    """Several conclusions with conditions of their own: each condition under its display, none run together
    in the sentence that names the domain (T5's buckets read as one run of fragments)."""
    theorem = theorems.get("deberta-relative")
    text = render.theorem_myst(theorem, theorems.verify_one(theorem.id))
    statement = text.split("**verified**")[0]
    places = []
    for conclusion in theorem.conclusions:
        display = "$$\n" + render.statement_latex([conclusion]) + "\n$$"
        assert display in statement
        at = statement.index(display) + len(display)
        if conclusion.where:
            assert statement[at:].lstrip("\n").startswith("Here, " + conclusion.where), conclusion.where
        places.append(at)
    assert places == sorted(places)
    domain_sentence = statement.rstrip().rsplit("\n\n", 1)[-1]
    assert not any(c.where and c.where in domain_sentence for c in theorem.conclusions)


def test_transpose_and_identity_are_written_as_the_prose_writes_them():
    """T(k)^T with an italic T read as the matrix T itself, and a double-struck identity beside the prose's I."""
    statements = [render.statement_latex([c]) for c in theorems.get("shift-orthogonal").conclusions]
    assert "T(k)^{\\top} T(k) &= I" in statements[0]
    assert "^{T}" not in "".join(statements) and "mathbb" not in "".join(statements)


# -- the box states the domain that was checked (adversarial round 4) ---------------------------------------------
def _box_of(theorem):
    return render.theorem_myst(theorem, verify_theorem(theorem))


def _theorem(conclusion, step_lhs, step_rhs, control, **fields):
    from posenc_math.theorems import Equal, Theorem, Witness

    return Theorem(
        "demo-domain",
        "demo",
        (conclusion,),
        (Equal(step_lhs, step_rhs, "as declared"),),
        Witness("-", lambda: 0.0, 0.0),
        control,
        **fields,
    )


def test_the_theorems_own_hypotheses_are_printed_with_each_conclusion():
    import sympy

    x = sympy.Symbol("x", real=True)
    theorem = _theorem(
        Conclusion(sympy.Abs(x), x, (x,)),
        sympy.Abs(x),
        x,
        Conclusion(sympy.Abs(x), -x, (x,)),
        assuming=(sympy.StrictGreaterThan(x, 0),),
    )
    box = _box_of(theorem)
    assert verify_theorem(theorem).ok
    assert r"\text{if } x > 0" in box.split("for every")[0]


def test_the_domain_text_is_the_domain_the_kernel_reads():
    import sympy

    cases = {
        "negative real": {"negative": True},
        "nonpositive real": {"nonpositive": True},
        "nonzero real": {"real": True, "nonzero": True},
        "negative integer": {"integer": True, "negative": True},
        "nonpositive integer": {"integer": True, "nonpositive": True},
        "rational": {"rational": True},
        "odd integer": {"odd": True},
        "even positive integer": {"even": True, "positive": True},
        "nonzero complex": {"nonzero": True},
        "positive real": {"positive": True},
        "real": {"real": True},
    }
    for words, declared in cases.items():
        y = sympy.Symbol("y", **declared)
        assert render.domain_text([Conclusion(y, y, over=(y,))]) == f"for every {words} $y$", declared


def test_a_verified_statement_about_a_negative_symbol_says_negative():
    import sympy

    x = sympy.Symbol("x", negative=True)
    root = sympy.Pow(x**2, sympy.S.Half, evaluate=False)
    theorem = _theorem(Conclusion(root, -x, (x,)), root, -x, Conclusion(root, x, (x,)))
    assert verify_theorem(theorem).ok
    assert "for every negative real $x$." in _box_of(theorem)
