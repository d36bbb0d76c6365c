"""The one error a game raises: a refused action, in words a person can read."""
from __future__ import annotations

from typing import Any


class IllegalAction(ValueError):
    """A refused action. ``code`` is a stable i18n key suffix (``illegal.<code>``);
    ``params`` fill the translated message; ``str()`` is an English sentence for logs."""

    def __init__(self, code: str, message: str, **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params
