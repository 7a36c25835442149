"""A top-level function under a decorator that returns a transparent wrapper: the wrapper's
body run in place of the function, its forwarding call calling the undecorated ``def``.

Job: ``transparent_wrapper`` recognises, from the real module, a decorated function ``g``
bound to the closure ``D.<locals>.W`` made by the module's own undecorated function ``D``::

    def D(f):                       # one parameter; its body: the def of W and return W
        @functools.wraps(f)         # optional
        def W(*args, **kwargs):     # *args and **kwargs alone
            ...                     # args and kwargs only in f(*args, **kwargs)
            return f(*args, **kwargs)
        return W

and gives the ``def`` to lower for ``g``: ``g``'s own parameters (so its inputs are the
undecorated function's) and W's body, each ``f(*args, **kwargs)`` there calling the
undecorated ``def`` (registered as ``g~orig``) with ``g``'s parameters by position. A W with
plain parameters of its own (``def W(n, k=2)``, literal defaults) may run any code calling
``f`` as it likes: then the ``def`` lowered for ``g`` is W's, parameters and body, each
``f(...)`` calling ``g~orig``. In both, ``f.__name__`` and ``f.__qualname__`` are the strings
the undecorated ``def`` has (only W holds ``f``, and W rebinds nothing of it).

Invariant: exact, since ``D`` ran once at import and did nothing but make W (its body is only
that), W's closure holds the undecorated function alone, and W passes on the arguments it got
untouched: calling the undecorated function with ``g``'s parameters by position binds them as
``f(*args, **kwargs)`` binds the arguments of any call ``g`` accepts; W's body keeps its own
lines and reads no name ``g``'s parameters shadow. Every other wrapper is refused by the caller
(``decorators.undecorated``): a call of ``g`` that ``g``'s parameters would not bind (CPython's
TypeError would come from W's forwarding call, after W's body ran) is then refused, as is
reading an attribute of ``g`` (``__wrapped__``, ``__name__``); for a W with its own parameters,
a use of ``g`` other than a call (W's binding errors would name W, not ``g``).
"""

from __future__ import annotations

import ast
import copy
import functools
import types
from collections.abc import Callable
from typing import TYPE_CHECKING

from pathloom.frontend.lowering.scope import names_real

if TYPE_CHECKING:
    from pathloom.frontend.module import Module

ORIGINAL = "~orig"  # the suffix of the undecorated def's qualname
# what W may read of the function it wraps: the strings its def gave it (only W could rebind them)
_NAME_ATTRIBUTES = ("__name__", "__qualname__")


def transparent_wrapper(module: Module, local: str, node: ast.FunctionDef, real: object, is_this_def: Callable[[object], bool]) -> ast.FunctionDef | None:
    """The ``def`` to lower for ``local`` when ``real`` (what it is bound to) is a transparent
    wrapper of the function ``node`` defines (see the module), else None."""
    if not isinstance(real, types.FunctionType):
        return None
    outer, sep, inner = real.__code__.co_qualname.partition(".<locals>.")
    maker = module.function_defs.get(outer)
    if not sep or "." in inner or maker is None or maker.decorator_list or not _only_makes(module, maker, inner):
        return None
    fparam = maker.args.args[0].arg
    closure = real.__closure__ or ()
    if real.__code__.co_freevars != (fparam,) or len(closure) != 1 or not is_this_def(closure[0].cell_contents):
        return None
    wrapper = next(s for s in maker.body if isinstance(s, ast.FunctionDef) and s.name == inner)
    original = closure[0].cell_contents
    names = {attr: getattr(original, attr) for attr in _NAME_ATTRIBUTES}
    if _plain_parameters(wrapper.args):  # def W(a, b=1): its own parameters, f called as it likes
        args = wrapper.args
        body = _calling_body(wrapper, fparam, f"{local}{ORIGINAL}", names)
        returns = wrapper.returns
    else:  # def W(*args, **kwargs): g's parameters, passed on untouched
        args = node.args
        if args.vararg or args.kwarg or args.kwonlyargs or args.posonlyargs:
            return None
        body = _forwarding_body(wrapper, fparam, f"{local}{ORIGINAL}", [a.arg for a in args.args], names)
        returns = node.returns
    if body is None:
        return None
    for use in ast.walk(module.tree):
        if isinstance(use, ast.Attribute) and isinstance(use.value, ast.Name) and use.value.id == local:
            raise module.unsupported(use, f"attribute {use.attr!r} of the decorated function {local!r}")
        if isinstance(use, ast.Call) and isinstance(use.func, ast.Name) and use.func.id == local and not _binds(use, args):
            raise module.unsupported(use, f"a call of the decorated function {local!r} that its parameters may not bind (the wrapper would run first)")
    if args is wrapper.args:
        called = {id(use.func) for use in ast.walk(module.tree) if isinstance(use, ast.Call)}
        for use in ast.walk(module.tree):
            if isinstance(use, ast.Name) and use.id == local and isinstance(use.ctx, ast.Load) and id(use) not in called:
                raise module.unsupported(use, f"the decorated function {local!r} used other than called (its wrapper's own parameters bind the calls)")
    bare = copy.copy(node)
    bare.decorator_list = []
    module.function_defs[f"{local}{ORIGINAL}"] = bare
    module.synthesized.add(f"{local}{ORIGINAL}")
    made = ast.FunctionDef(node.name, copy.deepcopy(args), body, [], returns, node.type_comment)
    ast.copy_location(made, node)
    made.end_lineno, made.end_col_offset = node.end_lineno, node.end_col_offset
    return made


def _only_makes(module: Module, maker: ast.FunctionDef, inner: str) -> bool:
    """``maker`` takes one plain parameter and its body is only (a docstring,) the ``def`` of
    ``inner`` (under nothing but ``functools.wraps`` of that parameter) and ``return inner``."""
    a = maker.args
    if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs or a.defaults or len(a.args) != 1:
        return False
    body = list(maker.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        body = body[1:]
    if len(body) != 2 or not isinstance(body[0], ast.FunctionDef) or body[0].name != inner:
        return False
    last = body[1]
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name) and last.value.id == inner):
        return False
    fparam = a.args[0].arg
    for decorator in body[0].decorator_list:
        if not (
            isinstance(decorator, ast.Call)
            and names_real(module, decorator.func, functools.wraps, lambda name: name == fparam or name == inner)
            and len(decorator.args) == 1
            and not decorator.keywords
            and isinstance(decorator.args[0], ast.Name)
            and decorator.args[0].id == fparam
        ):
            return False
    return True


def _forwarding_body(wrapper: ast.FunctionDef, fparam: str, original: str, params: list[str], names: dict[str, str]) -> list[ast.stmt] | None:
    """The wrapper's body with each ``f(*args, **kwargs)`` calling ``original`` with
    ``params`` by position and each ``f.__name__`` (``f.__qualname__``) the undecorated
    function's (``names``); None unless the wrapper takes ``*args, **kwargs`` alone and uses
    them and ``f`` only so, and reads or binds none of ``params``."""
    a = wrapper.args
    if a.args or a.posonlyargs or a.kwonlyargs or a.vararg is None or a.kwarg is None:
        return None
    star, double = a.vararg.arg, a.kwarg.arg
    body = copy.deepcopy(wrapper.body)
    forwarding: set[int] = set()
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == fparam
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Starred)
            and isinstance(node.args[0].value, ast.Name)
            and node.args[0].value.id == star
            and len(node.keywords) == 1
            and node.keywords[0].arg is None
            and isinstance(node.keywords[0].value, ast.Name)
            and node.keywords[0].value.id == double
        ):
            node.func = ast.copy_location(ast.Name(original, ast.Load()), node.func)
            node.args = [ast.copy_location(ast.Name(p, ast.Load()), node) for p in params]
            node.keywords = []
            forwarding |= {id(node.func), *(id(arg) for arg in node.args)}
    for node in (n for stmt in body for n in ast.walk(stmt)):
        for field, value in ast.iter_fields(node):  # f.__name__ read: the string itself
            if _reads_name_of(value, fparam, names):
                setattr(node, field, ast.copy_location(ast.Constant(names[value.attr]), value))
            elif isinstance(value, list):
                value[:] = [ast.copy_location(ast.Constant(names[v.attr]), v) if _reads_name_of(v, fparam, names) else v for v in value]
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Name) and node.id in (fparam, star, double, *params) and id(node) not in forwarding:
            return None
        if isinstance(node, (ast.Nonlocal, ast.Global)) or _binds_name(node, {fparam, star, double, *params}):
            return None
    return body


def _binds_name(node: ast.AST, names: set[str]) -> bool:
    """``node`` binds one of ``names`` other than as an ``ast.Name`` (a parameter, a ``def`` or
    ``class``, ``except ... as``, an import, a ``match`` capture)."""
    if isinstance(node, ast.arg):
        return node.arg in names
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name in names
    if isinstance(node, ast.ExceptHandler):
        return node.name in names
    if isinstance(node, ast.alias):
        return (node.asname or node.name.partition(".")[0]) in names
    if isinstance(node, (ast.MatchAs, ast.MatchStar)):
        return node.name in names
    if isinstance(node, ast.MatchMapping):
        return node.rest in names
    return False


def _reads_name_of(node: object, fparam: str, names: dict[str, str]) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.ctx, ast.Load)
        and node.attr in names
        and isinstance(node.value, ast.Name)
        and node.value.id == fparam
    )


def _plain_parameters(args: ast.arguments) -> bool:
    """Plain positional parameters alone, their defaults literals (the values ``D`` made)."""
    return not (args.posonlyargs or args.vararg or args.kwonlyargs or args.kwarg) and all(isinstance(d, ast.Constant) for d in args.defaults)


def _calling_body(wrapper: ast.FunctionDef, fparam: str, original: str, names: dict[str, str]) -> list[ast.stmt] | None:
    """The body of a wrapper ``W(a, b)`` with each call ``f(...)`` calling ``original`` (with
    the arguments W gives) and each ``f.__name__`` (``f.__qualname__``) the undecorated
    function's; None when W uses ``f`` otherwise, binds it (a parameter, an assignment, a
    nested function's parameter) or declares a name ``nonlocal`` or ``global``."""
    body = copy.deepcopy(wrapper.body)
    if any(a.arg == fparam for a in wrapper.args.args):
        return None
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, (ast.Nonlocal, ast.Global)) or _binds_name(node, {fparam}):
            return None
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == fparam:
            node.func = ast.copy_location(ast.Name(original, ast.Load()), node.func)
        for field, value in ast.iter_fields(node):
            if _reads_name_of(value, fparam, names):
                setattr(node, field, ast.copy_location(ast.Constant(names[value.attr]), value))
            elif isinstance(value, list):
                value[:] = [ast.copy_location(ast.Constant(names[v.attr]), v) if _reads_name_of(v, fparam, names) else v for v in value]
    if any(isinstance(n, ast.Name) and n.id == fparam for stmt in body for n in ast.walk(stmt)):
        return None
    return body


def _binds(call: ast.Call, args: ast.arguments) -> bool:
    """The call's arguments (no ``*`` or ``**`` ones) bind to the plain parameters ``args``."""
    names = [a.arg for a in args.args]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords) or len(call.args) > len(names):
        return False
    given = names[: len(call.args)] + [k.arg for k in call.keywords if k.arg is not None]
    required = names[: len(names) - len(args.defaults)]
    return len(set(given)) == len(given) and set(given) <= set(names) and set(required) <= set(given)
