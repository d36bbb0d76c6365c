"""The meld builder's reasoning, apart from the screen: what a group of cards is, why it is not a
meld yet, where its joker stands when a run could take it at either end, and how far the
hand's contract is met. Everything here answers from the engine's own rules (app.engine.continental)."""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from app.engine.cards import Card
from app.engine.continental import Contract, arrange_run, is_set, run_start
from app.engine.continental.melds import ACE_HIGH, RUN_MIN, SET_MIN


@dataclass(frozen=True, slots=True)
class GroupCheck:
    """``kind`` 'set' or 'run' when the group is a meld; else ``reason`` (a catalog key) and its
    ``params``. ``ordered`` is a run's layout, low to high, with its joker where it stands."""

    kind: str | None
    reason: str | None = None
    params: dict[str, Any] = field(default_factory=dict)
    ordered: tuple[Card, ...] = ()
    joker_choice: bool = False    # a spare joker could stand at either end of this run


def check_group(cards: list[Card], joker_low: bool = False) -> GroupCheck:
    """What ``cards`` make, or why they make nothing yet."""
    naturals = [card for card in cards if not card.is_joker]
    if not naturals:
        return GroupCheck(None, 'meld.reason.no_natural')
    if is_set(cards):
        return GroupCheck('set', ordered=tuple(cards))
    same_rank = len({card.rank for card in naturals}) == 1
    if same_rank:   # a set in the making
        return GroupCheck(None, 'meld.reason.set_size', {'count': SET_MIN})
    if len({card.suit for card in naturals}) != 1:
        return GroupCheck(None, 'meld.reason.mixed')
    if len({card.rank for card in naturals}) != len(naturals):
        return GroupCheck(None, 'meld.reason.repeated')
    arranged = arrange_run(cards)
    if arranged is None:
        if len(cards) < RUN_MIN:
            return GroupCheck(None, 'meld.reason.run_size', {'count': RUN_MIN})
        if _jokers_side_by_side(naturals, len(cards) - len(naturals)):
            return GroupCheck(None, 'meld.reason.jokers_together')
        return GroupCheck(None, 'meld.reason.gap')
    ordered = arranged[1]
    other = _other_end(ordered)
    if other is None:
        return GroupCheck('run', ordered=ordered)
    low_first = ordered if ordered[0].is_joker else other
    high_first = other if ordered[0].is_joker else ordered
    return GroupCheck('run', ordered=low_first if joker_low else high_first, joker_choice=True)


def _other_end(ordered: tuple[Card, ...]) -> tuple[Card, ...] | None:
    """The same run with its end joker moved to the other end, when that is valid too."""
    if ordered[-1].is_joker and not ordered[-2].is_joker:
        moved = (ordered[-1],) + ordered[:-1]
    elif ordered[0].is_joker and not ordered[1].is_joker:
        moved = ordered[1:] + (ordered[0],)
    else:
        return None
    return moved if run_start(moved) is not None and moved != ordered else None


def _jokers_side_by_side(naturals: list[Card], jokers: int) -> bool:
    """The naturals leave a gap only two jokers side by side could fill."""
    values = sorted(card.rank for card in naturals)
    alternatives = [values] + ([sorted(ACE_HIGH if v == 1 else v for v in values)] if 1 in values else [])
    return jokers >= 2 and all(any(b - a - 1 >= 2 for a, b in zip(vs, vs[1:])) for vs in alternatives)


@dataclass(frozen=True, slots=True)
class ContractProgress:
    sets: int
    runs: int
    wanted: Contract
    extra: int           # valid groups beyond what the contract asks
    invalid: int         # groups that are no meld yet
    cards_left: int      # cards that would stay in hand

    @property
    def met(self) -> bool:
        return self.sets == self.wanted.sets and self.runs == self.wanted.runs and not self.extra \
            and not self.invalid

    @property
    def ready(self) -> bool:
        """The contract exactly, with a card kept to discard."""
        return self.met and self.cards_left >= 1


def progress(checks: list[GroupCheck], wanted: Contract, hand_size: int, used: int) -> ContractProgress:
    kinds = Counter(check.kind for check in checks)
    extra = max(0, kinds['set'] - wanted.sets) + max(0, kinds['run'] - wanted.runs)
    return ContractProgress(min(kinds['set'], wanted.sets), min(kinds['run'], wanted.runs), wanted, extra,
                            kinds[None], hand_size - used)
