"""Lower one Python function (``ast``) to the IR control-flow graph.

Lowering (this module, with its scope analyses and the graph builder in the package
``pathloom.frontend.lowering``) is the only place that knows Python's statement and expression
syntax. Invariants of its output (checked by ``ircheck``): every block ends in one terminator; temporaries are named
``%N`` and cannot clash with Python names; short-circuit operators, chained comparisons and
conditional expressions become explicit control flow, so every ``Branch`` tests a bool made by
``Truth`` or ``Compare``; blocks inside a ``try`` body carry the handler label; loop headers
are entered from outside by a plain ``Goto`` and from their body by a ``Goto(back_edge=True)``.
Anything outside the supported subset raises ``Unsupported`` with the node's location.
"""

from __future__ import annotations

import ast
import functools
from typing import Callable

from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import YIELDED, Builder, cell_slot, node_loc
from pathloom.frontend.lowering.scope import (
    assigned_names,
    binding_sites,
    declared_globals,
    is_generator,
    leading_asserts,
    nonlocals,
    scope_walk,
)

_BINOPS: dict[type[ast.operator], str] = {
    ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.FloorDiv: "//", ast.Mod: "%",
    ast.Pow: "**", ast.Div: "/", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
    ast.LShift: "<<", ast.RShift: ">>",
}
_CMPOPS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==", ast.NotEq: "!=", ast.Lt: "<", ast.LtE: "<=", ast.Gt: ">", ast.GtE: ">=",
    ast.In: "in", ast.NotIn: "not in", ast.Is: "is", ast.IsNot: "is not",
}
_UNSUPPORTED_STMT = {
    ast.With: "with statement", ast.AsyncWith: "async with", ast.AsyncFor: "async for",
    ast.Import: "import inside a function",
    ast.ImportFrom: "import inside a function", ast.ClassDef: "nested class",
    ast.AsyncFunctionDef: "async function",
    ast.Match: "match statement", ast.TryStar: "try/except*",
}
_UNSUPPORTED_EXPR = {
    ast.GeneratorExp: "generator expression outside list(), tuple(), set(), sorted(), sum(), min(), max(), any(), all() and 'sep'.join()",
    ast.NamedExpr: "assignment expression (:=)", ast.Await: "await", ast.Starred: "starred expression",
    ast.Slice: "extended slicing (a slice inside a tuple subscript)",
}


_FOLDABLE = (ast.Constant, ast.UnaryOp, ast.BinOp, ast.Tuple, ast.Subscript, ast.unaryop, ast.operator, ast.expr_context)


def _maybe_folded(node: ast.expr) -> bool:
    """Whether CPython's AST optimizer may turn ``node`` into a constant: it folds only
    constants, unary and binary operators, tuples and subscripts of constants, and
    ``__debug__``; anything else (a name, a call) never is."""
    return all(isinstance(n, _FOLDABLE) or (isinstance(n, ast.Name) and n.id == "__debug__") for n in ast.walk(node))


def lower_function(module: object, qualname: str, node: ast.FunctionDef, cls: str | None) -> ir.Function:
    return _Lowerer(module, qualname, cls).function(node)


def lower_lambda(module: object, qualname: str, node: ast.Lambda | ast.FunctionDef, cls: str | None, captures: tuple[str, ...] = (),
                 cells: tuple[str, ...] = ()) -> ir.Function:
    """A lambda or a nested function; ``captures`` are the enclosing function's variables it
    closes over, its last parameters (their values come with the function value); those in
    ``cells`` come as cells (``ir.LoadCell`` reads them)."""
    lowerer = _Lowerer(module, qualname, cls)
    lowerer.captures = captures
    lowerer.cell_captures = frozenset(cells)
    if isinstance(node, ast.FunctionDef):
        lowerer.own_name = node.name
        return lowerer.function(node)
    return lowerer.lambda_function(node)


def annotation_text(node: ast.expr | None) -> str | None:
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        source = node.value
        try:
            node = ast.parse(source, mode="eval").body
        except SyntaxError:
            return source
    text = ast.unparse(node).replace(" ", "")
    return {"List[int]": "list[int]", "typing.List[int]": "list[int]"}.get(text, text)


def _immutable_literal(value: object) -> bool:
    if value is None or type(value) in (bool, int, float, str):
        return True
    return type(value) is tuple and all(_immutable_literal(v) for v in value)


_ITEM = "item~"  # the item of a comprehension the lowering writes: not a Python name, it clashes with none
_WHOLE_CONSUMERS = ("list", "tuple", "sorted")  # builtins that build the list of their argument's items first


CACHE_WRAPPER = "pathloom_cache_wrapper"  # marks the function a cached function's expansion calls through


def item_loop(iterable: ast.expr, where: ast.AST) -> tuple[ast.Name, ast.comprehension]:
    """``for item~ in iterable``, for a comprehension the lowering writes, and a read of its
    item; both at ``where`` (an error in them is CPython's at that line)."""
    target = ast.copy_location(ast.Name(_ITEM, ast.Store()), where)
    return ast.copy_location(ast.Name(_ITEM, ast.Load()), where), ast.comprehension(target, iterable, [], 0)



class _Lowerer(Builder):
    # ------------------------------------------------------------ functions

    def _params(self, args: ast.arguments) -> tuple[ir.Param, ...]:
        extra = args.kwonlyargs or args.posonlyargs
        odd = args.vararg or args.kwarg or (extra[0] if extra else None)
        if odd is not None:
            raise self.unsupported(odd, "*args, **kwargs, keyword-only or positional-only parameters")
        defaults: list[ast.expr | None] = [None] * (len(args.args) - len(args.defaults)) + list(args.defaults)
        params = []
        for i, (arg, default) in enumerate(zip(args.args, defaults)):
            default_operand: Operand | None = None
            if default is not None:
                from pathloom.frontend.module import _NOT_LITERAL, _literal

                value = _literal(default)
                if value is _NOT_LITERAL:
                    value = self._real_default(default, len(args.args) - i)
                default_operand = Const(value)
            params.append(ir.Param(arg.arg, annotation_text(arg.annotation), default_operand, arg.lineno, arg.col_offset + 1))
        return tuple(params)

    def _foreign_file(self) -> str | None:
        return self.module.filename if self.module.namespace else None

    def _real_default(self, node: ast.expr, from_end: int) -> object:
        """A default that is not a literal: the value CPython computed when the ``def`` ran
        (``__defaults__`` of the real function), as the semantics sees a module-level value."""
        from pathloom.semantics.calls import from_runtime
        from pathloom.semantics.outcome import RuntimeUnsupported

        try:
            real = self.module.real_function(self.qualname)
        except (RuntimeUnsupported, AttributeError, KeyError):
            real = None
        defaults = getattr(real, "__defaults__", None)
        if not isinstance(defaults, tuple) or len(defaults) < from_end:
            raise self.unsupported(node, "default value that is not a literal constant (the real function's is unknown)")
        return from_runtime(defaults[len(defaults) - from_end])

    def function(self, node: ast.FunctionDef) -> ir.Function:
        if node.decorator_list:
            raise self.unsupported(node.decorator_list[0], "decorator")
        node = self._with_caches_expanded(node)
        params = self._params(node.args) + self._capture_params(node)
        self.own_nonlocals = frozenset(nonlocals(node.body))
        missing = self.own_nonlocals - self.cell_captures
        if missing:  # CPython's SyntaxError, or a variable of no function around this one
            raise self.unsupported(node, f"nonlocal {sorted(missing)[0]!r} not bound by the enclosing function")
        self.own_globals = declared_globals(node.body)
        clash = sorted(set(self.own_globals) & {p.name for p in params})
        if clash:  # CPython's SyntaxError
            raise self.unsupported(node, f"parameter {clash[0]!r} declared global")
        self.locals = (assigned_names(node.body) - self.own_nonlocals - set(self.own_globals)) | {p.name for p in params}
        self.binding_sites = binding_sites({p.name for p in params}, node.body)
        self.preconditions = set(leading_asserts(node.body))
        self.first_param = params[0].name if params else None
        entry = self.current
        self.shared = self._written_by_nested(node.body)
        self.cellvars = self._cell_variables(node.body) | self.shared
        for name in sorted(self.cellvars):
            self.emit(ir.MakeCell(cell_slot(name), node_loc(node)))
            if name in {p.name for p in params}:
                self.emit(ir.StoreCell(Var(cell_slot(name)), Var(name), node_loc(node)))
        self.generator = is_generator(node.body)
        if self.generator:
            self.emit(ir.BuildList(YIELDED, (), node_loc(node)))
        for self.top_index, stmt in enumerate(node.body):
            self.stmt(stmt)
        end = Var(YIELDED) if self.generator else Const(None)
        self.terminate(ir.Return(end, node_loc(node.body[-1]) if node.body else node_loc(node)))
        foreign = self.module.filename if getattr(node, CACHE_WRAPPER, False) else self._foreign_file()
        return ir.Function(self.qualname, node.name, params, self.blocks, entry.label, node.lineno, node.col_offset + 1, self.cls,
                           foreign, self.captures, self.generator)

    # ------------------------------------------------------------ functools.cache

    def _with_caches_expanded(self, node: ast.FunctionDef) -> ast.FunctionDef:
        """``node`` with each nested ``@cache`` (``@lru_cache(maxsize=None)``) function written
        out as CPython's cache runs it (``_cache_expansion``)."""
        body = self._caches_expanded(node.body, node)
        if body is node.body:
            return node
        copy = ast.FunctionDef(node.name, node.args, body, [], node.returns, node.type_comment)
        ast.copy_location(copy, node)
        copy.end_lineno, copy.end_col_offset = node.end_lineno, node.end_col_offset
        if getattr(node, CACHE_WRAPPER, False):
            setattr(copy, CACHE_WRAPPER, True)
        return copy

    def _caches_expanded(self, body: list[ast.stmt], scope: ast.FunctionDef) -> list[ast.stmt]:
        """``body`` with its cached nested functions expanded, in compound statements too (not
        inside nested functions or classes, expanded when they are lowered); ``body`` itself
        when there are none."""
        out: list[ast.stmt] = []
        changed = False
        for stmt in body:
            if isinstance(stmt, ast.FunctionDef) and stmt.decorator_list and self._is_cache(stmt.decorator_list):
                out += self._cache_expansion(stmt, scope)
                changed = True
                continue
            if isinstance(stmt, (ast.If, ast.For, ast.While, ast.Try, ast.With)):
                fields = {}
                for field in ("body", "orelse", "finalbody"):
                    inner = getattr(stmt, field, None)
                    if inner:
                        expanded = self._caches_expanded(inner, scope)
                        if expanded is not inner:
                            fields[field] = expanded
                if fields:
                    stmt = ast.copy_location(type(stmt)(**{**{f: getattr(stmt, f) for f in stmt._fields}, **fields}), stmt)
                    changed = True
            out.append(stmt)
        return out if changed else body

    def _is_cache(self, decorators: list[ast.expr]) -> bool:
        """``@cache``/``@functools.cache`` or ``@lru_cache(maxsize=None)`` (``lru_cache(None)``)
        alone: an unbounded cache; the real ``functools`` ones."""
        if len(decorators) != 1:
            return False
        decorator = decorators[0]
        if self._names_real(decorator, functools.cache):
            return True
        if isinstance(decorator, ast.Call) and self._names_real(decorator.func, functools.lru_cache):
            given = list(decorator.args) + [k.value for k in decorator.keywords if k.arg == "maxsize"]
            others = [k for k in decorator.keywords if k.arg not in ("maxsize", "typed")]
            typed = [k for k in decorator.keywords if k.arg == "typed"]
            untyped = all(isinstance(k.value, ast.Constant) and k.value.value is False for k in typed)
            return len(given) == 1 and isinstance(given[0], ast.Constant) and given[0].value is None and not others and untyped
        return False

    def _cache_expansion(self, node: ast.FunctionDef, scope: ast.FunctionDef) -> list[ast.stmt]:
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
            raise self.unsupported(node.decorator_list[0], "a cached function with other than plain positional parameters")
        params = [a.arg for a in args.args]
        calls = {id(n.func) for n in ast.walk(scope) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name
                 and len(n.args) == len(params) and not n.keywords and not any(isinstance(a, ast.Starred) for a in n.args)}
        for use in ast.walk(scope):
            if isinstance(use, ast.Name) and use.id == name and isinstance(use.ctx, ast.Load) and id(use) not in calls:
                raise self.unsupported(use, f"the cached function {name!r} used other than called with its {len(params)} positional arguments")

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

    def lambda_function(self, node: ast.Lambda) -> ir.Function:
        params = self._params(node.args) + self._capture_params(node)
        self.locals = {p.name for p in params}
        self.binding_sites = {p.name: [(-1, True)] for p in params}
        entry = self.current
        value = self.expr(node.body)
        self.terminate(ir.Return(value, node_loc(node.body)))
        return ir.Function(self.qualname, "<lambda>", params, self.blocks, entry.label, node.lineno, node.col_offset + 1, self.cls,
                           self._foreign_file(), self.captures)

    def _capture_params(self, node: ast.AST) -> tuple[ir.Param, ...]:
        line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0) + 1
        return tuple(ir.Param(name, None, None, line, col) for name in self.captures)

    # ------------------------------------------------------------ closures

    def stmt_FunctionDef(self, node: ast.FunctionDef) -> None:
        """A nested function: a closure over the enclosing variables it uses (by value)."""
        if node.decorator_list:
            raise self.unsupported(node.decorator_list[0], "decorator on a nested function")
        qualname = f"{self.qualname}.<locals>.{node.name}"
        captures, cells = self._closure(node, node.name)
        self.module.lambdas[qualname] = (node, self.cls, captures, cells)
        self.emit(ir.MakeFunction(node.name, qualname, node_loc(node), self._captured(captures)))

    def _captured(self, captures: tuple[str, ...]) -> tuple[Operand, ...]:
        """What a closure's function value holds: the value, or the cell of a cell variable."""
        return tuple(Var(cell_slot(c)) if c in self.cellvars else Var(c) for c in captures)

    def _written_by_nested(self, body: list[ast.stmt]) -> frozenset[str]:
        """This function's variables that a nested function declares ``nonlocal`` (it writes
        their cell: this function reads them through it); a deeper ``nonlocal`` chain is
        unsupported."""
        shared: set[str] = set()
        for node in scope_walk(body):
            if isinstance(node, ast.FunctionDef):
                for name in nonlocals(node.body):
                    if name not in self.locals or name in self.renames:
                        raise self.unsupported(node, f"nonlocal {name!r} of a function further out")
                    shared.add(name)
                for inner in ast.walk(node):
                    if inner is not node and isinstance(inner, (ast.FunctionDef, ast.Lambda)) and isinstance(inner, ast.FunctionDef) \
                            and nonlocals(inner.body) - assigned_names(node.body) - {a.arg for a in node.args.args}:
                        raise self.unsupported(inner, "nonlocal of a function further out")
        return frozenset(shared)

    def _free_names(self, node: ast.FunctionDef | ast.Lambda) -> list[str]:
        """The variables of this function ``node`` (or a function inside it) reads, or writes
        as ``nonlocal``."""
        declared = nonlocals(node.body) if isinstance(node, ast.FunctionDef) else set()
        bound = {a.arg for a in node.args.args} | ((assigned_names(node.body) - declared) if isinstance(node, ast.FunctionDef) else set())
        used = {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)} | declared
        return sorted(n for n in used - bound if n in self.locals or n in self.renames or n == self.own_name)

    def _by_value(self, name: str, index: int) -> bool:
        """Whether a closure made by top-level statement ``index`` may hold ``name``'s value:
        every binding in a top-level statement before it (a parameter counts), one of them
        direct (so it is bound there), so no binding can run after the closure is made
        (``if lo is None: lo = min(xs)`` then ``lambda x: lo <= x``)."""
        sites = self.binding_sites.get(name, [])
        return bool(sites) and all(i < index for i, _ in sites) and any(direct for _, direct in sites)

    def _cell_variables(self, body: list[ast.stmt]) -> frozenset[str]:
        """The variables some nested function (or lambda) of ``body`` reads that may be bound
        after it is made (later, or again in the same loop): CPython's cell variables."""
        cells: set[str] = set()
        for index, stmt in enumerate(body):
            for node in scope_walk([stmt]):
                if not isinstance(node, (ast.FunctionDef, ast.Lambda)):
                    continue
                own = node.name if isinstance(node, ast.FunctionDef) else None
                for name in self._free_names(node):
                    if name != own and name in self.locals and not self._by_value(name, index):
                        cells.add(name)
        return frozenset(cells)

    def _closure(self, node: ast.FunctionDef | ast.Lambda, own_name: str | None) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The enclosing function's variables ``node`` uses, and those of them that it gets as
        cells. A variable is captured by value when that is what CPython's cell holds
        whenever the closure runs (``_by_value``), else as a cell (``_cell_variables``)."""
        captures: list[str] = []
        cells: list[str] = []
        for name in self._free_names(node):
            if name in self.renames:
                raise self.unsupported(node, f"a function that closes over the comprehension variable {name!r}")
            sites = self.binding_sites.get(name, [])
            if name == own_name:
                if sites != [(self.top_index, True)]:
                    raise self.unsupported(node, f"nested function {name!r} bound more than once")
                continue
            if name == self.own_name and name not in self.locals:
                captures.append(name)  # the enclosing nested function itself: rebuilt, see name()
                continue
            if name in self.cellvars or name in self.cell_captures:
                cells.append(name)
            elif not self._by_value(name, self.top_index):  # a lambda inside a comprehension
                raise self.unsupported(node, f"a function that closes over {name!r}, which is bound more than once or later")
            captures.append(name)
        return tuple(captures), tuple(cells)


    # ------------------------------------------------------------ statements

    def body(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, node: ast.stmt) -> None:
        method = getattr(self, f"stmt_{type(node).__name__}", None)
        if method is None:
            what = _UNSUPPORTED_STMT.get(type(node), f"{type(node).__name__} statement")
            raise self.unsupported(node, what)
        method(node)

    def stmt_Pass(self, node: ast.Pass) -> None:
        pass

    def stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant):
            return  # docstring or bare literal
        if isinstance(node.value, ast.YieldFrom):
            self._yield_from(node.value)
            return
        self.expr(node.value)

    def stmt_Assign(self, node: ast.Assign) -> None:
        source = node.value
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Subscript) and isinstance(node.targets[0].slice, ast.Slice) \
                and isinstance(source, ast.Call) and isinstance(source.func, ast.Name) and source.func.id == "reversed" \
                and self._is_builtin("reversed") and self._is_builtin("list"):
            # xs[a:b] = reversed(ys): a slice assignment takes list(value) (PySequence_Fast), and
            # a reverse iterator of a sequence raises nothing while it is listed
            source = ast.copy_location(ast.Call(ast.Name("list", ast.Load()), [source], []), source)
        value = self.expr(source)
        for target in node.targets:
            self.assign(target, value)

    def stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.expr(node.value))

    def stmt_AugAssign(self, node: ast.AugAssign) -> None:
        op = self.binop_text(node, node.op) + "="  # in place: CPython calls __iadd__ first
        loc = node_loc(node)
        target = node.target
        if isinstance(target, ast.Name):
            current = self.name(target)
            result = self.temp()
            self.emit(ir.BinOp(result, op, current, self.expr(node.value), loc))
            self._bind(target.id, Var(result), loc)
        elif isinstance(target, ast.Attribute):
            obj = self.expr(target.value)
            old = self.temp()
            self.emit(ir.GetAttr(old, obj, target.attr, loc))
            result = self.temp()
            self.emit(ir.BinOp(result, op, Var(old), self.expr(node.value), loc))
            self.emit(ir.SetAttr(obj, target.attr, Var(result), loc))
        elif isinstance(target, ast.Subscript):
            if isinstance(target.slice, ast.Slice):
                raise self.unsupported(target, "augmented assignment to a slice (xs[a:b] += ...)")
            obj = self.expr(target.value)
            index = self.index(target)
            old = self.temp()
            self.emit(ir.GetItem(old, obj, index, loc))
            result = self.temp()
            self.emit(ir.BinOp(result, op, Var(old), self.expr(node.value), loc))
            self.emit(ir.SetItem(obj, index, Var(result), loc))
        else:
            raise self.unsupported(target, "augmented assignment target")

    def stmt_Delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            self.delete(target)

    def delete(self, target: ast.expr) -> None:
        """``del x`` (a local: read first, so an unbound one raises UnboundLocalError),
        ``del obj[i]``, ``del a, b`` and ``del (a, b)``; slices and attributes unsupported."""
        loc = node_loc(target)
        if isinstance(target, ast.Name) and target.id in self.cellvars:
            raise self.unsupported(target, f"del of {target.id!r}, which a nested function uses")
        if isinstance(target, ast.Name) and (target.id in self.locals or target.id in self.renames):
            name = self.renames.get(target.id, target.id)
            self.emit(ir.Assign(self.temp(), Var(name), loc))
            self.emit(ir.Unbind(name, loc))
        elif isinstance(target, (ast.Tuple, ast.List)):
            for elt in target.elts:
                self.delete(elt)
        elif isinstance(target, ast.Subscript) and not isinstance(target.slice, ast.Slice):
            obj = self.expr(target.value)
            self.emit(ir.DelItem(obj, self.expr(target.slice), loc))
        else:
            what = "a slice" if isinstance(target, ast.Subscript) else "an attribute" if isinstance(target, ast.Attribute) else "a global name"
            raise self.unsupported(target, f"del of {what}")

    def assign(self, target: ast.expr, value: Operand) -> None:
        loc = node_loc(target)
        if isinstance(target, ast.Name):
            self._bind(target.id, value, loc)
        elif isinstance(target, (ast.Tuple, ast.List)):
            stars = [k for k, e in enumerate(target.elts) if isinstance(e, ast.Starred)]
            parts = tuple(self.temp() for _ in target.elts)
            self.emit(ir.Unpack(parts, value, loc, stars[0] if stars else None))  # the parser allows one star
            for elt, part in zip(target.elts, parts):
                self.assign(elt.value if isinstance(elt, ast.Starred) else elt, Var(part))
        elif isinstance(target, ast.Attribute):
            self.emit(ir.SetAttr(self.expr(target.value), target.attr, value, loc))
        elif isinstance(target, ast.Subscript):
            obj = self.expr(target.value)
            self.emit(ir.SetItem(obj, self.index(target), value, loc))
        else:
            raise self.unsupported(target, f"assignment to {type(target).__name__}")

    def _bind(self, name: str, value: Operand, loc: Loc) -> None:
        """``name = value``: a ``nonlocal`` name's cell, else the local (mirrored into its cell
        when it is a cell variable, ``emit``)."""
        if name in self.own_nonlocals:
            self.emit(ir.StoreCell(Var(name), value, loc))
        elif name in self.own_globals:
            self.emit(ir.StoreCell(Const(self.module.global_cell(name, self.own_globals[name])), value, loc))
        else:
            self.emit(ir.Assign(self.renames.get(name, name), value, loc))

    def stmt_Nonlocal(self, node: ast.Nonlocal) -> None:
        """A declaration: the function's writes of these names go to their cells."""

    def stmt_Global(self, node: ast.Global) -> None:
        """A declaration: the function's reads and writes of these names go to the module's
        cells (``Module.global_cell``); only in the target's own module."""
        if self.module.namespace:
            raise self.unsupported(node, "global statement in a module other than the target's")

    def stmt_If(self, node: ast.If) -> None:
        then, orelse, join = self.new_block(), self.new_block(), self.new_block()
        self.branch(node.test, then, orelse)
        self.start(then)
        self.body(node.body)
        self.goto(join, node_loc(node))
        self.start(orelse)
        self.body(node.orelse)
        self.goto(join, node_loc(node))
        self.start(join)

    def _loop(self, node: ast.While | ast.For, decide: Callable[[ir.Block, ir.Block], None], enter: Callable[[], None]) -> None:
        """Header (``decide`` picks body or else), body (``enter`` runs first), else, exit."""
        def run_body() -> None:
            enter()
            self.body(node.body)

        self._loop_blocks(node_loc(node), decide, run_body, lambda: self.body(node.orelse))

    def stmt_While(self, node: ast.While) -> None:
        self._loop(node, lambda body, orelse: self.branch(node.test, body, orelse), lambda: None)

    def stmt_For(self, node: ast.For) -> None:
        loc = node_loc(node)
        it, item, counter = self._start_iteration(self._iterable(node.iter), loc)
        self._loop(
            node,
            lambda body, orelse: self.terminate(ir.ForIter(it, item, body.label, orelse.label, loc)),
            lambda: self.assign(node.target, self._counted(item, counter, loc)),
        )

    def _iterable(self, node: ast.expr) -> tuple[Operand, Operand | None, str]:
        """What a loop iterates over, evaluated: ``enumerate(xs)`` (the builtin, a start that
        is an int literal) is ``xs`` with a counter from that start, ``reversed(xs)`` is ``xs``
        iterated backwards, ``zip(xs, ys)`` the tuple of its arguments iterated together, so
        the items stay the lists' own (symbolic) items instead of running CPython's builtin."""
        plain_args = isinstance(node, ast.Call) and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
        if (plain_args and isinstance(node.func, ast.Name) and node.func.id == "reversed"  # type: ignore[attr-defined]
                and self._is_builtin("reversed") and len(node.args) == 1):  # type: ignore[attr-defined]
            return self.expr(node.args[0]), None, "reversed"  # type: ignore[attr-defined]
        lax_zip = isinstance(node, ast.Call) and all(k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is False
                                                     for k in node.keywords) and not any(isinstance(a, ast.Starred) for a in node.args)
        if lax_zip and isinstance(node.func, ast.Name) and node.func.id == "zip" and self._is_builtin("zip") and node.args:  # type: ignore[attr-defined]
            # strict=False is zip's default: stop at the first exhausted iterator
            parts = tuple(self.expr(a) for a in node.args)  # type: ignore[attr-defined]
            both = self.temp()
            self.emit(ir.BuildTuple(both, parts, node_loc(node)))
            return Var(both), None, "zip"
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "enumerate"
                and self._is_builtin("enumerate") and len(node.args) in (1, 2) and not isinstance(node.args[0], ast.Starred)):
            starts = node.args[1:] + [k.value for k in node.keywords if k.arg == "start"]
            if len(starts) + len(node.args[:1]) == len(node.args) + len(node.keywords) and len(starts) <= 1:
                if not starts:
                    return self.expr(node.args[0]), Const(0), ""
                from pathloom.frontend.module import _literal

                start = _literal(starts[0])  # an int literal, maybe negative
                if type(start) is int:
                    return self.expr(node.args[0]), Const(start), ""
        return self.expr(node), None, ""

    def _start_iteration(self, iterable: tuple[Operand, Operand | None, str], loc: Loc) -> tuple[str, str, str | None]:
        """``iter()`` of the iterable; the iterator, its item and the enumerate counter (a
        hidden local, ``%enum.N``, live across the back edge)."""
        source, start, how = iterable
        it, item = self.temp(), self.temp()
        self.emit(ir.GetIter(it, source, loc, how))
        if start is None:
            return it, item, None
        self.temps += 1
        counter = f"%enum.{self.temps}"
        self.emit(ir.Assign(counter, start, loc))
        return it, item, counter

    def _counted(self, item: str, counter: str | None, loc: Loc) -> Operand:
        """The loop's item: with a counter, ``(count, item)`` and the count advanced first (a
        ``continue`` in the body must not skip it)."""
        if counter is None:
            return Var(item)
        pair = self.temp()
        self.emit(ir.BuildTuple(pair, (Var(counter), Var(item)), loc))
        self.emit(ir.BinOp(counter, "+", Var(counter), Const(1), loc))
        return Var(pair)

    def stmt_Break(self, node: ast.Break) -> None:
        self.goto(self.blocks[self.loops[-1].exit], node_loc(node))
        self.dead_block()

    def stmt_Continue(self, node: ast.Continue) -> None:
        self.goto(self.blocks[self.loops[-1].header], node_loc(node), back_edge=True)
        self.dead_block()

    def stmt_Return(self, node: ast.Return) -> None:
        value = self.expr(node.value) if node.value is not None else Const(None)
        # a generator's return value ends up in StopIteration, which list() drops: its items are the result
        self.terminate(ir.Return(Var(YIELDED) if self.generator else value, node_loc(node)))
        self.dead_block()

    # ------------------------------------------------------------ generator functions

    def expr_Yield(self, node: ast.Yield) -> Operand:
        """``yield v``: ``v`` appended to the items; its value is None (``list()`` sends nothing)."""
        if not self.generator:
            raise self.unsupported(node, "yield outside a function's own body (in a lambda)")
        value = self.expr(node.value) if node.value is not None else Const(None)
        self.emit(ir.CallMethod(self.temp(), Var(YIELDED), "append", (value,), (), node_loc(node)))
        return Const(None)

    def expr_YieldFrom(self, node: ast.YieldFrom) -> Operand:
        raise self.unsupported(node, "the value of 'yield from' (a sub-generator's return value)")

    def _yield_from(self, node: ast.YieldFrom) -> None:
        """``yield from it`` as a statement: the items of ``it`` appended in order, as
        ``list.extend`` takes them; a generator call there is consumed whole (``Call.whole``)."""
        items = self._whole(node.value)
        self.emit(ir.CallMethod(self.temp(), Var(YIELDED), "extend", (items,), (), node_loc(node)))

    def _whole(self, node: ast.expr) -> Operand:
        """``node``, and when it is a call, that call marked as consumed whole."""
        if not isinstance(node, ast.Call) or self._is_bare_super(node):
            return self.expr(node)
        consumed = self._consumed_generator(node)
        return consumed if consumed is not None else self._call(node, whole=True)

    def stmt_Raise(self, node: ast.Raise) -> None:
        loc = node_loc(node)
        cause = node.cause
        if cause is not None and not (isinstance(cause, ast.Constant) and cause.value is None) \
                and not (isinstance(cause, ast.Name) and cause.id in self.caught):
            # the cause only sets __cause__, which no outcome shows; any other cause may be a
            # TypeError ("exception causes must derive from BaseException")
            raise self.unsupported(node, "raise ... from a cause other than None or the exception an except clause caught")
        if node.exc is None:
            self.terminate(ir.Raise(None, "explicit", loc))
        else:
            exc = self.expr(node.exc)
            self.terminate(ir.Raise(exc, "explicit", loc))
        self.dead_block()

    def stmt_Assert(self, node: ast.Assert) -> None:
        loc = node_loc(node)
        ok, fail = self.new_block(), self.new_block()
        self.branch(node.test, ok, fail)
        self.start(fail)
        args = (self.expr(node.msg),) if node.msg is not None else ()
        exc = self.temp()
        self.emit(ir.Call(exc, Global("AssertionError"), args, (), loc))
        self.terminate(ir.Raise(Var(exc), "precondition" if node in self.preconditions else "assert", loc))
        self.start(ok)

    def stmt_Try(self, node: ast.Try) -> None:
        if node.finalbody:
            raise self.unsupported(node, "try/finally")
        loc = node_loc(node)
        outer_handler = self.handler
        dispatch_label = len(self.blocks)
        self.handler = dispatch_label
        # The dispatch block itself belongs to the outer handler region.
        self.handler = outer_handler
        dispatch = self.new_block()
        assert dispatch.label == dispatch_label
        self.handler = dispatch.label
        body = self.new_block()
        self.goto(body, loc)
        self.start(body)
        self.body(node.body)
        self.handler = outer_handler
        orelse = self.new_block()
        join = self.new_block()
        self.goto(orelse, loc)
        self.start(orelse)
        self.body(node.orelse)
        self.goto(join, loc)
        self.start(dispatch)
        exc = self.temp()
        self.emit(ir.CurrentException(exc, loc))
        for handler in node.handlers:
            self.except_clause(handler, Var(exc), join)
        self.terminate(ir.Raise(None, "explicit", loc))
        self.start(join)

    def except_clause(self, node: ast.ExceptHandler, exc: Var, join: ir.Block) -> None:
        loc = node_loc(node)
        matched, unmatched = self.new_block(), self.new_block()
        if node.type is None:
            self.goto(matched, loc)
        else:
            types = node.type.elts if isinstance(node.type, ast.Tuple) else [node.type]
            classes = tuple(self.expr(t) for t in types)
            flag = self.temp()
            self.emit(ir.ExcMatch(flag, exc, classes, loc))
            self.terminate(ir.Branch(Var(flag), matched.label, unmatched.label, loc))
        self.start(matched)
        if node.name in self.cellvars:  # unbound at the end of the clause: the cell would keep it
            raise self.unsupported(node, f"'except ... as {node.name}', a name a nested function uses")
        if node.name:
            self.emit(ir.Assign(node.name, exc, loc))
        rebound = any(isinstance(n, ast.Name) and n.id == node.name and not isinstance(n.ctx, ast.Load)
                      for statement in node.body for n in ast.walk(statement))
        caught = [node.name] if node.name and not rebound else []
        self.caught += caught
        self.body(node.body)
        del self.caught[len(self.caught) - len(caught):]
        if node.name:
            self.emit(ir.Unbind(node.name, loc))
        self.goto(join, loc)
        self.start(unmatched)

    # ------------------------------------------------------------ conditions

    def branch(self, test: ast.expr, then: ir.Block, orelse: ir.Block) -> None:
        """Lower ``test`` as a condition, jumping to ``then`` or ``orelse`` (short-circuit aware)."""
        loc = node_loc(test)
        if isinstance(test, ast.BoolOp):
            for value in test.values[:-1]:
                nxt = self.new_block()
                if isinstance(test.op, ast.And):
                    self.branch(value, nxt, orelse)
                else:
                    self.branch(value, then, nxt)
                self.start(nxt)
            self.branch(test.values[-1], then, orelse)
            return
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            self.branch(test.operand, orelse, then)
            return
        operand = self.expr(test)
        flag = self.temp()
        self.emit(ir.Truth(flag, operand, loc))
        self.terminate(ir.Branch(Var(flag), then.label, orelse.label, loc))

    # ------------------------------------------------------------ expressions

    def expr(self, node: ast.expr) -> Operand:
        method = getattr(self, f"expr_{type(node).__name__}", None)
        if method is None:
            what = _UNSUPPORTED_EXPR.get(type(node), f"{type(node).__name__} expression")
            raise self.unsupported(node, what)
        result: Operand = method(node)
        return result

    def expr_Constant(self, node: ast.Constant) -> Operand:
        if isinstance(node.value, (int, float, str, type(None))):
            return Const(node.value)
        raise self.unsupported(node, f"{type(node.value).__name__} literal")

    def name(self, node: ast.Name) -> Operand:
        if node.id in self.renames:
            return Var(self.renames[node.id])
        if node.id in self.cell_captures:  # a free variable: its cell's current value
            dst = self.temp()
            self.emit(ir.LoadCell(dst, Var(node.id), node.id, node_loc(node)))
            return Var(dst)
        if node.id in self.shared:  # a nested function may have written it: the cell's value
            dst = self.temp()
            self.emit(ir.LoadCell(dst, Var(cell_slot(node.id)), node.id, node_loc(node)))
            return Var(dst)
        if node.id in self.locals:
            return Var(node.id)
        if node.id == self.own_name:  # a nested function calling itself: the same closure
            dst = self.temp()
            self.emit(ir.MakeFunction(dst, self.qualname, node_loc(node), tuple(Var(c) for c in self.captures)))
            return Var(dst)
        return self.global_name(node)

    def global_name(self, node: ast.Name) -> Operand:
        """A module-level or builtin name. With the real module imported every such name is
        resolved when the code runs (the real value, else a builtin, else NameError); without
        it only literal constants, functions, classes and builtins are known. In a linked
        module (``frontend.linker``) the name carries the module's namespace prefix."""
        name = node.id
        module = self.module
        qualified = Global(module.namespace + name)
        if name in module.global_decls and not module.namespace:  # rebound by some function: its cell
            dst = self.temp()
            self.emit(ir.LoadCell(dst, Const(module.global_cell(name, node)), name, node_loc(node)))
            return Var(dst)
        if name in module.function_defs or name in module.classes:
            return qualified
        if module.runtime is not None:
            if module.has_runtime(name):
                value = module.runtime_value(name)
                if _immutable_literal(value):  # module code has run: the value is final
                    return Const(value)
            return qualified
        if name in module.constants:
            return Const(module.constants[name])
        if name in module.opaque:
            raise self.unsupported(node, f"module-level name {name!r} that is not a literal constant, function or class")
        return Global(name)  # a builtin, or undefined: NameError at run time, as in Python

    def expr_Name(self, node: ast.Name) -> Operand:
        return self.name(node)

    def binop_text(self, node: ast.AST, op: ast.operator) -> str:
        text = _BINOPS.get(type(op))
        if text is None:
            raise self.unsupported(node, f"operator {type(op).__name__}")
        return text

    def expr_BinOp(self, node: ast.BinOp) -> Operand:
        op = self.binop_text(node, node.op)
        left = self.expr(node.left)
        right = self.expr(node.right)
        dst = self.temp()
        self.emit(ir.BinOp(dst, op, left, right, node_loc(node)))
        return Var(dst)

    def expr_UnaryOp(self, node: ast.UnaryOp) -> Operand:
        ops = {ast.USub: "-", ast.UAdd: "+", ast.Not: "not", ast.Invert: "~"}
        op = ops[type(node.op)]
        operand = self.expr(node.operand)
        dst = self.temp()
        self.emit(ir.UnaryOp(dst, op, operand, node_loc(node)))
        return Var(dst)

    def _value_join(self, node: ast.expr) -> tuple[str, ir.Block]:
        return self.temp(), self.new_block()

    def expr_BoolOp(self, node: ast.BoolOp) -> Operand:
        loc = node_loc(node)
        dst, join = self._value_join(node)
        for value in node.values[:-1]:
            operand = self.expr(value)
            self.emit(ir.Assign(dst, operand, loc))
            flag = self.temp()
            self.emit(ir.Truth(flag, Var(dst), loc))
            nxt = self.new_block()
            if isinstance(node.op, ast.And):
                self.terminate(ir.Branch(Var(flag), nxt.label, join.label, loc))
            else:
                self.terminate(ir.Branch(Var(flag), join.label, nxt.label, loc))
            self.start(nxt)
        self.emit(ir.Assign(dst, self.expr(node.values[-1]), loc))
        self.goto(join, loc)
        self.start(join)
        return Var(dst)

    def expr_Compare(self, node: ast.Compare) -> Operand:
        loc = node_loc(node)
        left = self.expr(node.left)
        if len(node.ops) == 1:
            dst = self.temp()
            self.emit(ir.Compare(dst, self.cmp_text(node, node.ops[0]), left, self.expr(node.comparators[0]), loc))
            return Var(dst)
        dst, join = self._value_join(node)
        for i, (op, comparator) in enumerate(zip(node.ops, node.comparators)):
            right = self.expr(comparator)
            self.emit(ir.Compare(dst, self.cmp_text(node, op), left, right, loc))
            if i == len(node.ops) - 1:
                break
            flag = self.temp()
            self.emit(ir.Truth(flag, Var(dst), loc))
            nxt = self.new_block()
            self.terminate(ir.Branch(Var(flag), nxt.label, join.label, loc))
            self.start(nxt)
            left = right
        self.goto(join, loc)
        self.start(join)
        return Var(dst)

    def cmp_text(self, node: ast.AST, op: ast.cmpop) -> str:
        return _CMPOPS[type(op)]

    def expr_IfExp(self, node: ast.IfExp) -> Operand:
        loc = node_loc(node)
        dst, join = self._value_join(node)
        then, orelse = self.new_block(), self.new_block()
        self.branch(node.test, then, orelse)
        self.start(then)
        self.emit(ir.Assign(dst, self.expr(node.body), loc))
        self.goto(join, loc)
        self.start(orelse)
        self.emit(ir.Assign(dst, self.expr(node.orelse), loc))
        self.goto(join, loc)
        self.start(join)
        return Var(dst)

    def call_args(self, node: ast.Call) -> tuple[tuple[Operand, ...], tuple[tuple[str, Operand], ...]]:
        for arg in node.args:
            if isinstance(arg, ast.Starred):
                raise self.unsupported(arg, "*args in a call")
        args = tuple(self.expr(a) for a in node.args)
        kwargs = []
        for kw in node.keywords:
            if kw.arg is None:
                raise self.unsupported(kw, "**kwargs in a call")
            kwargs.append((kw.arg, self.expr(kw.value)))
        return args, tuple(kwargs)

    def expr_Call(self, node: ast.Call) -> Operand:
        consumed = self._consumed_generator(node)
        if consumed is not None:
            return consumed
        by_key = self._sort_by_key(node)
        if by_key is not None:
            return by_key
        if isinstance(node.func, ast.Name) and node.func.id in ("%cache_key", "%is_factory_default"):  # written by
            # _cache_expansion, and by dataclass_model for a field with a default factory
            from pathloom.semantics.values import BuiltinVal

            dst = self.temp()
            self.emit(ir.Call(dst, Const(BuiltinVal(node.func.id)), tuple(self.expr(a) for a in node.args), (), node_loc(node)))
            return Var(dst)
        if self._names_real(node.func, functools.reduce) and len(node.args) in (2, 3) and not node.keywords \
                and not any(isinstance(a, ast.Starred) for a in node.args):
            return self._reduce(node)
        if self._is_bare_super(node):
            # super() names the enclosing class and the method's first argument, as CPython's
            # compiler does through __class__ and the first local
            first = self.first_param
            assert first is not None  # _is_bare_super: a method's
            dst = self.temp()
            self.emit(ir.Call(dst, Global("super"), (Const(self.cls), Var(first)), (), node_loc(node)))
            return Var(dst)
        if isinstance(node.func, ast.Name) and node.func.id in _WHOLE_CONSUMERS and len(node.args) == 1 and self._is_builtin(node.func.id) \
                and isinstance(node.args[0], ast.Call) and (node.func.id == "sorted" or not node.keywords):
            items = self._whole(node.args[0])  # list(f(...)): f may be a generator function
            return self._whole_consumer(node, items)
        return self._call(node)

    def _reduce(self, node: ast.Call) -> Operand:
        """``functools.reduce(f, xs[, initial])`` as the loop it runs: ``f``, ``xs`` and
        ``initial`` evaluated in that order, then ``acc = f(acc, item)`` for each item (the
        first item is ``acc`` when there is no initial value, and an empty ``xs`` is CPython's
        TypeError)."""
        loc = node_loc(node)
        function = self.expr(node.args[0])
        item, loop = item_loop(node.args[1], node)
        generator = ast.copy_location(ast.GeneratorExp(item, [loop]), node)
        items = self._iterable(node.args[1])
        acc, empty = self.temp(), self.temp()
        has_initial = len(node.args) == 3
        self.emit(ir.Assign(acc, self.expr(node.args[2]) if has_initial else Const(None), loc))
        if not has_initial:
            self.emit(ir.Assign(empty, Const(True), loc))

        def produce() -> None:
            value = self.temp()
            self.emit(ir.Assign(value, self.expr(item), loc))
            if has_initial:
                self.emit(ir.Call(acc, function, (Var(acc), Var(value)), (), loc))
                return
            first, combine, join = self.new_block(), self.new_block(), self.new_block()
            self._branch_on(Var(empty), first, combine, loc)
            self.start(first)
            self.emit(ir.Assign(acc, Var(value), loc))
            self.emit(ir.Assign(empty, Const(False), loc))
            self.goto(join, loc)
            self.start(combine)
            self.emit(ir.Call(acc, function, (Var(acc), Var(value)), (), loc))
            self.goto(join, loc)
            self.start(join)

        self._comprehension(generator, produce, items)
        if not has_initial:
            raising, done = self.new_block(), self.new_block()
            self._branch_on(Var(empty), raising, done, loc)
            self.start(raising)
            exc = self.temp()
            self.emit(ir.Call(exc, Global("TypeError"), (Const("reduce() of empty iterable with no initial value"),), (), loc))
            self.terminate(ir.Raise(Var(exc), "implicit", loc))
            self.start(done)
        return Var(acc)

    def _whole_consumer(self, node: ast.Call, items: Operand) -> Var:
        """``list``/``tuple``/``sorted`` (``node.func``, the builtin) called on ``items`` with
        ``node``'s keywords."""
        _, kwargs = self.call_args(ast.Call(node.func, [], node.keywords))
        dst = self.temp()
        self.emit(ir.Call(dst, Global(node.func.id), (items,), kwargs, node_loc(node)))  # type: ignore[attr-defined]
        return Var(dst)

    def _call(self, node: ast.Call, whole: bool = False) -> Var:
        loc = node_loc(node)
        dst = self.temp()
        if isinstance(node.func, ast.Attribute):
            obj = self.expr(node.func.value)
            args, kwargs = self.call_args(node)
            self.emit(ir.CallMethod(dst, obj, node.func.attr, args, kwargs, loc, whole))
        else:
            func = self.expr(node.func)
            args, kwargs = self.call_args(node)
            self.emit(ir.Call(dst, func, args, kwargs, loc, whole))
        return Var(dst)

    def _is_bare_super(self, node: ast.Call) -> bool:
        return (
            isinstance(node.func, ast.Name) and node.func.id == "super" and not node.args and not node.keywords
            and "super" not in self.locals and self.cls is not None and self.first_param is not None
        )

    def expr_Attribute(self, node: ast.Attribute) -> Operand:
        obj = self.expr(node.value)
        dst = self.temp()
        self.emit(ir.GetAttr(dst, obj, node.attr, node_loc(node)))
        return Var(dst)

    def index(self, node: ast.Subscript) -> Operand:
        """The index of an item assignment target; a slice ``a:b:c`` is the value ``%slice(a, b,
        c)`` (``semantics.slicing.setslice``)."""
        if isinstance(node.slice, ast.Slice):
            from pathloom.semantics.values import BuiltinVal

            bounds = tuple(self.bound(b) for b in (node.slice.lower, node.slice.upper, node.slice.step))
            dst = self.temp()
            self.emit(ir.Call(dst, Const(BuiltinVal("%slice")), bounds, (), node_loc(node)))
            return Var(dst)
        return self.expr(node.slice)

    def expr_Subscript(self, node: ast.Subscript) -> Operand:
        obj = self.expr(node.value)
        if isinstance(node.slice, ast.Slice):
            start, stop, step = (self.bound(b) for b in (node.slice.lower, node.slice.upper, node.slice.step))
            dst = self.temp()
            self.emit(ir.GetSlice(dst, obj, start, stop, step, node_loc(node)))
            return Var(dst)
        index = self.expr(node.slice)
        dst = self.temp()
        self.emit(ir.GetItem(dst, obj, index, node_loc(node)))
        return Var(dst)

    def bound(self, node: ast.expr | None) -> Operand:
        """A slice bound; an omitted one is None, as in the slice CPython builds."""
        return Const(None) if node is None else self.expr(node)

    def _display(self, node: ast.List | ast.Tuple | ast.Set) -> tuple[Operand, ...]:
        for elt in node.elts:
            if isinstance(elt, ast.Starred):
                raise self.unsupported(elt, "starred expression")
        return tuple(self.expr(e) for e in node.elts)

    def expr_List(self, node: ast.List) -> Operand:
        items = self._display(node)
        dst = self.temp()
        self.emit(ir.BuildList(dst, items, node_loc(node)))
        return Var(dst)

    def expr_Tuple(self, node: ast.Tuple) -> Operand:
        items = self._display(node)
        dst = self.temp()
        self.emit(ir.BuildTuple(dst, items, node_loc(node)))
        return Var(dst)

    def expr_Set(self, node: ast.Set) -> Operand:
        items = self._display(node)
        dst = self.temp()
        foldable = len(node.elts) > 2 and all(_maybe_folded(e) for e in node.elts)
        self.emit(ir.BuildSet(dst, items, node_loc(node), foldable))
        return Var(dst)

    def expr_Dict(self, node: ast.Dict) -> Operand:
        keys: list[Operand] = []
        values: list[Operand] = []
        for key, value in zip(node.keys, node.values):
            if key is None:
                raise self.unsupported(value, "dict unpacking (**) in a dict display")
            keys.append(self.expr(key))
            values.append(self.expr(value))
        dst = self.temp()
        self.emit(ir.BuildDict(dst, tuple(keys), tuple(values), node_loc(node)))
        return Var(dst)

    # ------------------------------------------------------------ comprehensions

    def expr_DictComp(self, node: ast.DictComp) -> Operand:
        dst = self.temp()
        self.emit(ir.BuildDict(dst, (), (), node_loc(node)))

        def produce() -> None:
            key = self.expr(node.key)
            value = self.expr(node.value)
            self.emit(ir.SetItem(Var(dst), key, value, node_loc(node)))  # CPython reports an unhashable key at the comprehension

        self._comprehension(node, produce)
        return Var(dst)

    def expr_SetComp(self, node: ast.SetComp) -> Operand:
        return self._set_comprehension(node, node_loc(node))

    def _set_comprehension(self, node: ast.SetComp | ast.GeneratorExp, add_loc: Loc) -> Operand:
        """A new set and the loops adding each item (``add_loc``: where CPython reports an
        unhashable item: the comprehension's first line, or the call for ``set(generator)``)."""
        dst = self.temp()
        self.emit(ir.BuildSet(dst, (), node_loc(node)))

        def produce() -> None:
            value = self.expr(node.elt)
            self.emit(ir.CallMethod(self.temp(), Var(dst), "add", (value,), (), add_loc))

        self._comprehension(node, produce)
        return Var(dst)

    def expr_ListComp(self, node: ast.ListComp | ast.GeneratorExp) -> Operand:
        loc = node_loc(node)
        dst = self.temp()
        self.emit(ir.BuildList(dst, (), loc))

        def produce() -> None:
            value = self.expr(node.elt)
            self.emit(ir.CallMethod(self.temp(), Var(dst), "append", (value,), (), node_loc(node.elt)))

        self._comprehension(node, produce)
        return Var(dst)

    def _comprehension(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp, produce: Callable[[], None],
                       first: tuple[Operand, Operand | None, str] | None = None) -> None:
        """The loops of a comprehension, in a scope of its own: the outermost iterable is
        evaluated in the enclosing scope (``first``, when the caller evaluated it already),
        every target name is a fresh local, and ``produce`` runs for each item that passes
        the conditions (``self.loops[outer]`` is the outermost loop, for an early exit)."""
        if first is None:
            first = self._iterable(node.generators[0].iter)
        saved = self.renames
        fresh = {}
        for generator in node.generators:
            if generator.is_async:
                raise self.unsupported(node, "async comprehension")
            for target in ast.walk(generator.target):
                if isinstance(target, ast.Name):
                    self.temps += 1
                    fresh[target.id] = f"{target.id}.{self.temps}"  # not an identifier: no clash
        self.renames = {**saved, **fresh}
        try:
            self._generator_loop(node.generators, 0, first, produce)
        finally:
            self.renames = saved

    def _generator_loop(self, generators: list[ast.comprehension], level: int, iterable: tuple[Operand, Operand | None, str],
                        produce: Callable[[], None]) -> None:
        generator = generators[level]
        loc = node_loc(generator.iter)
        it, item, counter = self._start_iteration(iterable, loc)

        def body() -> None:
            self.assign(generator.target, self._counted(item, counter, loc))
            for condition in generator.ifs:
                passed, skipped = self.new_block(), self.new_block()
                self.branch(condition, passed, skipped)
                self.start(skipped)
                self.goto(self.blocks[self.loops[-1].header], loc, back_edge=True)
                self.start(passed)
            if level + 1 < len(generators):
                self._generator_loop(generators, level + 1, self._iterable(generators[level + 1].iter), produce)
            else:
                produce()

        decide = lambda body_block, exit_block: self.terminate(ir.ForIter(it, item, body_block.label, exit_block.label, loc))  # noqa: E731
        self._loop_blocks(loc, decide, body, lambda: None)

    def _sort_by_key(self, node: ast.Call) -> Operand | None:
        """``sorted(xs, key=lambda ...)`` and ``xs.sort(key=lambda ...)`` (``reverse=`` a bool
        literal): the keys computed first, one call per item in order, as CPython's sort does,
        then ``%sort_by_keys`` (``semantics.aggregates.sort_by_keys``) orders the list by them.
        ``sorted`` sorts ``list(xs)``; ``xs.sort`` sorts ``xs`` when it is a list (a branch on
        ``%is_list``: another object's ``sort`` method is called as written), and only with a
        key whose body calls nothing and does not name ``xs`` (CPython empties the list while
        it sorts: a key reading it would see that). None: not such a call."""
        keywords = {k.arg: k.value for k in node.keywords}
        key, reverse = keywords.get("key"), keywords.get("reverse", ast.Constant(False))
        if (None in keywords or set(keywords) - {"key", "reverse"} or not isinstance(key, ast.Lambda) or key.args.defaults
                or key.args.kw_defaults or not (isinstance(reverse, ast.Constant) and type(reverse.value) is bool)
                or any(isinstance(a, ast.Starred) for a in node.args)):
            return None
        from pathloom.semantics.values import BuiltinVal

        loc = node_loc(node)
        sort_by_keys = Const(BuiltinVal("%sort_by_keys"))
        if isinstance(node.func, ast.Name) and node.func.id == "sorted" and len(node.args) == 1 and self._is_builtin("sorted") \
                and self._is_builtin("list"):
            copy = self.temp()
            self.emit(ir.Call(copy, Global("list"), (self.expr(node.args[0]),), (), loc))
            keys = self._keys(Var(copy), key)
            dst = self.temp()
            self.emit(ir.Call(dst, sort_by_keys, (Var(copy), keys, Const(reverse.value), Const(True)), (), loc))
            return Var(dst)
        func = node.func
        if not (isinstance(func, ast.Attribute) and func.attr == "sort" and isinstance(func.value, ast.Name) and not node.args
                and not any(isinstance(n, ast.Call) or (isinstance(n, ast.Name) and n.id == func.value.id) for n in ast.walk(key.body))):
            return None
        receiver = self.expr(func.value)
        flag = self.temp()
        self.emit(ir.Call(flag, Const(BuiltinVal("%is_list")), (receiver,), (), loc))
        modelled, other, join = self.new_block(), self.new_block(), self.new_block()
        self._branch_on(Var(flag), modelled, other, loc)
        dst = self.temp()
        self.start(modelled)
        keys = self._keys(receiver, key)
        self.emit(ir.Call(dst, sort_by_keys, (receiver, keys, Const(reverse.value), Const(False)), (), loc))
        self.goto(join, loc)
        self.start(other)
        _, kwargs = self.call_args(node)
        self.emit(ir.CallMethod(dst, receiver, "sort", (), kwargs, loc))
        self.goto(join, loc)
        self.start(join)
        return Var(dst)

    def _keys(self, items: Var, key: ast.Lambda) -> Operand:
        """``[key(item) for item in items]``, the lambda made anew for each item (making it
        runs nothing: no defaults)."""
        source = "items~"  # not a Python name: only this comprehension reads it
        saved = self.renames
        self.renames = {**saved, source: items.name}
        try:
            item, loop = item_loop(ast.copy_location(ast.Name(source, ast.Load()), key), key)
            called = ast.copy_location(ast.Call(key, [item], []), key)
            return self.expr_ListComp(ast.copy_location(ast.ListComp(called, [loop]), key))
        finally:
            self.renames = saved

    def _map_filter_as_generator(self, node: ast.Call) -> ast.Call:
        """``list(map(lambda v: e, xs))`` as ``list((lambda v: e)(it) for it in xs)`` and
        ``list(filter(f, xs))`` as ``list(it for it in xs if f(it))`` (``filter(None, xs)``:
        ``if it``), for the builtins ``_consumed_generator`` takes: exact, since ``map`` and
        ``filter`` call the function on each item as it is drawn, in order, and evaluating a
        lambda expression again makes an equal function and runs nothing. ``list(reversed(xs))``
        is ``list(it for it in reversed(xs))`` alike (a loop over ``reversed`` is modelled, the
        reversed iterator as a value is not). ``node`` itself
        when it is not such a call (a function other than a lambda: its evaluation could fail
        before the iterable's, which the generator would evaluate first)."""
        if not (isinstance(node.func, (ast.Name, ast.Attribute)) and node.args and isinstance(node.args[0], ast.Call)):
            return node
        inner = node.args[0]
        if isinstance(inner.func, ast.Name) and inner.func.id == "reversed" and self._is_builtin("reversed") and len(inner.args) == 1 \
                and not inner.keywords and not isinstance(inner.args[0], ast.Starred):
            item, loop = item_loop(inner, inner)  # list(reversed(xs)) as list(it for it in reversed(xs)): the loop's own iterator
            generator = ast.copy_location(ast.GeneratorExp(item, [loop]), inner)
            return ast.Call(node.func, [generator, *node.args[1:]], node.keywords, **{k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")})
        if not (isinstance(inner.func, ast.Name) and inner.func.id in ("map", "filter") and self._is_builtin(inner.func.id)
                and len(inner.args) == 2 and not inner.keywords and not any(isinstance(a, ast.Starred) for a in inner.args)):
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
        return ast.Call(node.func, [generator, *node.args[1:]], node.keywords, **{k: getattr(node, k) for k in ("lineno", "col_offset", "end_lineno", "end_col_offset")})

    def _consumed_generator(self, node: ast.Call) -> Operand | None:
        """A generator expression passed alone to a builtin that consumes it whole, lowered
        exactly: ``list``/``tuple``/``sorted``/``'sep'.join`` build the list first, as CPython
        does; ``sum``, ``min``, ``max``, ``any`` and ``all`` become the loops they run (items
        are made one at a time, ``any``/``all`` stop early). None: not such a call."""
        node = self._map_filter_as_generator(node)
        if not (node.args and isinstance(node.args[0], ast.GeneratorExp)):
            return None
        generator = node.args[0]
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "join" and isinstance(func.value, ast.Constant) and isinstance(func.value.value, str):
            if len(node.args) != 1 or node.keywords:
                return None
            items = self.expr_ListComp(generator)
            dst = self.temp()
            self.emit(ir.CallMethod(dst, Const(func.value.value), "join", (items,), (), node_loc(node)))
            return Var(dst)
        if not isinstance(func, ast.Name) or not self._is_builtin(func.id):
            return None
        name, rest = func.id, node.args[1:]
        if name in ("list", "tuple", "sorted") and not rest and (name == "sorted" or not node.keywords):
            items = self.expr_ListComp(generator)
            return items if name == "list" else self._whole_consumer(node, items)
        if node.keywords:
            return None
        if name == "set" and not rest:  # set() adds each item as the generator makes it
            return self._set_comprehension(generator, node_loc(node))
        if name == "sum" and (not rest or (len(rest) == 1 and isinstance(rest[0], ast.Constant) and type(rest[0].value) in (int, float))):
            return self._sum(generator, Const(rest[0].value) if rest else Const(0))  # type: ignore[attr-defined]
        if name in ("any", "all") and not rest:
            return self._any_all(generator, name == "any")
        if name in ("min", "max") and not rest:
            return self._min_max(generator, name)
        return None

    def _sum(self, generator: ast.GeneratorExp, start: Operand) -> Operand:
        loc = node_loc(generator)
        total = self.temp()
        self.emit(ir.Assign(total, start, loc))

        def produce() -> None:
            value = self.expr(generator.elt)
            self.emit(ir.BinOp(total, "+", Var(total), value, node_loc(generator.elt)))

        self._comprehension(generator, produce)
        return Var(total)

    def _any_all(self, generator: ast.GeneratorExp, is_any: bool) -> Operand:
        loc = node_loc(generator)
        result = self.temp()
        self.emit(ir.Assign(result, Const(not is_any), loc))
        outer = len(self.loops)

        def produce() -> None:
            value = self.expr(generator.elt)
            flag = self.temp()
            self.emit(ir.Truth(flag, value, node_loc(generator.elt)))
            decided, going_on = self.new_block(), self.new_block()
            self.terminate(ir.Branch(Var(flag), *((decided.label, going_on.label) if is_any else (going_on.label, decided.label)), loc))
            self.start(decided)
            self.emit(ir.Assign(result, Const(is_any), loc))
            self.goto(self.blocks[self.loops[outer].exit], loc)
            self.start(going_on)

        self._comprehension(generator, produce)
        return Var(result)

    def _min_max(self, generator: ast.GeneratorExp, name: str) -> Operand:
        loc = node_loc(generator)
        best, empty = self.temp(), self.temp()
        self.emit(ir.Assign(best, Const(None), loc))
        self.emit(ir.Assign(empty, Const(True), loc))

        def produce() -> None:
            value = self.temp()
            self.emit(ir.Assign(value, self.expr(generator.elt), node_loc(generator.elt)))
            first, compare, take, join = self.new_block(), self.new_block(), self.new_block(), self.new_block()
            self._branch_on(Var(empty), first, compare, loc)
            self.start(first)
            self.emit(ir.Assign(empty, Const(False), loc))
            self.goto(take, loc)
            self.start(compare)
            better, flag = self.temp(), self.temp()
            self.emit(ir.Compare(better, ">" if name == "max" else "<", Var(value), Var(best), loc))
            self.emit(ir.Truth(flag, Var(better), loc))
            self.terminate(ir.Branch(Var(flag), take.label, join.label, loc))
            self.start(take)
            self.emit(ir.Assign(best, Var(value), loc))
            self.goto(join, loc)
            self.start(join)

        self._comprehension(generator, produce)
        raising, done = self.new_block(), self.new_block()
        self._branch_on(Var(empty), raising, done, loc)
        self.start(raising)
        exc = self.temp()
        self.emit(ir.Call(exc, Global("ValueError"), (Const(f"{name}() arg is an empty sequence"),), (), loc))
        self.terminate(ir.Raise(Var(exc), "implicit", loc))
        self.start(done)
        return Var(best)

    def expr_JoinedStr(self, node: ast.JoinedStr) -> Operand:
        """An f-string: its literal parts and one ``Format`` per field, joined. CPython reports
        an error of formatting at the f-string's first line (its fields' values at their own)."""
        loc = node_loc(node)
        parts = tuple(self.formatted(v, loc) if isinstance(v, ast.FormattedValue) else self.expr(v) for v in node.values)
        if not parts:
            return Const("")
        if len(parts) == 1 and (isinstance(parts[0], Const) or isinstance(node.values[0], ast.FormattedValue)):
            return parts[0]
        dst = self.temp()
        self.emit(ir.BuildString(dst, parts, loc))
        return Var(dst)

    def formatted(self, node: ast.FormattedValue, loc: Loc) -> Operand:
        value = self.expr(node.value)
        spec = self.expr(node.format_spec) if node.format_spec is not None else Const("")
        conversion = {-1: "", ord("s"): "s", ord("r"): "r", ord("a"): "a"}[node.conversion]
        dst = self.temp()
        self.emit(ir.Format(dst, value, conversion, spec, loc))
        return Var(dst)

    def expr_Lambda(self, node: ast.Lambda) -> Operand:
        captures, cells = self._closure(node, None)
        self.lambda_count += 1
        qualname = f"{self.qualname}.<lambda{self.lambda_count}>"
        self.module.lambdas[qualname] = (node, self.cls, captures, cells)
        dst = self.temp()
        self.emit(ir.MakeFunction(dst, qualname, node_loc(node), self._captured(captures)))
        return Var(dst)
