"""Expressions: names, operators, comparisons, calls, subscripts, displays and f-strings.

Job: the ``expr_*`` methods (``expr`` dispatches on the node's type) and what they share: how a
name is read (a comprehension's renamed variable, a cell, a local, the enclosing nested
function, or a module-level or builtin name, ``global_name``), call arguments, item indexes and
slice bounds. Invariants: every expression is lowered to one operand (a ``Const``, a ``Global``
or a ``Var`` of a local or a ``%N`` temporary), its subexpressions evaluated in CPython's
order; ``and``/``or``, chained comparisons and conditional expressions become explicit control
flow joining in one temporary (``_value_join``); an expression outside the supported subset
raises ``Unsupported`` with the node's location (the messages of ``_UNSUPPORTED_EXPR``). Calls
the library models are handed to ``comprehensions`` and ``library`` first (``expr_Call``).
"""

from __future__ import annotations

import ast
import functools

from pathloom.domain.values import PyObj
from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import Builder, cell_slot, node_loc

_BINOPS: dict[type[ast.operator], str] = {
    ast.Add: "+",
    ast.Sub: "-",
    ast.Mult: "*",
    ast.FloorDiv: "//",
    ast.Mod: "%",
    ast.Pow: "**",
    ast.Div: "/",
    ast.BitAnd: "&",
    ast.BitOr: "|",
    ast.BitXor: "^",
    ast.LShift: "<<",
    ast.RShift: ">>",
}
_CMPOPS: dict[type[ast.cmpop], str] = {
    ast.Eq: "==",
    ast.NotEq: "!=",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
    ast.In: "in",
    ast.NotIn: "not in",
    ast.Is: "is",
    ast.IsNot: "is not",
}

_UNSUPPORTED_EXPR = {
    ast.GeneratorExp: "generator expression outside list(), tuple(), set(), sorted(), sum(), min(), max(), any(), all() and 'sep'.join()",
    ast.Await: "await",
    ast.Starred: "starred expression outside a display or call",
    ast.Slice: "extended slicing (a slice inside a tuple subscript)",
}


_FOLDABLE = (ast.Constant, ast.UnaryOp, ast.BinOp, ast.Tuple, ast.Subscript, ast.unaryop, ast.operator, ast.expr_context)


def _maybe_folded(node: ast.expr) -> bool:
    """Whether CPython's AST optimizer may turn ``node`` into a constant: it folds only
    constants, unary and binary operators, tuples and subscripts of constants, and
    ``__debug__``; anything else (a name, a call) never is."""
    return all(isinstance(n, _FOLDABLE) or (isinstance(n, ast.Name) and n.id == "__debug__") for n in ast.walk(node))


def _immutable_literal(value: object) -> bool:
    if value is None or type(value) in (bool, int, float, str):
        return True
    return type(value) is tuple and all(_immutable_literal(v) for v in value)


_WHOLE_CONSUMERS = ("list", "tuple", "sorted")  # builtins that build the list of their argument's items first


class Expressions(Builder):
    """The ``expr_*`` methods but comprehensions, lambdas and ``yield``."""

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
        if isinstance(node.value, bytes):  # as a bytes value of the real module: opaque, run in CPython where used
            return Const(PyObj(node.value))
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

    def expr_NamedExpr(self, node: ast.NamedExpr) -> Operand:
        """``(name := value)``: the value, bound to ``name`` in the function's scope (also from
        inside a comprehension, PEP 572), and the expression's own value."""
        target = node.target
        assert isinstance(target, ast.Name)  # the grammar allows a name only
        if target.id in self.renames:  # CPython's SyntaxError: a comprehension's own variable
            raise self.unsupported(node, f"assignment expression rebinding the comprehension variable {target.id!r}")
        value = self.expr(node.value)
        dst = self.temp()
        self.emit(ir.Assign(dst, value, node_loc(node)))
        self.assign(target, Var(dst))
        return Var(dst)

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
        if isinstance(node.func, ast.Name) and node.func.id in ("%cache_key", "%cache_plain", "%is_factory_default", "%init_field"):  # written by
            # _cache_expansion, and by dataclass_model for a field with a default factory
            from pathloom.domain.values import BuiltinVal

            dst = self.temp()
            self.emit(ir.Call(dst, Const(BuiltinVal(node.func.id)), tuple(self.expr(a) for a in node.args), (), node_loc(node)))
            return Var(dst)
        if (
            self._names_real(node.func, functools.reduce)
            and len(node.args) in (2, 3)
            and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)
        ):
            return self._reduce(node)
        if self._is_bare_super(node):
            # super() names the enclosing class and the method's first argument, as CPython's
            # compiler does through __class__ and the first local
            first = self.first_param
            assert first is not None  # _is_bare_super: a method's
            dst = self.temp()
            self.emit(ir.Call(dst, Global("super"), (Const(self.cls), Var(first)), (), node_loc(node)))
            return Var(dst)
        if (
            isinstance(node.func, ast.Name)
            and node.func.id in _WHOLE_CONSUMERS
            and len(node.args) == 1
            and self._is_builtin(node.func.id)
            and isinstance(node.args[0], ast.Call)
            and (node.func.id == "sorted" or not node.keywords)
        ):
            items = self._whole(node.args[0])  # list(f(...)): f may be a generator function
            return self._whole_consumer(node, items)
        return self._call(node)

    def _call(self, node: ast.Call, whole: bool = False) -> Var:
        if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
            return self._unpacking_call(node, whole)
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

    def _unpacking_call(self, node: ast.Call, whole: bool) -> Var:
        """A call with ``*`` or ``**`` arguments, in CPython's order (``CALL_FUNCTION_EX``): the
        function (of a method, the bound method, read first: ``%method_of``), the positional
        arguments made a list as a display's items are (a lone ``*x`` is ``x`` itself, checked
        with the function's name: ``%star_args``), then the keywords: each run of ``k=v`` and
        each ``**`` mapping merged in turn into the names so far (``%kw_add``, ``%kw_merge``:
        CPython's TypeError for a repeated name, or a value that is not a mapping), and the call
        (``%star_call``), whose binding is the callee's own."""
        loc = node_loc(node)
        if isinstance(node.func, ast.Attribute):
            func: Operand = self._hidden_call("%method_of", (self.expr(node.func.value), Const(node.func.attr)), loc)
        else:
            func = self.expr(node.func)
        if len(node.args) == 1 and isinstance(node.args[0], ast.Starred):
            positional: Operand = self._hidden_call("%star_args", (func, self.expr(node.args[0].value)), loc)
        else:
            positional = self._starred_display(ast.copy_location(ast.List(node.args, ast.Load()), node))
        merged: Operand = Const(())
        run: list[tuple[str, Operand]] = []
        for kw in [*node.keywords, None]:
            if (kw is None or kw.arg is None) and run:
                names = Const(tuple(name for name, _ in run))
                merged = self._hidden_call("%kw_add", (func, merged, names, *(value for _, value in run)), loc)
                run = []
            if kw is not None and kw.arg is not None:
                run.append((kw.arg, self.expr(kw.value)))
            elif kw is not None:
                merged = self._hidden_call("%kw_merge", (func, merged, self.expr(kw.value)), loc)
        from pathloom.domain.values import BuiltinVal

        dst = self.temp()
        self.emit(ir.Call(dst, Const(BuiltinVal("%star_call")), (func, positional, merged), (), loc, whole))
        return Var(dst)

    def _is_bare_super(self, node: ast.Call) -> bool:
        return (
            isinstance(node.func, ast.Name)
            and node.func.id == "super"
            and not node.args
            and not node.keywords
            and "super" not in self.locals
            and self.cls is not None
            and self.first_param is not None
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
            from pathloom.domain.values import BuiltinVal

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
        return tuple(self.expr(e) for e in node.elts)

    def _hidden_call(self, name: str, args: tuple[Operand, ...], loc: Loc) -> Var:
        """A call of one of the analysis's own builtins (``%star_items``...)."""
        from pathloom.domain.values import BuiltinVal

        dst = self.temp()
        self.emit(ir.Call(dst, Const(BuiltinVal(name)), args, (), loc))
        return Var(dst)

    def _starred_display(self, node: ast.List | ast.Tuple | ast.Set) -> Var:
        """A display with starred items, built as CPython's compiler builds it
        (``starunpack_helper``): the items before the first starred one make the list (the
        set), then each starred item extends it (``%star_items``: CPython's TypeError for a
        value that is not iterable) or updates the set, and each other item is appended (added);
        a tuple is that list converted at the end. Errors are reported at the display."""
        loc = node_loc(node)
        first = next((i for i, e in enumerate(node.elts) if isinstance(e, ast.Starred)), len(node.elts))
        prefix = tuple(self.expr(e) for e in node.elts[:first])
        is_set = isinstance(node, ast.Set)
        dst = self.temp()
        self.emit(ir.BuildSet(dst, prefix, loc) if is_set else ir.BuildList(dst, prefix, loc))
        for elt in node.elts[first:]:
            if isinstance(elt, ast.Starred):
                value = self.expr(elt.value)
                method = "update" if is_set else "extend"
                value = self._hidden_call("%star_set_items" if is_set else "%star_items", (value,), loc)
            else:
                value, method = self.expr(elt), "add" if is_set else "append"
            self.emit(ir.CallMethod(self.temp(), Var(dst), method, (value,), (), loc))
        if isinstance(node, ast.Tuple):
            return self._hidden_call("%star_tuple", (Var(dst),), loc)
        return Var(dst)

    def expr_List(self, node: ast.List) -> Operand:
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return self._starred_display(node)
        items = self._display(node)
        dst = self.temp()
        self.emit(ir.BuildList(dst, items, node_loc(node)))
        return Var(dst)

    def expr_Tuple(self, node: ast.Tuple) -> Operand:
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return self._starred_display(node)
        items = self._display(node)
        dst = self.temp()
        self.emit(ir.BuildTuple(dst, items, node_loc(node)))
        return Var(dst)

    def expr_Set(self, node: ast.Set) -> Operand:
        if any(isinstance(e, ast.Starred) for e in node.elts):
            return self._starred_display(node)
        items = self._display(node)
        dst = self.temp()
        foldable = len(node.elts) > 2 and all(_maybe_folded(e) for e in node.elts)
        self.emit(ir.BuildSet(dst, items, node_loc(node), foldable))
        return Var(dst)

    def expr_Dict(self, node: ast.Dict) -> Operand:
        """A dict display. With ``**`` items, as CPython's compiler builds it
        (``compiler_dict``): each run of ``k: v`` items is a dict of its own, built when the run
        ends; the first run (or an empty dict, when a ``**`` item comes first) is the result,
        and each later run and each ``**`` mapping (``%star_mapping``: a dict, else CPython's
        TypeError) is merged into it, ``d[k] = v`` for its items in order."""
        loc = node_loc(node)
        dst: Var | None = None
        keys: list[Operand] = []
        values: list[Operand] = []
        pairs: list[tuple[ast.expr | None, ast.expr | None]] = [*zip(node.keys, node.values), (None, None)]
        for key, value in pairs:
            if key is None and (keys or dst is None):  # a run ends (or the display)
                run = self.temp()
                self.emit(ir.BuildDict(run, tuple(keys), tuple(values), loc))
                if dst is None:
                    dst = Var(run)
                else:
                    self._merge_into(dst, Var(run), loc)
                keys, values = [], []
            if key is not None and value is not None:
                keys.append(self.expr(key))
                values.append(self.expr(value))
            elif value is not None:
                assert dst is not None
                self._merge_into(dst, self._hidden_call("%star_mapping", (self.expr(value),), loc), loc)
        assert dst is not None
        return dst

    def _merge_into(self, dst: Var, mapping: Operand, loc: Loc) -> None:
        """``dst.update(mapping)`` of a dict, as the loop ``dict_merge`` runs: ``dst[k] = v`` for
        each item in order (an equal key keeps its first object and place, takes the value)."""
        items = self.temp()
        self.emit(ir.CallMethod(items, mapping, "items", (), (), loc))
        it, item, _ = self._start_iteration((Var(items), None, ""), loc)

        def body() -> None:
            key, value = self.temp(), self.temp()
            self.emit(ir.Unpack((key, value), Var(item), loc))
            self.emit(ir.SetItem(dst, Var(key), Var(value), loc))

        decide = lambda body_block, exit_block: self.terminate(ir.ForIter(it, item, body_block.label, exit_block.label, loc))  # noqa: E731
        self._loop_blocks(loc, decide, body, lambda: None)

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
