"""Card faces and backs as SVG strings, drawn in code: no images, no fonts, no ids.

Every face uses ``viewBox="0 0 100 150"`` and leaves its size to CSS. Many cards are
inlined in one page, so the markup holds no ``id`` at all (shared ids between inlined
SVGs break each other): repeated shapes are repeated ``<g transform>`` groups.
"""
from __future__ import annotations

from functools import lru_cache
from html import escape
from math import cos, pi, sin

from app.engine.cards import Card, FrenchSuit, SpanishSuit
from components.card_parts import (
    FOUR_COLOURS, GOLD, GOLD_DARK, HORSES, LONG_SUITS, PALETTES, SYMBOLS, TWO_COLOURS, at, french_symbol, jester,
    king, n, page, queen, rider, star,
)

# Lining figures in every fallback (Georgia's old-style digits would drop below the line).
SERIF = "'DejaVu Serif', Cambria, 'Times New Roman', serif"
FACE = '#fffdf7'
EDGE = '#8d8778'
BACK_FIELD, BACK_LINE, BACK_CREAM = '#7f1d2d', '#c99a3c', '#f6ecd6'

# Index colour: the suit's own dark colour, so the suit reads even from a sliver of corner.
INDEX_COLOUR = {
    SpanishSuit.OROS: '#a05a00', SpanishSuit.COPAS: '#b3261e',
    SpanishSuit.ESPADAS: '#1d4f91', SpanishSuit.BASTOS: '#2f6b1f',
}
# "La pinta": gaps in the frame line tell the suit (oros none, copas one, espadas two, bastos three).
PINTA_GAPS = {SpanishSuit.OROS: 0, SpanishSuit.COPAS: 1, SpanishSuit.ESPADAS: 2, SpanishSuit.BASTOS: 3}

# Pip layouts: (x, y) in card units; French pips below the middle are drawn upside down.
_ROUND_LAYOUTS = {
    2: ((50, 44), (50, 106)),
    3: ((50, 36), (50, 75), (50, 114)),
    4: ((35, 46), (65, 46), (35, 104), (65, 104)),
    5: ((35, 42), (65, 42), (50, 75), (35, 108), (65, 108)),
    6: ((34, 38), (66, 38), (34, 75), (66, 75), (34, 112), (66, 112)),
    7: ((34, 34), (66, 34), (50, 57), (34, 80), (66, 80), (34, 114), (66, 114)),
}
_ROUND_SCALE = {2: 1.55, 3: 1.4, 4: 1.35, 5: 1.3, 6: 1.2, 7: 1.1}
_LONG_LAYOUTS = {
    4: ((35, 48, 1.15), (65, 48, 1.15), (35, 102, 1.15), (65, 102, 1.15)),
    5: ((33, 48, 1.1), (67, 48, 1.1), (50, 75, 1.1), (33, 102, 1.1), (67, 102, 1.1)),
    6: ((34, 38, .95), (66, 38, .95), (34, 75, .95), (66, 75, .95), (34, 112, .95), (66, 112, .95)),
    7: ((32, 38, .95), (68, 38, .95), (50, 75, 1.05), (32, 75, .95), (68, 75, .95),
        (32, 112, .95), (68, 112, .95)),
}
_FRENCH_LAYOUTS = {
    2: ((50, 28), (50, 122)),
    3: ((50, 28), (50, 75), (50, 122)),
    4: ((35, 28), (65, 28), (35, 122), (65, 122)),
    5: ((35, 28), (65, 28), (50, 75), (35, 122), (65, 122)),
    6: ((35, 28), (65, 28), (35, 75), (65, 75), (35, 122), (65, 122)),
    7: ((35, 28), (65, 28), (50, 51.5), (35, 75), (65, 75), (35, 122), (65, 122)),
    8: ((35, 28), (65, 28), (50, 51.5), (35, 75), (65, 75), (50, 98.5), (35, 122), (65, 122)),
    9: ((35, 28), (65, 28), (35, 59.3), (65, 59.3), (50, 75), (35, 90.7), (65, 90.7),
        (35, 122), (65, 122)),
    10: ((35, 28), (65, 28), (50, 43.7), (35, 59.3), (65, 59.3), (35, 90.7), (65, 90.7),
         (50, 106.3), (35, 122), (65, 122)),
}
_FRENCH_TEXT = {1: 'A', 11: 'J', 12: 'Q', 13: 'K'}


def _spanish_pips(suit: SpanishSuit, rank: int) -> str:
    symbol = SYMBOLS[suit]
    if rank == 1 and suit is SpanishSuit.OROS:  # the as de oros shines: a sunburst behind the coin
        rays = at(f'<path d="{star(20, 36, 28)}" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".8"/>', 50, 75)
        return rays + at(symbol, 50, 75, 2.6)
    if rank == 1:
        return at(symbol, 50, 75, 2.55 if suit in LONG_SUITS else 2.9)
    if suit not in LONG_SUITS:
        return ''.join(at(symbol, x, y, _ROUND_SCALE[rank]) for x, y in _ROUND_LAYOUTS[rank])
    if rank == 2:
        return at(symbol, 50, 75, 1.95, -28) + at(symbol, 50, 75, 1.95, 28)
    if rank == 3:  # fanned out from below like a hand of cards
        return ''.join(at(symbol, 50 + 44 * sin(a * pi / 180), 122 - 44 * cos(a * pi / 180), 1.65, a)
                       for a in (-30, 0, 30))
    return ''.join(at(symbol, x, y, s) for x, y, s in _LONG_LAYOUTS[rank])


def _french_pips(symbol: str, rank: int) -> str:
    if rank == 1:
        return at(symbol, 50, 75, 3.2)
    scale = 0.86 if rank >= 9 else 0.96
    return ''.join(at(symbol, x, y, scale, 180 if y > 76 else 0) for x, y in _FRENCH_LAYOUTS[rank])


def _corner(text: str, colour: str, symbol: str, symbol_scale: float, size: float = 28, drop: float = 12) -> str:
    """The rank index and a small suit symbol ``drop`` below it, top left; the caller mirrors it
    bottom right."""
    fit = f' textLength="{n(size * 0.86)}" lengthAdjust="spacingAndGlyphs"' if len(text) > 1 else ''
    return (f'<text x="12.5" y="{n(size + 2)}" font-size="{n(size)}"{fit} font-weight="bold" '
            f'text-anchor="middle" fill="{colour}">{text}</text>'
            + at(symbol, 12.5, size + drop, symbol_scale))


def _both_corners(markup: str) -> str:
    return markup + f'<g transform="rotate(180 50 75)">{markup}</g>'


def _pinta_frame(suit: SpanishSuit, colour: str) -> str:
    """The inner frame line, open at the index corners and broken per suit mid-edge."""
    gaps = PINTA_GAPS[suit]
    piece = (44 - 5 * gaps) / (gaps + 1)  # the stretch 28..72 cut by gaps of 5
    starts = [28 + i * (piece + 5) for i in range(gaps + 1)]
    half = ''.join(f'M{n(x)} 5H{n(x + piece)}' for x in starts[:-1])
    half += f'M{n(starts[-1])} 5H91Q95 5 95 9V98'
    return (f'<path d="{half}" fill="none" stroke="{colour}" stroke-width="1.1"/>'
            f'<path d="{half}" fill="none" stroke="{colour}" stroke-width="1.1" transform="rotate(180 50 75)"/>')


def _joker_corner() -> str:
    letters = ''.join(f'<tspan x="12" y="{17 + 13 * i}">{c}</tspan>' for i, c in enumerate('JOKER'))
    return (f'<text font-size="15" font-weight="bold" text-anchor="middle" fill="#6a3fa0">{letters}</text>'
            + at(f'<path d="{star(5, 6, 2.6)}" fill="{GOLD}" stroke="{GOLD_DARK}" stroke-width=".8"/>', 12, 82))


@lru_cache(maxsize=None)
def card_svg(card: Card, *, label: str | None = None, four_colours: bool = False) -> str:
    """The face of ``card`` as a complete ``<svg>``; ``label`` becomes its aria-label.
    ``four_colours``: French suits each in a colour of their own (spades black, hearts red,
    diamonds blue, clubs green), which tells them apart at a glance."""
    if card.suit is None:
        body = _both_corners(_joker_corner()) + jester()
    elif isinstance(card.suit, SpanishSuit):
        body = _spanish_face(card.suit, card.rank)
    else:
        body = _french_face(card.suit, card.rank, (FOUR_COLOURS if four_colours else TWO_COLOURS)[card.suit])
    aria = f' aria-label="{escape(label, quote=True)}"' if label is not None else ''
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" role="img"{aria} '
            f'data-card="{card}" font-family="{SERIF}">'
            f'<rect x=".6" y=".6" width="98.8" height="148.8" rx="7" fill="{FACE}" stroke="{EDGE}" '
            f'stroke-width="1.2"/>{body}</svg>')


def _spanish_face(suit: SpanishSuit, rank: int) -> str:
    symbol, colour, long = SYMBOLS[suit], INDEX_COLOUR[suit], suit in LONG_SUITS
    main, second = PALETTES[suit]
    if rank <= 7:
        art = _spanish_pips(suit, rank)
    elif rank == 10:
        art = page(main, second, symbol, long)
    elif rank == 11:
        art = rider(main, second, symbol, long, HORSES[suit])
    else:
        art = king(main, second, symbol, long)
    # the corner's suit symbol is what tells a suit without its colour (a fan shows only corners):
    # big enough to read its shape, the long ones set lower to clear the number
    corner = _corner(str(rank), colour, symbol, 0.62 if long else 0.82, drop=17 if long else 13)
    return _pinta_frame(suit, colour) + _both_corners(corner) + art


def _french_face(suit: FrenchSuit, rank: int, colour: str) -> str:
    symbol = french_symbol(suit, colour)
    main, second = PALETTES[suit]
    if rank <= 10:
        art = _french_pips(symbol, rank)
    else:  # the court in a panel, shrunk so the corner index stays clear of it
        figure = {11: page, 12: queen, 13: king}[rank](main, second, symbol, False)
        art = (f'<rect x="27" y="10" width="46" height="130" rx="3" fill="#f4efe2" stroke="{colour}" '
               f'stroke-width="1"/><g transform="translate(4.5 10) scale(.84)">{figure}</g>')
    corner = _corner(_FRENCH_TEXT.get(rank, str(rank)), colour, symbol, 0.6, 26)
    return _both_corners(corner) + art


def _lattice(x0: float, y0: float, x1: float, y1: float, step: float) -> str:
    """Diagonal lines both ways across a rectangle, clipped in code (a <clipPath> would need an id)."""
    segments = []
    width, height = x1 - x0, y1 - y0
    for sign in (1, -1):
        c = -height
        while c < width:
            # line x = x0 + c + t, y = (y0 or y1) + sign*t, for t in [0, height]
            t0, t1 = max(0.0, -c), min(height, width - c)
            if t1 > t0:
                ya, yb = (y0 + t0, y0 + t1) if sign == 1 else (y1 - t0, y1 - t1)
                segments.append(f'M{n(x0 + c + t0)} {n(ya)}L{n(x0 + c + t1)} {n(yb)}')
            c += step
    return ''.join(segments)


@lru_cache(maxsize=None)
def back_svg() -> str:
    """The card back: a gold lattice on deep red around a "House Of Decks" medallion."""
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" role="img" '
            f'font-family="{SERIF}">'
            f'<rect x=".6" y=".6" width="98.8" height="148.8" rx="7" fill="{BACK_CREAM}" stroke="{EDGE}" stroke-width="1.2"/>'
            f'<rect x="6" y="6" width="88" height="138" rx="4" fill="{BACK_FIELD}"/>'
            f'<path d="{_lattice(9, 9, 91, 141, 9)}" stroke="{BACK_LINE}" stroke-width=".7" opacity=".75"/>'
            f'<rect x="9" y="9" width="82" height="132" rx="2.5" fill="none" stroke="{BACK_LINE}" stroke-width="1.2"/>'
            f'<ellipse cx="50" cy="75" rx="20" ry="27" fill="{BACK_FIELD}" stroke="{BACK_LINE}" stroke-width="1.6"/>'
            f'<ellipse cx="50" cy="75" rx="16.5" ry="23.5" fill="none" stroke="{BACK_CREAM}" stroke-width=".6"/>'
            f'<path d="M38 72L50 61L62 72" fill="none" stroke="{BACK_LINE}" stroke-width="2.4" '
            f'stroke-linejoin="round" stroke-linecap="round"/>'
            f'<text x="50" y="89" font-size="15" font-weight="bold" text-anchor="middle" '
            f'fill="{BACK_CREAM}">HD</text></svg>')


@lru_cache(maxsize=None)
def empty_slot_svg() -> str:
    """An empty pile: a dashed outline the size of a card."""
    return ('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 150" role="img">'
            '<rect x="2" y="2" width="96" height="146" rx="7" fill="#fff" fill-opacity=".08" '
            'stroke="#fff" stroke-opacity=".55" stroke-width="2.5" stroke-dasharray="8 6"/></svg>')
