"""The hand log of any table: public events put in words, newest first, in the reader's language."""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from app.i18n import CATALOGS, current_language, translate
from app.tables.room import ROOM_EVENTS

EventLine = Callable[[dict[str, Any], Sequence[str], int], 'str | None']   # (event, names, reader) -> line


def speaker(seat: int | None, reader: int) -> Callable[..., str]:
    """``say(key, **params)``: the message in the current language, in its ``<key>.you`` form (the
    second person) when the event's actor is the reader and the catalog has that form."""
    language = current_language()

    def say(key: str, **params: Any) -> str:
        personal = f'{key}.you'
        return translate(language, personal if seat == reader and personal in CATALOGS[language] else key, **params)
    return say


def reading(event: dict[str, Any], names: Sequence[str], reader: int) -> tuple[str, dict[str, Any], Callable[..., str], str]:
    """An event as a game's ``event_line`` reads it: (kind, data, say, the actor's name or '')."""
    seat = event.get('seat')
    return event['kind'], event.get('data', {}), speaker(seat, reader), names[seat] if seat is not None else ''


def winners_line(key: str, winners: Sequence[int], names: Sequence[str], reader: int) -> str:
    """The end of a game: ``<key>.you`` when you alone win, else the winners by name."""
    sole = winners[0] if len(winners) == 1 else None
    return speaker(sole, reader)(key, names=', '.join(names[seat] for seat in winners))


def room_line(event: dict[str, Any], names: Sequence[str], reader: int) -> str:
    """What the table itself says at a room: who sat down, whose seat a computer plays, who is back."""
    kind, data, say, name = reading(event, names, reader)
    if kind == 'stand_in':
        return say(f'log.room.stand_in.{data.get("reason", "clock")}', name=name)
    return say(f'log.room.{kind}', name=name)


def log_lines(events: Sequence[dict[str, Any]], names: Sequence[str], reader: int, event_line: EventLine,
              limit: int = 30, cache: dict[int, tuple[dict[str, Any], str | None]] | None = None) -> list[str]:
    """The newest ``limit`` lines, newest first. A table passes the same ``cache`` on every move:
    each event is then put in words once, not once per move."""
    if cache is not None and len(cache) > 4 * max(len(events), limit):
        cache.clear()
    lines = []
    for event in reversed(events):
        if event['kind'] in ROOM_EVENTS:
            lines.append(room_line(event, names, reader))
            if len(lines) == limit:
                break
            continue
        hit = cache.get(id(event)) if cache is not None else None
        if hit is not None and hit[0] is event:
            line = hit[1]
        else:
            line = event_line(event, names, reader)
            if cache is not None:
                cache[id(event)] = (event, line)
        if line:
            lines.append(line)
            if len(lines) == limit:
                break
    return lines
