"""Scope analyses of a function's ``ast``, before any IR is built.

Job: which names a function body binds, declares ``nonlocal`` or ``global``, where each local is
bound (for closures by value), whether the body is a generator's, which asserts open it (its
preconditions), and whether a name means a given object of the real module.

Invariant: these read the syntax tree and the module's bindings only; they build no IR and keep
no state, and each sees one scope: nested functions, lambdas and classes show their name (and
defaults, decorators, bases) but not their bodies, comprehensions keep to themselves.
"""

from __future__ import annotations

import ast
import types
from typing import TYPE_CHECKING, Callable, Iterator

if TYPE_CHECKING:
    from pathloom.frontend.module import Module


def scope_walk(nodes: list[ast.stmt] | list[ast.AST]) -> Iterator[ast.AST]:
    """The nodes of one scope: nested functions, lambdas and classes show their name (and
    defaults, decorators) but not their bodies; comprehensions keep to themselves."""
    stack: list[ast.AST] = list(reversed(nodes))
    while stack:
        node = stack.pop()
        yield node
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            inner: list[ast.AST] = [*node.decorator_list, *node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        elif isinstance(node, ast.Lambda):
            inner = [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]
        elif isinstance(node, ast.ClassDef):
            inner = [*node.decorator_list, *node.bases]
        elif isinstance(node, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            inner = [node.generators[0].iter, *comprehension_walrus_targets(node)]
        else:
            inner = list(ast.iter_child_nodes(node))
        stack.extend(reversed(inner))


def comprehension_walrus_targets(node: ast.ListComp | ast.SetComp | ast.DictComp | ast.GeneratorExp) -> list[ast.Name]:
    """The targets of the assignment expressions (``:=``) inside a comprehension, nested ones
    too, but not inside a lambda: they bind in the scope around the comprehension (PEP 572)."""
    found: list[ast.Name] = []
    stack: list[ast.AST] = [child for child in ast.iter_child_nodes(node) if child is not node.generators[0].iter]
    while stack:
        sub = stack.pop()
        if isinstance(sub, (ast.Lambda, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        if isinstance(sub, ast.NamedExpr) and isinstance(sub.target, ast.Name):
            found.append(sub.target)
        stack.extend(ast.iter_child_nodes(sub))
    return found


def lambda_locals(node: ast.Lambda) -> set[str]:
    """The names a lambda binds: its parameters and its assignment expressions' targets."""
    body: list[ast.AST] = [node.body]
    return param_names(node.args) | {n.id for n in scope_walk(body) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


def param_names(args: ast.arguments) -> set[str]:
    """The names of all the parameters of a ``def`` or lambda, of every kind."""
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, *(a for a in (args.vararg, args.kwarg) if a is not None)]
    return {a.arg for a in every}


def assigned_names(body: list[ast.stmt]) -> set[str]:
    """The names a function body binds (its locals); nested scopes keep theirs."""
    names: set[str] = set()
    for node in scope_walk(body):
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            names.add(node.id)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            names.add(node.name)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            names.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            names.add(node.rest)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names |= import_names(node)
    return names


def import_names(node: ast.Import | ast.ImportFrom) -> set[str]:
    """The names an import statement binds: ``import a.b`` binds ``a``."""
    return {alias.asname or alias.name.partition(".")[0] for alias in node.names}


def nonlocals(body: list[ast.stmt]) -> set[str]:
    """The names a function body declares ``nonlocal``."""
    return {name for node in scope_walk(body) if isinstance(node, ast.Nonlocal) for name in node.names}


def declared_globals(body: list[ast.stmt]) -> dict[str, ast.Global]:
    """The names a function body declares ``global``, each with its declaration."""
    return {name: node for node in scope_walk(body) if isinstance(node, ast.Global) for name in node.names}


def is_generator(body: list[ast.stmt]) -> bool:
    """Whether a function with this body is a generator function: a ``yield`` in its own scope."""
    return any(isinstance(node, (ast.Yield, ast.YieldFrom)) for node in scope_walk(body))


def _direct_bindings(stmt: ast.stmt) -> set[str]:
    """Names a top-level statement binds once, whatever runs: ``x = ...``, ``a, b = ...``,
    ``x: T = ...``, ``def x``."""
    if isinstance(stmt, ast.FunctionDef):
        return {stmt.name}
    if isinstance(stmt, (ast.Import, ast.ImportFrom)):
        return import_names(stmt)
    targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign) and stmt.value is not None else []
    names: set[str] = set()
    for target in targets:
        for sub in ast.walk(target):
            if isinstance(sub, ast.Name):
                names.add(sub.id)
            elif not isinstance(sub, (ast.Tuple, ast.List, ast.expr_context)):
                return set()
    return names


def binding_sites(params: set[str], body: list[ast.stmt]) -> dict[str, list[tuple[int, bool]]]:
    """For each local: where it is bound, as (top-level statement index, -1 for a parameter;
    whether that statement binds it once and directly)."""
    sites: dict[str, list[tuple[int, bool]]] = {name: [(-1, True)] for name in params}
    for i, stmt in enumerate(body):
        direct = _direct_bindings(stmt)
        for name in assigned_names([stmt]):
            sites.setdefault(name, []).append((i, name in direct and _assigned_count(stmt, name) == 1))
    return sites


def _assigned_count(stmt: ast.stmt, name: str) -> int:
    return sum(
        1
        for node in scope_walk([stmt])
        if (isinstance(node, ast.Name) and node.id == name and isinstance(node.ctx, (ast.Store, ast.Del)))
        or (isinstance(node, (ast.FunctionDef, ast.ClassDef)) and node.name == name)
        or (isinstance(node, (ast.Import, ast.ImportFrom)) and name in import_names(node))
    )


def leading_asserts(body: list[ast.stmt]) -> list[ast.Assert]:
    """The asserts that open a function's body, after its docstring: its preconditions (as in
    CrossHair; whether a failure is a bug is decided by who called the function)."""
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body = body[1:]
    leading: list[ast.Assert] = []
    for stmt in body:
        if not isinstance(stmt, ast.Assert):
            break
        leading.append(stmt)
    return leading


def names_real(module: Module, func: ast.expr, real: object, rebound: Callable[[str], bool]) -> bool:
    """``func`` is a module-level name (``reduce``) or an attribute of one (``functools.reduce``)
    that the real module binds to ``real``, and the function does not rebind it (``rebound``)."""
    if isinstance(func, ast.Name):
        name, attr = func.id, None
    elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
        name, attr = func.value.id, func.attr
    else:
        return False
    if rebound(name) or not module.has_runtime(name):
        return False
    value = module.runtime_value(name)
    if attr is not None:
        if not isinstance(value, types.ModuleType):
            return False
        value = getattr(value, attr, None)
    return value is real
