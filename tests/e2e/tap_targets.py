"""What a finger can hit on a page: every visible control and the size of its hit area."""
from __future__ import annotations

from playwright.sync_api import Page

MIN_PX = 44   # Apple's and WCAG 2.5.5's smallest target

# the controls: what takes a click or a tap (links, buttons, fields, a fold's summary, anything
# with a button's role or in the tab order), each with its bounding box, when it is shown at all
CONTROLS = """(min) => {
  const selector = 'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], '
    + '[role=link], [role=checkbox], [role=switch], [role=tab], [data-choice], [tabindex]:not([tabindex="-1"])';
  const shown = (el) => { if (!el.getClientRects().length) return false;
    const fold = el.closest('details'); if (fold && !fold.open && !el.closest('summary')) return false;
    for (let up = el; up; up = up.parentElement) { const s = getComputedStyle(up);
      if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false; }
    const r = el.getBoundingClientRect();
    return r.right > 0 && r.bottom > 0 && r.left < innerWidth && r.top < innerHeight; };
  return [...document.querySelectorAll(selector)].filter(shown)
    // a skip link is off screen until it has the focus; a control inside another is hit through it
    .filter((el) => !el.classList.contains('hod-skip'))
    .map((el) => { const r = el.getBoundingClientRect();
      return {what: `${el.tagName.toLowerCase()}[${el.dataset.testid || el.getAttribute('aria-label') || el.textContent.trim().slice(0, 30)}]`,
              width: Math.round(r.width * 10) / 10, height: Math.round(r.height * 10) / 10}; })
    .filter((c) => c.width < min || c.height < min);
}"""


def too_small(page: Page) -> list[dict]:
    """The visible controls whose hit area is under 44 x 44 px."""
    return page.evaluate(CONTROLS, MIN_PX)


def scrolls(page: Page) -> int:
    """How far the page scrolls (a table that fits the window: 0)."""
    return page.evaluate('document.scrollingElement.scrollHeight - innerHeight')
