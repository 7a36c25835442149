"""Functions: the function or lambda being lowered, its parameters, and the closures it makes.

Job: ``function`` and ``lambda_function`` (the entry points ``pathloom.frontend.lower`` calls),
parameters and their defaults, nested ``def`` and ``lambda`` (closures), ``yield``. Order of work
in ``function``: a top-level function's decorators are resolved (``decorators``), others refused, then ``desugar.with_caches_expanded``
rewrites its body (nested ``@cache`` functions), then the scope analyses (``scope``) run on the
rewritten body, then its statements are lowered one by one.

Invariants: a nested function or lambda is lowered later, on its own (``Module.lambdas`` holds
its node, class, captures and cells); it closes over the enclosing variables it uses by value
when that is what CPython's cell holds whenever the closure runs (``_by_value``), else through a
cell (``_cell_variables``: every binding of such a variable is mirrored into its cell,
``Builder.emit``); anything else is ``Unsupported``. A generator function collects its items
in the hidden list ``YIELDED``, which is what it returns.
"""

from __future__ import annotations

import ast
from typing import Callable, Mapping

from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Operand, Var
from pathloom.frontend.cast_wrappers import CastWrapper, cast_wrapper
from pathloom.frontend.contracts import ContractRefused, instrument
from pathloom.frontend.contracts import read as read_contracts
from pathloom.frontend.contracts import resolver as contract_resolver
from pathloom.frontend.lowering.builder import YIELDED, Builder, cell_slot, node_loc
from pathloom.frontend.lowering.decorators import undecorated
from pathloom.frontend.lowering.desugar import CACHE_WRAPPER, with_caches_expanded
from pathloom.frontend.lowering.scope import (
    assigned_names,
    binding_sites,
    declared_globals,
    is_generator,
    lambda_locals,
    leading_asserts,
    nonlocals,
    param_names,
    scope_walk,
)


def own_qualname(made: Mapping[str, tuple[ast.AST, object, object, object]], qualname: str, node: ast.AST) -> str:
    """The key of nested ``def`` ``node`` among the functions the module made: CPython's
    qualname, with ``#N`` after it for the N-th distinct ``def`` of that qualname (``def step``
    under both branches of an ``if``: two functions, one ``__qualname__``); the mark is
    dropped wherever the name is shown (``semantics.unpacking.python_qualname``)."""
    key, count = qualname, 1
    while key in made and made[key][0] is not node:
        count += 1
        key = f"{qualname}#{count}"
    return key


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


class Functions(Builder):
    """The function or lambda lowered, nested functions, lambdas and closures, ``yield``."""

    def _with_contracts(self, node: ast.FunctionDef, top_level: bool) -> ast.FunctionDef:
        """A top-level ``def`` or a method of a top-level class checking its contracts
        (``frontend.contracts``): icontract's and deal's, which CPython checks too, and in the
        target's own module its PEP 316 docstring's, which the replay child checks as the
        engines do; a contract anywhere else is refused, never ignored."""
        runtime = vars(self.module.runtime) if self.module.runtime is not None else None
        try:
            bare, found = read_contracts(node, contract_resolver(runtime), docstring=self.module.namespace == "", wrappers=self._wrappers())
            if not found:  # (contracts all disabled: the def without them)
                return node if len(bare.decorator_list) == len(node.decorator_list) else bare
            if not top_level:
                raise ContractRefused(node, "contract on a nested function or a method of a nested class (modelled on top-level functions and methods)")
            if bare.decorator_list and found.from_decorators:
                raise ContractRefused(bare.decorator_list[0], "decorator beside icontract or deal contracts")
            return instrument(bare, found, method=self.cls is not None)
        except ContractRefused as refused:
            raise self.unsupported(refused.node, refused.what) from None

    def _params(self, args: ast.arguments) -> tuple[ir.Param, ...]:
        """The parameters in the order of the ``def`` (``ir.Param``): positional-only, the
        others, ``*args``, keyword-only, ``**kwargs``; a default is its literal, else the value
        CPython computed when the ``def`` ran."""
        positional = [*args.posonlyargs, *args.args]
        defaults: list[ast.expr | None] = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
        params = []
        for i, (arg, default) in enumerate(zip(positional, defaults)):
            kind = "posonly" if i < len(args.posonlyargs) else ""
            value = None if default is None else self._default(default, lambda node: self._real_default(node, len(positional) - i))
            params.append(self._param(arg, value, kind))
        if args.vararg is not None:
            params.append(self._param(args.vararg, None, "*"))
        for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults):
            name = arg.arg
            value = None if kw_default is None else self._default(kw_default, lambda node: self._real_kwdefault(node, name))
            params.append(self._param(arg, value, "kwonly"))
        if args.kwarg is not None:
            params.append(self._param(args.kwarg, None, "**"))
        return tuple(params)

    def _wrappers(self) -> Callable[[str, ast.expr | None], CastWrapper | None]:
        """The cast wrapper a parameter's annotation names, if any (``frontend.cast_wrappers``):
        for the parameters of a top-level function of the target's module only (as the replay
        child's ``contracts.enforce``)."""
        wraps = getattr(self, "wraps_inputs", False) and self.module.runtime is not None and self.module.namespace == ""
        runtime = vars(self.module.runtime) if wraps and self.module.runtime is not None else None
        return lambda param, annotation: cast_wrapper(runtime, annotation, param)

    def _param(self, arg: ast.arg, default: Operand | None, kind: str) -> ir.Param:
        wrapper = self._wrappers()(arg.arg, arg.annotation) if kind in ("", "posonly", "kwonly") else None
        annotation = wrapper.annotation if wrapper is not None else annotation_text(arg.annotation)
        if kind == "*" and annotation is not None:
            annotation = f"tuple[{annotation},...]"  # the local holds the tuple of the extra positionals
        elif kind == "**" and annotation is not None:
            annotation = f"dict[str,{annotation}]"
        return ir.Param(arg.arg, annotation, default, arg.lineno, arg.col_offset + 1, kind)

    def _default(self, node: ast.expr, real: Callable[[ast.expr], object]) -> Operand:
        from pathloom.frontend.module import _NOT_LITERAL, _literal

        value = _literal(node)
        return Const(real(node) if value is _NOT_LITERAL else value)

    def _foreign_file(self) -> str | None:
        return self.module.filename if self.module.namespace else None

    def _real_default(self, node: ast.expr, from_end: int) -> object:
        """A default that is not a literal: the value CPython computed when the ``def`` ran
        (``__defaults__`` of the real function), as the semantics sees a module-level value."""
        from pathloom.domain.values import from_runtime
        from pathloom.domain.outcome import RuntimeUnsupported

        try:
            real = self.module.real_function(self.qualname)
        except (RuntimeUnsupported, AttributeError, KeyError):
            real = None
        defaults = getattr(real, "__defaults__", None)
        if not isinstance(defaults, tuple) or len(defaults) < from_end:
            raise self.unsupported(node, "default value that is not a literal constant (the real function's is unknown)")
        return from_runtime(defaults[len(defaults) - from_end])

    def _real_kwdefault(self, node: ast.expr, name: str) -> object:
        """A keyword-only parameter's default that is not a literal: the real function's
        ``__kwdefaults__[name]``."""
        from pathloom.domain.values import from_runtime
        from pathloom.domain.outcome import RuntimeUnsupported

        try:
            real = self.module.real_function(self.qualname)
        except (RuntimeUnsupported, AttributeError, KeyError):
            real = None
        defaults = getattr(real, "__kwdefaults__", None)
        if not isinstance(defaults, dict) or name not in defaults:
            raise self.unsupported(node, "default value that is not a literal constant (the real function's is unknown)")
        return from_runtime(defaults[name])

    def function(self, node: ast.FunctionDef) -> ir.Function:
        local = self.qualname[len(self.module.namespace) :]
        top_level = self.cls is None and self.module.function_defs.get(local) is node
        method = self.cls is not None and self.module.function_defs.get(local) is node and "." not in local.split(".", 1)[1]
        self.wraps_inputs = top_level  # parameters annotated with a cast wrapper (``frontend.cast_wrappers``)
        node = self._with_contracts(node, top_level or method)
        if method and node.decorator_list:
            raise self.unsupported(node.decorator_list[0], "decorator")
        if node.decorator_list:
            if not top_level:
                raise self.unsupported(node.decorator_list[0], "decorator")
            node = undecorated(self.module, local, node)  # what CPython bound the name to
        node = with_caches_expanded(node, self.module)  # desugar: the one pass before lowering
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
        return ir.Function(
            self.qualname, node.name, params, self.blocks, entry.label, node.lineno, node.col_offset + 1, self.cls, foreign, self.captures, self.generator
        )

    def lambda_function(self, node: ast.Lambda) -> ir.Function:
        params = self._params(node.args) + self._capture_params(node)
        self.locals = {p.name for p in params} | lambda_locals(node)
        self.binding_sites = {p.name: [(-1, True)] for p in params}
        entry = self.current
        value = self.expr(node.body)
        self.terminate(ir.Return(value, node_loc(node.body)))
        return ir.Function(
            self.qualname, "<lambda>", params, self.blocks, entry.label, node.lineno, node.col_offset + 1, self.cls, self._foreign_file(), self.captures
        )

    def _capture_params(self, node: ast.AST) -> tuple[ir.Param, ...]:
        line, col = getattr(node, "lineno", 0), getattr(node, "col_offset", 0) + 1
        return tuple(ir.Param(name, None, None, line, col) for name in self.captures)

    # ------------------------------------------------------------ closures

    def stmt_FunctionDef(self, node: ast.FunctionDef) -> None:
        """A nested function: a closure over the enclosing variables it uses (by value)."""
        if node.decorator_list:
            raise self.unsupported(node.decorator_list[0], "decorator on a nested function")
        qualname = own_qualname(self.module.lambdas, f"{self.qualname}.<locals>.{node.name}", node)
        self._no_walrus_in_defaults(node)
        captures, cells = self._closure(node, node.name)
        self.module.lambdas[qualname] = (node, self.cls, captures, cells)
        self.emit(ir.MakeFunction(node.name, qualname, node_loc(node), self._captured(captures)))

    def expr_Lambda(self, node: ast.Lambda) -> Operand:
        self._no_walrus_in_defaults(node)
        captures, cells = self._closure(node, None)
        self.lambda_count += 1
        scopes = "".join(f".{scope}" for scope in self.comprehension_scopes)  # python_qualname reads them
        qualname = f"{self.qualname}{scopes}.<lambda{self.lambda_count}>"
        self.module.lambdas[qualname] = (node, self.cls, captures, cells)
        dst = self.temp()
        self.emit(ir.MakeFunction(dst, qualname, node_loc(node), self._captured(captures)))
        return Var(dst)

    def _no_walrus_in_defaults(self, node: ast.FunctionDef | ast.Lambda) -> None:
        """CPython evaluates a nested function's defaults when the ``def`` runs, in this
        scope; the analysis takes a default's value when the function is called (its literal):
        an assignment expression there, which binds here, is unsupported."""
        for default in [*node.args.defaults, *(d for d in node.args.kw_defaults if d is not None)]:
            for sub in ast.walk(default):
                if isinstance(sub, ast.NamedExpr):
                    raise self.unsupported(sub, "assignment expression in a default value of a nested function or lambda")

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
                    if (
                        inner is not node
                        and isinstance(inner, (ast.FunctionDef, ast.Lambda))
                        and isinstance(inner, ast.FunctionDef)
                        and nonlocals(inner.body) - assigned_names(node.body) - param_names(node.args)
                    ):
                        raise self.unsupported(inner, "nonlocal of a function further out")
        return frozenset(shared)

    def _free_names(self, node: ast.FunctionDef | ast.Lambda) -> list[str]:
        """The variables of this function ``node`` (or a function inside it) reads, or writes
        as ``nonlocal``."""
        declared = nonlocals(node.body) if isinstance(node, ast.FunctionDef) else set()
        bound = (assigned_names(node.body) - declared) | param_names(node.args) if isinstance(node, ast.FunctionDef) else lambda_locals(node)
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

    # ------------------------------------------------------------ generator functions

    def expr_Yield(self, node: ast.Yield) -> Operand:
        """``yield v``: ``v`` appended to the items; its value is None (``list()`` sends nothing).
        In a generator inlined into its loop (``generators``) the loop's body takes ``v``."""
        value = self.expr(node.value) if node.value is not None else Const(None)
        if self._inline_yield(value, node_loc(node)):
            return Const(None)
        if not self.generator:
            raise self.unsupported(node, "yield outside a function's own body (in a lambda)")
        self.emit(ir.CallMethod(self.temp(), Var(YIELDED), "append", (value,), (), node_loc(node)))
        return Const(None)

    def expr_YieldFrom(self, node: ast.YieldFrom) -> Operand:
        raise self.unsupported(node, "the value of 'yield from' (a sub-generator's return value)")

    def _yield_from(self, node: ast.YieldFrom) -> None:
        """``yield from it`` as a statement: the items of ``it`` appended in order, as
        ``list.extend`` takes them; a generator call there is consumed whole (``Call.whole``).
        In a generator inlined into its loop, the loop ``for v in it: yield v`` (``generators``)."""
        if self._inline_yield_from(node):
            return
        items = self._whole(node.value)
        self.emit(ir.CallMethod(self.temp(), Var(YIELDED), "extend", (items,), (), node_loc(node)))
