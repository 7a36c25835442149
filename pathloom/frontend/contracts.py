"""Contracts: a function's preconditions and postconditions, read from PEP 316 docstrings
(``pre:``, ``post:``, ``__return__``, ``__old__``), icontract (``require``, ``ensure``,
``snapshot``) and deal (``pre``, ``post``, ``ensure``), written into the function as asserts.

Job: ``read`` finds a top-level ``def``'s contracts and gives it back without its contract
decorators; ``instrument`` rewrites it so that it checks them: each precondition is an
``assert`` opening the body (a leading assert: a precondition, as pathloom always treated
them, so a failure is the caller's fault, not a bug of the function), each snapshot
(``__old__.x``, icontract's ``OLD.x``) a variable bound after them, and before each
``return`` the returned value is bound to ``__return__`` and every postcondition asserted (a
failure is a bug of the function, reported at the condition's line). The frontend lowers the
instrumented ``def``, so every engine checks the contracts with the one semantics of
``assert``; the replay child (``enforce``) compiles the same instrumented ``def`` from the
module's source and calls it in place of the real function, so CPython checks exactly the
conditions the engines checked, at the same lines.

Where it departs from the libraries: icontract and deal raise their own ``ViolationError`` /
``PreContractError`` / ``PostContractError`` (each a subclass of ``AssertionError``) from their
wrapper; here a violation is an ``AssertionError`` at the condition's line. Generated tests
call the real decorated function and expect ``AssertionError``, which both libraries' errors
are. A PEP 316 contract is not checked by CPython at all: pathloom checks it as the docstring
says (as CrossHair does), which is what the user asked for by writing it.

Invariant: what is not modelled exactly is refused (``ContractRefused``, turned into
``file:line:col: unsupported: ...`` by the frontend), never dropped: a condition that is not a
``lambda`` with the function's own parameter names, icontract's ``error=``, deal's ``raises``
and the other deal decorators, ``*args``/``**kwargs``, a generator, a ``return`` inside
``try``/``finally`` or ``with`` (its postcondition would run before the cleanup), ``__old__``
of a parameter whose copy is not known to be a deep copy, and a PEP 316 ``inv:``.
"""

from __future__ import annotations

import ast
import copy
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Any, Callable, TypeVar

RESULT = "__return__"  # the returned value, as PEP 316 names it; icontract's and deal's ``result``
_IMMUTABLE = frozenset({"int", "float", "complex", "bool", "str", "bytes", "None", "frozenset", "tuple", "Fraction", "Decimal"})
_COPIES = {"list": "list", "List": "list", "dict": "dict", "Dict": "dict", "set": "set", "Set": "set"}
_ICONTRACT = {"require", "ensure", "snapshot"}
_DEAL = {"pre", "post", "ensure"}


def old_name(attr: str) -> str:
    """The variable holding the snapshot ``__old__.attr`` (``OLD.attr``): a dunder name, so
    that a class body does not mangle it."""
    return f"__old_{attr}__"


class ContractRefused(Exception):
    """A contract pathloom does not model exactly: at ``node``, ``what``."""

    def __init__(self, node: ast.AST, what: str) -> None:
        super().__init__(what)
        self.node = node
        self.what = what


@dataclass(frozen=True)
class Condition:
    test: ast.expr  # over the function's parameters, ``RESULT`` and ``old_name`` variables
    line: int
    text: str  # as written, for messages
    pathloom_only: bool = False  # a check CPython does not make (PEP 316, a cast wrapper's): its failure says so (``UNCHECKED``)
    error: ast.expr | None = None  # icontract's ``error=``: the exception raised instead (an explicit raise, not a bug)


# the end of the message of a failed condition that CPython does not check (no test states it)
UNCHECKED = " [pathloom's check; CPython does not make it]"


@dataclass(frozen=True)
class Contracts:
    pre: tuple[Condition, ...] = ()
    post: tuple[Condition, ...] = ()
    snapshots: tuple[tuple[str, ast.expr], ...] = ()  # (variable, value at entry)
    from_decorators: bool = False  # icontract or deal: CPython checks them too

    def __bool__(self) -> bool:
        return bool(self.pre or self.post)


_Node = TypeVar("_Node", bound=ast.AST)
Resolver = Callable[[ast.expr], object]
Wrappers = Callable[
    [str, "ast.expr | None"], Any
]  # (parameter, annotation) -> its cast wrapper (``.conditions``) or None  # the object a decorator's callee names in the real module (None: unknown)


def library_call(decorator: ast.expr, resolve: Resolver) -> tuple[str, str] | None:
    """``("icontract", "require")`` and the like when ``decorator`` is a call of a decorator
    of icontract or deal (however imported), else None."""
    if not isinstance(decorator, ast.Call):
        return None
    func = decorator.func
    real = resolve(func)
    if real is not None:
        library = str(getattr(real, "__module__", "") or "").split(".")[0]
        name = str(getattr(real, "__name__", ""))
        return (library, name) if library in ("icontract", "deal") else None
    if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in ("icontract", "deal"):
        return func.value.id, func.attr  # source analysed without its real module
    return None


def read(node: ast.FunctionDef, resolve: Resolver, docstring: bool = True, wrappers: Wrappers | None = None) -> tuple[ast.FunctionDef, Contracts]:
    """``node`` without its icontract and deal decorators, and its contracts (those of its
    docstring too when ``docstring``; with ``wrappers``, the preconditions of the cast-wrapper
    classes its parameters are annotated with, ``frontend.cast_wrappers``)."""
    params = _params(node)
    pre: list[Condition] = []
    post: list[Condition] = []
    snapshots: list[tuple[str, ast.expr]] = []
    kept: list[ast.expr] = []
    decorated = False
    for decorator in node.decorator_list:
        called = library_call(decorator, resolve)
        if called is None:
            kept.append(decorator)
            continue
        decorated = True
        assert isinstance(decorator, ast.Call)
        library, name = called
        if (library == "icontract" and name not in _ICONTRACT) or (library == "deal" and name not in _DEAL):
            raise ContractRefused(decorator, f"{library}.{name} (modelled: icontract require/ensure/snapshot, deal pre/post/ensure)")
        _check_keywords(decorator, library)
        if _disabled(decorator):
            continue
        if not decorator.args:
            raise ContractRefused(decorator, f"{library}.{name} without a condition")
        condition = decorator.args[0]
        if name == "snapshot":
            snapshots.append(_snapshot(decorator, condition, params))
        elif name in ("require", "pre"):
            made = _lambda_condition(condition, params, result=None)
            error = next((k.value for k in decorator.keywords if k.arg == "error"), None)
            pre.append(made if error is None else replace(made, error=_error(error, params, made)))
        elif name == "post":  # deal: the result alone, whatever the parameter's name
            pre_names = _lambda_params(condition)
            if len(pre_names) != 1:
                raise ContractRefused(condition, "deal.post condition with other than one parameter (the result)")
            post.append(_lambda_condition(condition, params, result=pre_names[0]))
        else:  # icontract.ensure, deal.ensure
            post.append(_lambda_condition(condition, params, result="result", old="OLD" if library == "icontract" else None))
    if docstring:
        doc_pre, doc_post = _docstring_conditions(node, params)
        pre += doc_pre
        post += doc_post
        snapshots += _docstring_snapshots(node, doc_post)
    if wrappers is not None:
        for arg in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]:
            wrapper = wrappers(arg.arg, arg.annotation)
            pre = [*(wrapper.conditions if wrapper is not None else ()), *pre]
    bare = copy.copy(node)
    bare.decorator_list = kept
    return bare, Contracts(tuple(pre), tuple(post), tuple(snapshots), decorated)


def instrument(node: ast.FunctionDef, contracts: Contracts, method: bool = False) -> ast.FunctionDef:
    """``node`` checking ``contracts``: preconditions as leading asserts, then the snapshots,
    then the body with every ``return`` (and the end) binding ``RESULT`` and asserting every
    postcondition first. A ``method`` may not use ``super()`` or ``__class__`` (the replay
    child compiles it outside its real class)."""
    if not contracts:
        return node
    if _is_generator(node):
        raise ContractRefused(node, "contract on a generator function")
    if method:
        for part in ast.walk(node):
            if isinstance(part, ast.Name) and part.id in ("super", "__class__"):
                raise ContractRefused(part, f"contract on a method that uses {part.id}")
    body = list(node.body)
    docstring = body[:1] if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str) else []
    body = body[len(docstring) :]
    checks: list[ast.stmt] = [_assert(c, "precondition") if c.error is None else _raise_unless(c) for c in contracts.pre]
    for name, value in contracts.snapshots:
        checks.append(_located(ast.Assign([ast.Name(name, ast.Store())], copy.deepcopy(value)), value))
    if contracts.post:
        body = _ReturnChecks(contracts.post).rewrite(body) + _ending(contracts.post, node)
    made = copy.copy(node)
    made.body = docstring + checks + (body or [_located(ast.Pass(), node)])
    return ast.fix_missing_locations(made)


# ---------------------------------------------------------------- the replay child's side


def enforce(module: ModuleType, path: str) -> None:
    """Bind in ``module`` each top-level function that has contracts to its instrumented
    ``def``, compiled from the module's source at its own lines (the replay child calls those,
    so CPython checks what the engines checked); one whose contracts pathloom refuses stays."""
    try:
        with open(path, encoding="utf-8") as handle:
            tree = ast.parse(handle.read(), path)
    except (OSError, SyntaxError, ValueError):
        return
    namespace = vars(module)
    resolve = resolver(namespace)
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef):
            checked = _checked(stmt, resolve, path, namespace, None)
            if checked is not None:
                namespace[stmt.name] = checked
        elif isinstance(stmt, ast.ClassDef) and isinstance(namespace.get(stmt.name), type):
            cls = namespace[stmt.name]
            for method in stmt.body:
                if isinstance(method, ast.FunctionDef) and method.name in vars(cls) and method.name != "__new__":  # (a class with __new__ is CPython's)
                    checked = _checked(method, resolve, path, namespace, stmt.name)
                    if checked is not None:
                        setattr(cls, method.name, checked)


def _checked(stmt: ast.FunctionDef, resolve: Resolver, path: str, namespace: dict[str, object], cls: str | None) -> object:
    """The function ``stmt`` instrumented with its contracts and compiled at its own lines (a
    method inside a class of its class's name, so that private names mangle alike); None when
    it has none, or has contracts pathloom refuses, or other decorators."""
    from pathloom.frontend.cast_wrappers import cast_wrapper  # (it reads contracts with this module)

    try:
        wrappers = None if cls is not None else (lambda param, annotation: cast_wrapper(namespace, annotation, param))
        bare, contracts = read(stmt, resolve, wrappers=wrappers)
        descriptor = cls is not None and [ast.unparse(d) for d in bare.decorator_list] in (["staticmethod"], ["classmethod"], ["property"])
        if not contracts or (bare.decorator_list and not descriptor):
            return None
        made = _without_annotations(instrument(bare, contracts, method=cls is not None))  # (a descriptor stays: the class applies it)
    except ContractRefused:
        return None
    body: ast.stmt = (
        made if cls is None else ast.ClassDef(cls, [], [], [made], [], lineno=made.lineno, col_offset=0, end_lineno=made.end_lineno, end_col_offset=0)
    )
    scope: dict[str, object] = {}
    exec(compile(ast.fix_missing_locations(ast.Module([body], [])), path, "exec"), namespace, scope)  # noqa: S102 - the module's own source, as its import ran it
    checked = scope[stmt.name] if cls is None else vars(scope[cls])[stmt.name]
    return checked


def resolver(namespace: dict[str, object] | None) -> Resolver:
    """What a decorator's callee (``name`` or ``module.name``) is in the real module's
    ``namespace``; None when unknown (no real module: ``library_call`` reads the source)."""

    def resolve(func: ast.expr) -> object:
        if namespace is None:
            return None
        if isinstance(func, ast.Name):
            return namespace.get(func.id)
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            owner = namespace.get(func.value.id)
            return getattr(owner, func.attr, None) if isinstance(owner, ModuleType) else None
        return None

    return resolve


def _without_annotations(node: ast.FunctionDef) -> ast.FunctionDef:
    made = copy.deepcopy(node)
    args = made.args
    for arg in [*args.posonlyargs, *args.args, *args.kwonlyargs]:
        arg.annotation = None
    made.returns = None
    return made


# ---------------------------------------------------------------- reading


def _params(node: ast.FunctionDef) -> list[str]:
    args = node.args
    return [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]


def _check_keywords(decorator: ast.Call, library: str) -> None:
    allowed = {"description", "a_repr", "enabled", "name", "message"} if library == "icontract" else {"message"}
    if library == "icontract" and isinstance(decorator.func, (ast.Name, ast.Attribute)) and ast.unparse(decorator.func).endswith("require"):
        allowed = allowed | {"error"}
    for keyword in decorator.keywords:
        if keyword.arg not in allowed:
            raise ContractRefused(keyword, f"{library} contract argument {keyword.arg}=")
    if len(decorator.args) > (2 if library == "icontract" else 1):
        raise ContractRefused(decorator, f"{library} contract with {len(decorator.args)} positional arguments")


def _disabled(decorator: ast.Call) -> bool:
    """``enabled=False`` (a literal): icontract leaves the condition out."""
    for keyword in decorator.keywords:
        if keyword.arg == "enabled":
            if not isinstance(keyword.value, ast.Constant) or not isinstance(keyword.value.value, bool):
                raise ContractRefused(keyword, "icontract enabled= that is not a literal True or False")
            return not keyword.value.value
    return False


def _lambda_params(condition: ast.expr) -> list[str]:
    if not isinstance(condition, ast.Lambda):
        raise ContractRefused(condition, "contract condition that is not a lambda")
    args = condition.args
    if args.vararg or args.kwarg or args.defaults or args.kw_defaults or args.kwonlyargs or args.posonlyargs:
        raise ContractRefused(condition, "contract lambda with *args, **kwargs, defaults or keyword-only parameters")
    return [a.arg for a in args.args]


def _error(error: ast.expr, params: list[str], condition: Condition) -> ast.expr:
    """The exception a failed ``require(..., error=E)`` raises: ``E(message)`` for a class
    named by the module, the lambda's body (over the function's parameters) for a lambda."""
    if isinstance(error, ast.Lambda):
        names = _lambda_params(error)
        for name in names:
            if name not in params:
                raise ContractRefused(error, f"error lambda parameter {name!r} is not a parameter of the function")
        return _on_one_line(_Renamed({}, None).visit(copy.deepcopy(error.body)))
    if isinstance(error, (ast.Name, ast.Attribute)):
        message = ast.Constant(f"precondition failed: {condition.text}")
        return ast.copy_location(ast.Call(copy.deepcopy(error), [ast.copy_location(message, error)], []), error)
    raise ContractRefused(error, "icontract error= that is neither a lambda nor a name")


def _lambda_condition(condition: ast.expr, params: list[str], result: str | None, old: str | None = None) -> Condition:
    """The lambda's body over the function's parameters (the lambda's parameters are the
    function's, by name), with ``result`` the returned value and ``old`` the snapshots."""
    names = _lambda_params(condition)
    assert isinstance(condition, ast.Lambda)
    renames = {}
    for name in names:
        if name == result:
            renames[name] = RESULT
        elif name == old:
            renames[name] = old
        elif name not in params:
            raise ContractRefused(condition, f"contract lambda parameter {name!r} is not a parameter of the function")
    test = _on_one_line(_Renamed(renames, old).visit(copy.deepcopy(condition.body)))
    return Condition(test, condition.body.lineno, ast.unparse(condition.body))


def _on_one_line(test: ast.expr) -> ast.expr:
    """``test`` with every part on its first line: CPython reports a failed assert whose test
    spans lines at the line of the part it evaluated last (a multi-line ``or``: its second
    line), the engines at the assert's line; on one line both say the condition's line."""
    line = test.lineno
    for part in ast.walk(test):
        if isinstance(part, (ast.expr, ast.stmt)) and hasattr(part, "lineno"):
            if part.lineno != line or part.end_lineno != line:
                part.end_col_offset = part.col_offset + 1
            part.lineno = part.end_lineno = line
    return test


def _snapshot(decorator: ast.Call, capture: ast.expr, params: list[str]) -> tuple[str, ast.expr]:
    names = _lambda_params(capture)
    assert isinstance(capture, ast.Lambda)
    for name in names:
        if name not in params:
            raise ContractRefused(capture, f"snapshot lambda parameter {name!r} is not a parameter of the function")
    given = [k.value for k in decorator.keywords if k.arg == "name"] + decorator.args[1:2]
    if given:
        if not (isinstance(given[0], ast.Constant) and isinstance(given[0].value, str)):
            raise ContractRefused(decorator, "snapshot name that is not a literal str")
        label = given[0].value
    elif len(names) == 1:
        label = names[0]
    else:
        raise ContractRefused(decorator, "snapshot of several parameters without a name")
    return old_name(label), copy.deepcopy(capture.body)


class _Renamed(ast.NodeTransformer):
    """Names renamed (``result`` -> ``__return__``); ``OLD.x`` / ``__old__.x`` -> ``old_name(x)``."""

    def __init__(self, renames: dict[str, str], old: str | None) -> None:
        self.renames = renames
        self.old = old

    def visit_Attribute(self, node: ast.Attribute) -> ast.expr:
        if self.old is not None and isinstance(node.value, ast.Name) and node.value.id == self.old:
            return ast.copy_location(ast.Name(old_name(node.attr), ast.Load()), node)
        self.generic_visit(node)
        return node

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if self.old is not None and node.id == self.old:
            raise ContractRefused(node, f"{self.old} used other than as {self.old}.name")
        if node.id in self.renames:
            return ast.copy_location(ast.Name(self.renames[node.id], node.ctx), node)
        return node

    def visit_Lambda(self, node: ast.Lambda) -> ast.expr:
        raise ContractRefused(node, "lambda inside a contract condition")


def _docstring_conditions(node: ast.FunctionDef, params: list[str]) -> tuple[list[Condition], list[Condition]]:
    """The ``pre:`` and ``post:`` (``post[names]:``) lines of the docstring, one condition a
    line, each parsed where it is written (its line and column)."""
    if not (node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant) and isinstance(node.body[0].value.value, str)):
        return [], []
    doc = node.body[0].value
    pre: list[Condition] = []
    post: list[Condition] = []
    for offset, raw in enumerate(str(doc.value).split("\n")):
        text = raw.strip()
        head, sep, rest = text.partition(":")
        kind = "post" if head.startswith("post[") and head.endswith("]") else head
        if not sep or kind not in ("pre", "post", "inv"):
            continue
        line = doc.lineno + offset
        where = ast.Constant(None, lineno=line, col_offset=0, end_lineno=line, end_col_offset=0)
        if kind == "inv":
            raise ContractRefused(where, "PEP 316 invariant (inv:)")
        if not rest.strip() or rest.strip().startswith(":"):
            raise ContractRefused(where, f"PEP 316 {kind}: block (one condition a line is modelled)")
        column = raw.index(rest.strip()) if doc.lineno + offset != doc.lineno else 0
        try:
            test = ast.parse(rest.strip(), mode="eval").body
        except SyntaxError:
            raise ContractRefused(where, f"PEP 316 {kind}: condition that is not an expression: {rest.strip()!r}") from None
        for part in ast.walk(test):
            if isinstance(part, (ast.expr, ast.stmt)):
                part.lineno = part.end_lineno = line
                part.col_offset += column
                part.end_col_offset = (part.end_col_offset or 0) + column
        test = _Renamed({}, "__old__" if kind == "post" else None).visit(test)
        if kind == "pre" and any(isinstance(n, ast.Name) and n.id == RESULT for n in ast.walk(test)):
            raise ContractRefused(where, "PEP 316 precondition naming __return__")
        (pre if kind == "pre" else post).append(Condition(test, line, rest.strip(), pathloom_only=True))
    return pre, post


def _docstring_snapshots(node: ast.FunctionDef, post: list[Condition]) -> list[tuple[str, ast.expr]]:
    """``__old__.x`` of PEP 316: a deep copy of parameter ``x`` at entry, made by the copy its
    annotation says is deep (the value itself for an immutable type; ``list(x)`` for a list of
    immutables, and so for dict and set); another parameter's ``__old__`` is refused."""
    wanted = sorted({n.id for c in post for n in ast.walk(c.test) if isinstance(n, ast.Name) and n.id.startswith("__old_") and n.id != RESULT})
    annotations = {a.arg: a.annotation for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]}
    made = []
    for variable in wanted:
        param = variable[len("__old_") : -2]
        if param not in annotations:
            raise ContractRefused(node, f"__old__.{param}: not a parameter of the function")
        value = deep_copy_of(param, annotations[param])
        if value is None:
            raise ContractRefused(node, f"__old__.{param} of a parameter whose deep copy is not modelled (annotate it with immutable types)")
        made.append((variable, _located(value, node)))
    return made


def deep_copy_of(param: str, annotation: ast.expr | None) -> ast.expr | None:
    if annotation is None:
        return None
    if _immutable(annotation):
        return ast.Name(param, ast.Load())
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) and annotation.value.id in _COPIES:
        items = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        if all(_immutable(item) for item in items):
            return ast.Call(ast.Name(_COPIES[annotation.value.id], ast.Load()), [ast.Name(param, ast.Load())], [])
    return None


def _immutable(annotation: ast.expr) -> bool:
    if isinstance(annotation, ast.Constant):
        return annotation.value is None
    if isinstance(annotation, ast.Name):
        return annotation.id in _IMMUTABLE
    if isinstance(annotation, ast.Subscript) and isinstance(annotation.value, ast.Name) and annotation.value.id in ("tuple", "Tuple", "frozenset"):
        items = annotation.slice.elts if isinstance(annotation.slice, ast.Tuple) else [annotation.slice]
        return all(isinstance(i, ast.Constant) and i.value is Ellipsis or _immutable(i) for i in items)
    if isinstance(annotation, ast.BinOp) and isinstance(annotation.op, ast.BitOr):
        return _immutable(annotation.left) and _immutable(annotation.right)
    return False


# ---------------------------------------------------------------- writing


def _located(node: _Node, at: ast.AST) -> _Node:
    """``node`` at ``at``'s place, and every part of it that has none."""
    for part in ast.walk(node):
        if isinstance(part, (ast.expr, ast.stmt)) and not hasattr(part, "lineno"):
            ast.copy_location(part, at)
    return ast.copy_location(node, at)


def _assert(condition: Condition, what: str) -> ast.stmt:
    message = ast.Constant(f"{what} failed: {condition.text}" + (UNCHECKED if condition.pathloom_only else ""))
    made = ast.Assert(copy.deepcopy(condition.test), _located(message, condition.test))
    return _located(made, condition.test)


def _raise_unless(condition: Condition) -> ast.stmt:
    """``if not (test): raise error`` (icontract's ``require(..., error=...)``): an explicit raise."""
    assert condition.error is not None
    failed = ast.UnaryOp(ast.Not(), copy.deepcopy(condition.test))
    made = ast.If(_located(failed, condition.test), [_located(ast.Raise(copy.deepcopy(condition.error), None), condition.test)], [])
    return _located(made, condition.test)


class _ReturnChecks:
    """Each ``return X`` of the function's own body: ``__return__ = X``, the postconditions
    asserted, ``return __return__``."""

    def __init__(self, post: tuple[Condition, ...]) -> None:
        self.post = post

    def rewrite(self, body: list[ast.stmt], guarded: bool = False) -> list[ast.stmt]:
        made: list[ast.stmt] = []
        for stmt in body:
            if isinstance(stmt, ast.Return):
                if guarded:
                    raise ContractRefused(stmt, "postcondition on a function returning inside try/finally or with (the cleanup would run after the check)")
                value = stmt.value if stmt.value is not None else _located(ast.Constant(None), stmt)
                made.append(_located(ast.Assign([ast.Name(RESULT, ast.Store())], value), stmt))
                made += [_assert(c, "postcondition") for c in self.post]
                made.append(_located(ast.Return(ast.Name(RESULT, ast.Load())), stmt))
                continue
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                made.append(stmt)
                continue
            stmt = copy.copy(stmt)
            inner = guarded or isinstance(stmt, (ast.With, ast.AsyncWith)) or (isinstance(stmt, ast.Try) and bool(stmt.finalbody))
            for field in ("body", "orelse", "finalbody"):
                if isinstance(getattr(stmt, field, None), list):
                    setattr(stmt, field, self.rewrite(getattr(stmt, field), inner))
            if isinstance(stmt, ast.Try):
                stmt.handlers = [self._handler(h, inner) for h in stmt.handlers]
            if isinstance(stmt, ast.Match):
                stmt.cases = [self._case(c, guarded) for c in stmt.cases]
            made.append(stmt)
        return made

    def _handler(self, handler: ast.ExceptHandler, guarded: bool) -> ast.ExceptHandler:
        made = copy.copy(handler)
        made.body = self.rewrite(handler.body, guarded)
        return made

    def _case(self, case: ast.match_case, guarded: bool) -> ast.match_case:
        made = copy.copy(case)
        made.body = self.rewrite(case.body, guarded)
        return made


def _ending(post: tuple[Condition, ...], node: ast.FunctionDef) -> list[ast.stmt]:
    """The implicit ``return None`` at the end of the body, checked (dead code after a last
    ``return``, which lowering drops)."""
    end = node.body[-1] if node.body else node
    return _ReturnChecks(post).rewrite([_located(ast.Return(None), end)])


def _is_generator(node: ast.FunctionDef) -> bool:
    stack: list[ast.AST] = list(node.body)
    while stack:
        part = stack.pop()
        if isinstance(part, (ast.Yield, ast.YieldFrom)):
            return True
        if not isinstance(part, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(part))
    return False


__all__ = [
    "RESULT",
    "Condition",
    "ContractRefused",
    "Contracts",
    "UNCHECKED",
    "enforce",
    "instrument",
    "library_call",
    "old_name",
    "read",
    "resolver",
]
