"""Every utility class the code uses is defined: by the site's stylesheet (app/static/utilities.css,
which stands in for Tailwind's compiler), by Quasar or by NiceGUI. Read from the source with
``ast`` and regular expressions; nothing is rendered.

Classes reach the page from many places (``.classes(...)``, ``class="..."`` in markup, a variable
holding a class list, ``classList`` in our JavaScript), so every string of the code is read: a
string that holds markup, CSS or properties (``<``, ``=``, ``;``, braces) gives its ``class``
attributes; any other string whose words could all be classes gives its words. A word shaped like a
Tailwind utility (``text-sm``, ``gap-2``, ``lg:flex-row``, ``bg-[#1f5f3a]``...) must then be
defined somewhere. The translations are text, not classes, and are not read.
"""
from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import nicegui

from app.stylesheet import STYLESHEET

ROOT = Path(__file__).resolve().parent.parent
NICEGUI_CSS = ('quasar.unimportant.prod.css', 'quasar.important.prod.css', 'nicegui.css')

# class="..." (also escaped inside a Python string of markup) and classList.add/toggle/remove('...')
CLASS_ATTRIBUTE = re.compile(r'''class(?:Name)?\s*=\s*\\?["']([^"'\\]*)'''
                             r'''|classList\.(?:add|toggle|remove)\(\s*["']([^"']*)''')
MARKUP = re.compile(r'[<>=;{}]')
CLASS_WORD = re.compile(r'[a-z0-9!\-:\[\]#_./%]*[a-z0-9\]%]')
VARIANT = (r'(?:(?:max-)?(?:sm|md|lg|xl|2xl)|hover|focus|focus-visible|active|disabled|empty|first|last|odd|even|'
           r'dark|print|group-hover|motion-reduce|motion-safe):')
WHOLE = ('flex|grid|hidden|block|inline|inline-block|inline-flex|inline-grid|absolute|relative|fixed|sticky|visible|'
         'invisible|sr-only|truncate|underline|no-underline|uppercase|lowercase|capitalize|italic|rounded|border|shadow|'
         'grow|shrink|tabular-nums|select-none|transition|container')
FAMILY = ('text|bg|font|w|h|min-w|max-w|min-h|max-h|size|p|px|py|pt|pb|pl|pr|ps|pe|m|mx|my|mt|mb|ml|mr|ms|me|gap|gap-x|'
          'gap-y|space-x|space-y|grid-cols|grid-rows|col-span|row-span|rounded|border|border-[trblxy]|shadow|ring|outline|'
          'flex|items|justify|content|self|place-items|place-content|shrink|grow|basis|order|overflow|overflow-x|'
          'overflow-y|whitespace|break|tracking|leading|opacity|z|top|bottom|left|right|inset|inset-x|inset-y|list|cursor|'
          'select|pointer-events|duration|ease|delay|animate|rotate|scale|translate-x|translate-y|aspect|object|'
          'decoration|divide-x|divide-y|line-clamp|columns|accent|caret|blur|transition')
UTILITY = re.compile(rf'(?:{VARIANT})*-?(?:(?:{WHOLE})|(?:{FAMILY})-\S+)')
SELECTOR_CLASS = re.compile(r'\.((?:\\.|[\w-])+)')


def code_strings() -> Iterator[tuple[Path, str]]:
    """(file, string) for every string constant of the Python code (f-strings' literal parts too)
    and every class list of the JavaScript."""
    for path in sorted([*ROOT.glob('app/**/*.py'), *ROOT.glob('components/**/*.py'), ROOT / 'main.py']):
        if 'i18n' in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                yield path, node.value
    for path in sorted(ROOT.glob('components/**/*.js')):
        for match in CLASS_ATTRIBUTE.finditer(path.read_text()):
            yield path, match[1] or match[2] or ''


def class_words(text: str) -> set[str]:
    if MARKUP.search(text):   # markup, CSS, props or script: only its class attributes
        return {word for match in CLASS_ATTRIBUTE.finditer(text) for word in (match[1] or match[2] or '').split()}
    words = text.split()
    return set(words) if all(CLASS_WORD.fullmatch(word) for word in words) else set()


def used_utilities() -> dict[str, Path]:
    """Each utility-shaped class the code uses, with a file that uses it."""
    return {word: path for path, text in code_strings() for word in class_words(text) if UTILITY.fullmatch(word)}


def defined_classes(css: str) -> set[str]:
    css = re.sub(r'/\*.*?\*/', '', css, flags=re.S)
    return {re.sub(r'\\(.)', r'\1', name) for name in SELECTOR_CLASS.findall(css)}


def test_every_utility_class_the_code_uses_is_defined() -> None:
    static = Path(nicegui.__file__).parent / 'static'
    defined = defined_classes(STYLESHEET.read_text())
    for name in NICEGUI_CSS:
        defined |= defined_classes((static / name).read_text())
    used = used_utilities()
    missing = sorted(f'{word} ({path.relative_to(ROOT)})' for word, path in used.items() if word not in defined)
    assert not missing, f'utility classes that app/static/utilities.css does not define: {missing}'
    assert {'w-full', 'gap-2', 'text-[#1f5f3a]', 'lg:flex-row', 'empty:hidden'} <= set(used)   # the scan finds them


def test_a_class_missing_from_the_stylesheet_is_found() -> None:
    assert class_words('w-full gap-7 lg:grid-cols-5') == {'w-full', 'gap-7', 'lg:grid-cols-5'}
    assert class_words('<div class="flex px-9" style="color: red">') == {'flex', 'px-9'}
    assert class_words('Seeded self-play, by level.') == set()   # prose is not a class list
    assert 'px-9' not in defined_classes(STYLESHEET.read_text())
    assert UTILITY.fullmatch('px-9') and UTILITY.fullmatch('lg:grid-cols-5') and not UTILITY.fullmatch('hod-card')


def test_the_site_does_not_load_tailwind() -> None:
    """The stylesheet replaces the compiler: app.site (which main.py and the installed command run)
    turns it off."""
    call = next(node for node in ast.walk(ast.parse((ROOT / 'app' / 'site.py').read_text()))
                if isinstance(node, ast.Call) and ast.unparse(node.func) == 'ui.run')
    assert any(keyword.arg == 'tailwind' and keyword.value.value is False for keyword in call.keywords)
