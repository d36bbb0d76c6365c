"""The fast path for the parts of a table that change on every move.

NiceGUI answers any element update by rendering the whole page again in the browser (one Vue
render function for the page), so a move would cost a full page redraw before the player sees
it. Parts drawn through a ``Live`` channel instead change on the server without an element update
and reach the browser as one small patch per move, through a Vue component of our own
(``live.js``, called through ``run_javascript``) that writes the new markup and attributes straight into
the elements it marked. The server's elements stay the truth: tests and new pages read them as
usual, and a reload shows them. The browser keeps the newest values it was sent and writes them
again into any marked element NiceGUI re-mounts, so nothing falls back to older markup.

A redraw costs the screen one message: every part that changed, in one patch, and nothing of
the parts that did not. A block drawn as ``Pieces`` (a wrapper around a list of sibling elements:
a hand's cards, a log's lines) sends only the pieces that changed since this screen last got it.

An element painted by a ``Live`` is painted only by it (never also by ``Direct`` or by hand).

The browser end also shows the player's own move as the click lands (``guess.js``): a control
marked ``GUESS`` (``draw:<pile's test id>``, ``discard``, ``drop``) is one whose click makes a move
of this seat on its turn, and the browser draws its effect at once. Whatever the server sends while
it handles this page's event (``Live.answering``) is the answer that confirms or undoes it.
"""
from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from nicegui import ui

from components.controls import patch_props, set_props_quietly

MARK = 'data-hod-live'   # which elements the browser end may write into, and under which key
GUESS = 'data-hod-guess'   # what a click on this control would do, drawn by the browser before the answer

# the guess's marks (guess.js): a pile pressed or emptied, a card gone from the hand, the cards
# it put in their new places; the discard pile shows the card laid on it over its old top
GUESS_CSS = '''
.hod-pile[data-hod-guessed], .hod-pile[data-hod-guessed]:hover { border-color: transparent; cursor: default; }
.hod-pile[data-hod-guessed] > :first-child { transform: translateY(2px) scale(.96); filter: brightness(.85);
  transition: transform .1s ease, filter .1s ease; }
.hod-pile[data-hod-guessed=taken] > :first-child { opacity: .35; }
.hod-pile > [data-hod-guessed] > :not(.hod-guess-card) { display: none; }
[data-testid=hand] [data-hod-guessed=gone] { display: none; }
.hod-rr-loose[data-hod-guessed] > span { display: none; }
'''


@dataclass(frozen=True, slots=True)
class Pieces:
    """Markup made of one wrapper element (``head`` opens it, ``tail`` closes it) around sibling
    pieces, each exactly one element: what the browser can patch piece by piece."""

    head: str
    items: tuple[str, ...]
    tail: str = '</div>'

    def __str__(self) -> str:
        return self.head + ''.join(self.items) + self.tail


Markup = str | Pieces


def splices(old: tuple[str, ...], new: tuple[str, ...]) -> list[list[Any]]:
    """How to turn the pieces ``old`` into ``new``: [start, how many to remove, markup to insert
    there], last first, so that each start holds when its turn comes. A move changes one run of
    pieces (a card drawn, thrown or chosen; new lines on top of the log), or pushes the oldest
    lines out of a full log; anything else is one run from the first change to the last."""
    start, old_end, new_end = 0, len(old), len(new)
    while start < old_end and start < new_end and old[start] == new[start]:
        start += 1
    while old_end > start and new_end > start and old[old_end - 1] == new[new_end - 1]:
        old_end, new_end = old_end - 1, new_end - 1
    if start == 0 and new_end - start > 1:
        for added in range(1, min(4, len(new))):   # new lines on top, the oldest ones out
            kept = len(new) - added
            if new[added:] == old[:kept]:
                return [[kept, len(old) - kept, ''], [0, 0, ''.join(new[:added])]]
    if start == old_end and start == new_end:
        return []
    return [[start, old_end - start, ''.join(new[start:new_end])]]


class live_channel(ui.element, component='live.js', dependencies=['guess.js']):
    """The browser end of a ``Live``: draws nothing, applies the patches it is given."""

    def apply(self, patches: list[list[Any]], motions: list[list[Any]], ms: int, sounds: list[str],
              answer: bool) -> None:
        # not run_method: its code starts with `return`, which the page evaluates twice (a syntax
        # error first, then again inside a function); this expression is evaluated once. Accents
        # as they are: the code is escaped again on its way (socket.io's JSON), \u00e1 twice over.
        # getElement is NiceGUI's documented page function for this (ui.run_javascript's docs, 2.9+)
        arguments = json.dumps([patches, motions, ms, sounds, answer], ensure_ascii=False, separators=(',', ':'))
        self.client.run_javascript(f'getElement({self.id})?.apply(...{arguments})')


class Live:
    """Collects the patches of one redraw; ``send`` ships them in one message. Made while the page
    is built: its browser end (an invisible ``live_channel``) goes where it is made."""

    def __init__(self) -> None:
        self.channel = live_channel()
        self.client = self.channel.client
        self.patches: list[tuple[ui.element, str, Any]] = []
        self.motions: list[list[Any]] = []
        self.motion_ms = 0   # how long a card takes to travel; 0: cards do not travel
        self.sounds: list[str] = []
        self.newly_marked: list[ui.element] = []
        self.connected = False   # once the browser has connected, every patch goes through the channel
        self.pieces: dict[int, Pieces] = {}   # per element drawn as pieces: the pieces the browser holds
        self.drawn: set[int] = set()          # the elements with new markup in this send
        self.unanswered = False   # handling this page's own event, and nothing sent yet
        self.answering_now = False

    def attrs(self, element: ui.element, values: dict[str, Any]) -> None:
        """Set attributes (None removes one); only changes are sent."""
        self._mark(element)
        self.patches += [(element, key, value) for key, value in set_props_quietly(element, values)]

    def html(self, element: ui.html, markup: Markup) -> None:
        """New markup for a ui.html; nothing is sent when it is unchanged, and of ``Pieces`` only
        the pieces that changed."""
        content = str(markup)
        before = self.pieces.pop(element.id, None)
        if element.content == content:
            if isinstance(markup, Pieces):
                self.pieces[element.id] = markup
            return
        self._mark(element)
        with element.props.suspend_updates():
            element.content = content
        if element.id in self.drawn:   # one markup patch per element and send: a second replaces the first whole
            before = None
            self.patches = [patch for patch in self.patches if patch[0] is not element or patch[1] not in HTML_NAMES]
        self.drawn.add(element.id)
        if isinstance(markup, Pieces) and not element.props.get('sanitize') and element.props['innerHTML'] == content:
            self.pieces[element.id] = markup
            if before is not None and before.tail == markup.tail and not self._pending(element):
                steps = splices(before.items, markup.items)
                if sum(len(step[2]) for step in steps) + len(markup.head) < len(content) // 2:
                    self.patches.append((element, 'pieces', [None if markup.head == before.head else markup.head, steps]))
                    return
        # what the element holds (a server-side sanitizer may have changed it), sanitized in the
        # browser when the element asks for it, as ui.html itself does
        name = 'setHTML' if element.props.get('sanitize') else 'innerHTML'
        self.patches.append((element, name, element.props['innerHTML']))

    def motion(self, source: str, target: str, *, ghost: bool) -> None:
        """A card travels from the element matching the CSS selector ``source`` (as it is before this
        patch) to ``target`` (after it), with the next patch; ``ghost`` flies a copy of the source."""
        if self.motion_ms > 0:
            self.motions.append([source, target, ghost])

    def sound(self, name: str) -> None:
        """A sound the browser plays with the next patch (live.js: flick, shuffle, chime, win)."""
        if name not in self.sounds:
            self.sounds.append(name)

    def send(self) -> None:
        """Ship the patches. Until the browser has first connected (the page is still loading) the
        changed elements are sent the ordinary way, which waits for the connection; after that,
        patches wait in NiceGUI's outbox like any message, in order, over a reconnection too."""
        self.connected = self.connected or self.client.has_socket_connection
        # a newly marked element is sent whole once, so that the browser learns its mark
        changed = self.newly_marked if self.connected else self.newly_marked + [e for e, _, _ in self.patches]
        for element in {id(element): element for element in changed}.values():
            element.update()
        if self.connected and (self.patches or self.motions or self.sounds or self.unanswered):
            self.channel.apply([[element.id, name, value] for element, name, value in self.patches], self.motions,
                               self.motion_ms, self.sounds, self.answering_now)
            self.unanswered = False
        self.patches, self.motions, self.newly_marked, self.sounds = [], [], [], []
        self.drawn.clear()

    def _pending(self, element: ui.element) -> bool:
        """The element is sent whole with this send (it was just marked, or the page is loading):
        the browser gets its whole markup, so pieces would be applied twice."""
        return not (self.connected or self.client.has_socket_connection) or element in self.newly_marked

    @contextmanager
    def answering(self) -> Iterator[None]:
        """This page's own event is handled inside: what is sent meanwhile answers it (ends the
        browser's guess of its move), and so does an empty message when nothing changed."""
        if self.answering_now:   # an event handled inside another one
            yield
            return
        self.answering_now = self.unanswered = True
        try:
            yield
        finally:
            self.send()
            self.answering_now = self.unanswered = False

    def _mark(self, element: ui.element) -> None:
        if MARK not in element.props:
            with element.props.suspend_updates():
                element.props[MARK] = str(element.id)
            self.newly_marked.append(element)


class Direct:
    """The same calls as ``Live`` done as ordinary element updates (pages that change rarely)."""

    def attrs(self, element: ui.element, values: dict[str, Any]) -> None:
        patch_props(element, values)

    def html(self, element: ui.html, markup: Markup) -> None:
        content = str(markup)
        if element.content != content:
            element.set_content(content)

    def motion(self, source: str, target: str, *, ghost: bool) -> None:
        """A card travels from the element matching the CSS selector ``source`` (as it is before this
        patch) to ``target`` (after it), with the next patch; ``ghost`` flies a copy of the source."""
        if self.motion_ms > 0:
            self.motions.append([source, target, ghost])

    def send(self) -> None:
        pass


Painter = Live | Direct
HTML_NAMES = ('innerHTML', 'setHTML', 'pieces')
