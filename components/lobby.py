"""One line of the lobby: a public table's game, rules, who sits there and how it stands. Drawn
as one piece of markup from the values the lobby read (app.pages.lobby), all of it escaped."""
from __future__ import annotations

import math
from html import escape
from typing import Any

from app.games import GameInfo
from app.i18n import t

LOBBY_CSS = '''
.hod-chip { padding: 4px 12px; border-radius: 999px; border: 1px solid #9bb5a3; color: #1d4d2c;
  text-decoration: none; font-weight: 600; }
.hod-chip-on { background: #1d4d2c; color: white; border-color: #1d4d2c; }
.hod-lobby-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 12px; width: 100%;
  background: white; border: 1px solid #d9e2dc; border-radius: 10px; padding: 10px 12px; }
.hod-badge { display: inline-block; font-size: 0.75rem; font-weight: 600; border-radius: 6px;
  padding: 1px 7px; margin-left: 4px; }
.hod-badge-rated { background: #fef3c7; color: #92400e; }
.hod-badge-friendly { background: #e0f2fe; color: #075985; }
.hod-badge-waiting { background: #dcfce7; color: #166534; }
.hod-badge-playing { background: #f3f4f6; color: #374151; }
.hod-lobby-people { display: flex; flex-wrap: wrap; gap: 2px 10px; font-size: 0.9rem; color: #374151; }
.hod-lobby-free { color: #166534; font-style: italic; }
.hod-lobby-what { flex: 1 1 16rem; min-width: 0; }   /* on a phone the buttons go below */
.hod-lobby-why { flex: 1 0 100%; display: flex; flex-wrap: wrap; justify-content: flex-end; align-items: baseline;
  column-gap: 8px; font-size: 0.875rem; color: #374151; }   /* why a seat is greyed, under the buttons */
'''


def rules_summary(game: GameInfo, rules: dict[str, Any]) -> list[str]:
    """The rule options a table chose, as a player reads them ("Límite 50", "Recompra")."""
    words = []
    for option in game.options:
        value = rules.get(option.name, option.default)
        if option.value_keys and value in option.values:
            words.append(t(option.value_keys[option.values.index(value)]))
        elif not option.value_keys and value is True:
            words.append(t(option.label_key))
    return words


def seat_words(seat: dict[str, Any]) -> str:
    kind, name = seat.get('kind'), escape(str(seat.get('name', '')))
    if kind == 'free':
        return f'<span class="hod-lobby-free">{escape(t("lobby.free_seat"))}</span>'
    rating = seat.get('rating')
    shown = f' <b>{int(rating[0])}{"?" if rating[1] else ""}</b>' if isinstance(rating, list) and len(rating) == 2 else ''
    if kind == 'computer':
        level = t(f'history.level.{seat.get("level") or "normal"}')   # lower case inside a sentence
        return f'<span>{name} <span class="text-gray-500">({escape(t("lobby.computer", level=level))})</span>{shown}</span>'
    return f'<span data-testid="lobby-person">{name}{shown}</span>'


def start_words(row: dict[str, Any], now: float) -> str | None:
    """When a waiting table starts, from its own deadline (``fill_at``, the epoch's seconds on the
    tables' clock) against ``now`` on that same clock: never the reader's clock. A quick match
    starts when full or when its wait is over; a table opened from the room form, when full or
    when whoever opened it starts it."""
    if row['stage'] != 'waiting':
        return None
    fill_at = row.get('fill_at')
    if fill_at is None:
        return t('lobby.starts_host')
    left = math.ceil(fill_at - now)
    return t('lobby.starts_in', seconds=left) if left > 0 else t('lobby.starts_now')


def lobby_row_html(game: GameInfo, row: dict[str, Any]) -> str:
    stage = row['stage']
    badges = [('rated', t('lobby.rated')) if row['rated'] else ('friendly', t('lobby.unrated')),
              (stage, t(f'lobby.stage.{stage}'))]
    details = [t('quick.seats', count=row['seats']), *rules_summary(game, row.get('rules') or {})]
    if stage == 'waiting':
        details.append(t('lobby.free_seats' + ('.one' if row['free_seats'] == 1 else ''), count=row['free_seats']))
    if row.get('spectators'):
        details.append(t('lobby.spectators' + ('.one' if row['spectators'] == 1 else ''), count=row['spectators']))
    people = ''.join(seat_words(seat) for seat in row.get('people') or [])
    return (f'<div><span class="font-bold">{escape(t(game.name_key))}</span>'
            + ''.join(f'<span class="hod-badge hod-badge-{kind}">{escape(text)}</span>' for kind, text in badges)
            + f'</div><div class="text-sm text-gray-600">{escape(" · ".join(details))}</div>'
            f'<div class="hod-lobby-people">{people}</div>')
