"""Library calls lowered to the IR of the loops they run, instead of being run in CPython.

Job: ``functools.reduce(f, xs[, initial])``, ``sorted(xs, key=lambda ...)`` and
``xs.sort(key=lambda ...)``, and ``sum``/``any``/``all``/``min``/``max`` of a generator
expression (which ``Comprehensions._consumed_generator`` hands here). These stay steps of the
lowering rather than ``desugar`` rewrites: they emit IR no Python source could (the hidden
``%sort_by_keys``, ``%is_list``, flags deciding the first item), and whether a name means the
builtin depends on the lowering's scope.

Invariant: each is exact: the function, the iterable and the other arguments are evaluated in
CPython's order, the items are made one at a time, ``any``/``all`` stop early, and the errors of
an empty input are CPython's, with its messages.
"""

from __future__ import annotations

import ast

from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import Builder, node_loc
from pathloom.frontend.lowering.desugar import item_loop


class Library(Builder):
    """``reduce``, sorting by a key, and the builtins that run a loop over a generator."""

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
        if (
            None in keywords
            or set(keywords) - {"key", "reverse"}
            or not isinstance(key, ast.Lambda)
            or key.args.defaults
            or key.args.kw_defaults
            or not (isinstance(reverse, ast.Constant) and type(reverse.value) is bool)
            or any(isinstance(a, ast.Starred) for a in node.args)
        ):
            return None
        from pathloom.domain.values import BuiltinVal

        loc = node_loc(node)
        sort_by_keys = Const(BuiltinVal("%sort_by_keys"))
        if isinstance(node.func, ast.Name) and node.func.id == "sorted" and len(node.args) == 1 and self._is_builtin("sorted") and self._is_builtin("list"):
            copy = self.temp()
            self.emit(ir.Call(copy, Global("list"), (self.expr(node.args[0]),), (), loc))
            keys = self._keys(Var(copy), key)
            dst = self.temp()
            self.emit(ir.Call(dst, sort_by_keys, (Var(copy), keys, Const(reverse.value), Const(True)), (), loc))
            return Var(dst)
        func = node.func
        if not (
            isinstance(func, ast.Attribute)
            and func.attr == "sort"
            and isinstance(func.value, ast.Name)
            and not node.args
            and not any(isinstance(n, ast.Call) or (isinstance(n, ast.Name) and n.id == func.value.id) for n in ast.walk(key.body))
        ):
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

    def _keys(self, items: Operand, key: ast.Lambda) -> Operand:
        """``[key(item) for item in items]``, the lambda made anew for each item (making it
        runs nothing: no defaults). ``items`` that is not a local (``XS.sort(...)`` of a
        module-level name) is read into a temporary first: the comprehension reads a local."""
        if not isinstance(items, Var):
            copy = self.temp()
            self.emit(ir.Assign(copy, items, node_loc(key)))
            items = Var(copy)
        source = "items~"  # not a Python name: only this comprehension reads it
        saved = self.renames
        self.renames = {**saved, source: items.name}
        try:
            item, loop = item_loop(ast.copy_location(ast.Name(source, ast.Load()), key), key)
            called = ast.copy_location(ast.Call(key, [item], []), key)
            return self.expr_ListComp(ast.copy_location(ast.ListComp(called, [loop]), key))
        finally:
            self.renames = saved

    def _sum(self, generator: ast.GeneratorExp, start: Operand) -> Operand:
        loc = node_loc(generator)
        total = self.temp()
        self.emit(ir.Assign(total, start, loc))

        def produce() -> None:
            value = self._element(generator.elt)
            self.emit(ir.BinOp(total, "+", Var(total), value, node_loc(generator.elt)))

        self._comprehension(generator, produce)
        return Var(total)

    def _any_all(self, generator: ast.GeneratorExp, is_any: bool) -> Operand:
        loc = node_loc(generator)
        result = self.temp()
        self.emit(ir.Assign(result, Const(not is_any), loc))
        outer = len(self.loops)

        def produce() -> None:
            value = self._element(generator.elt)
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

    def _min_max(self, generator: ast.GeneratorExp, name: str, keywords: list[ast.keyword]) -> Operand:
        """``min``/``max`` of a generator expression, with ``key=`` and ``default=`` keywords:
        the generator's first iterable is evaluated (``iter()`` called), then the keywords in
        the order written, as CPython evaluates the call's arguments; then each item is made
        and, with a key that is not None, ``key(item)`` called at once; an item replaces the
        best one only when its key is strictly greater (``max``; ``min``: less), so the first
        of equal ones stays. No item: ``default``, else CPython's ValueError."""
        loc = node_loc(generator)
        first = self._generator_made(generator)
        given = {k.arg: (k.value, self.expr(k.value)) for k in keywords}
        key = given.get("key")
        keyed: Var | bool = False  # the key is not None: a lambda always, another expression when it runs
        if key is not None and not (isinstance(key[0], ast.Constant) and key[0].value is None):
            keyed = True
            if not isinstance(key[0], ast.Lambda):
                keyed = Var(self.temp())
                self.emit(ir.Compare(keyed.name, "is not", key[1], Const(None), loc))
        best, best_key, empty = self.temp(), self.temp(), self.temp()
        self.emit(ir.Assign(best, Const(None), loc))
        self.emit(ir.Assign(best_key, Const(None), loc))
        self.emit(ir.Assign(empty, Const(True), loc))

        def produce() -> None:
            value = self.temp()
            self.emit(ir.Assign(value, self._element(generator.elt), node_loc(generator.elt)))
            this_key = value
            if keyed is not False and key is not None:
                this_key = self.temp()
                if keyed is True:
                    self.emit(ir.Call(this_key, key[1], (Var(value),), (), node_loc(key[0])))
                else:
                    self.emit(ir.Assign(this_key, Var(value), loc))
                    call, join_key = self.new_block(), self.new_block()
                    self._branch_on(keyed, call, join_key, loc)
                    self.start(call)
                    self.emit(ir.Call(this_key, key[1], (Var(value),), (), node_loc(key[0])))
                    self.goto(join_key, loc)
                    self.start(join_key)
            first, compare, take, join = self.new_block(), self.new_block(), self.new_block(), self.new_block()
            self._branch_on(Var(empty), first, compare, loc)
            self.start(first)
            self.emit(ir.Assign(empty, Const(False), loc))
            self.goto(take, loc)
            self.start(compare)
            better, flag = self.temp(), self.temp()
            self.emit(ir.Compare(better, ">" if name == "max" else "<", Var(this_key), Var(best_key), loc))
            self.emit(ir.Truth(flag, Var(better), loc))
            self.terminate(ir.Branch(Var(flag), take.label, join.label, loc))
            self.start(take)
            self.emit(ir.Assign(best, Var(value), loc))
            self.emit(ir.Assign(best_key, Var(this_key), loc))
            self.goto(join, loc)
            self.start(join)

        self._comprehension(generator, produce, first)
        raising, done = self.new_block(), self.new_block()
        self._branch_on(Var(empty), raising, done, loc)
        self.start(raising)
        if "default" in given:
            self.emit(ir.Assign(best, given["default"][1], loc))
            self.goto(done, loc)
        else:
            exc = self.temp()
            self.emit(ir.Call(exc, Global("ValueError"), (Const(f"{name}() arg is an empty sequence"),), (), loc))
            self.terminate(ir.Raise(Var(exc), "implicit", loc))
        self.start(done)
        return Var(best)

    def _next_item(self, generator: ast.GeneratorExp, default: ast.expr | None, loc: Loc) -> Operand:
        """``next(generator[, default])`` of a fresh generator expression: its first item, made
        by running its loops until one passes the conditions, then leaving them (the rest is
        never made); none: ``default``, else CPython's ``StopIteration`` at the call. The
        generator's first iterable is evaluated and ``iter()`` called on it first, then ``default``, as CPython does."""
        first = self._generator_made(generator)
        fallback = self.expr(default) if default is not None else None
        result, found = self.temp(), self.temp()
        self.emit(ir.Assign(found, Const(False), loc))
        outer = len(self.loops)

        def produce() -> None:
            self.emit(ir.Assign(result, self._element(generator.elt), node_loc(generator.elt)))
            self.emit(ir.Assign(found, Const(True), loc))
            self.goto(self.blocks[self.loops[outer].exit], loc)
            self.dead_block()

        self._comprehension(generator, produce, first)
        empty, done = self.new_block(), self.new_block()
        self._branch_on(Var(found), done, empty, loc)
        self.start(empty)
        if fallback is not None:
            self.emit(ir.Assign(result, fallback, loc))
            self.goto(done, loc)
        else:
            exc = self.temp()
            self.emit(ir.Call(exc, Global("StopIteration"), (), (), loc))
            self.terminate(ir.Raise(Var(exc), "implicit", loc))
        self.start(done)
        return Var(result)
