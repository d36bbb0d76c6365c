"""The real server for the browser tests: `python main.py` as it is, but dealing from a known
seed, so a browser test starts from a known deal instead of a secret one. A test launcher, not a
production flag: the site itself always deals from ``secrets``, and the route below exists only
in this process.

Before each test, the browser tests' conftest posts the test's own name to ``/test-deals``: the
tables that test makes deal from it, whichever tests ran before."""
import os
import runpy
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from app.tables import registry  # noqa: E402
from app.tables.services import SeededDeals  # noqa: E402

DEALS_ROUTE = '/test-deals'

if __name__ == '__main__':   # the process pool's workers import this file too: they only think
    from nicegui import app

    registry.configure(deals=SeededDeals(os.environ.get('HOD_TEST_DEALS', 'browser tests')))

    @app.post(DEALS_ROUTE)
    def deal_from(seed: str) -> dict[str, str]:
        registry.configure(deals=SeededDeals(seed))
        return {'seed': seed}

    runpy.run_path(str(ROOT / 'main.py'), run_name='__main__')
