"""Comprehensions, and generator expressions consumed in place.

Job: list, set and dict comprehensions as the loops they run, and a generator expression (or a
call of a generator function) passed to a builtin that consumes it whole: ``list``, ``tuple``,
``sorted``, ``set``, ``'sep'.join`` build its items first; ``sum``, ``min``, ``max``, ``any`` and
``all`` become loops too (``library``), ``collections.Counter`` counts each item as it is made,
and names unpack the items the unpacking pulls. No generator object is ever made.

Invariants: a comprehension has a scope of its own (every target name is a fresh local, a name
with a dot that cannot clash, through ``renames``) and its outermost iterable is evaluated in
the enclosing scope, first, as in CPython; the items are made one at a time, in order, and
errors are reported at CPython's lines (an unhashable item at the comprehension, or at the
``set(...)`` call). A lambda made inside the source's own comprehension is named as CPython
names it (``f.<locals>.<listcomp>.<lambda>``: ``comprehension_scopes``); the comprehensions the
lowering writes itself (``desugar.item_loop``) are no scope.
"""

from __future__ import annotations

import ast
import collections
from typing import Callable

from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import Builder, LoopTargets, node_loc
from pathloom.frontend.lowering.desugar import is_item_loop, item_loop, map_filter_as_generator
from pathloom.frontend.lowering.generators import inline_call


STARTED = "started"  # the iteration kind of a loop whose iterator is made already: (iterator, item, counter)
_SCOPE_NAMES: dict[type[ast.expr], str] = {ast.ListComp: "<listcomp>", ast.SetComp: "<setcomp>", ast.DictComp: "<dictcomp>", ast.GeneratorExp: "<genexpr>"}


class Comprehensions(Builder):
    """Comprehensions, and generators consumed whole by a builtin."""

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
            value = self._element(node.elt)
            self.emit(ir.CallMethod(self.temp(), Var(dst), "add", (value,), (), add_loc))

        self._comprehension(node, produce)
        return Var(dst)

    def expr_ListComp(self, node: ast.ListComp | ast.GeneratorExp) -> Operand:
        loc = node_loc(node)
        dst = self.temp()
        self.emit(ir.BuildList(dst, (), loc))

        def produce() -> None:
            value = self._element(node.elt)
            self.emit(ir.CallMethod(self.temp(), Var(dst), "append", (value,), (), node_loc(node.elt)))

        self._comprehension(node, produce)
        return Var(dst)

    def _comprehension(
        self,
        node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
        produce: Callable[[], None],
        first: tuple[Operand, Operand | None, str] | None = None,
    ) -> None:
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
        scopes = self.comprehension_scopes
        if not is_item_loop(node.generators[0]):  # the source's own comprehension (not a rewrite): CPython's function
            self.comprehension_scopes = [*scopes, _SCOPE_NAMES[type(node)]]
        outer_handler = self.handler
        generator_frame = isinstance(node, ast.GeneratorExp) and not is_item_loop(node.generators[0])
        if generator_frame:  # the generator's own code: a StopIteration leaving it is CPython's RuntimeError (PEP 479)
            self.handler = self._stop_iteration_converter(node_loc(node)).label
            inside = self.new_block()
            self.goto(inside, node_loc(node))
            self.start(inside)
        self.element_handlers.append((generator_frame, outer_handler))
        try:
            self._generator_loop(node.generators, 0, first, produce)
        finally:
            self.renames = saved
            self.comprehension_scopes = scopes
            self.element_handlers.pop()
        if generator_frame:  # back in the consumer's frame
            self.handler = outer_handler
            after = self.new_block()
            self.goto(after, node_loc(node))
            self.start(after)

    def _for_over_generator_expression(self, node: ast.For) -> None:
        """``for target in (elt for ... if ...): body [else: ...]``: the generator expression's
        loops, and at each item that passes its conditions the ``for``'s target and body, back
        in the enclosing scope (the expression's variables are its own), so items are made one
        at a time between the body's runs, as CPython does. ``continue`` goes on to the next
        item, ``break`` leaves every loop of the expression and skips ``else``."""
        generator = node.iter
        assert isinstance(generator, ast.GeneratorExp)
        loc = node_loc(node)
        enclosing = (self.renames, self.comprehension_scopes)
        after = self.new_block()

        def produce() -> None:
            item = self._element(generator.elt)
            inner = (self.renames, self.comprehension_scopes)
            self.renames, self.comprehension_scopes = enclosing
            self.loops.append(LoopTargets(self.loops[-1].header, after.label))
            self.assign(node.target, item)
            self.body(node.body)
            self.loops.pop()
            self.renames, self.comprehension_scopes = inner

        self._comprehension(generator, produce)
        self.body(node.orelse)
        self.goto(after, loc)
        self.start(after)

    def _generator_to_unpack(self, generator: ast.GeneratorExp, target: ast.Tuple | ast.List) -> Operand:
        """``a, b, c = (elt for ...)``: the list of the items CPython's unpacking pulls, which
        the target then unpacks with CPython's checks and messages. Without a starred name it
        pulls at most one item more than there are names (``too many values to unpack
        (expected 3)``: the generator is left there, its fourth item never made) and stops
        at the end (``not enough values to unpack (expected 3, got 2)``); with one
        (``a, *rest = ...``) it pulls every item, as unpacking into a list does."""
        if any(isinstance(elt, ast.Starred) for elt in target.elts):
            return self.expr_ListComp(generator)
        limit = len(target.elts) + 1
        loc = node_loc(generator)
        dst, count = self.temp(), self.temp()
        self.emit(ir.BuildList(dst, (), loc))
        self.emit(ir.Assign(count, Const(0), loc))
        outer = len(self.loops)

        def produce() -> None:
            value = self._element(generator.elt)
            self.emit(ir.CallMethod(self.temp(), Var(dst), "append", (value,), (), node_loc(generator.elt)))
            self.emit(ir.BinOp(count, "+", Var(count), Const(1), loc))
            full, going_on = self.new_block(), self.new_block()
            flag = self.temp()
            self.emit(ir.Compare(flag, ">=", Var(count), Const(limit), loc))
            self.terminate(ir.Branch(Var(flag), full.label, going_on.label, loc))
            self.start(full)
            self.goto(self.blocks[self.loops[outer].exit], loc)
            self.start(going_on)

        self._comprehension(generator, produce)
        return Var(dst)

    def _element(self, elt: ast.expr) -> Operand:
        """A comprehension's item, ``elt`` evaluated; in a generator expression it is the last
        code of the generator's frame: what the consumer then does with the item (add it, test
        it, run a loop's body) runs with the consumer's handler again."""
        value = self.expr(elt)
        if not self.element_handlers or not self.element_handlers[-1][0]:
            return value
        consumer = self.element_handlers[-1][1]
        held = self.temp()
        self.emit(ir.Assign(held, value, node_loc(elt)))
        self.handler = consumer
        block = self.new_block()
        self.goto(block, node_loc(elt))
        self.start(block)
        return Var(held)

    def _generator_made(self, generator: ast.GeneratorExp) -> tuple[Operand, Operand | None, str]:
        """The generator expression's outermost iterable evaluated and ``iter()`` called on it,
        as CPython does when it makes the generator object, before the consumer's other
        arguments (``default=``, ``key=``) are evaluated; ``_comprehension``'s ``first``."""
        iterable = self._iterable(generator.generators[0].iter)
        if inline_call(iterable) is not None:  # a generator call: making it ran nothing of g
            return iterable
        return Const(self._start_iteration(iterable, node_loc(generator.generators[0].iter))), None, STARTED

    def _generator_loop(
        self, generators: list[ast.comprehension], level: int, iterable: tuple[Operand, Operand | None, str], produce: Callable[[], None]
    ) -> None:
        generator = generators[level]
        loc = node_loc(generator.iter)

        def rest() -> None:
            for condition in generator.ifs:
                passed, skipped = self.new_block(), self.new_block()
                self.branch(condition, passed, skipped)
                self.start(skipped)
                self.goto(self.blocks[self.loops[-1].header], loc, back_edge=not self.loops[-1].forward)
                self.start(passed)
            if level + 1 < len(generators):
                self._generator_loop(generators, level + 1, self._iterable(generators[level + 1].iter), produce)
            else:
                produce()

        call = inline_call(iterable)
        if call is not None:  # over a call of a generator function: inlined (``generators``)
            self._inline_loop(call, loc, lambda item: self.assign(generator.target, item), rest, lambda: None)
            return
        started = iterable[0].value if iterable[2] == STARTED and isinstance(iterable[0], Const) else None
        it, item, counter = started if isinstance(started, tuple) else self._start_iteration(iterable, loc)

        def body() -> None:
            self.assign(generator.target, self._counted(item, counter, loc))
            rest()

        decide = lambda body_block, exit_block: self.terminate(ir.ForIter(it, item, body_block.label, exit_block.label, loc))  # noqa: E731
        self._loop_blocks(loc, decide, body, lambda: None)

    # ------------------------------------------------------------ generators consumed whole

    def _consumed_generator(self, node: ast.Call) -> Operand | None:
        """A generator expression passed alone to a builtin that consumes it whole, lowered
        exactly: ``list``/``tuple``/``sorted``/``'sep'.join`` build the list first, as CPython
        does; ``sum``, ``min``, ``max``, ``any`` and ``all`` become the loops they run (items
        are made one at a time, ``any``/``all`` stop early). None: not such a call. ``map``,
        ``filter`` and ``reversed`` calls become generator expressions first
        (``desugar.map_filter_as_generator``)."""
        node = map_filter_as_generator(node, self._is_builtin)
        node = self._generator_call_as_loop(node)
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
        if len(node.args) == 1 and not node.keywords and self._names_real(func, collections.Counter):
            return self._counter(generator, node)
        if not isinstance(func, ast.Name) or not self._is_builtin(func.id):
            return None
        name, rest = func.id, node.args[1:]
        if name in ("list", "tuple", "sorted") and not rest and (name == "sorted" or not node.keywords):
            items = self.expr_ListComp(generator)
            return items if name == "list" else self._whole_consumer(node, items)
        if name in ("min", "max") and not rest and all(k.arg in ("key", "default") for k in node.keywords):
            return self._min_max(generator, name, node.keywords)
        if node.keywords:
            return None
        if name == "set" and not rest:  # set() adds each item as the generator makes it
            return self._set_comprehension(generator, node_loc(node))
        if name == "sum" and (not rest or (len(rest) == 1 and isinstance(rest[0], ast.Constant) and type(rest[0].value) in (int, float))):
            return self._sum(generator, Const(rest[0].value) if rest else Const(0))  # type: ignore[attr-defined]
        if name in ("any", "all") and not rest:
            return self._any_all(generator, name == "any")
        if name == "next" and len(rest) <= 1 and not any(isinstance(a, ast.Starred) for a in rest):
            return self._next_item(generator, rest[0] if rest else None, node_loc(node))
        return None

    def _counter(self, generator: ast.GeneratorExp, node: ast.Call) -> Operand:
        """``collections.Counter(generator)``: the generator made, then the empty Counter, then
        each item counted as it is made (``c.update((item,))``: the C helper CPython's
        ``Counter.update`` runs over the generator, one item at a time), so an unhashable item
        raises CPython's TypeError before a later item is made."""
        loc = node_loc(node)
        counter = self.expr(node.func)
        first = self._generator_made(generator)
        made = self.temp()
        self.emit(ir.Call(made, counter, (), (), loc))

        def produce() -> None:
            one = self.temp()
            self.emit(ir.BuildTuple(one, (self._element(generator.elt),), loc))
            self.emit(ir.CallMethod(self.temp(), Var(made), "update", (Var(one),), (), loc))

        self._comprehension(generator, produce, first)
        return Var(made)

    def _generator_call_as_loop(self, node: ast.Call) -> ast.Call:
        """``sum(g(...))`` (``min``, ``max``, ``any``, ``all``, ``next``) of a generator call that can be
        inlined (``generators``): ``sum(item for item in g(...))``, so that the items are made
        one at a time as the builtin takes them (``any`` stops the generator early); these and
        ``list``, ``tuple``, ``sorted``, ``set`` of ``itertools.islice(g(...), stop)`` too (the
        loop stops once it has taken ``stop`` items: ``generators._islice_stop``)."""
        func = node.func
        if not (isinstance(func, ast.Name) and self._is_builtin(func.id) and node.args):
            return node
        if not (
            (func.id in ("sum", "min", "max", "any", "all", "next") and self._inline_plan(node.args[0]) is not None)
            or (func.id in ("list", "tuple", "sorted", "set") and len(node.args) == 1 and self._model_plan_of(node.args[0]))
            or (func.id in ("sum", "min", "max", "any", "all", "next", "list", "tuple", "sorted", "set") and self._islice_of(node.args[0]) is not None)
        ):
            return node
        item, loop = item_loop(node.args[0], node.args[0])
        generator = ast.copy_location(ast.GeneratorExp(item, [loop]), node.args[0])
        return ast.copy_location(ast.Call(func, [generator, *node.args[1:]], node.keywords), node)

    def _whole(self, node: ast.expr) -> Operand:
        """``node``, and when it is a call, that call marked as consumed whole."""
        if not isinstance(node, ast.Call) or self._is_bare_super(node):
            return self.expr(node)
        consumed = self._consumed_generator(node)
        return consumed if consumed is not None else self._call(node, whole=True)

    def _whole_consumer(self, node: ast.Call, items: Operand) -> Var:
        """``list``/``tuple``/``sorted`` (``node.func``, the builtin) called on ``items`` with
        ``node``'s keywords."""
        _, kwargs = self.call_args(ast.Call(node.func, [], node.keywords))
        dst = self.temp()
        self.emit(ir.Call(dst, Global(node.func.id), (items,), kwargs, node_loc(node)))  # type: ignore[attr-defined]
        return Var(dst)
