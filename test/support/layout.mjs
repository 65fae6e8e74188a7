// Where controls sit on a page, for the browser suites: a new control must not cover another.

/** Each visible control whose box meets the element's at `selector` (itself and its ancestors aside), as HTML. */
export const overlapping = (page, selector) =>
  page.evaluate((selector) => {
    const element = document.querySelector(selector);
    const a = element.getBoundingClientRect();
    const controls = [...document.querySelectorAll("button, a[href], input, select, textarea, summary, [tabindex]")];
    return controls
      .filter((el) => el !== element && !el.contains(element) && el.checkVisibility())
      .filter((el) => {
        const b = el.getBoundingClientRect();
        return b.width > 0 && a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      })
      .map((el) => el.outerHTML.slice(0, 80));
  }, selector);
