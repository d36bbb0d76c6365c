"""The pieces card faces are built from, in card units: suit symbols and figures.

Symbols are drawn around the origin in a box of about 20 units (the long Spanish suits,
swords and clubs, about 12 x 36) and placed with ``at``. Figures are drawn straight in
the 100 x 150 card. Nothing here carries an ``id``: many cards share one page.
"""
from __future__ import annotations

from math import cos, pi, sin

from app.engine.cards import FrenchSuit, SpanishSuit

GOLD, GOLD_DARK, ORANGE = '#f3c12c', '#9c6a00', '#e2741b'
RED, BLUE, GREEN = '#c4302b', '#2f6fb5', '#5d8f2f'
SKIN, INK = '#f4cfa6', '#2b2420'
BLACK = '#1b1b1f'


def n(value: float) -> str:
    return f'{round(value, 2):g}'


def at(markup: str, x: float, y: float, scale: float = 1.0, rotate: float = 0.0) -> str:
    transform = f'translate({n(x)} {n(y)})'
    if rotate:
        transform += f' rotate({n(rotate)})'
    if scale != 1:
        transform += f' scale({n(scale)})'
    return f'<g transform="{transform}">{markup}</g>'


def star(points: int, outer: float, inner: float) -> str:
    corners = []
    for i in range(points * 2):
        radius = outer if i % 2 == 0 else inner
        angle = pi * i / points - pi / 2
        corners.append(f'{n(radius * cos(angle))},{n(radius * sin(angle))}')
    return 'M' + 'L'.join(corners) + 'Z'


_ORO = (f'<circle r="10" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width="1.3"/>'
        f'<circle r="7.2" fill="none" stroke="{GOLD_DARK}" stroke-width=".8"/>'
        f'<path d="{star(8, 5.8, 2.6)}" fill="{ORANGE}"/>'
        f'<circle r="1.7" fill="{RED}"/>')
_COPA = (f'<path d="M-8 -8H8C8 0 4 3.5 0 3.5S-8 0-8-8Z" fill="{RED}" stroke="#7a1a16" stroke-width="1"/>'
         f'<path d="M-7.3-4.5H7.3" stroke="{GOLD}" stroke-width="1.6"/>'
         f'<ellipse cy="-8.3" rx="8.4" ry="2" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".9"/>'
         f'<path d="M-1.6 3.5V8.5H1.6V3.5" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".8"/>'
         f'<ellipse cy="5.6" rx="2.9" ry="1.3" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".7"/>'
         f'<path d="M-6.5 11.2Q0 6.2 6.5 11.2Z" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".9"/>')
_ESPADA = ('<path d="M-2.3 7V-13.5L0-18.5L2.3-13.5V7Z" fill="#5b95d0" stroke="#1d3f6e" stroke-width=".9"/>'
           '<path d="M0 5V-14" stroke="#d9e9f7" stroke-width=".9"/>'
           f'<path d="M-7 6.3Q-7.8 8 -6.4 9.3H6.4Q7.8 8 7 6.3Z" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".8"/>'
           f'<rect x="-1.5" y="9.3" width="3" height="5.6" fill="{RED}" stroke="#7a1a16" stroke-width=".6"/>'
           f'<circle cy="16.6" r="2" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".7"/>')
# Cut-off branch stubs on the club: (x, y) on its side and the stub's end
_KNOTS = ((-4.3, -8, -7.3, -9.2), (3.8, -2, 6.8, -3.2), (-3, 6, -5.9, 4.9), (2.4, 11, 5, 10.2))
_STUBS = ''.join(f'M{x} {y}L{ex} {ey}' for x, y, ex, ey in _KNOTS)
_CUT_ENDS = ''.join(f'M{ex} {ey}h0' for _, _, ex, ey in _KNOTS)
_BASTO = ('<path d="M-2.2 17.5C-2.6 9-4.8-5-5.2-13.5C-5.4-19 5.4-19 5.2-13.5C4.8-5 2.6 9 2.2 17.5Z" '
          'fill="#b87a3a" stroke="#4a2a10"/>'
          '<path d="M-1.3-14C-1.8-6-1.3 5-.7 15" stroke="#e0b070" fill="none"/>'
          f'<path d="{_STUBS}" stroke="#4a2a10" stroke-width="3.6" stroke-linecap="round"/>'
          f'<path d="{_STUBS}" stroke="#9a6028" stroke-width="2.2" stroke-linecap="round"/>'
          f'<path d="{_CUT_ENDS}" stroke="#e8c48a" stroke-width="1.3" stroke-linecap="round"/>'
          '<ellipse cy="-15.3" rx="3.6" ry="1.7" fill="#e8c48a" stroke="#4a2a10" stroke-width=".6"/>'
          f'<path d="M4.5-8Q9-11 10-7Q7-5 4.5-8Z" fill="{GREEN}"/>')

_HEART = ('M0 9.5C-7 3.5-10 0-10-4.4C-10-8.2-7.2-10-4.8-10C-2.6-10-.9-8.6 0-6.6'
          'C.9-8.6 2.6-10 4.8-10C7.2-10 10-8.2 10-4.4C10 0 7 3.5 0 9.5Z')
_DIAMOND = 'M0-10.5Q3.5-4.5 7.8 0Q3.5 4.5 0 10.5Q-3.5 4.5-7.8 0Q-3.5-4.5 0-10.5Z'
_SPADE = ('M0-10.5C-2.6-6.2-10-2.6-10 2.4C-10 5.8-7.5 7.6-5 7.6C-3.2 7.6-1.7 6.8-.9 5.6'
          'C-1.1 7.6-2 9.2-3.8 10.5H3.8C2 9.2 1.1 7.6.9 5.6C1.7 6.8 3.2 7.6 5 7.6'
          'C7.5 7.6 10 5.8 10 2.4C10-2.6 2.6-6.2 0-10.5Z')
_CLUB = ('M0-10.2A4.6 4.6 0 0 0-3.7-2.7A4.6 4.6 0 1 0-1 5.3C-1.2 7.6-2 9.2-3.8 10.5H3.8'
         'C2 9.2 1.2 7.6 1 5.3A4.6 4.6 0 1 0 3.7-2.7A4.6 4.6 0 0 0 0-10.2Z')

FRENCH_SHAPES = {FrenchSuit.HEARTS: _HEART, FrenchSuit.DIAMONDS: _DIAMOND,
                 FrenchSuit.SPADES: _SPADE, FrenchSuit.CLUBS: _CLUB}
# the usual two colours, and the four-colour deck's: no two suits share one
TWO_COLOURS = {FrenchSuit.HEARTS: RED, FrenchSuit.DIAMONDS: RED, FrenchSuit.SPADES: BLACK, FrenchSuit.CLUBS: BLACK}
FOUR_COLOURS = {FrenchSuit.HEARTS: RED, FrenchSuit.DIAMONDS: '#1f5fbf', FrenchSuit.SPADES: BLACK,
                FrenchSuit.CLUBS: '#1d7a33'}


def french_symbol(suit: FrenchSuit, colour: str) -> str:
    return f'<path d="{FRENCH_SHAPES[suit]}" fill="{colour}"/>'


SYMBOLS = {
    SpanishSuit.OROS: _ORO, SpanishSuit.COPAS: _COPA,
    SpanishSuit.ESPADAS: _ESPADA, SpanishSuit.BASTOS: _BASTO,
    **{suit: french_symbol(suit, colour) for suit, colour in TWO_COLOURS.items()},
}
LONG_SUITS = {SpanishSuit.ESPADAS, SpanishSuit.BASTOS}


# Flat people drawn on one skeleton: head at (50, 52), shoulders at y 62. A figure is
# told apart by silhouette first (short tunic and legs, horse, long robe and crown),
# colour second. The suit palette is (clothes, second colour).

PALETTES = {
    SpanishSuit.OROS: (RED, BLUE), SpanishSuit.COPAS: (BLUE, RED),
    SpanishSuit.ESPADAS: ('#d99a1e', BLUE), SpanishSuit.BASTOS: ('#4f8a3a', RED),
    FrenchSuit.HEARTS: (RED, GOLD), FrenchSuit.DIAMONDS: ('#d99a1e', RED),
    FrenchSuit.SPADES: (BLUE, RED), FrenchSuit.CLUBS: ('#4f8a3a', BLUE),
}
HORSES = {SpanishSuit.OROS: '#f3eee2', SpanishSuit.COPAS: '#9a6432',
          SpanishSuit.ESPADAS: '#7b7f86', SpanishSuit.BASTOS: '#c98a45'}


def _head(x: float, y: float, hair: str = '#5a3a1e') -> str:
    return (f'<path d="M{n(x - 8.5)} {n(y + 2)}Q{n(x - 9)} {n(y - 9)} {n(x)} {n(y - 9)}'
            f'Q{n(x + 9)} {n(y - 9)} {n(x + 8.5)} {n(y + 2)}Z" fill="{hair}"/>'
            f'<circle cx="{n(x)}" cy="{n(y)}" r="7.5" fill="{SKIN}" stroke="{INK}" stroke-width=".8"/>'
            f'<path d="M{n(x - 2.8)} {n(y - 1)}h.1M{n(x + 2.8)} {n(y - 1)}h.1" stroke="{INK}" '
            f'stroke-width="1.6" stroke-linecap="round"/>'
            f'<path d="M{n(x - 2)} {n(y + 3.6)}Q{n(x)} {n(y + 4.8)} {n(x + 2)} {n(y + 3.6)}" '
            f'stroke="#a0463a" stroke-width=".9" fill="none"/>')


def _arm(x1: float, y1: float, x2: float, y2: float, colour: str) -> str:
    return (f'<path d="M{n(x1)} {n(y1)}L{n(x2)} {n(y2)}" stroke="{colour}" stroke-width="5.5" '
            f'stroke-linecap="round"/><circle cx="{n(x2)}" cy="{n(y2)}" r="2.6" fill="{SKIN}" '
            f'stroke="{INK}" stroke-width=".6"/>')


def _held(symbol: str, long: bool, x: float, y: float) -> str:
    """The suit symbol in a raised hand at (x, y): round ones above it, long ones gripped by the hilt."""
    return at(symbol, x, y - 12 if long else y - 10, 1.0 if long else 1.1)


def page(main: str, second: str, symbol: str, long: bool) -> str:
    return (f'<path d="M45 100V127M55 100V127" stroke="{second}" stroke-width="5.5"/>'
            f'<path d="M40.5 129.5h7M52.5 129.5h7" stroke="{INK}" stroke-width="4" stroke-linecap="round"/>'
            f'<path d="M40 62H60L67 104H33Z" fill="{main}" stroke="{INK}" stroke-width="1"/>'
            f'<path d="M50 63V103M36.6 84H63.4" stroke="{GOLD}" stroke-width="2.4"/>'
            + _arm(41, 65, 35, 88, main) + _arm(59, 65, 69, 78, main)
            + f'<ellipse cx="50" cy="61.5" rx="6.5" ry="2.2" fill="#fff" stroke="{INK}" stroke-width=".6"/>'
            + _head(50, 52)
            + f'<ellipse cx="49" cy="44.5" rx="10.5" ry="3.6" fill="{second}" stroke="{INK}" stroke-width=".7"/>'
            f'<path d="M55 43Q62 38 64 31" stroke="{GOLD}" stroke-width="2.2" fill="none" stroke-linecap="round"/>'
            + _held(symbol, long, 69, 78))


def queen(main: str, second: str, symbol: str, long: bool) -> str:
    return king(main, second, symbol, long, queen=True)


def _crown(x: float, y: float, tiara: bool = False) -> str:
    if tiara:
        shape = f'M{n(x - 7)} {n(y)}Q{n(x - 6)} {n(y - 6)} {n(x)} {n(y - 8)}Q{n(x + 6)} {n(y - 6)} {n(x + 7)} {n(y)}Z'
    else:
        shape = (f'M{n(x - 9)} {n(y)}V{n(y - 9)}L{n(x - 4.5)} {n(y - 4.5)}L{n(x)} {n(y - 12)}'
                 f'L{n(x + 4.5)} {n(y - 4.5)}L{n(x + 9)} {n(y - 9)}V{n(y)}Z')
    return (f'<path d="{shape}" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".9" stroke-linejoin="round"/>'
            f'<circle cx="{n(x)}" cy="{n(y - 3.5)}" r="1.6" fill="{RED}"/>')


def king(main: str, second: str, symbol: str, long: bool, *, queen: bool = False) -> str:
    if queen:
        robe = 'M41 62H59Q61 92 73 128Q50 132 27 128Q39 92 41 62Z'
        hair = '<path d="M41 50Q38 66 36 72H44V56ZM59 50Q62 66 64 72H56V56Z" fill="#7a4a1e"/>'
        chin = f'<path d="M44 64Q50 68 56 64" stroke="{GOLD}" stroke-width="1.6" fill="none"/>'
    else:
        robe = 'M39 62H61L69 128Q50 132 31 128Z'
        hair = ''
        chin = (f'<path d="M42.5 53Q43 65 50 67Q57 65 57.5 53Q54 58.5 50 58.5Q46 58.5 42.5 53Z" '
                f'fill="#9a9088" stroke="{INK}" stroke-width=".6"/>')
    return (f'<path d="{robe}" fill="{main}" stroke="{INK}" stroke-width="1"/>'
            f'<path d="M46.5 63V130M53.5 63V130" stroke="{second}" stroke-width="3"/>'
            f'<path d="M50 63V130" stroke="#fff" stroke-width="4" stroke-dasharray="3 4"/>'
            + _arm(41, 66, 45, 88, main) + _arm(59, 65, 69, 78, main)
            + hair + _head(50, 52, '#7a4a1e' if queen else '#8c8580') + chin
            + _crown(50, 45, tiara=queen) + _held(symbol, long, 69, 78))


def rider(main: str, second: str, symbol: str, long: bool, horse: str) -> str:
    dark = '#3a2a1c'
    return (f'<path d="M34 102V128M40 105V130M58 105V130M64 102V128" stroke="{horse}" stroke-width="4.5"/>'
            f'<path d="M32 129.5h4M38 131.5h4M56 131.5h4M62 129.5h4" stroke="{dark}" stroke-width="3"/>'
            f'<path d="M31 94Q21 100 25 118" stroke="{dark}" stroke-width="3.5" fill="none" stroke-linecap="round"/>'
            f'<ellipse cx="49" cy="98" rx="19" ry="11" fill="{horse}" stroke="{INK}" stroke-width="1"/>'
            f'<path d="M58 92L64 70Q70 62 77 67L85 79Q85 83 80 83L71 79L68 100Z" fill="{horse}" '
            f'stroke="{INK}" stroke-width="1" stroke-linejoin="round"/>'
            f'<path d="M64 70L65 62L69 66" fill="{horse}" stroke="{INK}" stroke-width=".8"/>'
            f'<path d="M63 71Q60 82 59 92" stroke="{dark}" stroke-width="3" fill="none"/>'
            f'<circle cx="73" cy="71" r="1.1" fill="{INK}"/>'
            f'<path d="M38 87H60L58 99H40Z" fill="{second}" stroke="{INK}" stroke-width=".7"/>'
            f'<path d="M46 86L45 106" stroke="{second}" stroke-width="5"/>'
            f'<path d="M42 107h6" stroke="{INK}" stroke-width="3.5" stroke-linecap="round"/>'
            f'<path d="M42 62H55L57 88H40Z" fill="{main}" stroke="{INK}" stroke-width="1"/>'
            + _arm(54, 66, 66, 76, main) + _arm(43, 65, 33, 70, main)
            + _head(48.5, 53)
            + f'<ellipse cx="48.5" cy="46" rx="12" ry="2.6" fill="{second}" stroke="{INK}" stroke-width=".7"/>'
            f'<path d="M42.5 46Q43 38 48.5 38Q54 38 54.5 46Z" fill="{second}" stroke="{INK}" stroke-width=".7"/>'
            + _held(symbol, long, 33, 70))


def jester() -> str:
    """The joker's jester: three-horned cap with bells, ruff, harlequin tunic."""
    purple = '#6a3fa0'
    checks = ''.join(
        f'<path d="M{n(x)} {y}l5 7-5 7-5-7z" fill="{GOLD if (i + j) % 2 else RED}"/>'
        for j, y in enumerate((98, 112)) for i, x in enumerate(range(40, 65, 10)))
    body = (f'<path d="M37 96H63L69 130H31Z" fill="{purple}" stroke="{INK}" stroke-width="1"/>{checks}'
            f'<path d="M36 91H64V93l-3.5 5-3.5-5-3.5 5-3.5-5-3.5 5-3.5-5-3.5 5-3.5-5Z" fill="#fff" '
            f'stroke="{INK}" stroke-width=".9" stroke-linejoin="round"/>'
            f'<path d="M39 72Q27 62 23 47Q35 52 45 66Z" fill="{RED}" stroke="{INK}" stroke-width=".8"/>'
            f'<path d="M44 67Q45 47 52 33Q56 50 56 67Z" fill="{GREEN}" stroke="{INK}" stroke-width=".8"/>'
            f'<path d="M55 66Q66 53 79 48Q73 62 61 72Z" fill="{purple}" stroke="{INK}" stroke-width=".8"/>'
            + ''.join(f'<circle cx="{x}" cy="{y}" r="3" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".8"/>'
                      for x, y in ((23, 47), (52, 33), (79, 48)))
            + f'<circle cx="50" cy="80" r="11" fill="{SKIN}" stroke="{INK}" stroke-width=".9"/>'
            f'<path d="M38 71Q50 63 62 71" stroke="{GOLD}" stroke-width="3.5" fill="none"/>'
            f'<path d="M45.5 78h.1M54.5 78h.1" stroke="{INK}" stroke-width="2" stroke-linecap="round"/>'
            f'<path d="M44 84Q50 90 56 84" stroke="{RED}" stroke-width="1.4" fill="none" stroke-linecap="round"/>'
            f'<circle cx="43" cy="83" r="1.8" fill="#f08a8a"/><circle cx="57" cy="83" r="1.8" fill="#f08a8a"/>')
    return f'<g transform="matrix(1.1 0 0 1.1 -5 -8)">{body}</g>'
