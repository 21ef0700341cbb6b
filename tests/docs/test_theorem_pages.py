"""posenc_docs.theorem_pages: a theorem that does not verify stops the build."""

import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

TOOLS = Path(__file__).resolve().parents[2] / "tools"
CONF = f"""
import sys
sys.path.insert(0, {str(TOOLS)!r})
extensions = ["myst_parser", "sphinx_proof", "posenc_docs.theorem_pages"]
myst_enable_extensions = ["dollarmath", "colon_fence"]
"""


def build(tmp_path, page: str, *, register_fake: bool = False):
    source = tmp_path / "src"
    source.mkdir()
    conf = CONF
    if register_fake:
        # A theorem whose step is wrong, registered for the page that shows it.
        conf += textwrap.dedent(
            """
            import sympy
            from posenc_math.theorems import Conclusion, Equal, Theorem, Witness, register, ids
            ids()
            x = sympy.Symbol("x", real=True)
            goal = Conclusion(sympy.sin(2 * x), sympy.sin(x), over=(x,))
            register("fake-wrong", page="index")(lambda: Theorem(
                "fake-wrong", "fake", (goal,), (Equal(goal.lhs, goal.rhs, "wrong"),),
                Witness("none", lambda: 0.0, 0.0), Conclusion(x, x + 1, over=(x,))))
            """
        )
    (source / "conf.py").write_text(conf)
    (source / "index.md").write_text(page)
    return subprocess.run(
        [sys.executable, "-m", "sphinx", "-W", "-q", "-b", "html", str(source), str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_failing_theorem_fails_the_build(tmp_path):
    run = build(tmp_path, "# Page\n\n```{posenc-theorem} fake-wrong\n```\n", register_fake=True)
    assert run.returncode != 0
    assert "theorem 'fake-wrong' did not verify: step 1 (wrong)" in run.stderr


def test_unknown_theorem_id_fails_the_build(tmp_path):
    run = build(tmp_path, "# Page\n\n```{posenc-theorem} no-such-id\n```\n")
    assert run.returncode != 0
    assert "unknown theorem id 'no-such-id'" in run.stderr


@pytest.mark.parametrize("theorem_id", ["angle-addition"])
def test_theorem_renders_with_its_anchor(tmp_path, theorem_id):
    run = build(tmp_path, f"# Page\n\n```{{posenc-theorem}} {theorem_id}\n```\n")
    # Other registered theorems are not on this one-page site: those warnings
    # are expected; the theorem itself must render with its stable anchor.
    html = (tmp_path / "out" / "index.html").read_text()
    assert f'id="thm-{theorem_id}"' in html
    assert "verified</strong> when this page was built" in html and "general" in html
    assert f'id="proof-{theorem_id}"' in html
    assert html.count('<details class="machine-proof">') == 1 and "<details open" not in html
    assert 'id="proof"' not in html and 'id="proof-content"' not in html
    assert "is not shown on its page" in run.stderr


def test_two_theorems_on_a_page_have_unique_ids(tmp_path):
    import re

    page = "# Page\n\n```{posenc-theorem} shift-block\n```\n\n```{posenc-theorem} shift-group\n```\n"
    build(tmp_path, page)
    html = (tmp_path / "out" / "index.html").read_text()
    ids = re.findall(r'id="([^"]+)"', html)
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


def test_index_draws_the_dependency_graph(tmp_path):
    build(tmp_path, "# Index\n\n```{posenc-theorem-index}\n```\n")
    html = (tmp_path / "out" / "index.html").read_text()
    assert '<figure class="posenc-dependency-graph"' in html and "<svg" in html
    assert "<script" not in html.split('<figure class="posenc-dependency-graph"')[1].split("</figure>")[0]
    assert "general" in html and "translation.html#thm-shift-full" in html


def test_theorem_pages_are_reread_when_the_library_changes(tmp_path):
    """Proofs are re-checked after a library change, not on a no-op rebuild."""
    from types import SimpleNamespace

    from posenc_docs import theorem_pages

    (tmp_path / "proofs.md").write_text("```{posenc-theorem} shift-block\n```\n")
    (tmp_path / "prose.md").write_text("# No theorem here\n")
    env = SimpleNamespace(found_docs={"proofs", "prose"}, doc2path=lambda name: tmp_path / f"{name}.md")
    assert theorem_pages._reread_proofs(None, env, set(), set(), set()) == ["proofs"]  # first build
    assert theorem_pages._reread_proofs(None, env, set(), set(), set()) == []  # nothing changed
    env.posenc_library_digest = "digest of an older library"
    assert theorem_pages._reread_proofs(None, env, set(), set(), set()) == ["proofs"]


def test_theorems_are_checked_before_the_pages_are_read(monkeypatch):
    """Before reading, the theorems of the pages about to be read are checked on every core, once,
    and remembered for the directives (posenc_math.theorems.verify with remember=True)."""
    from posenc_docs import theorem_pages

    from posenc_math import theorems

    calls = []
    monkeypatch.setattr(theorems, "verify", lambda ids, **options: calls.append((sorted(ids), options)))
    theorem_pages._check_before_reading(None, None, ["translation", "index"])
    wanted = sorted(theorem_id for theorem_id in theorems.ids() if theorems.page_of(theorem_id) == "translation")
    assert len(wanted) >= 3
    assert calls == [(wanted, {"processes": calls[0][1]["processes"], "remember": True})]
    assert calls[0][1]["processes"] >= 1
    calls.clear()
    theorem_pages._check_before_reading(None, None, [])  # a no-op rebuild checks nothing
    theorem_pages._check_before_reading(None, None, ["index"])  # nor does a page without theorems
    assert calls == []


def test_the_digest_covers_proof_code_not_figures_or_the_command_line(tmp_path, monkeypatch):
    """Editing a figure or the command line re-checks no theorem page; editing the theorems,
    their witnesses or the encodings does (a copy of the package, edited)."""
    import shutil
    from pathlib import Path

    from posenc_docs import theorem_pages

    import posenc_math

    copy = tmp_path / "posenc_math"
    shutil.copytree(Path(posenc_math.__file__).resolve().parent, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(posenc_math, "__file__", str(copy / "__init__.py"))
    before = theorem_pages.library_digest()
    for not_proof in ("plotting/__init__.py", "cli.py"):
        (copy / not_proof).write_text((copy / not_proof).read_text(encoding="utf-8") + "\n# edited\n")
        assert theorem_pages.library_digest() == before, not_proof
    for proof in ("theorems/core.py", "witnesses/translation.py", "encodings/translation.py"):
        (copy / proof).write_text((copy / proof).read_text(encoding="utf-8") + "\n# edited\n")
        after = theorem_pages.library_digest()
        assert after != before, proof
        before = after
