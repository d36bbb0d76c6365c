"""The other seats as compact strips above the board, and your own seat as one line above your hand.

A strip says what a player at a real table sees of a neighbour: name, dealer's mark, points, the
backs of the cards they hold (fanned, with their count), the cards they took from the discard pile
and the one they just threw. Every strip keeps one size whatever it holds, so a computer taking a
card never pushes the piles or your hand; on a phone two or three strips share a row (about 60 px
tall each) instead of one empty box per seat.

At a room a seat's name also carries its marks (``SeatMarks``): the person's rating at a rated
table, a computer standing in for the person, or the person away. Every game's seats draw them
with ``marks_html``, so the three games say it alike."""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from app.engine.cards import Card
from app.i18n import counted, personal, t
from components.card import card_html, the_card
from components.controls import icon_html
from components.live import Pieces

SEATS_CSS = '''
.hod-strips { display: grid; grid-template-columns: repeat(var(--hod-cols), minmax(0, 13rem)); justify-content: center;
  gap: 6px; }
@media (max-width: 640px) { .hod-strips { grid-template-columns: repeat(var(--hod-cols-narrow), minmax(0, 1fr));
  gap: 4px; } }
.hod-seat { background: rgba(0,0,0,.22); border-radius: 10px; padding: 3px 8px 4px; border: 2px solid transparent;
  display: flex; flex-direction: column; gap: 2px; min-width: 0; height: 66px; overflow: hidden; }
.hod-seat.hod-turn { border-color: var(--hod-gold); box-shadow: 0 0 12px rgba(224,179,65,.6); }
.hod-seat.hod-out { opacity: .5; }
.hod-seat-head { display: flex; align-items: center; gap: 4px; white-space: nowrap; font-size: 13px; line-height: 18px; }
.hod-seat-name { font-weight: 700; overflow: hidden; text-overflow: ellipsis; min-width: 0; }
.hod-seat-points { margin-left: auto; opacity: .9; flex: none; }
.hod-seat-head .hod-chip { flex: none; font-size: 10px; }
.hod-seat-row { display: flex; gap: 8px; align-items: flex-end; min-height: 0; flex: 1; }
.hod-backs { display: flex; align-items: center; flex: none; }
.hod-backs .hod-card { width: 22px; } .hod-backs .hod-card + .hod-card { margin-left: -16px; }
.hod-backs-count { margin-left: 4px; font-size: 12px; font-weight: 700; }
.hod-seat-cards { display: flex; align-items: center; gap: 3px; font-size: 10px; line-height: 12px; opacity: .95;
  min-width: 0; }
.hod-seat-cards .hod-card { width: 26px; } .hod-seat-cards .hod-fan > * + * { margin-left: -18px; }
@media (max-width: 640px) { .hod-seat { height: 60px; padding: 2px 6px 3px; }
  .hod-seat-head { font-size: 12px; gap: 3px; }   /* a dealer's name and points fit a 360 px phone's third */
  .hod-seat-cards > span { display: none; } .hod-seat-cards .hod-card { width: 22px; } .hod-seat-row { gap: 6px; } }
.hod-short { display: none; }
@media (max-width: 640px) { .hod-seat .hod-short { display: inline; } .hod-seat .hod-long { display: none; } }
.hod-own-line { display: flex; align-items: center; justify-content: safe center; gap: 8px; height: 26px; font-size: 13px;
  white-space: nowrap; overflow: hidden; flex: none; }
.hod-own-line > * { flex: none; }
.hod-own-line > [data-testid=own-count] { flex: 0 1 auto; min-width: 0; overflow: hidden; text-overflow: ellipsis; }
@media (max-width: 640px) { .hod-own-line { font-size: 12px; gap: 6px; } }
.hod-own-line .hod-me { font-weight: 700; border-radius: 8px; padding: 0 8px; border: 2px solid transparent; }
.hod-own-line .hod-me.hod-turn { border-color: var(--hod-gold); }
.hod-own-line .hod-notice { padding: 1px 8px; }
.hod-mark { display: inline-flex; align-items: center; gap: 2px; min-width: 0; overflow: hidden; white-space: nowrap;
  text-overflow: ellipsis; background: rgba(255,255,255,.88); }
.hod-mark .material-icons { font-size: 12px; flex: none; }
.hod-mark-text { overflow: hidden; text-overflow: ellipsis; min-width: 0; }
/* in a strip, who plays the seat goes beside its cards, where its words have two lines */
.hod-seat-row > .hod-mark { margin-left: auto; align-self: center; flex: 0 1 auto; min-width: 2rem; font-size: 10px;
  line-height: 12px; white-space: normal; padding: 1px 6px; }
.hod-seat-row > .hod-mark .hod-mark-text { display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; }
.hod-mark.hod-away { background: rgba(255,255,255,.55); }
.hod-seat-rating { flex: none; font-size: 11px; font-weight: 600; opacity: .85; font-variant-numeric: tabular-nums; }
/* on a phone a seat is a third of the width: its marks are their icons, their words read aloud only */
@media (max-width: 640px) { .hod-mark-text { position: absolute; width: 1px; height: 1px; overflow: hidden;
  clip: rect(0 0 0 0); white-space: nowrap; } .hod-mark { padding: 0 3px; }
  .hod-seat-row > .hod-mark { min-width: 0; padding: 2px 4px; } }
'''

MOST_BACKS = 8          # a strip fans at most this many backs; the count says the rest
NARROW_COLUMNS = {1: 1, 2: 2, 3: 3, 4: 2, 5: 3, 6: 3}   # strips per row on a phone, per number of strips


@dataclass(frozen=True, slots=True)
class SeatInfo:
    seat: int
    name: str
    score: int
    cards: int
    dealer: bool
    on_turn: bool
    out: bool
    taken: tuple[Card, ...] = ()
    note: str = ''
    discarded: Card | None = None   # the card this seat discarded since your last move
    you: bool = False               # your own seat: its labels speak to you


@dataclass(frozen=True, slots=True)
class SeatMarks:
    """What a room tells of a person's seat beside their name (nothing, at a table that is no room)."""

    stand_in: bool = False                   # a computer plays this person's seat now
    away: bool = False                       # the person has no screen open (no computer stands in yet)
    rating: tuple[int, bool] | None = None   # a rated table: (shown rating, provisional)


NO_MARKS = SeatMarks()


def marks_html(marks: SeatMarks, seat: int, name: str, *, you: bool = False) -> str:
    """A seat's marks as they go after its name: the rating, then who plays the seat now."""
    return rating_html(marks, seat, name, you=you) + presence_html(marks, seat, name, you=you)


def rating_html(marks: SeatMarks, seat: int, name: str, *, you: bool = False) -> str:
    """A rated table's rating ("1523", "1500?" while provisional), its meaning in the title."""
    if marks.rating is None:
        return ''
    shown, provisional = marks.rating
    words = personal('seat.rating' + ('_provisional' if provisional else ''), you=you, name=name, rating=shown)
    return (f'<span class="hod-seat-rating" data-testid="seat-rating" data-seat="{seat}" '
            f'data-provisional="{str(provisional).lower()}" title="{escape(words)}" aria-label="{escape(words)}">'
            f'{shown}{"?" if provisional else ""}</span>')


def presence_html(marks: SeatMarks, seat: int, name: str, *, you: bool = False) -> str:
    """A computer standing in ("la máquina juega por Ana"), or else the person away ("se ha ido")."""
    if marks.stand_in:
        words = personal('seat.stand_in', you=you, name=name)
        return (f'<span class="hod-chip hod-mark hod-stand-in" data-testid="stand-in" data-seat="{seat}" '
                f'title="{escape(words)}">{icon_html("smart_toy")}<span class="hod-mark-text">{escape(words)}</span></span>')
    if marks.away:
        words = t('seat.away_help', name=name)
        return (f'<span class="hod-chip hod-mark hod-away" data-testid="away" data-seat="{seat}" '
                f'title="{escape(words)}">{icon_html("logout")}<span class="hod-mark-text">'
                f'{escape(t("seat.away"))}</span></span>')
    return ''


def dealer_chip() -> str:
    """The dealer's mark: its word, or on a phone its first letter (a strip there is a third of
    the width; the word is in its title)."""
    return (f'<span class="hod-chip" title="{escape(t("table.dealer_help"))}"><span class="hod-long">'
            f'{escape(t("table.dealer"))}</span><span class="hod-short" aria-hidden="true">'
            f'{escape(t("table.dealer_short"))}</span></span>')


def backs_html(count: int) -> str:
    """The backs of the cards a seat holds, fanned, and their number (what a neighbour sees)."""
    back = '<img class="hod-card" src="/cards/back.svg" alt="" draggable="false">'
    return (f'<div class="hod-backs" aria-hidden="true" title="{escape(counted("amount.cards", count))}">'
            f'{back * min(count, MOST_BACKS)}<span class="hod-backs-count" data-testid="seat-cards">{count}</span></div>')


def seat_html(info: SeatInfo, marks: SeatMarks = NO_MARKS) -> str:
    """One seat as a strip: name, dealer's mark, note, points; its cards' backs, the cards it took
    from the discard pile and the one it discarded since your last move."""
    classes = 'hod-seat' + (' hod-turn' if info.on_turn else '') + (' hod-out' if info.out else '')
    label = t('table.seat_aria', name=info.name, score=counted('amount.points', info.score),
              cards=counted('amount.cards', info.cards))
    note = f'<span class="hod-chip hod-chip-light">{escape(info.note)}</span>' if info.note else ''
    cards = [backs_html(info.cards)]
    if info.taken:
        cards.append(f'<div class="hod-seat-cards" '
                     f'aria-label="{escape(personal("table.taken_aria", you=info.you, name=info.name))}">'
                     f'<span>{escape(t("table.taken"))}</span><div class="hod-fan">'
                     + ''.join(card_html(card, size='xs') for card in info.taken[-3:]) + '</div></div>')
    if info.discarded is not None:   # every discard stays in view until your turn, even when covered
        cards.append(f'<div class="hod-seat-cards" data-testid="seat-discard" aria-label="'
                     f'{escape(personal("table.discarded_aria", you=info.you, name=info.name, card=the_card(info.discarded)))}">'
                     f'<span>{escape(t("table.discarded"))}</span>{card_html(info.discarded, size="xs")}</div>')
    return (f'<div class="{classes}" data-testid="seat" data-seat="{info.seat}" role="group" '
            f'aria-label="{escape(label)}">'
            f'<div class="hod-seat-head"><span class="hod-seat-name">{escape(info.name)}</span>'
            f'{rating_html(marks, info.seat, info.name, you=info.you)}{dealer_chip() if info.dealer else ""}{note}'
            f'<span class="hod-seat-points">{escape(counted("table.points", info.score))}</span></div>'
            f'<div class="hod-seat-row">{"".join(cards)}{presence_html(marks, info.seat, info.name, you=info.you)}'
            f'</div></div>')


def seats_html(infos: Sequence[SeatInfo], marks: Sequence[SeatMarks] = ()) -> str:
    return str(seats_pieces(infos, marks))


def seats_pieces(infos: Sequence[SeatInfo], marks: Sequence[SeatMarks] = ()) -> Pieces:
    """The other seats, drawn as one block (a table update then costs one element, not dozens), a
    piece per seat (a move sends the seats it changed); ``marks``: a room's, per seat."""
    count = max(1, len(infos))
    return Pieces(f'<div class="hod-strips" style="--hod-cols: {count}; --hod-cols-narrow: {NARROW_COLUMNS.get(count, 3)}">',
                  tuple(seat_html(info, mark_of(marks, info.seat)) for info in infos))


def mark_of(marks: Sequence[SeatMarks], seat: int) -> SeatMarks:
    return marks[seat] if seat < len(marks) else NO_MARKS


def own_line_html(info: SeatInfo, *extra: str, title: str | None = None, marks: SeatMarks = NO_MARKS) -> str:
    """Your seat, one line over your hand: your name (or the game's ``title`` of your seat, which
    says your points itself), dealer's mark, points, and what the game adds (your count, a
    notice); it keeps its height whatever it says."""
    classes = 'hod-me' + (' hod-turn' if info.on_turn else '')
    points = '' if title else f'<span>{escape(counted("table.points", info.score))}</span>'
    return (f'<div class="hod-own-line" data-testid="own-seat" data-seat="{info.seat}">'
            f'<span class="{classes}">{escape(title or info.name)}</span>{marks_html(marks, info.seat, info.name, you=True)}'
            f'{dealer_chip() if info.dealer else ""}'
            f'{points}{"".join(extra)}</div>')
