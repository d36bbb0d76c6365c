"""What only a real browser shows about a rules page on a phone: nothing wider than the screen,
the example cards drawn and visible, and the table of contents taking you to a section."""
from playwright.sync_api import Page, expect

PHONE = {'width': 360, 'height': 740}


def test_rules_page_fits_a_phone_and_its_contents_lead_to_the_sections(page: Page) -> None:
    page.set_viewport_size(PHONE)
    page.goto('/reglas/chinchon')
    expect(page.get_by_role('heading', level=1)).to_have_text('Reglas del Chinchón')
    expect(page).to_have_title('Reglas del Chinchón — House Of Decks')
    expect(page.get_by_role('heading', level=2, name='Menos diez')).to_have_count(1)

    overflow = page.evaluate('document.documentElement.scrollWidth - document.documentElement.clientWidth')
    assert overflow <= 0, f'the page is {overflow}px wider than the phone'

    # the seven-card examples fit on one line, every card drawn inside the screen
    example = page.locator('figure.hod-example').filter(has_text='Menos diez: trío de cuatros')
    cards = example.locator('img.hod-card')
    expect(cards).to_have_count(7)
    example.scroll_into_view_if_needed()
    boxes = [cards.nth(i).bounding_box() for i in range(7)]
    assert all(box and box['x'] >= 0 and box['x'] + box['width'] <= PHONE['width'] for box in boxes)
    assert len({round(box['y']) for box in boxes}) == 1, 'the example wrapped onto two lines'
    assert all(cards.nth(i).evaluate('img => img.complete && img.naturalWidth > 0') for i in range(7))

    # the compact contents open and lead to the section, its heading below the fixed header
    contents = page.locator('details.hod-toc-box')
    contents.locator('summary').click()
    contents.get_by_role('link', name='Menos diez').click()
    expect(page).to_have_url(page.url.split('#')[0] + '#minus-ten')
    header_bottom = page.locator('header').bounding_box()['height']
    page.wait_for_function('bottom => { const top = document.getElementById("minus-ten").getBoundingClientRect().top;'
                           ' return top >= bottom && top < 200; }', arg=header_bottom)
