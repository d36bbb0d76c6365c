from playwright.sync_api import Page, expect


def test_home_renders_in_spanish_and_switches_to_english(page: Page) -> None:
    page.goto('/')
    expect(page.get_by_role('heading', name='Juegos de cartas españoles')).to_be_visible()
    expect(page.locator('html')).to_have_attribute('lang', 'es')
    page.get_by_role('button', name='Cambiar el idioma a inglés').click()
    expect(page.get_by_role('heading', name='Spanish card games')).to_be_visible()
    page.reload()
    expect(page.get_by_role('heading', name='Spanish card games')).to_be_visible()
    expect(page.locator('html')).to_have_attribute('lang', 'en')
    page.get_by_role('button', name='Switch the language to Spanish').click()
    expect(page.get_by_role('heading', name='Juegos de cartas españoles')).to_be_visible()


def test_home_fits_a_phone_screen(page: Page) -> None:
    page.set_viewport_size({'width': 360, 'height': 740})
    page.goto('/')
    expect(page.get_by_role('heading', name='Chinchón')).to_be_visible()
    overflow = page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')
    assert overflow <= 0


def test_an_english_browser_gets_english(browser, base_url: str) -> None:
    context = browser.new_context(locale='en-US', base_url=base_url)
    try:
        page = context.new_page()
        page.goto('/')
        expect(page.get_by_role('heading', name='Spanish card games')).to_be_visible()
    finally:
        context.close()
