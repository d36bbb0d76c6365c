"""The table's big moments, told without reading the log: a short banner over the table (a pile
stolen, a close, a chinchón, going down, −20, the stock's last rebuild), and the card that has just
changed ringed until the next move. Each game says which of its events are big moments
(``TableScreen.banner``)."""
from __future__ import annotations

from html import escape

MOMENTS_CSS = '''
.hod-banner-slot { position: absolute; left: 0; right: 0; top: 38%; display: flex; justify-content: center;
  pointer-events: none; z-index: 40; }
.hod-banner { background: rgba(20,61,38,.94); color: #fff; border: 2px solid var(--hod-gold); border-radius: 14px;
  padding: 10px 22px; font-size: 20px; font-weight: 700; text-align: center; max-width: 90%;
  box-shadow: 0 8px 30px rgba(0,0,0,.5); animation: hod-banner 3.2s ease forwards; }
.hod-banner[data-kind=steal], .hod-banner[data-kind=minus20] { border-color: #f87171; }
@keyframes hod-banner { 0% { opacity: 0; transform: scale(.85); } 8%, 80% { opacity: 1; transform: none; }
  100% { opacity: 0; visibility: hidden; } }
@media (prefers-reduced-motion: reduce) { .hod-banner { animation: hod-banner-still 3.2s step-end forwards; } }
@keyframes hod-banner-still { 100% { visibility: hidden; } }
@media (max-width: 640px) { .hod-banner { font-size: 16px; padding: 8px 14px; } }
/* the card that has just changed: your drawn card, the discard pile's new top */
.hod-slot.hod-fresh .hod-card, .hod-pile[data-fresh] > :first-child .hod-card { outline: 3px solid #7dd3fc;
  outline-offset: 2px; box-shadow: 0 0 14px rgba(125,211,252,.8); }
'''


def banner_html(kind: str, text: str, version: int) -> str:
    """A banner of a kind (``steal``, ``close``, ``chinchon``, ``down``, ``minus20``,
    ``last-rebuild``...); the version makes each one new markup, so its animation starts again."""
    return (f'<div class="hod-banner" data-testid="banner" data-kind="{escape(kind)}" data-version="{version}" '
            f'role="status">{escape(text)}</div>')
