"""Decorators on a top-level function: the name is bound to what the decorators returned when
CPython ran the ``def`` at import, read from the real module.

Job: ``undecorated`` gives the ``def`` to lower for a decorated top-level function of the
target module:

- every decorator returned the function itself (``def deco(f): ...; return f``, a registry
  whose effect is done at import): the function without its decorators;
- ``functools.cache`` or ``functools.lru_cache(...)`` (with any ``maxsize`` and ``typed``) as
  the result, around the function itself (any other decorator returned what it got): a wrapper that checks the arguments as the
  cache does and calls the undecorated function, registered as ``f~body``
  (``CACHE_WRAPPER``: errors of the wrapper are the caller's line, as CPython's C code's);
- a wrapper function made by a decorator of the module that passes on ``*args, **kwargs``
  untouched, or that has plain parameters of its own and calls the function as it likes
  (``functools.wraps`` or not; its closure holding the function alone): its body in place of
  the function's (``wrappers.transparent_wrapper``).

Invariant: a cached function's results are the uncached function's only when the cache cannot
change what the program observes, so the cache is accepted only when (checked statically)
the function and every module function it names read nothing but their locals, literal
constants, builtins that compute on values and such functions (no ``global``, no ``print``, no
module-level object, class or import), and no code of the module reads an attribute of it
(``cache_info()``); and (checked when it runs) its arguments hash as the cache hashes them
(a list: CPython's ``TypeError: unhashable type``) and its arguments and result are immutable
values (``%cache_plain``: a hashable mutable object, whose state the cached result could
outlive, is unsupported), and no argument is a bool or a float: ``True == 1 == 1.0`` are one
key, so after ``f(True, 2)`` CPython's ``f(1, 2)`` is the cached ``f(True, 2)`` (``'True2'``
where the function computes ``'12'``), which a per-call model would get wrong. Anything else, a wrapper function among them, is ``Unsupported``
with one line; without the real module nothing is known of a decorator's result.
"""

from __future__ import annotations

import ast
import copy
import functools
import os
import types
from typing import TYPE_CHECKING

from pathloom.domain.names import EXCEPTION_BASES
from pathloom.frontend.lowering.desugar import CACHE_WRAPPER
from pathloom.domain.names import CACHE_ARGUMENTS as ARGUMENTS
from pathloom.frontend.lowering.wrappers import transparent_wrapper

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

# builtins a cached function may use: they compute on values and observe nothing else
_PURE_BUILTINS = frozenset(
    {
        "None",
        "True",
        "False",
        "len",
        "abs",
        "min",
        "max",
        "ord",
        "chr",
        "range",
        "bool",
        "int",
        "float",
        "str",
        "tuple",
        "list",
        "dict",
        "set",
        "frozenset",
        "sorted",
        "sum",
        "any",
        "all",
        "enumerate",
        "zip",
        "reversed",
        "map",
        "filter",
        "isinstance",
        "divmod",
        "pow",
        "round",
        "repr",
    }
) | frozenset(EXCEPTION_BASES)


def body_name(name: str) -> str:
    """The qualname under which a cached function's own ``def`` is lowered."""
    return f"{name}~body"


def undecorated(module: Module, local: str, node: ast.FunctionDef) -> ast.FunctionDef:
    """The ``def`` to lower for the decorated top-level function ``local`` (see the module)."""
    first = node.decorator_list[0]
    if module.runtime is None or not module.has_runtime(local):
        raise module.unsupported(first, "decorator (the real module is not imported: what it returns is unknown)")
    real = module.runtime_value(local)
    if _is_this_def(module, real, node):
        return _bare(node)
    wrapped = getattr(real, "__wrapped__", None)
    if isinstance(real, functools._lru_cache_wrapper) and _is_this_def(module, wrapped, node):  # the others returned what they got
        return _cache_wrapper(module, local, node)
    wrapper = transparent_wrapper(module, local, node, real, lambda obj: _is_this_def(module, obj, node))
    if wrapper is not None:
        return wrapper
    if isinstance(real, types.FunctionType) and len(real.__code__.co_freevars) > 1:
        state = ", ".join(repr(name) for name in real.__code__.co_freevars if name not in _wrapped_names(real, node))
        what = (
            f"decorator that returns a wrapper function holding {state} besides the function (state made once when the decorator ran and shared "
            f"by every call: not modelled) ({real.__code__.co_qualname})"
        )
    elif isinstance(real, types.FunctionType):
        what = f"decorator that returns a wrapper function other than one that passes on *args and **kwargs ({real.__code__.co_qualname})"
    else:
        what = f"decorator whose result is a {type(real).__name__}, not the function"
    raise module.unsupported(first, what)


def _wrapped_names(real: types.FunctionType, node: ast.FunctionDef) -> set[str]:
    """The free variables of the wrapper ``real`` that hold the decorated function itself."""
    cells = zip(real.__code__.co_freevars, real.__closure__ or ())
    found = set()
    for name, cell in cells:
        try:
            contents = cell.cell_contents
        except ValueError:  # an empty cell
            continue
        if isinstance(contents, types.FunctionType) and contents.__qualname__ == node.name:
            found.add(name)
    return found


def _is_this_def(module: Module, real: object, node: ast.FunctionDef) -> bool:
    """``real`` is the function this ``def`` made (not a wrapper)."""
    if not isinstance(real, types.FunctionType):
        return False
    code = real.__code__
    lines = {node.lineno, *(d.lineno for d in node.decorator_list)}
    same_file = os.path.realpath(code.co_filename) == os.path.realpath(module.filename)
    return same_file and real.__qualname__ == node.name and code.co_firstlineno in lines


def _bare(node: ast.FunctionDef) -> ast.FunctionDef:
    bare = copy.copy(node)
    bare.decorator_list = []
    return bare


def _cache_wrapper(module: Module, local: str, node: ast.FunctionDef) -> ast.FunctionDef:
    """``@cache def f(a: A, b: B) -> R: body`` as

    def f(a: A, b: B) -> R:         # CACHE_WRAPPER: its errors are the caller's line
        %cache_key(a, b) in {}      # hashed as the cache hashes: TypeError for a list
        %cache_plain(ARGUMENTS, a, b)  # immutable arguments, no bool or float, else unsupported
        f~value = f~body(a, b)      # the undecorated def, registered as f~body
        %cache_plain(f~value)
        return f~value
    """
    decorator = node.decorator_list[0]
    args = node.args
    if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs or args.defaults:
        raise module.unsupported(decorator, "a cached function with other than plain positional parameters")
    impure = _impurity(module, node, set())
    if impure is not None:
        where, what = impure
        raise module.unsupported(where, f"a cached function that {what} (the cache could change what the program observes)")
    for use in ast.walk(module.tree):
        if isinstance(use, ast.Attribute) and isinstance(use.value, ast.Name) and use.value.id == local:
            raise module.unsupported(use, f"attribute {use.attr!r} of the cached function {local!r}")
    name = body_name(local)
    module.function_defs[name] = _bare(node)
    module.synthesized.add(name)
    params = [a.arg for a in args.args]

    def load(n: str) -> ast.Name:
        return ast.Name(n, ast.Load())

    def call(func: str, operands: list[ast.expr]) -> ast.Call:
        return ast.Call(load(func), operands, [])

    key = call("%cache_key", [load(p) for p in params])
    value = "f~value"
    body: list[ast.stmt] = [
        ast.Expr(ast.Compare(key, [ast.In()], [ast.Dict([], [])])),
        ast.Expr(call("%cache_plain", [ast.Constant(ARGUMENTS)] + [load(p) for p in params])),
        ast.Assign([ast.Name(value, ast.Store())], call(name, [load(p) for p in params])),
        ast.Expr(call("%cache_plain", [load(value)])),
        ast.Return(load(value)),
    ]
    for stmt in body:
        for sub in ast.walk(stmt):
            ast.copy_location(sub, node)
    wrapper = ast.FunctionDef(node.name, copy.deepcopy(args), body, [], node.returns, node.type_comment)
    ast.copy_location(wrapper, node)
    wrapper.end_lineno, wrapper.end_col_offset = node.end_lineno, node.end_col_offset
    setattr(wrapper, CACHE_WRAPPER, True)
    return wrapper


def _bound(node: ast.AST) -> set[str]:
    """Every name bound anywhere inside ``node`` (parameters, assignments, nested scopes)."""
    names: set[str] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, (ast.Store, ast.Del)):
            names.add(sub.id)
        elif isinstance(sub, ast.arg):
            names.add(sub.arg)
        elif isinstance(sub, ast.FunctionDef) and sub is not node:
            names.add(sub.name)
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            names.add(sub.name)
    return names


def _impurity(module: Module, node: ast.FunctionDef, seen: set[str]) -> tuple[ast.AST, str] | None:
    """Where and how function ``node`` (or a module function it names) may observe or change
    anything but its own values; None when it cannot."""
    seen.add(node.name)
    bound = _bound(node)
    for sub in (inner for part in [node.args, *node.body] for inner in ast.walk(part)):
        if isinstance(sub, (ast.Global, ast.Nonlocal)):
            return sub, "declares a name global or nonlocal"
        if isinstance(sub, (ast.Import, ast.ImportFrom)):
            return sub, "imports"
        if isinstance(sub, (ast.Yield, ast.YieldFrom, ast.Await)):
            return sub, "is a generator"
        if isinstance(sub, (ast.ClassDef, ast.AsyncFunctionDef)):
            return sub, "defines a class"
        if not (isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load)) or sub.id in bound:
            continue
        name = sub.id
        callee = module.function_defs.get(name)
        if callee is not None:
            if name not in seen:
                found = _impurity(module, callee, seen)
                if found is not None:
                    return found
            continue
        if name in module.classes or name in module.opaque:
            return sub, f"reads the module-level name {name!r}"
        if name in module.constants or (module.has_runtime(name) and _immutable(module.runtime_value(name))):
            continue
        if name in _PURE_BUILTINS and not module.has_runtime(name):
            continue
        return sub, f"reads {name!r}"
    return None


def _immutable(value: object) -> bool:
    if value is None or isinstance(value, (bool, int, float, str)):
        return True
    return type(value) is tuple and all(_immutable(v) for v in value)
