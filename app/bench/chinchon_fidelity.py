"""How faithfully the hard player's rollouts imitate the normal players they face.

    python -m app.bench.chinchon_fidelity [--seats 4] [--games 3] [--seed 7] [--samples 48] [--saving 4 8 12]

Normal players play whole games. At every discard decision of a hand, for every card the seat to
move could throw, the command compares what the next seat really does with that card on the pile
(normal's ``policy.take_edge`` on its true view) with what the rollouts assume (``search.greedy_takes``
with each ``--saving`` threshold): on the next seat's true hand, and on ``--samples`` hidden hands
dealt by ``search.sample_world`` as hard deals them (and by plain random deals, ``tries=1``). The
Brier score is the mean squared gap between the share of sampled hands that take and what the
next seat did (lower is better; "never takes" is the real take rate's baseline). It also prints
the next seat's mean deadwood in its true hand and in the sampled ones (how near to closing the
rollouts believe it is), and how often the rollouts' discard (the solver's least deadwood) is the
one normal threw.

The rollouts choose hard's moves, so a rollout that takes our card far more often than real
players do makes hard fear throwing it for nothing: tune the rollouts here, then prove the change
in the arena.
"""
from __future__ import annotations

import argparse
import random
import sys
from dataclasses import dataclass, field

from app.ai.chinchon import make_bot, policy
from app.ai.chinchon.knowledge import read_view
from app.ai.chinchon.search import TAKE_SAVING, Solver, greedy_takes, sample_world
from app.engine.chinchon import Close, Discard, Rules, new_game
from app.engine.chinchon.melds import card_index


@dataclass
class Tally:
    """Take predictions of one rule against the next seat's real takes."""
    cases: int = 0
    takes: float = 0.0
    agree: float = 0.0
    brier: float = 0.0

    def add(self, predicted: float, real: bool) -> None:
        self.cases += 1
        self.takes += predicted
        self.agree += 1.0 - abs(predicted - real)
        self.brier += (predicted - real) ** 2

    def row(self, name: str) -> str:
        n = max(1, self.cases)
        return f'{name:<28} {100 * self.takes / n:6.1f}% {100 * self.agree / n:8.1f}% {self.brier / n:8.4f}'


@dataclass
class Report:
    cases: int = 0
    real_takes: int = 0
    rules: dict[str, Tally] = field(default_factory=dict)
    discards: int = 0
    same_discard: int = 0
    positions: int = 0
    deadwood: dict[str, float] = field(default_factory=dict)   # summed over positions, per kind of hand

    def tally(self, name: str) -> Tally:
        return self.rules.setdefault(name, Tally())

    def lines(self) -> list[str]:
        n = max(1, self.cases)
        out = [f'{self.cases} cases (a card we could throw x a position); the next seat (normal) takes '
               f'{100 * self.real_takes / n:.1f}% of them',
               f'{"rollout rule":<28} {"takes":>7} {"agrees":>9} {"Brier":>8}',
               f'{"never takes":<28} {0.0:6.1f}% {100 - 100 * self.real_takes / n:8.1f}% '
               f'{self.real_takes / n:8.4f}']
        out += [tally.row(name) for name, tally in self.rules.items()]
        where = max(1, self.positions)
        out.append(f'the next seat\'s deadwood over {self.positions} positions: '
                   + ', '.join(f'{name} {total / where:.1f}' for name, total in self.deadwood.items()))
        out.append(f'discards: the solver\'s least deadwood is the card normal threw in '
                   f'{100 * self.same_discard / max(1, self.discards):.1f}% of {self.discards} discards')
        return out


def measure(seats: int, games: int, seed: int, samples: int, savings: list[int]) -> Report:
    """Play ``games`` normal games and tally every rule of the rollouts against the real play."""
    report = Report()
    master = random.Random(seed)
    solver = Solver()
    for _ in range(games):
        deal_seed = master.getrandbits(64)
        state = new_game(Rules(limit=100), seats, random.Random(deal_seed))
        bots = [make_bot('normal', random.Random(f'{deal_seed}:{seat}')) for seat in range(seats)]
        sampler = random.Random(f'{deal_seed}:samples')
        while state.outcome() is None:
            seat = state.current_seat
            view = state.view(seat)
            action = bots[seat].choose(view)
            if view.phase == 'discard':
                _decision(state, view, action, report, solver, sampler, samples, savings)
            state.apply(seat, action)
    return report


def _decision(state, view, action, report: Report, solver: Solver, sampler: random.Random,
              samples: int, savings: list[int]) -> None:
    kn = read_view(view)
    if isinstance(action, Discard):
        report.discards += 1
        hand = [card_index(card) for card in kn.hand]
        taken = card_index(kn.taken) if kn.taken is not None else -1
        report.same_discard += solver.turn(hand, taken)[0] == card_index(action.card)
    nxt = kn.next_seat
    if nxt is None or nxt == kn.seat or isinstance(action, Close):
        return
    theirs = read_view(state.view(nxt))      # the next seat's own knowledge, as it would decide
    true_hand = [card_index(card) for card in theirs.hand]
    sampled = {'sampled': [sample_world(kn, sampler).hands[nxt] for _ in range(samples)],
               'plain deals': [sample_world(kn, sampler, tries=1).hands[nxt] for _ in range(samples)]}
    report.positions += 1
    for name, hands in [('true hand', [true_hand])] + list(sampled.items()):
        report.deadwood[name] = report.deadwood.get(name, 0.0) + sum(map(solver.count, hands)) / len(hands)
    for card in dict.fromkeys(kn.hand):
        if card == kn.taken and kn.hand.count(card) == 1:
            continue
        t = card_index(card)
        theirs.top = card                    # thrown, the card is no longer unseen to the next seat
        theirs.unseen[t] -= 1
        theirs.unseen_total -= 1
        theirs.swaps = None
        real = policy.take_edge(theirs) > 0
        theirs.unseen[t] += 1
        theirs.unseen_total += 1
        report.cases += 1
        report.real_takes += real
        for saving in savings:
            report.tally(f'saving >= {saving}, true hand').add(greedy_takes(true_hand, t, solver, saving), real)
            for name, hands in sampled.items():
                share = sum(greedy_takes(hand, t, solver, saving) for hand in hands) / len(hands)
                report.tally(f'saving >= {saving}, {name}').add(share, real)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog='python -m app.bench.chinchon_fidelity', description=__doc__.split('\n')[0])
    parser.add_argument('--seats', type=int, default=4)
    parser.add_argument('--games', type=int, default=3)
    parser.add_argument('--seed', type=int, default=7)
    parser.add_argument('--samples', type=int, default=48, help='hidden hands dealt per position')
    parser.add_argument('--saving', type=int, nargs='+', default=[TAKE_SAVING],
                        help='take thresholds of the rollout rule to compare (points saved)')
    args = parser.parse_args(argv)
    if not 2 <= args.seats <= 6 or args.games < 1 or args.samples < 1:
        parser.error('seats 2-6, at least one game and one sample')
    for line in measure(args.seats, args.games, args.seed, args.samples, args.saving).lines():
        print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main())
