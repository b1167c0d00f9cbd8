// Injected into a copy of report.html by report_screenshot_test.sh: measures whether the page fits
// its window. Records on <body data-fit="SCROLL EDGE WINDOW"> the page's scroll width, the right
// edge of the widest element or text run that no scrolling box clips, and the window's width;
// and on data-widest what that widest thing is (its tag, class and first characters), so a
// failure names the line that overflows. Text runs are measured on their own: a long path in a
// paragraph overflows its box while the box itself keeps the window's width.
(() => {
  const clippedByScroller = (node) => {
    for (let p = node.parentElement; p && p !== document.body; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if (o === "auto" || o === "scroll" || o === "hidden") return true;
    }
    return false;
  };
  const describe = (e) =>
    e.tagName.toLowerCase() + (e.className ? "." + e.className : "") + ": " +
    (e.textContent || "").trim().slice(0, 80);
  let edge = 0, widest = "";
  const consider = (right, element) => {
    if (right > edge) { edge = right; widest = describe(element); }
  };
  for (const e of document.body.querySelectorAll("*")) {
    if (!clippedByScroller(e)) consider(e.getBoundingClientRect().right, e);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let t = walker.nextNode(); t; t = walker.nextNode()) {
    if (!t.parentElement || clippedByScroller(t)) continue;
    const range = document.createRange();
    range.selectNodeContents(t);
    consider(range.getBoundingClientRect().right, t.parentElement);
  }
  const d = document.documentElement;
  document.body.setAttribute("data-fit",
                             d.scrollWidth + " " + Math.ceil(edge) + " " + window.innerWidth);
  document.body.setAttribute("data-widest", widest);
})();
