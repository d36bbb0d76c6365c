"""An account's whole history as a file to keep: JSON for programs, CSV for spreadsheets.

Both hold every recorded game (abandoned ones too) with its options, players and result, and every
hand with each seat's points, its seed and the seed's fingerprint, so that each deal can be rebuilt
(README: fair deal). Both are written as they are read, a batch of games at a time
(`history.every_game`), so a long history is never held in memory whole.

JSON keys are English and stable (a format for programs, named in "format"); CSV headers, game
names and yes/no are in the reader's language, since a person opens it. Times are ISO 8601 in UTC.
CSV has one row per hand, the game's columns repeated on each; a game with no hand recorded has
one row with the hand's cells empty. Each seat has its columns, up to the most seats a game has.
"""
from __future__ import annotations

import csv
import io
import json
import unicodedata
from collections.abc import Iterable, Iterator
from datetime import datetime

from app.accounts import Account
from app.daily.tries import seeds_held
from app.games import GAMES, GAMES_BY_ID
from app.history import GameDetail, HandRecord, every_game
from app.i18n import translate

FORMAT = 'house-of-decks-history/1'
MOST_SEATS = max(game.max_seats for game in GAMES)
FORMULA_SIGNS = ('=', '+', '-', '@')
CONTROL_STARTS = ('\t', '\r')


def filename(extension: str, when: datetime) -> str:
    return f'house-of-decks-history-{when:%Y-%m-%d}.{extension}'


# JSON

def history_json(account: Account, exported_at: datetime) -> Iterator[str]:
    """The JSON document, in pieces: its head, then each game as it is read."""
    head = json.dumps({'format': FORMAT, 'exported_at': exported_at.isoformat(),
                       'account': {'username': account.username, 'display_name': account.display_name,
                                   'created_at': account.created_at.isoformat()}}, ensure_ascii=False)
    yield head[:-1] + ', "games": ['
    for index, detail in enumerate(every_game(user_id=account.id)):
        yield (', ' if index else '') + json.dumps(game_json(detail), ensure_ascii=False)
    yield ']}\n'


def game_json(detail: GameDetail) -> dict:
    record, held = detail.record, _seeds_held(detail)
    return {
        'record': record.id, 'game': record.game_id,
        'started_at': record.started_at.isoformat(), 'ended_at': record.ended_at.isoformat(),
        'abandoned': record.abandoned, 'hands_played': record.hands_played,
        'computer_level': record.computer_level, 'options': detail.options,
        'result': {'score': record.score, 'placement': record.placement, 'won': record.won},
        # 'you': this account's seat; 'name_or_level': a person's name, a computer's level
        'players': [{'seat': number, 'name': seat.name or seat.name_or_level, 'you': seat.is_human,
                     'name_or_level': seat.name_or_level, 'final_score': seat.final_score,
                     'placement': seat.placement, 'is_winner': seat.is_winner}
                    for number, seat in enumerate(record.seats, 1)],
        'hands': [{'number': hand.number, 'fingerprint': hand.commitment, 'seed': None if held else hand.seed,
                   'points': None if hand.points is None else list(hand.points), 'void': hand.void}
                  for hand in detail.hands],
    }


def _seeds_held(detail: GameDetail) -> bool:
    """A daily deal's hand seeds stay out of the file until its day is over (app.daily.tries)."""
    return seeds_held(str(detail.options.get('daily', '')))


# CSV

def history_csv(account: Account, language: str) -> Iterator[str]:
    """The CSV file, in pieces: the header row, then each game's rows as they are read. It starts
    with a byte-order mark, which spreadsheets need to read UTF-8 (José, Chinchón) as such."""
    yield '\ufeff' + _rows([header(language)])
    for detail in every_game(user_id=account.id):
        yield _rows(game_rows(detail, language))


def header(language: str) -> list[str]:
    def word(key: str, **params: object) -> str:
        return translate(language, f'export.col.{key}', **params)

    columns = [word(key) for key in ('record', 'game', 'started', 'ended', 'abandoned', 'level', 'options',
                                     'hands_played', 'score', 'placement', 'won')]
    for n in range(1, MOST_SEATS + 1):
        columns += [word('seat', n=n), word('seat_total', n=n), word('seat_place', n=n)]
    columns += [word(key) for key in ('hand', 'fingerprint', 'seed', 'void')]
    return columns + [word('seat_points', n=n) for n in range(1, MOST_SEATS + 1)]


def game_rows(detail: GameDetail, language: str) -> list[list[object]]:
    record = detail.record
    yes_no = {True: translate(language, 'export.yes'), False: translate(language, 'export.no')}
    game = GAMES_BY_ID.get(record.game_id)
    cells: list[object] = [record.id, translate(language, game.name_key) if game else record.game_id,
                           record.started_at.isoformat(), record.ended_at.isoformat(), yes_no[record.abandoned],
                           record.computer_level, json.dumps(detail.options, ensure_ascii=False, sort_keys=True),
                           record.hands_played, record.score, record.placement, yes_no[record.won]]
    for n in range(MOST_SEATS):
        seat = record.seats[n] if n < len(record.seats) else None
        cells += [seat.name or seat.name_or_level, seat.final_score, seat.placement] if seat else ['', '', '']
    hands: Iterable[HandRecord | None] = detail.hands or [None]
    held = _seeds_held(detail)
    return [cells + hand_cells(hand, yes_no, held=held) for hand in hands]


def hand_cells(hand: HandRecord | None, yes_no: dict[bool, str], *, held: bool = False) -> list[object]:
    if hand is None:
        return [''] * (4 + MOST_SEATS)
    points = list(hand.points or ())
    return [hand.number, hand.commitment, '' if held else hand.seed, yes_no[hand.void],
            *(points[n] if n < len(points) else '' for n in range(MOST_SEATS))]


def _rows(rows: list[list[object]]) -> str:
    out = io.StringIO()
    csv.writer(out).writerows([[_inert(cell) for cell in row] for row in rows])
    return out.getvalue()


def _inert(cell: object) -> object:
    """A text cell a spreadsheet would run as a formula (a name another player chose: '=HYPERLINK(…)')
    starts with an apostrophe instead (OWASP's CSV injection advice); numbers stay numbers. Spreadsheets
    skip leading spaces and read fullwidth signs ('＝', '＋') as the signs, so the sign is looked for
    after both: NFKC folds those to ASCII, and Unicode spaces (no-break, ideographic) are stripped."""
    if not isinstance(cell, str):
        return cell
    looks_like = unicodedata.normalize('NFKC', cell).lstrip()
    return f"'{cell}" if cell.startswith(CONTROL_STARTS) or looks_like.startswith(FORMULA_SIGNS) else cell
