"""The fast path for the parts of a table that change on every move.

NiceGUI answers any element update by rendering the whole page again in the browser (one Vue
render function for the page), so a move would cost a full page redraw before the player sees
it. Parts drawn through a ``Live`` channel instead change on the server without an element update
and reach the browser as one small patch per move: the new markup and attributes are written
straight into their elements, and into the page's own copy of those elements, so any later full
redraw (or a reconnect, or a reload) shows the same thing. The server's elements stay the truth:
tests and new pages read them as usual.
"""
from __future__ import annotations

import json
from typing import Any

from nicegui import ui

from components.controls import patch_props, set_props_quietly

# Applies [element id, key, value] patches: 'innerHTML' is the markup of a ui.html, anything else
# an attribute (None removes it). The page's element data is updated raw (no Vue redraw), and the
# html component is told what it shows, so a later redraw does not write the same markup again.
LIVE_SCRIPT = """<script>
window.hodLive = (patches) => {
  const elements = Vue.toRaw(mounted_app.elements);
  for (const [id, key, value] of patches) {
    const data = elements[id];
    if (data) { if (value === null) delete data.props[key]; else data.props[key] = value; }
    const el = document.getElementById('c' + id);
    if (!el) continue;
    if (key === 'innerHTML') {
      el.innerHTML = value;
      const component = getElement(id);
      if (component) component.previousInnerHTML = value;
    } else if (value === null || value === false) el.removeAttribute(key);
    else el.setAttribute(key, value === true ? '' : value);
  }
};
</script>"""


class Live:
    """Collects the patches of one redraw; ``send`` ships them in one message."""

    def __init__(self) -> None:
        ui.add_head_html(LIVE_SCRIPT)
        self.client = ui.context.client
        self.patches: list[tuple[ui.element, str, Any]] = []

    def attrs(self, element: ui.element, values: dict[str, Any]) -> None:
        """Set attributes (None removes one); only changes are sent."""
        self.patches += [(element, key, value) for key, value in set_props_quietly(element, values)]

    def html(self, element: ui.html, content: str) -> None:
        """New markup for a ui.html; nothing is sent when it is unchanged."""
        if element.content == content:
            return
        with element.props.suspend_updates():
            element.content = content
        self.patches.append((element, 'innerHTML', content))

    def send(self) -> None:
        """Ship the patches. Before the browser is connected (the page is still loading) the
        changed elements are sent the ordinary way, which waits for the connection."""
        if self.patches and self.client.has_socket_connection:
            patches = [[element.id, key, value] for element, key, value in self.patches]
            self.client.run_javascript(f'hodLive({json.dumps(patches, separators=(",", ":"))})')
        else:
            for element in {id(element): element for element, _, _ in self.patches}.values():
                element.update()
        self.patches = []


class Direct:
    """The same calls as ``Live`` done as ordinary element updates (pages that change rarely)."""

    def attrs(self, element: ui.element, values: dict[str, Any]) -> None:
        patch_props(element, values)

    def html(self, element: ui.html, content: str) -> None:
        if element.content != content:
            element.set_content(content)

    def send(self) -> None:
        pass


Painter = Live | Direct
