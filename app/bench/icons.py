"""The site's app icons (app/static/icon-192.png, icon-512.png), drawn once and committed: a card
with a gold coin (the ace of oros) on the felt. Run by hand when the look changes, with any Python
that has pycairo (Debian's python3-cairo: /usr/bin/python3 -m app.bench.icons); the site only
serves the PNGs, so the library is no dependency of the site."""
from __future__ import annotations

import math
from pathlib import Path

import cairo

FELT, FELT_DARK, GOLD, PAPER, INK = '#1f5f3a', '#143d26', '#e0b341', '#fbf7ec', '#1d2521'
STATIC = Path(__file__).resolve().parents[1] / 'static'


def rgb(colour: str) -> tuple[float, float, float]:
    return tuple(int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))


def rounded(ctx: cairo.Context, x: float, y: float, w: float, h: float, r: float) -> None:
    ctx.new_sub_path()
    for cx, cy, start in ((x + w - r, y + r, -90), (x + w - r, y + h - r, 0), (x + r, y + h - r, 90), (x + r, y + r, 180)):
        ctx.arc(cx, cy, r, math.radians(start), math.radians(start + 90))
    ctx.close_path()


def draw(size: int) -> cairo.ImageSurface:
    """Full-bleed felt (a maskable icon may be cut to a circle: the card stays inside its middle 80%)."""
    surface = cairo.ImageSurface(cairo.FORMAT_ARGB32, size, size)
    ctx = cairo.Context(surface)
    ctx.scale(size / 512, size / 512)
    glow = cairo.RadialGradient(256, 220, 40, 256, 256, 360)
    glow.add_color_stop_rgb(0, *rgb('#2a7a4d'))
    glow.add_color_stop_rgb(1, *rgb(FELT_DARK))
    ctx.rectangle(0, 0, 512, 512)
    ctx.set_source(glow)
    ctx.fill()
    ctx.save()   # the card, a little turned, with its shadow
    ctx.translate(256, 262)
    ctx.rotate(math.radians(-8))
    rounded(ctx, -112 + 8, -160 + 12, 224, 320, 26)
    ctx.set_source_rgba(0, 0, 0, .35)
    ctx.fill()
    rounded(ctx, -112, -160, 224, 320, 26)
    ctx.set_source_rgb(*rgb(PAPER))
    ctx.fill_preserve()
    ctx.set_line_width(10)
    ctx.set_source_rgb(*rgb(GOLD))
    ctx.stroke()
    ctx.arc(0, 0, 72, 0, 2 * math.pi)   # the coin of the ace of oros
    ctx.set_source_rgb(*rgb(GOLD))
    ctx.fill_preserve()
    ctx.set_line_width(8)
    ctx.set_source_rgb(*rgb('#9a6b12'))
    ctx.stroke()
    ctx.arc(0, 0, 40, 0, 2 * math.pi)
    ctx.set_line_width(6)
    ctx.stroke()
    ctx.set_source_rgb(*rgb(INK))   # its "1" in the corners
    ctx.select_font_face('DejaVu Sans', cairo.FONT_SLANT_NORMAL, cairo.FONT_WEIGHT_BOLD)
    ctx.set_font_size(54)
    ctx.move_to(-94, -104)
    ctx.show_text('1')
    ctx.rotate(math.pi)
    ctx.move_to(-94, -104)
    ctx.show_text('1')
    ctx.restore()
    return surface


if __name__ == '__main__':
    for size in (192, 512):
        draw(size).write_to_png(str(STATIC / f'icon-{size}.png'))
        print(STATIC / f'icon-{size}.png')
