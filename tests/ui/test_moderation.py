"""Moderators (app.moderation, app.admin, /admin): granted and revoked from the command line, each
act in the audit; /admin is the ordinary 404 for a guest and an ordinary account; a moderator sees
the marked rated games, hides an account from the rankings with a reason (refused without one, for
an unknown account and twice), the person reads the reason on the ranking, and the act is undone
from the audit, the ranking whole again; a renamed account shows a neutral name and its owner
chooses another at the next sign-in."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from nicegui.testing import User
from people import log_in, log_in_and_see_history, new_account, register_and_log_in
from seams import sees
from test_account import landed_on

from app import accounts, admin, moderation
from app.accounts import get_account
from app.i18n import CATALOGS
from app.standings import leaderboard, record_rated_game

pytestmark = pytest.mark.usefixtures('fresh_accounts')

ES = CATALOGS['es']


@pytest.fixture(autouse=True)
def one_game_ranks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv('HOD_RANKING_MIN_GAMES', '1')


def ranked() -> list[str]:
    return [row.name for row in leaderboard(game_id='chinchon', now=datetime.now(UTC))]


def a_rated_game(winner: int, loser: int, *, marked: bool = False) -> None:
    record_rated_game(game_id='chinchon', table_id=f'table-{winner}-{loser}', people={0: winner, 1: loser},
                      computers={}, placements=[1, 2], marked={winner, loser} if marked else set(),
                      at=datetime.now(UTC))


async def test_admin_is_the_ordinary_404_for_a_guest_and_an_ordinary_account(user: User) -> None:
    async def admin_page() -> str:
        response = await user.http_client.get('/admin')
        assert response.status_code == 404
        return response.text
    assert ES['not_found.title'] in await admin_page() and ES['admin.act.title'] not in await admin_page()
    await register_and_log_in(user, 'Ana')
    assert ES['not_found.title'] in await admin_page() and ES['admin.act.title'] not in await admin_page()
    admin.main(['grant', 'Ana'])
    response = await user.http_client.get('/admin')       # the same browser, now a moderator's
    assert response.status_code == 200 and ES['admin.act.title'] in response.text


def test_the_command_line_grants_and_revokes_and_each_is_in_the_audit(capsys) -> None:
    mod = new_account('Marta')
    assert admin.main(['grant', 'marta', '--reason', 'runs the site']) == 0
    assert moderation.is_moderator(mod)
    assert admin.main(['grant', 'Nadie']) == 1 and 'no account' in capsys.readouterr().err
    assert admin.main(['revoke', 'Marta']) == 0
    assert not moderation.is_moderator(mod)
    assert [(entry.action, entry.target, entry.moderator, entry.reason) for entry in moderation.audit()] == [
        ('revoke', 'Marta', None, ''), ('grant', 'Marta', None, 'runs the site')]


def test_undoing_a_grant_takes_the_role_back_but_not_ones_own() -> None:
    marta, pablo = new_account('Marta'), new_account('Pablo')
    moderation.grant('Marta')
    moderation.grant('Pablo')
    granted = {entry.target: entry.id for entry in moderation.audit()}
    with pytest.raises(moderation.AccountError) as refusal:
        moderation.undo(marta, granted['Marta'])
    assert refusal.value.key == 'admin.error.own_role' and moderation.is_moderator(marta)
    moderation.undo(pablo, granted['Marta'])
    assert not moderation.is_moderator(marta) and moderation.is_moderator(pablo)
    with pytest.raises(moderation.AccountError) as refusal:
        moderation.undo(marta, granted['Pablo'])                 # no longer a moderator
    assert refusal.value.key == 'admin.error.not_moderator' and moderation.is_moderator(pablo)


async def test_a_moderator_hides_an_account_from_the_rankings_the_person_is_told_why_and_it_is_undone(
        user: User, create_user) -> None:
    luis, ana = new_account('Luis'), new_account('Ana')
    a_rated_game(luis, ana, marked=True)
    assert ranked() == ['Luis', 'Ana']
    mod = await register_and_log_in(user, 'Marta')
    admin.main(['grant', 'Marta'])
    await user.open('/admin')
    with user.scope(marker='marked'):
        await user.should_see('Luis')
        await user.should_see(ES['admin.mark.address'])

    def hide(name: str, reason: str) -> None:
        user.find(marker='act-name').clear().type(name)
        user.find(marker='act-reason').clear().type(reason)
        user.find(marker='hide-submit').click()
    hide('Luis', '   ')
    await sees(user, ES['admin.error.reason'])
    hide('Nadie', 'farming')
    await sees(user, ES['admin.error.no_account'])
    assert ranked() == ['Luis', 'Ana']                        # nothing changed
    hide('Luis', 'Farming rating with a second account')
    await sees(user, ES['admin.hidden'].format(name='Luis'))
    assert ranked() == ['Ana']
    hide('luis', 'again')
    await sees(user, ES['admin.error.already_hidden'])
    await sees(user, ES['admin.act.hide_ranking'].format(by='Marta', name='Luis'))

    ana_browser, luis_browser = create_user(), create_user()
    await log_in_and_see_history(ana_browser, 'Ana')      # Ana, listed, is told nothing...
    await ana_browser.open('/ranking/chinchon')
    await ana_browser.should_not_see(marker='ranking-hidden')
    await log_in_and_see_history(luis_browser, 'Luis')    # ...Luis reads why
    await luis_browser.open('/ranking/chinchon')
    await sees(luis_browser, ES['ranking.hidden'].format(reason='Farming rating with a second account'))

    [entry] = [entry for entry in moderation.audit() if entry.action == moderation.HIDE]
    user.find(marker=f'undo-{entry.id}').click()
    await sees(user, ES['admin.undone_now'])
    assert ranked() == ['Luis', 'Ana']
    [entry] = [entry for entry in moderation.audit() if entry.action == moderation.HIDE]
    assert entry.undone_at is not None
    with pytest.raises(moderation.AccountError):
        moderation.undo(mod, entry.id)                     # undone once, for good
    with pytest.raises(moderation.AccountError):
        moderation.hide_from_rankings(ana, 'Luis', 'not a moderator')


async def test_a_renamed_account_shows_a_neutral_name_and_its_owner_chooses_another_at_the_next_sign_in(
        user: User, create_user) -> None:
    luis = new_account('Luis')
    await register_and_log_in(user, 'Marta')
    admin.main(['grant', 'Marta'])
    await user.open('/admin')
    user.find(marker='act-name').type('Luis')
    user.find(marker='act-reason').type('An offensive name')
    user.find(marker='rename-submit').click()
    await sees(user, ES['admin.renamed'].format(name='Luis'))
    assert get_account(luis).display_name == f'#{luis}'        # neutral, in every language
    await sees(user, ES['admin.act.rename'].format(by='Marta', name='Luis'))

    luis_browser = create_user()
    await log_in(luis_browser, 'Luis')
    await sees(luis_browser, ES['account.name.renamed'].format(reason='An offensive name'))
    assert landed_on(luis_browser) == '/account'
    luis_browser.find(marker='new-display-name').type('P.u.t.a')
    luis_browser.find(marker='name-submit').click()
    await sees(luis_browser, ES['account.error.name_refused'])
    assert get_account(luis).display_name == f'#{luis}'
    luis_browser.find(marker='new-display-name').clear().type('Luisito')
    luis_browser.find(marker='name-submit').click()
    await sees(luis_browser, ES['account.name.done'].format(name='Luisito'))
    assert get_account(luis).display_name == 'Luisito' and not accounts.must_rename(luis)

    [renaming] = [entry for entry in moderation.audit() if entry.action == moderation.RENAME]
    user.find(marker=f'undo-{renaming.id}').click()
    await sees(user, ES['admin.undone_now'])
    assert get_account(luis).display_name == 'Luisito'         # the owner's own choice stays


def test_undoing_a_rename_before_its_owner_chose_gives_the_name_back() -> None:
    luis, marta = new_account('Luis'), new_account('Marta')
    moderation.grant('Marta')
    moderation.rename(marta, 'Luis', 'looked offensive')
    assert accounts.must_rename(luis)
    [renaming] = [entry for entry in moderation.audit() if entry.action == moderation.RENAME]
    moderation.undo(marta, renaming.id)
    assert get_account(luis).display_name == 'Luis' and not accounts.must_rename(luis)


async def test_a_moderators_header_leads_to_the_desk_and_nobody_elses_does(user: User) -> None:
    def header() -> str:
        return next(iter(user.find(marker='header-links').elements)).content
    await register_and_log_in(user, 'Ana')
    await user.open('/')
    assert 'href="/admin"' not in header()
    admin.main(['grant', 'Ana'])
    await user.open('/')
    assert f'<a href="/admin" class="hod-nav-link">{ES["admin.title"]}</a>' in header()
