"""Words refused in the names strangers see: an account's username and display name at
registration, and a guest's name at quick match, at a public table and in a room.

The words are a plain file, one a line (``#`` starts a comment), in Spanish and English: the
operator's own ``DATA_DIR/refused-names.txt`` when it exists, else the one that ships beside this
module (copy it there to edit it; it is read again when it changes). A name and every word are
compared after the same folding, so that a refused word cannot slip through as a variant of itself:
case, accents, look-alike letters (digits and symbols used as letters, Cyrillic and Greek letters
drawn like Latin ones), anything between the letters (spaces, dots, dashes, underscores), and a
letter written three times or more (``puuuta``; a double stays, as Spanish writes ``ll`` and ``rr``).
A name is refused when its folding holds a word's folding anywhere, once the words the file allows
(``!word``: ``computadora`` holds ``puta``) are taken out of the words of the name that hold them.
"""
from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from app import config

RUNS = re.compile(r'(.)\1{2,}')
TOKENS = re.compile(r'[\s.,;:_\-/\\+*·•~]+')
SHIPPED = Path(__file__).with_name('refused_names.txt')
OPERATORS = 'refused-names.txt'   # in DATA_DIR

# drawn like a Latin letter, or used for one (the digits and symbols of "leet" spelling)
LOOK_ALIKES = str.maketrans({
    '0': 'o', '1': 'i', '!': 'i', '|': 'i', '3': 'e', '4': 'a', '@': 'a', '5': 's', '$': 's', '7': 't',
    '8': 'b', '9': 'g', '€': 'e', 'l': 'i',
    'а': 'a', 'в': 'b', 'е': 'e', 'ё': 'e', 'к': 'k', 'м': 'm', 'н': 'h', 'о': 'o', 'р': 'p', 'с': 'c',
    'т': 't', 'у': 'y', 'х': 'x', 'і': 'i', 'ї': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'ɡ': 'g',
    'α': 'a', 'β': 'b', 'ε': 'e', 'η': 'n', 'ι': 'i', 'κ': 'k', 'ν': 'v', 'ο': 'o', 'ρ': 'p', 'τ': 't',
    'υ': 'u', 'χ': 'x',
})


def folded(text: str) -> str:
    """The letters of ``text`` as they read: compatibility forms unfolded (NFKC: full-width and
    styled letters), case folded, accents dropped, look-alikes read as the letter they mimic (``l``
    and ``1`` both as ``i``: each is written for the other), everything but letters dropped, and
    a letter written three times or more read once."""
    plain = unicodedata.normalize('NFKD', unicodedata.normalize('NFKC', text).casefold())
    letters = ''.join(char for char in plain if not unicodedata.combining(char)).translate(LOOK_ALIKES)
    return RUNS.sub(r'\1', ''.join(char for char in letters if char.isalpha()))


def words_file() -> Path:
    own = config.data_dir() / OPERATORS
    return own if own.is_file() else SHIPPED


def word_lists() -> tuple[frozenset[str], tuple[str, ...]]:
    """The refused words and the allowed ones (longest first), folded."""
    path = words_file()
    try:
        stamp = path.stat().st_mtime_ns
    except OSError:
        return frozenset(), ()
    return _read(path, stamp)


@lru_cache(maxsize=4)
def _read(path: Path, stamp: int) -> tuple[frozenset[str], tuple[str, ...]]:   # the stamp: an edit is read again
    lines = [line.split('#', 1)[0].strip() for line in path.read_text(encoding='utf-8').splitlines()]
    refused = {folded(line) for line in lines if line and not line.startswith('!')}
    allowed = {folded(line[1:]) for line in lines if line.startswith('!')}
    return (frozenset(word for word in refused if len(word) >= 3),
            tuple(sorted((word for word in allowed if word), key=len, reverse=True)))


def is_refused(name: str) -> bool:
    """Whether ``name`` holds a refused word, however it is written."""
    refused, allowed = word_lists()
    pieces = []
    for token in TOKENS.split(name):   # an allowed word counts inside one word of the name only
        letters = folded(token)
        for word in allowed:
            letters = letters.replace(word, ' ')
        pieces.append(letters)
    joined = RUNS.sub(r'\1', ''.join(pieces))   # what stood between the words is dropped: "p u t a" reads as one
    return any(word in joined for word in refused)
