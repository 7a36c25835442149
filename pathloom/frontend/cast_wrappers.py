"""Cast wrappers: classes that name a refined type and construct nothing (python-by-contract-
corpus writes ``class Lines(DBC)`` whose ``__new__`` checks its argument and returns
``cast(Lines, lines)``, the argument itself).

Job: ``cast_wrapper`` recognises such a class in the real module (its ``__new__``, unwrapped
from its contract decorators, is one ``return cast(C, e)`` after an optional docstring, ``e`` a
parameter or a tuple of parameters) and gives what a value of it is: the type of ``e`` (the
parameter's annotation, or ``tuple[...]`` of theirs) and the preconditions of ``__new__``
(``frontend.contracts``), rewritten over a parameter of the function that takes such a value.
A parameter annotated with the class is then an input of the underlying type whose values
satisfy those preconditions (a leading assert each, at the parameter's line): every value
CPython's ``C(...)`` returns, and no other.

Invariant: anything else about the class (another body, a ``__new__`` pathloom cannot read,
``cast`` not ``typing.cast``) makes it no cast wrapper: the parameter stays what it was
(refused as an input type, with one line).
"""

from __future__ import annotations

import ast
import copy
import inspect
import textwrap
import typing
from dataclasses import dataclass

from pathloom.frontend.contracts import Condition, ContractRefused, read, resolver


@dataclass(frozen=True)
class CastWrapper:
    annotation: str  # the type of the value (the underlying parameter's annotation)
    conditions: tuple[Condition, ...]  # over the parameter, at its line


def cast_wrapper(namespace: dict[str, object] | None, annotation: ast.expr | None, param: str) -> CastWrapper | None:
    """What a value of parameter ``param``, annotated ``annotation`` (a class's name, perhaps
    quoted), is when that class of ``namespace`` is a cast wrapper; else None."""
    if namespace is None or annotation is None:
        return None
    if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
        try:
            annotation = ast.parse(annotation.value, mode="eval").body
        except SyntaxError:
            return None
    if not isinstance(annotation, ast.Name):
        return None
    cls = namespace.get(annotation.id)
    if not isinstance(cls, type):
        return None
    read_back = _read(cls)
    if read_back is None:
        return None
    new, value, home = read_back
    annotations = {a.arg: a.annotation for a in new.args.args[1:]}
    try:
        _, contracts = read(new, resolver(home), docstring=False)
    except ContractRefused:
        return None
    if isinstance(value, ast.Name):
        underlying = annotations.get(value.id)
        if underlying is None:
            return None
        renames: dict[str, ast.expr] = {value.id: ast.Name(param, ast.Load())}
        text = ast.unparse(underlying)
    else:
        names = [e.id for e in value.elts if isinstance(e, ast.Name)]
        if len(names) != len(value.elts) or any(annotations.get(n) is None for n in names):
            return None
        renames = {n: ast.Subscript(ast.Name(param, ast.Load()), ast.Constant(i), ast.Load()) for i, n in enumerate(names)}
        text = f"tuple[{', '.join(ast.unparse(annotations[n]) for n in names)}]"  # type: ignore[arg-type]
    line = annotation.lineno
    conditions = []
    for condition in contracts.pre:
        test = _Substituted(renames).visit(copy.deepcopy(condition.test))
        for part in ast.walk(test):
            if isinstance(part, (ast.expr, ast.stmt)):
                part.lineno = part.end_lineno = line
                part.col_offset, part.end_col_offset = annotation.col_offset, annotation.col_offset + 1
        conditions.append(Condition(test, line, f"{condition.text} (of {cls.__name__}, the type of {param})", pathloom_only=True))
    return CastWrapper(text, tuple(conditions))


def _read(cls: type) -> tuple[ast.FunctionDef, ast.Name | ast.Tuple, dict[str, object]] | None:
    """The ``__new__`` of ``cls`` (with its decorators), the ``e`` of its ``return cast(cls, e)``,
    and the namespace it was defined in (its globals: the module may be in no ``sys.modules``)."""
    new = cls.__dict__.get("__new__")
    func = new.__func__ if isinstance(new, staticmethod) else new
    if func is None:
        return None
    func = inspect.unwrap(func)
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    if not tree.body or not isinstance(tree.body[0], ast.FunctionDef):
        return None
    node = tree.body[0]
    body = node.body[1:] if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant) else node.body
    if len(body) != 1 or not isinstance(body[0], ast.Return) or not isinstance(body[0].value, ast.Call):
        return None
    call = body[0].value
    home = getattr(func, "__globals__", None)
    if not isinstance(home, dict):
        return None
    called = resolver(home)(call.func)
    if called is not typing.cast or len(call.args) != 2 or call.keywords or node.args.vararg or node.args.kwarg or node.args.kwonlyargs:
        return None
    target, value = call.args
    named = target.value if isinstance(target, ast.Constant) else ast.unparse(target)
    if named != cls.__name__ or not isinstance(value, (ast.Name, ast.Tuple)):
        return None
    return node, value, home


class _Substituted(ast.NodeTransformer):
    def __init__(self, renames: dict[str, ast.expr]) -> None:
        self.renames = renames

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return copy.deepcopy(self.renames[node.id]) if node.id in self.renames else node
