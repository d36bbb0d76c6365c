"""What the screens ask of each game: the other half of its plugin (app.games holds the half with
no screen, and cannot import this one: components sit above it).

One entry per game that can be played here: its ``GameInfo``, its table screen, the coach's words
for its options, its log's line for an event and any CSS of its board that the review draws too.
The pages, the review and the coach ask these entries; none of them knows a game by its id.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from app.games import GAMES_BY_ID, GameInfo
from components.chinchon import drawing as chinchon_drawing
from components.chinchon.log import event_line as chinchon_line
from components.chinchon.table import ChinchonTable
from components.continental import drawing as continental_drawing
from components.continental.log import event_line as continental_line
from components.continental.table import ContinentalTable
from components.review import coach_chinchon, coach_continental, coach_ronda_robada
from components.ronda_robada import drawing as ronda_drawing
from components.ronda_robada.log import event_line as ronda_line
from components.ronda_robada.table import RondaRobadaTable
from components.table.shell import TableScreen

# (event, names, reader, feminine=...) -> the log's line, or None for an event it does not show
EventLine = Callable[..., 'str | None']
# (the option's actions, the seat's view before it, every seat's name) -> "tirar el rey de copas"
OptionWords = Callable[[tuple[Any, ...], Any, 'Sequence[str | None] | None'], str]
# (a seat's view, every seat's name, the reader's seat, which names are feminine) -> markup
Picture = Callable[[Any, Sequence[str], int, Sequence[bool]], str]
# the same, for the hand's count: builds the game's count panel where it is called
CountPicture = Callable[[Any, Sequence[str], int, Sequence[bool]], None]


@dataclass(frozen=True, slots=True)
class GameScreens:
    game: GameInfo
    table: type[TableScreen]   # its table screen
    option_words: OptionWords  # the coach's words for one of its options
    event_line: EventLine      # its log's line for an event (``feminine``: which seats' names are)
    picture: Picture           # its board at one moment, still: the review draws it with the table's parts
    count_picture: CountPicture   # the hand's count as the table showed it
    hand_order: Callable[[Sequence[Any]], Sequence[Any]] = tuple   # how a hand is shown
    board_css: str = ''        # CSS its board needs beyond the shared table's, in the review too


SCREENS: tuple[GameScreens, ...] = (
    GameScreens(GAMES_BY_ID['chinchon'], ChinchonTable, coach_chinchon.option_words, chinchon_line,
                chinchon_drawing.picture, chinchon_drawing.count_picture),
    GameScreens(GAMES_BY_ID['ronda-robada'], RondaRobadaTable, coach_ronda_robada.option_words, ronda_line,
                ronda_drawing.picture, ronda_drawing.count_picture, board_css=ronda_drawing.RONDA_CSS),
    GameScreens(GAMES_BY_ID['continental'], ContinentalTable, coach_continental.option_words, continental_line,
                continental_drawing.picture, continental_drawing.count_picture,
                hand_order=continental_drawing.display_order),
)


def screens_of(game_id: str) -> GameScreens | None:
    """The entry of a game, None for a game with no screens yet."""
    return next((entry for entry in SCREENS if entry.game.id == game_id), None)
