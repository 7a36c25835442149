"""Library desugaring that only rewrites syntax: ``ast`` in, ``ast`` out, no IR.

Job: ``functools.cache`` (``lru_cache(maxsize=None)``) on a nested function written out as the
dict-backed wrapper CPython's cache runs (``with_caches_expanded``); ``list(map(lambda ..., xs))``,
``list(filter(f, xs))`` and ``list(reversed(xs))`` as generator expressions
(``map_filter_as_generator``); the comprehension loop the lowering writes for itself
(``item_loop``).

Order: ``with_caches_expanded`` is the one pass over a whole function, run by
``Functions.function`` after the function's own decorators are refused and before anything
else looks at its body (the scope analyses see the expanded body; a nested function's own
cached functions are expanded when it is lowered). ``map_filter_as_generator`` is applied to
each call as it is lowered, before the call is matched against the builtins that consume a
generator (``Comprehensions._consumed_generator``), since it needs the lowering's scope.

Invariant: every rewrite is exact (CPython would run the same calls in the same order, raising
the same errors at the same lines); the names it introduces (``f~cache``, ``item~``) are not
Python names, so they clash with none; it refuses (``Unsupported``) what it cannot write exactly.
"""

from __future__ import annotations

import ast
import functools
from typing import TYPE_CHECKING, Callable

from pathloom.frontend.lowering.scope import names_real

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

_ITEM = "item~"  # the item of a comprehension the lowering writes: not a Python name, it clashes with none

CACHE_WRAPPER = "pathloom_cache_wrapper"  # marks the function a cached function's expansion calls through


def item_loop(iterable: ast.expr, where: ast.AST) -> tuple[ast.Name, ast.comprehension]:
    """``for item~ in iterable``, for a comprehension the lowering writes, and a read of its
    item; both at ``where`` (an error in them is CPython's at that line)."""
    target = ast.copy_location(ast.Name(_ITEM, ast.Store()), where)
    return ast.copy_location(ast.Name(_ITEM, ast.Load()), where), ast.comprehension(target, iterable, [], 0)


def is_item_loop(generator: ast.comprehension) -> bool:
    """Whether ``generator`` is one ``item_loop`` wrote (no comprehension of the source)."""
    return isinstance(generator.target, ast.Name) and generator.target.id == _ITEM


def _never_rebound(name: str) -> bool:
    """Before the scope analyses run no name counts as rebound by the function, as when the
    cache expansion was a step of the lowering (its locals not yet known)."""
    return False


def with_caches_expanded(node: ast.FunctionDef, module: Module) -> ast.FunctionDef:
    """``node`` with each nested ``@cache`` (``@lru_cache(maxsize=None)``) function written
    out as CPython's cache runs it (``_cache_expansion``)."""
    body = _caches_expanded(node.body, node, module)
    if body is node.body:
        return node
    copy = ast.FunctionDef(node.name, node.args, body, [], node.returns, node.type_comment)
    ast.copy_location(copy, node)
    copy.end_lineno, copy.end_col_offset = node.end_lineno, node.end_col_offset
    if getattr(node, CACHE_WRAPPER, False):
        setattr(copy, CACHE_WRAPPER, True)
    return copy


def _caches_expanded(body: list[ast.stmt], scope: ast.FunctionDef, module: Module) -> list[ast.stmt]:
    """``body`` with its cached nested functions expanded, in compound statements too (not
    inside nested functions or classes, expanded when they are lowered); ``body`` itself
    when there are none."""
    out: list[ast.stmt] = []
    changed = False
    for stmt in body:
        if isinstance(stmt, ast.FunctionDef) and stmt.decorator_list and _is_cache(stmt.decorator_list, module):
            out += _cache_expansion(stmt, scope, module)
            changed = True
            continue
        if isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.With)):
            fields = {}
            for field in ("body", "orelse", "finalbody"):
                inner = getattr(stmt, field, None)
                if inner:
                    expanded = _caches_expanded(inner, scope, module)
                    if expanded is not inner:
                        fields[field] = expanded
            if fields:
                stmt = ast.copy_location(type(stmt)(**{**{f: getattr(stmt, f) for f in stmt._fields}, **fields}), stmt)
                changed = True
        out.append(stmt)
    return out if changed else body


def _is_cache(decorators: list[ast.expr], module: Module) -> bool:
    """``@cache``/``@functools.cache`` or ``@lru_cache(maxsize=None)`` (``lru_cache(None)``)
    alone: an unbounded cache; the real ``functools`` ones."""
    if len(decorators) != 1:
        return False
    decorator = decorators[0]
    if names_real(module, decorator, functools.cache, _never_rebound):
        return True
    if isinstance(decorator, ast.Call) and names_real(module, decorator.func, functools.lru_cache, _never_rebound):
        given = list(decorator.args) + [k.value for k in decorator.keywords if k.arg == "maxsize"]
        others = [k for k in decorator.keywords if k.arg not in ("maxsize", "typed")]
        typed = [k for k in decorator.keywords if k.arg == "typed"]
        untyped = all(isinstance(k.value, ast.Constant) and k.value.value is False for k in typed)
        return len(given) == 1 and isinstance(given[0], ast.Constant) and given[0].value is None and not others and untyped
    return False


def _cache_expansion(node: ast.FunctionDef, scope: ast.FunctionDef, module: Module) -> list[ast.stmt]:
    """``@cache def f(a, b): body`` as the statements

        def f~body(a, b): body          # its calls of f go through the cache, as in CPython
        f~cache = {}
        def f(a, b):                    # reports errors at the caller's line, as C code does
            f~key = %cache_key(a, b)    # functools' key: the argument alone for one int or str
            if f~key in f~cache:
                return f~cache[f~key]
            f~value = f~body(a, b)
            f~cache[f~key] = f~value
            return f~value

    exact when ``f`` takes plain positional parameters and every use of it (in ``scope``)
    is a call with as many positional arguments (keys made from keywords or defaults differ
    in CPython); anything else is unsupported."""
    name = node.name
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
        raise module.unsupported(node.decorator_list[0], "a cached function with other than plain positional parameters")
    params = [a.arg for a in args.args]
    calls = {
        id(n.func)
        for n in ast.walk(scope)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Name)
        and n.func.id == name
        and len(n.args) == len(params)
        and not n.keywords
        and not any(isinstance(a, ast.Starred) for a in n.args)
    }
    for use in ast.walk(scope):
        if isinstance(use, ast.Name) and use.id == name and isinstance(use.ctx, ast.Load) and id(use) not in calls:
            raise module.unsupported(use, f"the cached function {name!r} used other than called with its {len(params)} positional arguments")

    def load(n: str) -> ast.Name:
        return ast.Name(n, ast.Load())

    def store(n: str) -> ast.Name:
        return ast.Name(n, ast.Store())

    body_name, cache, key, value = f"{name}~body", f"{name}~cache", f"{name}~key", f"{name}~value"
    inner = ast.FunctionDef(body_name, args, node.body, [], node.returns, node.type_comment)
    wrapper_body: list[ast.stmt] = [
        ast.Assign([store(key)], ast.Call(load("%cache_key"), [load(p) for p in params], [])),
        ast.If(ast.Compare(load(key), [ast.In()], [load(cache)]), [ast.Return(ast.Subscript(load(cache), load(key), ast.Load()))], []),
        ast.Assign([store(value)], ast.Call(load(body_name), [load(p) for p in params], [])),
        ast.Assign([ast.Subscript(load(cache), load(key), ast.Store())], load(value)),
        ast.Return(load(value)),
    ]
    wrapper = ast.FunctionDef(name, ast.arguments([], [ast.arg(p) for p in params], None, [], [], None, []), wrapper_body, [], None, None)
    made = [inner, ast.Assign([store(cache)], ast.Dict([], [])), wrapper]
    ast.copy_location(inner, node)  # its body keeps its own lines
    for stmt in made[1:]:
        for sub in ast.walk(stmt):
            ast.copy_location(sub, node)
    setattr(wrapper, CACHE_WRAPPER, True)
    return made


def map_filter_as_generator(node: ast.Call, is_builtin: Callable[[str], bool]) -> ast.Call:
    """``list(map(lambda v: e, xs))`` as ``list((lambda v: e)(it) for it in xs)`` and
    ``list(filter(f, xs))`` as ``list(it for it in xs if f(it))`` (``filter(None, xs)``:
    ``if it``), for the builtins ``_consumed_generator`` takes: exact, since ``map`` and
    ``filter`` call the function on each item as it is drawn, in order, and evaluating a
    lambda expression again makes an equal function and runs nothing. ``list(reversed(xs))``
    is ``list(it for it in reversed(xs))`` alike (a loop over ``reversed`` is modelled, the
    reversed iterator as a value is not). ``node`` itself
    when it is not such a call (a function other than a lambda: its evaluation could fail
    before the iterable's, which the generator would evaluate first).

    Not a pass over the function: whether ``map``, ``filter`` or ``reversed`` means the builtin
    depends on the scope at the call (a comprehension's variable may shadow it), which only the
    lowering knows (``is_builtin``), so the lowering applies it to each call it lowers."""
    if not (isinstance(node.func, (ast.Name, ast.Attribute)) and node.args and isinstance(node.args[0], ast.Call)):
        return node
    inner = node.args[0]
    if (
        isinstance(inner.func, ast.Name)
        and inner.func.id == "reversed"
        and is_builtin("reversed")
        and len(inner.args) == 1
        and not inner.keywords
        and not isinstance(inner.args[0], ast.Starred)
    ):
        item, loop = item_loop(inner, inner)  # list(reversed(xs)) as list(it for it in reversed(xs)): the loop's own iterator
        generator = ast.copy_location(ast.GeneratorExp(item, [loop]), inner)
        return ast.Call(
            node.func, [generator, *node.args[1:]], node.keywords, **{k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")}
        )
    if not (
        isinstance(inner.func, ast.Name)
        and inner.func.id in ("map", "filter")
        and is_builtin(inner.func.id)
        and len(inner.args) == 2
        and not inner.keywords
        and not any(isinstance(a, ast.Starred) for a in inner.args)
    ):
        return node
    function, iterable = inner.args
    is_none = isinstance(function, ast.Constant) and function.value is None
    if not (isinstance(function, ast.Lambda) or (is_none and inner.func.id == "filter")):
        return node
    item, loop = item_loop(iterable, inner)
    called = item if is_none else ast.copy_location(ast.Call(function, [item], []), inner)
    if inner.func.id == "map":
        element = called
    else:
        element, loop.ifs = item, [called]
    generator = ast.copy_location(ast.GeneratorExp(element, [loop]), inner)
    return ast.Call(
        node.func, [generator, *node.args[1:]], node.keywords, **{k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")}
    )
