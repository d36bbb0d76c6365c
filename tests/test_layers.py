"""The import rules between the layers, read from the source with ``ast`` (nothing is imported).

Every ``import``/``from ... import`` counts wherever it stands: at the top, inside a function, and
under ``if TYPE_CHECKING:``. A type-only import is still knowledge of the other module: the
engine may not even name a page's type, and the cycle that once tied the Table to its pacing, room,
services and saving ran only through such imports (a cycle rule blind to them would have had
nothing to say about it). What each rule finds is a set of ``Import(file, line, module)``, and
every rule finds none. An import counts as
an edge to the module it names, not to the packages above it that Python also runs: those would
make every package that re-exports its members a cycle of its own.
"""
from __future__ import annotations

import ast
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ('app', 'components', 'models')
LOWER_LAYERS = ('app/engine/', 'app/ai/', 'app/coach/', 'app/tables/')
UPPER = ('app.review', 'app.pages', 'components', 'app.bench')
CYCLE_SCOPE = ('app', 'components')

@dataclass(frozen=True, slots=True)
class Import:
    file: str      # relative to the repository, with '/'
    line: int
    module: str    # the module the statement reaches: 'app.games', or 'app.tables.table' for `from app.tables import table`
    type_only: bool = False

    def __str__(self) -> str:
        return f'{self.file}:{self.line} imports {self.module}' + (' (TYPE_CHECKING)' if self.type_only else '')


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix('').parts)
    if parts[-1] == '__init__':
        parts.pop()
    return '.'.join(parts)


def source_files() -> dict[str, Path]:
    return {module_name(path): path for package in PACKAGES for path in sorted((ROOT / package).rglob('*.py'))}


MODULES = source_files()


def _type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == 'TYPE_CHECKING') or \
        (isinstance(test, ast.Attribute) and test.attr == 'TYPE_CHECKING')


def imports_of(module: str, path: Path) -> list[Import]:
    tree = ast.parse(path.read_text(encoding='utf-8'), str(path))
    file = path.relative_to(ROOT).as_posix()
    package = module if path.name == '__init__.py' else module.rpartition('.')[0]
    found: list[Import] = []

    def visit(node: ast.AST, type_only: bool) -> None:
        if isinstance(node, ast.If) and _type_checking(node.test):
            for child in node.body:
                visit(child, True)
            for child in node.orelse:
                visit(child, type_only)
            return
        if isinstance(node, ast.Import):
            found.extend(Import(file, node.lineno, alias.name, type_only) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split('.')
                base = base[:len(base) - (node.level - 1)]
                source = '.'.join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ''
            for alias in node.names:
                member = f'{source}.{alias.name}'
                found.append(Import(file, node.lineno, member if member in MODULES else source, type_only))
        for child in ast.iter_child_nodes(node):
            visit(child, type_only)

    visit(tree, False)
    return found


IMPORTS: dict[str, list[Import]] = {module: imports_of(module, path) for module, path in MODULES.items()}


def _within(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == prefix or module.startswith(prefix + '.') for prefix in prefixes)


def layer_violations() -> set[Import]:
    """(a) the engine, the computer players, the coach and the tables know nothing of the review, the pages,
    the components or the benches."""
    return {found for module, found_list in IMPORTS.items() for found in found_list
            if MODULES[module].relative_to(ROOT).as_posix().startswith(LOWER_LAYERS) and _within(found.module, UPPER)}


def table_violations() -> set[Import]:
    """(b) a component never holds the Table: it draws a snapshot and speaks to a port."""
    return {found for module, found_list in IMPORTS.items() for found in found_list
            if _within(module, ('components',)) and _within(found.module, ('app.tables.table',))}


def engine_violations() -> set[Import]:
    """(d) the engine imports the engine and the standard library, nothing else."""
    allowed = set(sys.stdlib_module_names) | {'__future__'}
    return {found for module, found_list in IMPORTS.items() for found in found_list
            if _within(module, ('app.engine',)) and not _within(found.module, ('app.engine',))
            and found.module.partition('.')[0] not in allowed}


def bench_violations() -> set[Import]:
    """(e) the benches stand above the site and measure it from outside: no module of the site (a page
    included) imports one, so a page the benches need is the site's own, served on their flag."""
    return {found for module, found_list in IMPORTS.items() for found in found_list
            if not _within(module, ('app.bench',)) and _within(found.module, ('app.bench',))}


def _owner(name: str) -> str | None:
    """The module of ours an import reaches: itself, or the package or module it names a member of."""
    while name and name not in MODULES:
        name = name.rpartition('.')[0]
    return name or None


def graph() -> dict[str, dict[str, Import]]:
    edges: dict[str, dict[str, Import]] = {module: {} for module in MODULES if _within(module, CYCLE_SCOPE)}
    for module in edges:
        for found in IMPORTS[module]:
            target = _owner(found.module)
            if target in edges and target != module:
                edges[module].setdefault(target, found)
    return edges


def components_of(edges: dict[str, dict[str, Import]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in edges:
        if start in index:
            continue
        work = [(start, iter(edges[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, targets = work[-1]
            for target in targets:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(edges[target])))
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    members = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        members.append(member)
                        if member == node:
                            break
                    if len(members) > 1:
                        found.append(sorted(members))
    return found


def cycle_violations() -> set[Import]:
    """(c) no import cycle among the modules of app/ and components/: every import that closes one."""
    edges = graph()
    violations = set()
    for members in components_of(edges):
        inside = set(members)
        violations |= {found for module in members for target, found in edges[module].items() if target in inside}
    return violations


RULES = {'layers': layer_violations, 'table': table_violations, 'engine': engine_violations, 'benches': bench_violations,
         'cycles': cycle_violations}


def _violations(rule: str) -> list[str]:
    return sorted(map(str, RULES[rule]()))


@pytest.mark.parametrize('rule', RULES)
def test_no_violation(rule: str) -> None:
    found = _violations(rule)
    assert not found, '\n'.join([RULES[rule].__doc__.strip(), *found])


def test_the_reader_sees_every_kind_of_import() -> None:
    """The rules are only as good as the reading: relative, member and type-only imports resolve."""
    imports = {(found.module, found.type_only) for found in IMPORTS['app.tables.port']}
    assert ('app.tables.table', True) in imports and ('app.tables.seats', False) in imports
    assert 'app.engine.chinchon.actions' in {found.module for found in IMPORTS['app.engine.chinchon']}   # `from .actions`
    assert 'app.ai.chinchon.policy' in {found.module for found in IMPORTS['app.ai.chinchon.search']}      # `from . import policy`
