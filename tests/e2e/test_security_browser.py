"""The Content-Security-Policy in a real browser: the pages work and the browser reports no
violation (a blocked script, style, image or websocket would show up here first); signing in
sets an HttpOnly session cookie that the page's scripts cannot read; a page's socket cannot flood
the server's log."""
from pathlib import Path

from playwright.sync_api import Page, expect


def watch_violations(page: Page) -> list[str]:
    """Every CSP violation the page reports, from the console and from the DOM event."""
    seen: list[str] = []
    page.on('console', lambda message: seen.append(message.text)
            if 'Content Security Policy' in message.text else None)
    page.add_init_script("""document.addEventListener('securitypolicyviolation', (e) =>
        console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));""")
    return seen


def test_the_pages_run_under_the_policy(page: Page) -> None:
    violations = watch_violations(page)
    page.goto('/')
    expect(page.get_by_role('heading', name='Juegos de cartas españoles')).to_be_visible()
    page.get_by_role('button', name='Cambiar el idioma a inglés').click()   # a websocket round trip
    expect(page.get_by_role('heading', name='Spanish card games')).to_be_visible()
    page.goto('/play/chinchon')
    page.get_by_role('button', name='Deal').click()
    expect(page.get_by_text('Hand 1').first).to_be_visible()
    page.goto('/rules/chinchon')
    expect(page.get_by_role('heading').first).to_be_visible()
    assert violations == []
    # the policy is in force, and this watch sees what it blocks: a foreign image is refused
    with page.expect_console_message(lambda message: 'img-src' in message.text):
        page.evaluate("document.body.appendChild(Object.assign(new Image(), {src: 'https://example.com/x.png'}))")


def test_signing_in_sets_a_cookie_the_page_cannot_read(page: Page) -> None:
    violations = watch_violations(page)
    page.goto('/register')
    page.get_by_label('Nombre de usuario').fill('Begoña')
    page.get_by_label('Contraseña', exact=True).fill('correct horse')
    page.get_by_label('Repite la contraseña').fill('correct horse')
    page.get_by_role('button', name='Crear la cuenta').click()
    page.get_by_role('button', name='Ya los he guardado: continuar').click()   # after the recovery codes
    expect(page.get_by_role('link', name='Historial')).to_be_visible()
    cookies = {cookie['name']: cookie for cookie in page.context.cookies()}
    assert cookies['hod_session']['httpOnly'] and cookies['hod_session']['sameSite'] == 'Lax'
    assert 'hod_session' not in page.evaluate('document.cookie')
    page.goto('/account')                                    # out, and in again through the login form
    page.get_by_test_id('logout').or_(page.get_by_role('button', name='Cerrar sesión', exact=True)).first.click()
    expect(page.get_by_role('link', name='Entrar')).to_be_visible()
    assert 'hod_session' not in {cookie['name'] for cookie in page.context.cookies()}
    page.goto('/login')
    page.get_by_label('Nombre de usuario').fill('BEGOÑA')
    page.get_by_label('Contraseña', exact=True).fill('correct horse')
    page.get_by_role('button', name='Entrar', exact=True).click()
    expect(page.get_by_role('link', name='Historial')).to_be_visible()
    assert violations == []


# a page's socket writes to the server's log: 100 messages of 100 KB, each forging a line
LOG_FLOOD = """() => { const forged = 'x'.repeat(100000) + '\\nERROR:app.accounts:forged line';
  for (let i = 0; i < 100; i++)
    window.socket.emit('log', {client_id: window.clientId, level: 'warning', message: forged}); }"""


def test_a_pages_log_flood_grows_the_servers_log_by_a_few_kilobytes(page: Page, server_data: Path) -> None:
    page.goto('/')
    page.wait_for_function('window.did_handshake === true')
    log = server_data / 'server.log'
    before = log.stat().st_size
    page.evaluate(LOG_FLOOD)
    # a hundred events at once are past a socket's budget (app/sockets.py): the server cuts the
    # socket off at the first one over it, after handling every one before it, in order
    page.wait_for_function('window.socket.connected === false')
    written = log.read_bytes()[before:].decode(errors='replace')
    assert 0 < len(written) < 10_000   # 10 MB sent
    assert 'past its budget' in written
    assert not any(line.startswith('ERROR:app.accounts') for line in written.splitlines())
