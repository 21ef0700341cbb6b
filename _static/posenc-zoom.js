// posenc-math: a tap on a figure enlarges it on the page (posenc_docs.figures).
// Each figure is a link to its wide rendering (what a tap opens without
// JavaScript); with this script the tap opens a dialog on the page instead,
// showing the rendering the browser chose for this screen (on a phone, the
// phone rendering, drawn at 1.5 times the resolution) at one image pixel per
// CSS pixel, and never less than 1.5 times as wide as on the page; a figure
// wider than the screen scrolls inside the dialog.  The dialog closes with
// its button, Escape (the browser's own) or a tap outside the figure, and
// gives the focus back to the figure's link.
(() => {
  "use strict";
  let dialog = null;
  const build = () => {
    dialog = document.createElement("dialog");
    dialog.className = "posenc-zoom";
    dialog.setAttribute("aria-label", "Enlarged figure");
    const close = document.createElement("button");
    close.type = "button";
    close.className = "posenc-zoom-close";
    close.textContent = "Close";
    close.addEventListener("click", () => dialog.close());
    const frame = document.createElement("div");
    frame.className = "posenc-zoom-frame";
    frame.tabIndex = 0;  // the enlarged figure scrolls: reachable from the keyboard
    frame.append(document.createElement("img"));
    dialog.append(close, frame);
    dialog.addEventListener("click", (event) => {
      if (event.target === dialog) dialog.close();  // a tap on the backdrop
    });
    document.body.append(dialog);
  };
  document.addEventListener("click", (event) => {
    const link = event.target.closest && event.target.closest("a.full-size-image");
    if (!link || event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey ||
        event.shiftKey || event.altKey) return;
    event.preventDefault();
    if (!dialog) build();
    const shown = link.querySelector("img");
    const image = dialog.querySelector("img");
    image.src = (shown && shown.currentSrc) || link.href;
    image.alt = shown ? shown.alt : "";
    const onPage = shown ? shown.getBoundingClientRect().width : 0;
    image.style.width = shown && shown.naturalWidth
      ? `${Math.round(Math.max(shown.naturalWidth, 1.5 * onPage))}px` : "";
    dialog.showModal();
    dialog.querySelector(".posenc-zoom-frame").scrollTo(0, 0);
  });
})();
