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


def test_the_page_is_styled_by_the_sites_stylesheet_without_a_compiler(page: Page) -> None:
    """No Tailwind compiler runs in the page (app/stylesheet.py): the site's stylesheet styles the
    utility classes, above Quasar's rules, on Tailwind's preflight."""
    scripts: list[str] = []
    page.on('request', lambda request: scripts.append(request.url) if request.resource_type == 'script' else None)
    page.goto('/')
    expect(page.get_by_role('heading', name='Juegos de cartas españoles')).to_be_visible()
    assert not [url for url in scripts if 'tailwind' in url]
    assert page.locator('link[rel=stylesheet][href*="/static/utilities.css?v="]').count() == 1
    styled = page.evaluate("""() => {
      const probe = document.createElement('div');
      probe.className = 'w-full max-w-md gap-2 text-[#1f5f3a] items-center';
      document.body.append(probe);
      const style = getComputedStyle(probe);
      return [style.maxWidth, style.rowGap, style.color, style.alignItems, style.borderTopStyle];
    }""")
    # preflight's `* { border: 0 solid }`: a `border` class alone draws a solid line
    assert styled == ['448px', '8px', 'rgb(31, 95, 58)', 'center', 'solid']
