"""House Of Decks: `python main.py` serves the site (HOST/PORT from the environment, default :8080).

What it does is app.site's (an install's ``house-of-decks`` command runs the same). Run afresh, as
NiceGUI's simulated user runs it for every test, it builds the site again; importing it builds the
site too, and only the guard below listens."""
from app import site

site.build()

if __name__ in {'__main__', '__mp_main__'}:
    site.serve()
