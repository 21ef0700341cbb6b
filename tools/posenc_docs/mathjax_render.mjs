// posenc-math: formulas typeset once, when the site is built (posenc_docs.math).
//
// node mathjax_render.mjs NODE_MODULES FONT_URL WIDE_EM NARROW_EM SCALE
//
// Reads one JSON request per line on stdin and answers one JSON line on
// stdout, in order:
//   {"tex": "...", "display": true}  ->  {"html": "...", "narrow": "..." | null, "errors": [...]}
//   {"stylesheet": true}             ->  {"css": "..."}
// "html" is MathJax 4's CHTML output (with hidden MathML for screen readers)
// for a text column WIDE_EM wide; a displayed formula that MathJax has to
// break into lines at NARROW_EM (a phone's column) also gets "narrow", the
// formula broken for that width.  "errors" lists TeX errors (MathJax then
// shows the error in place of the formula).  The stylesheet covers every
// character of the font (adaptiveCSS off, every font range loaded), so it is
// the same whichever formulas were typeset; its fonts are fetched from
// FONT_URL, relative to the stylesheet.
import {createInterface} from 'node:readline';
import path from 'node:path';

const [nodeModules, fontURL, wideEm, narrowEm, scale] = process.argv.slice(2);
const EM = 16; // px; MathJax lays out in em, this only converts the widths
const {default: MathJax} = await import(path.resolve(nodeModules, 'mathjax', 'node-main.mjs'));

await MathJax.init({
  loader: {load: ['input/tex', 'output/chtml', 'adaptors/liteDOM', 'a11y/assistive-mml']},
  tex: {packages: {'[+]': ['ams']}},
  chtml: {
    fontURL,
    adaptiveCSS: false,
    displayOverflow: 'linebreak',
    linebreaks: {inline: true, width: '100%'},
  },
  options: {enableAssistiveMml: true},
  startup: {typeset: false},
});
const adaptor = MathJax.startup.adaptor;
const font = MathJax.startup.document.outputJax.font;
// Every range of the font, so the stylesheet names all of it; one after the
// other (loadDynamicFiles loads them at once, and the order they arrive in
// would order the stylesheet's rules differently from build to build).
const ranges = [font.constructor.dynamicFiles];
for (const extension of font.constructor.dynamicExtensions.values()) ranges.push(extension.files);
for (const files of ranges) {
  for (const name of Object.keys(files)) await font.loadDynamicFile(files[name]);
}

// data-latex repeats the TeX of every sub-expression on every element;
// nothing on the page reads it (no MathJax menu), so it goes.
const trim = (html) => html.replace(/(<[^<>]*?) data-latex="[^"]*"/g, '$1');

// An in-line formula at most this wide (in em of the text) is never broken:
// it moves to the next line whole.  MathJax breaks in-line math before a
// relation or an operator, so a short formula could end a line at "p" and
// start the next with "+ k" or "= 0"; only a formula too long to move whole
// onto a phone's line (NARROW_EM) is worth breaking.
const UNBROKEN_EM = 0.75 * Number(narrowEm);
const outputJax = MathJax.startup.document.outputJax;

function inlineWidthEm(tex) {
  const doc = MathJax.startup.document;
  const item = new doc.options.MathItem(tex, doc.inputJax[0], false);
  item.setMetrics(EM, EM / 2, 1000 * EM, Number(scale));
  try {
    item.compile(doc);
    return outputJax.getBBox(item, doc).w * Number(scale);
  } catch {
    return Infinity; // a TeX error (its message is text, which liteDOM cannot measure): typeset as usual, which reports it
  }
}

function typeset(tex, display, widthEm) {
  const breakable = display || inlineWidthEm(tex) > UNBROKEN_EM;
  outputJax.options.linebreaks.inline = breakable;
  const node = MathJax.tex2chtml(tex, {display, em: EM, ex: EM / 2, containerWidth: widthEm * EM, scale: Number(scale)});
  outputJax.options.linebreaks.inline = true;
  const errors = adaptor.tags(node, 'mjx-merror').map((error) => adaptor.getAttribute(error, 'data-mjx-error') || adaptor.textContent(error));
  return {html: trim(adaptor.outerHTML(node)), errors, broken: adaptor.tags(node, 'mjx-linebox').length > 1};
}

// The widest box MathJax wrote, in the page's em: tables (matrices) and their cells carry their
// width in em, in the formula's own em (SCALE times the page's).  MathJax breaks lines inside a
// matrix's cells, but the matrix it gives back can still be wider than the width it was asked
// for (a blockdiag of long cosines came back 50.7em for 46em).
const widest = (html) =>
  Math.max(0, ...[...html.matchAll(/width: ?([0-9.]+)em/g)].map((match) => Number(match[1]))) * Number(scale);

// Typeset for widthEm, less half an em (lines MathJax broke for exactly 46em came out 740 px wide
// in a 736 px column); a displayed formula whose matrices come back wider is typeset again for
// narrower widths (9/10 each time, not below NARROW_EM) until they fit.
const ROOM_EM = 0.5;
function fitted(tex, display, widthEm) {
  let result = typeset(tex, display, display ? widthEm - ROOM_EM : widthEm);
  for (let target = widthEm * 0.9; display && widest(result.html) > widthEm && target >= Number(narrowEm); target *= 0.9) {
    result = typeset(tex, display, target);
  }
  return result;
}

const lines = createInterface({input: process.stdin, crlfDelay: Infinity});
for await (const line of lines) {
  if (!line.trim()) continue;
  const request = JSON.parse(line);
  let answer;
  if (request.stylesheet) {
    answer = {css: adaptor.textContent(MathJax.chtmlStylesheet())};
  } else {
    const wide = fitted(request.tex, request.display, Number(wideEm));
    let narrow = null;
    if (request.display) {
      const phone = typeset(request.tex, true, Number(narrowEm));
      if (phone.broken && phone.html !== wide.html) narrow = phone.html;
    }
    answer = {html: wide.html, narrow, errors: wide.errors};
  }
  process.stdout.write(JSON.stringify(answer) + '\n');
}
process.exit(0); // MathJax's loader keeps timers alive
