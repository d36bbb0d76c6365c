"""The coach's words for a Continental option: an infinitive phrase that fits "{chosen} te costó
unos {points}: mejor {best}." / "{chosen} cost you about {points}: {best} was better." (the screen
capitalises it).

A discard stands for more than the card when the seat could have gone down or laid a card off
(app.coach.continental writes "not yet" and "not laying off" as the turn's discard), so
its words say so; going down names the cards kept when it is not the solver's arrangement, so that
two ways of going down never read alike.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from app.engine.continental import DrawStock, GoDown, LayOff, PassOffer, TakeOffer, View
from app.i18n import names_list, t
from components.card import the_card


def option_words(actions: tuple, view: View, names: Sequence[str | None] | None = None) -> str:
    """The option's actions said one after the other (no other seat is named: ``names`` is there
    for the games whose options name one)."""
    return names_list([_words(action, view) for action in actions])


def _words(action: Any, view: View) -> str:
    legal = view.legal_actions
    if isinstance(action, TakeOffer):
        on_turn = view.offer is None or view.offer.on_turn == view.seat
        card = the_card(view.offer.card if view.offer is not None else view.discard_top)
        return t('coach.continental.keep' if on_turn else 'coach.continental.rob', card=card)
    if isinstance(action, PassOffer):
        return t('coach.continental.pass')
    if isinstance(action, DrawStock):
        return t('coach.continental.draw')
    if isinstance(action, GoDown):
        solvers = next((other for other in legal if isinstance(other, GoDown)), None)
        if solvers is None or _kept(view, action) == _kept(view, solvers):
            return t('coach.continental.down')
        return t('coach.continental.down_keeping', cards=names_list([the_card(card) for card in _kept(view, action)]))
    if isinstance(action, LayOff):
        return t('coach.continental.lay_off', card=the_card(action.card))
    card = the_card(action.card)
    if any(isinstance(other, GoDown) for other in legal):
        return t('coach.continental.wait', card=card)
    if any(isinstance(other, LayOff) for other in legal):
        return t('coach.continental.discard_no_lay_off', card=card)
    return t('coach.continental.discard', card=card)


def _kept(view: View, action: GoDown) -> list:
    left = Counter(view.hand)
    left.subtract(card for meld in action.melds for card in meld)
    return sorted(left.elements())


