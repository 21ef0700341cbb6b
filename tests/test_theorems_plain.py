"""posenc_math.theorems.plain: titles and scope notes with inline LaTeX, printed as plain text."""

import pytest

from posenc_math import cli, theorems
from posenc_math.theorems.plain import plain_text


def test_every_title_and_scope_note_prints_without_tex():
    for theorem in theorems.all_theorems():
        for text in (theorem.title, theorem.scope_note):
            assert text.count("$") % 2 == 0, (theorem.id, text)
            plain = plain_text(text)
            assert "$" not in plain and "\\" not in plain, (theorem.id, plain)
            # ASCII math belongs between dollars, where the page typesets it
            outside = text.split("$")[::2]
            assert not any(mark in part for part in outside for mark in ("^", "<=", ">=", " pi ", "sum_")), (
                theorem.id,
                text,
            )


def test_formulas_become_unicode_and_parentheses():
    assert plain_text(r"period $2^{j+1}$, $j \le 16$") == "period 2ʲ⁺¹, j ≤ 16"
    assert plain_text(r"from $2\pi$ to $2\pi b^{(d-2)/d}$") == "from 2π to 2π b^((d-2)/d)"


def test_unpaired_dollar_and_wrong_type_are_refused():
    with pytest.raises(ValueError, match=r"unpaired \$"):
        plain_text("costs $5")
    with pytest.raises(TypeError, match="text must be a str"):
        plain_text(None)  # type: ignore[arg-type]


def test_the_command_line_prints_titles_as_plain_text(capsys):
    assert cli.main(["list"]) == 0
    rows = {line.split("\t")[0]: line.split("\t")[2] for line in capsys.readouterr().out.splitlines()}
    assert rows["binary-bit"] == "Bit j of p is the sign of a sinusoid of frequency π / 2ʲ"
    assert rows["alibi-geometric"].endswith("from 2^(-8/n) with ratio 2^(-8/n)")
    assert theorems.get("binary-bit").title == r"Bit $j$ of $p$ is the sign of a sinusoid of frequency $\pi / 2^j$"
