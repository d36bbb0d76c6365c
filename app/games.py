"""The one list of the site's games. Pages, navigation and the home page read it."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class GameInfo:
    id: str              # URL and storage id: /play/<id>, /reglas/<id>
    engine: str          # module under app.engine and app.ai
    min_seats: int
    max_seats: int
    deck: str            # catalog key suffix: deck.<deck>
    sample_cards: tuple[str, ...]   # a few cards in the engine's notation, shown on the home page
    hand_end_events: frozenset[str] = frozenset()   # event kinds after which the table shows the count
    pause_actions: frozenset[str] = frozenset()     # action kinds answered on the count screen

    @property
    def name_key(self) -> str:
        return f'game.{self.id}.name'

    @property
    def summary_key(self) -> str:
        return f'game.{self.id}.summary'

    @property
    def play_path(self) -> str:
        return f'/play/{self.id}'


GAMES: tuple[GameInfo, ...] = (
    GameInfo('chinchon', 'chinchon', 2, 6, 'spanish40', ('1o', '2o', '3o', '4o'),
             hand_end_events=frozenset({'count', 'void_hand'}), pause_actions=frozenset({'buyback'})),
    GameInfo('ronda-robada', 'ronda_robada', 2, 4, 'spanish40', ('10c', '11c', '12c', '1c')),
    GameInfo('continental', 'continental', 2, 6, 'french108', ('7h', '8h', 'JK', '10h')),
)

GAMES_BY_ID: dict[str, GameInfo] = {game.id: game for game in GAMES}
