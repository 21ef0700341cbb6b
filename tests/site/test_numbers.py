"""The number lint on the built site (``numberlint``): no number a reader sees is typed by hand
unless ``docs/numbers.toml`` says why."""

from __future__ import annotations

from pathlib import Path

import numberlint
import pytest

ARTICLE = (
    '<html><body><nav>1. Why positions</nav><article role="main">{}</article><footer>© 2026</footer></body></html>'
)


def groups(*phrases: str, pages=("*",)) -> list[numberlint.Allowed]:
    return [numberlint.Allowed("test", tuple(pages), tuple(phrases))]


def strays(body: str, allowed=(), page="p.html") -> list[str]:
    found, _ = numberlint.lint_page(page, ARTICLE.format(body), list(allowed))
    return [stray.number for stray in found]


def test_every_number_on_the_site_is_computed_or_allowed(site_dir, pages):
    found, unused = numberlint.lint_site(site_dir, pages, numberlint.load_allowlist())
    message = [f"{stray.page} ({stray.where}): {stray.number!r} in {stray.context!r}" for stray in found]
    message += [f"docs/numbers.toml: {phrase!r} ({group.reason}) matches nothing" for group, phrase in unused]
    assert not message, (
        f"{len(found)} numbers typed by hand (glue them, or add them to docs/numbers.toml with a reason; "
        "`python tests/site/numberlint.py` prints entries), and unused allowlist phrases:\n" + "\n".join(message)
    )


def test_a_stray_number_fails():
    assert strays("<p>The speed-up is 15.2x over the seed formula.</p>") == ["15.2"]
    figure = '<figure><img alt="A grid of 16 rows" src="a.png"/><figcaption>Base 10000.</figcaption></figure>'
    assert strays(figure) == ["10000", "16"]
    assert strays("<table><tr><td>1e-12</td><td>−3</td></tr></table>") == ["1e-12", "−3"]


def test_computed_and_generated_numbers_pass():
    body = (
        '<p>cos(k) is about <span class="pasted-text">-0.9900</span>, '
        '<span class="math notranslate nohighlight"><mjx-container>2</mjx-container></span>, '
        '<code class="literal">rope(x, 3)</code>, <span class="bibtex-citation">[Vaswani, 2017]</span>.</p>'
        '<div class="cell_output"><pre>12.5</pre></div>'
        '<figcaption><span class="caption-number">Fig. 13 </span>A caption.</figcaption>'
        '<div class="math"><span class="eqno">(4)</span></div>'
        '<p>As <a class="reference internal" href="#thm-x">Theorem 22</a> and <a class="reference internal" '
        'href="#fig-y"><span>Fig. 3</span></a> show.</p>'
    )
    assert strays(body) == []
    # a link's own words are prose: only Sphinx's numbering is exempt
    assert strays('<p><a class="reference internal" href="#a">the 16 heads</a></p>') == ["16"]


def test_digits_inside_names_are_not_numbers():
    assert strays("<p>float16, bfloat16, x86_64, Qwen2-VL, T5 and W_q</p>") == []
    assert strays("<p>GPT-2 and Llama 3</p>") == ["2", "3"]


def test_an_allowed_phrase_covers_its_number_only():
    allowed = groups("Llama 3")
    assert strays("<p>Llama 3 uses 8 heads.</p>", allowed) == ["8"]
    assert strays("<p>Llama 3</p>", groups("Llama 3", pages=["other"])) == ["3"]
    assert strays("<p>Llama 3</p>", groups("Llama 3", pages=["p"])) == []


def test_an_unused_phrase_is_reported(tmp_path):
    (tmp_path / "p.html").write_text(ARTICLE.format("<p>Llama 3</p>"))
    found, unused = numberlint.lint_site(tmp_path, ["p.html"], groups("Llama 3", "GPT-2"))
    assert not found and [phrase for _, phrase in unused] == ["GPT-2"]


def test_the_allowlist_needs_reasons_and_numbers(tmp_path):
    path = tmp_path / "numbers.toml"
    path.write_text('[[allow]]\nreason = "names"\npages = ["*"]\nphrases = ["Llama"]\n')
    with pytest.raises(ValueError, match="contains no number"):
        numberlint.load_allowlist(path)
    path.write_text('[[allow]]\npages = ["*"]\nphrases = ["Llama 3"]\n')
    with pytest.raises(ValueError, match="needs a reason"):
        numberlint.load_allowlist(path)


def test_the_site_allowlist_loads():
    assert Path(numberlint.ALLOWLIST).is_file()
    assert all(group.reason for group in numberlint.load_allowlist())


def test_suggestions_are_valid_allowlist_entries(tmp_path):
    found, _ = numberlint.lint_page("p.html", ARTICLE.format('<p>It has "16" rows.</p>'), [])
    path = tmp_path / "numbers.toml"
    path.write_text(numberlint.suggestions(found))
    loaded = numberlint.load_allowlist(path)
    assert loaded[0].pages == ("p",) and strays('<p>It has "16" rows.</p>', loaded) == []


def test_update_keeps_reasons_and_regrows_what_is_to_be_glued(tmp_path):
    site = tmp_path / "html"
    site.mkdir()
    (site / "p.html").write_text(ARTICLE.format("<p>Llama 3 has 32 layers; GPT-2 has 12.</p>"))
    path = tmp_path / "numbers.toml"
    path.write_text(
        "# the header\n\n"
        '[[allow]]\nreason = "model names"\npages = ["*"]\nphrases = ["Llama 3", "Gemma 2"]\n\n'
        '[[allow]]\nreason = "to be glued"\npages = ["p"]\nphrases = ["an old 7"]\n'
    )
    dropped, glued = numberlint.update(site, ["p.html"], path)
    groups = numberlint.load_allowlist(path)
    assert path.read_text().startswith("# the header\n")
    assert (dropped, glued) == (1, 3)  # "Gemma 2" matched nothing; 32, 2 and 12 are to be glued
    assert groups[0] == numberlint.Allowed("model names", ("*",), ("Llama 3",))
    assert groups[1].reason == "to be glued" and len(groups[1].phrases) == 3
    found, unused = numberlint.lint_site(site, ["p.html"], groups)
    assert not found and not unused
