// posenc-math: a table wider than its column says so (posenc_docs.tables).
// Marks each table wrapper `data-scrolls` while its table is wider than it;
// _static/posenc.css then shows "Scroll sideways ..." above the table.
(() => {
  "use strict";
  const mark = (wrapper) => {
    wrapper.toggleAttribute("data-scrolls", wrapper.scrollWidth > wrapper.clientWidth + 1);
  };
  const start = () => {
    const wrappers = document.querySelectorAll("article .table-wrapper");
    const observer = new ResizeObserver((entries) => entries.forEach((entry) => mark(entry.target)));
    wrappers.forEach((wrapper) => {
      mark(wrapper);
      observer.observe(wrapper);
    });
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
