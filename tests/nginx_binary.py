"""nginx for the tests that need it (the cluster's): its binary, found as `python -m app.cluster`
finds it. Without it those tests fail with advice; they never skip."""
from __future__ import annotations

import pytest

from app.cluster.deploy import NGINX_ADVICE, find_nginx


def require_nginx() -> str:
    nginx = find_nginx()
    if nginx is None:
        pytest.fail(NGINX_ADVICE, pytrace=False)
    return nginx
