"""The site's utility classes as a stylesheet of its own (``app/static/utilities.css``), in place of
Tailwind's compiler in the page.

NiceGUI 3 compiles Tailwind in the browser by default (``ui.run(tailwind=True)`` loads
``tailwindcss.min.js``, 254 KB, which watches the whole page and compiles again on every change).
On a table page that was 2-4 ms of script per click (``python -m app.bench.paint``), more than
half of what the table's own patches took (``live.js``), and a first visit fetched 67 KB more.
The site uses a fixed set of some 170 utility classes, so the CSS Tailwind made for them is kept
in a plain file instead (5 KB compressed), served by ``/static/`` under an address that changes
with its content (the service worker keeps it). The file is edited by hand: a class the code uses
and the file does not define fails ``tests/test_stylesheet.py``, which names it.
"""
from __future__ import annotations

import hashlib
from functools import cache

from app.installable import STATIC_DIR, STATIC_PATH

STYLESHEET = STATIC_DIR / 'utilities.css'


@cache
def stylesheet_url() -> str:
    digest = hashlib.sha256(STYLESHEET.read_bytes()).hexdigest()[:12]
    return f'{STATIC_PATH}/{STYLESHEET.name}?v={digest}'


def head_html() -> str:
    """The link every page's head carries (``components.frame``), after NiceGUI's own styles, whose
    ``@layer`` order it keeps: its rules go to the same layers Tailwind's went to."""
    return f'<link rel="stylesheet" href="{stylesheet_url()}">'
