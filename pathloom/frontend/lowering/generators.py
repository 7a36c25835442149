"""Generators consumed item by item: a loop over a call of a generator function, inlined.

Job: ``for x in g(a, b): body`` (and a comprehension's outermost loop over ``g(...)``), where
``g`` is a plain generator function defined at the top level of the module being analysed, is
lowered as CPython runs it: the arguments are evaluated and bound to ``g``'s parameters, then
``g``'s own statements run in ``g``'s scope (its locals renamed to ``name.N``, fresh locals
that cannot clash; its free names are the module's globals and builtins), and at each ``yield v``
the consumer's loop target is bound to ``v`` and the consumer's body runs, in the consumer's
scope; then ``g`` resumes after the ``yield``. ``break`` in the body leaves ``g`` where it
stands (never resumed, as a generator object that is dropped), ``continue`` resumes ``g``, the
loop's ``else`` runs when ``g`` returns or falls off its end; ``yield from it`` inside ``g`` is
the loop ``for v in it: yield v`` (the same items for a consumer that sends nothing). So the
items are made one at a time, interleaved with the consumer's effects, and a generator that
never ends is fine when the consumer breaks out: nothing is made in advance. A loop over
``itertools.islice(g(...), stop)`` is the same loop with a count: before ``g`` is started or
resumed for another item, the loop finishes (its ``else`` runs) once ``stop`` items were
taken, as CPython's ``islice`` checks its count before it pulls; the stop is checked as
``islice()`` checks it (``_islice_stop``).

Invariants: every block lowered for ``g``'s statements has the hidden handler that turns a
``StopIteration`` leaving ``g`` into ``RuntimeError('generator raised StopIteration')`` at the
consumer's line (PEP 479, as ``semantics.control.leaving_generators`` does for a generator
frame); the consumer's body blocks keep the consumer's handler, loops, ``finally`` regions and
names. ``g``'s locals are unbound when it starts (a read before assignment is CPython's
UnboundLocalError, with the source name). This is the technique of inlining a generator into
its consuming loop (as compilers do for iterator fusion); no generator object is made, so it
applies only where the generator object is never seen: a ``for`` statement or a
comprehension's first loop over the call itself.

Library iterators written as generators in ``models.library`` (``itertools.accumulate``:
``_MODEL_GENERATORS``) are inlined the same way, each node of the model's definition placed at
the user's call (an error or cut inside is reported there), ``iter()`` of the iterable made at
the call as CPython makes it, and the model's decisions hidden from the user's branch coverage.
Arguments the model is not written for (``initial=``, a ``func`` that could raise
``StopIteration``) leave the call to CPython on pinned values.

What is not inlined keeps today's model (a call of a generator function outside ``list()``,
``tuple()``, ``sorted()``, ``yield from`` is refused when it runs): a generator method, a nested
or decorated generator function, a recursive one, or a ``g`` whose code this lowering cannot
run in place: a ``yield`` or ``return`` inside a ``try`` or ``with`` (a ``finally`` that runs
when the generator is closed), nested functions, lambdas or classes, ``global``/``nonlocal``,
imports, a bare ``raise``, ``*args``/``**kwargs``, defaults that are not literals, and calls
with starred arguments or that do not bind (CPython's TypeError is not modelled here).
"""

from __future__ import annotations

import ast
import copy
import dataclasses
import functools
import itertools
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from pathloom.domain.values import BuiltinVal
from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import Builder, LoopTargets, node_loc
from pathloom.frontend.lowering.scope import assigned_names, is_generator, param_names, scope_walk

# the lowering state that belongs to one scope: swapped when g's statements or the consumer's run
_SCOPE_FIELDS = (
    "handler",
    "caught",
    "loops",
    "cleanups",
    "reraisable",
    "locals",
    "renames",
    "comprehension_scopes",
    "own_name",
    "cellvars",
    "cell_captures",
    "own_nonlocals",
    "own_globals",
    "shared",
    "generator",
    "cls",
    "first_param",
    "captures",
    "inline_frames",
)
_MISSING = object()
_ISLICE_STOP = "Stop argument for islice() must be None or an integer: 0 <= x <= sys.maxsize."


@dataclass
class _Frame:
    """One inlined generator being lowered: the consumer's scope state at the loop, and what
    the consumer does with each item."""

    consumer: dict[str, object]
    take_item: Callable[[Operand], None]
    body: Callable[[], None]
    exit: ir.Block
    finished: ir.Block  # where the generator's end joins the loop's else
    name: str  # the generator function inlined
    gate: Callable[[ir.Block, ir.Block], None] | None  # before each resumption: go on, or finish (islice's stop)
    hidden: bool = False  # a library model's: its decisions are not the user's branches (coverage)


INLINE = "inline"  # the iteration kind of a loop over an inlined generator call


@dataclass(frozen=True)
class _Plan:
    """A call ``g(...)`` that can be inlined: the function and its bound arguments."""

    name: str
    node: ast.FunctionDef
    binding: tuple[tuple[str, ast.expr | None, object], ...]  # (param, argument or None, default)
    order: tuple[int, ...]  # the indices into ``binding`` in the order CPython evaluates the arguments
    model: bool = False  # a generator of ``models.library`` standing for a library iterator
    eager_iter: int | None = None  # the binding whose argument ``iter()`` is called on at the call (the model's)


@dataclass(frozen=True)
class InlineCall:
    """An inlined generator call whose arguments are evaluated: what its loop iterates over."""

    plan: _Plan
    values: dict[int, Operand]
    stop: tuple[Var, Var] | None = None  # ``islice(g(...), stop)``: (a stop is given, the stop), checked


def _literal_default(node: ast.expr) -> object:
    from pathloom.frontend.module import _NOT_LITERAL, _literal

    value = _literal(node)
    return _MISSING if value is _NOT_LITERAL else value


def _why_not_inlinable(node: ast.FunctionDef) -> str | None:
    """Why ``g``'s statements cannot run in place of its generator object, or None."""
    args = node.args
    if args.vararg is not None or args.kwarg is not None:
        return "*args or **kwargs"
    for default in [*args.defaults, *(d for d in args.kw_defaults if d is not None)]:
        if _literal_default(default) is _MISSING:
            return "a default that is not a literal"
    for sub in scope_walk(node.body):
        if isinstance(sub, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            return "a nested function or class"
        if isinstance(sub, (ast.Global, ast.Nonlocal, ast.Import, ast.ImportFrom, ast.Await)):
            return f"a {type(sub).__name__.lower()} statement"
        if isinstance(sub, ast.Raise) and sub.exc is None:
            return "a bare raise"
        if isinstance(sub, (ast.Try, ast.TryStar, ast.With)):
            inside = [n for part in _region(sub) for n in scope_walk(part)]
            if any(isinstance(n, (ast.Yield, ast.YieldFrom, ast.Return)) for n in inside):
                return "a yield or return inside try or with"
    return None


def _region(node: ast.Try | ast.TryStar | ast.With) -> list[list[ast.stmt]]:
    if isinstance(node, ast.With):
        return [node.body]
    return [node.body, *(h.body for h in node.handlers), node.orelse, node.finalbody]


# library iterators written as generators in ``models.library``, inlined like the user's own:
# the real function -> (the model's name, the parameter made ``iter()`` of at the call)
_MODEL_GENERATORS: dict[object, tuple[str, str]] = {itertools.accumulate: ("accumulate", "iterator")}
_ACCUMULATE_FUNCS = ("max", "min")  # builtins that never raise StopIteration (see ``models.library.accumulate``)


@functools.cache
def _model_defs() -> dict[str, ast.FunctionDef]:
    from pathloom.models import library

    source = Path(str(library.__file__)).read_text(encoding="utf-8")
    return {node.name: node for node in ast.parse(source).body if isinstance(node, ast.FunctionDef)}


def _placed(fdef: ast.FunctionDef, call: ast.Call) -> ast.FunctionDef:
    """A copy of a model's definition with every node at ``call``'s position: what happens in
    the model (an error, a cut) is reported at the user's call."""
    placed = copy.deepcopy(fdef)
    for sub in ast.walk(placed):
        if isinstance(sub, (ast.stmt, ast.expr, ast.arg, ast.excepthandler, ast.keyword)):
            sub.lineno, sub.col_offset = call.lineno, call.col_offset
            sub.end_lineno, sub.end_col_offset = call.end_lineno, call.end_col_offset
    return placed


class InlinedGenerators(Builder):
    """Loops over a call of a generator function, lowered with the generator inlined."""

    def _model_plan(self, node: ast.Call) -> _Plan | None:
        """The plan when ``node`` calls a library iterator modelled as a generator
        (``_MODEL_GENERATORS``) with arguments the model is exact for, else None."""
        for real, (name, eager) in _MODEL_GENERATORS.items():
            if not self._names_real(node.func, real):
                continue
            plan = _bind(node, _placed(_model_defs()[name], node), f"%model.{name}")
            if plan is None:
                return None
            params = [param for param, _, _ in plan.binding]
            func = plan.binding[params.index("func")][1] if "func" in params else None
            plain = func is None or (isinstance(func, ast.Constant) and func.value is None)
            if not (plain or (isinstance(func, ast.Name) and func.id in _ACCUMULATE_FUNCS and self._is_builtin(func.id))):
                return None
            return dataclasses.replace(plan, model=True, eager_iter=params.index(eager))
        return None

    def _model_plan_of(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Call) and self._model_plan(node) is not None

    def _inline_plan(self, node: ast.expr) -> _Plan | None:
        """The plan when ``node`` is a call of a top-level generator function of this module
        that can run in place (see the module docstring), or of a library iterator modelled
        as one, else None."""
        if isinstance(node, ast.Call):
            modelled = self._model_plan(node)
            if modelled is not None:
                return modelled
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)):
            return None
        name, module = node.func.id, self.module
        if (
            module.namespace
            or name in self.renames
            or name in self.locals
            or name in self.cell_captures
            or name == self.own_name
            or name in module.global_decls
            or name in module.classes
            or any(frame.name == name for frame in self.inline_frames)  # recursion: not inlined
        ):
            return None
        fdef = module.function_defs.get(name)
        if not isinstance(fdef, ast.FunctionDef) or fdef.decorator_list or not is_generator(fdef.body):
            return None
        if module.runtime is not None and not (module.has_runtime(name) and module.modeled_name(module.runtime_value(name)) == ("function", name)):
            return None
        if _why_not_inlinable(fdef) is not None:
            return None
        return _bind(node, fdef, name)

    def _inline_iterable(self, node: ast.expr) -> tuple[Operand, Operand | None, str] | None:
        """When ``node`` is a generator call that can be inlined: its arguments evaluated now (in
        the scope the loop's iterable is evaluated in, in CPython's order), and the marker
        ``(Const(InlineCall), None, INLINE)`` that ``_inline_loop`` takes; else None."""
        plan = self._inline_plan(node)
        sliced = self._islice_of(node) if plan is None else None
        if sliced is not None:  # CPython evaluates islice (a module name: no effect), g(...), then the stop
            node, plan = sliced[1], self._inline_plan(sliced[1])
        if plan is None:
            return None
        values: dict[int, Operand] = {}
        for index in plan.order:
            argument = plan.binding[index][1]
            assert argument is not None
            values[index] = self.expr(argument)
        if plan.eager_iter is not None:  # the library iterator calls iter() on its argument when made
            made = self.temp()
            self.emit(ir.GetIter(made, values[plan.eager_iter], node_loc(node)))
            values[plan.eager_iter] = Var(made)
        stop = self._islice_stop(sliced[0]) if sliced is not None else None
        return Const(InlineCall(plan, values, stop)), None, INLINE

    def _islice_of(self, node: ast.expr) -> tuple[ast.Call, ast.Call] | None:
        """``(node, g(...))`` when ``node`` is ``itertools.islice(g(...), stop)`` (the real
        ``islice``, through the module's imports) of a generator call that can be inlined."""
        if not (
            isinstance(node, ast.Call)
            and len(node.args) == 2
            and not node.keywords
            and not any(isinstance(a, ast.Starred) for a in node.args)
            and isinstance(node.args[0], ast.Call)
            and self._names_real(node.func, itertools.islice)
            and all(self._is_builtin(name) for name in ("TypeError", "ValueError", "OverflowError"))
            and self._inline_plan(node.args[0]) is not None
        ):
            return None
        return node, node.args[0]

    def _islice_stop(self, node: ast.Call) -> tuple[Var, Var]:
        """``islice``'s stop (``node.args[1]``) evaluated and checked as CPython's ``islice()``
        checks it: None (no stop), else ``PyNumber_AsSsize_t`` of it (``%as_length``: an int
        or bool from 0 to ``sys.maxsize``; an object, whose ``__index__`` is not followed here,
        is unsupported when it runs), any error of which is CPython's ValueError."""
        loc = node_loc(node)
        value = self.expr(node.args[1])
        limited, stop = Var(self.temp()), Var(self.temp())
        self.emit(ir.Assign(stop.name, value, loc))
        self.emit(ir.Assign(limited.name, Const(False), loc))
        given, done = self.new_block(), self.new_block()
        self._branch_compare(ir.Compare(self.temp(), "is not", stop, Const(None), loc), given, done)
        self.start(given)
        outer = self.handler
        self.handler = self._islice_error(loc).label
        checking = self.new_block()  # under the converting handler
        self.goto(checking, loc)
        self.start(checking)
        self.emit(ir.Call(stop.name, Const(BuiltinVal("%as_length")), (stop,), (), loc))
        self.emit(ir.Assign(limited.name, Const(True), loc))
        self.handler = outer
        self.goto(done, loc)
        self.start(done)
        return limited, stop

    def _islice_error(self, loc: Loc) -> ir.Block:
        """The handler of islice's check of its stop: a TypeError, ValueError or OverflowError
        becomes CPython's ValueError (the message about the stop); another goes on."""
        here = self.current
        converter = self.new_block()
        self.start(converter)
        exc, flag = self.temp(), self.temp()
        self.emit(ir.CurrentException(exc, loc))
        self.emit(ir.ExcMatch(flag, Var(exc), (Global("TypeError"), Global("ValueError"), Global("OverflowError")), loc))
        convert, other = self.new_block(), self.new_block()
        self.terminate(ir.Branch(Var(flag), convert.label, other.label, loc, hidden=True))
        self.start(convert)
        error = self.temp()
        self.emit(ir.Call(error, Global("ValueError"), (Const(_ISLICE_STOP),), (), loc))
        self.terminate(ir.Raise(Var(error), "implicit", loc))
        self.start(other)
        self.terminate(ir.Raise(None, "explicit", loc))
        self.start(here)
        return converter

    def _branch_compare(self, compare: ir.Compare, then: ir.Block, orelse: ir.Block) -> None:
        self.emit(compare)
        self.terminate(ir.Branch(Var(compare.dst), then.label, orelse.label, compare.loc))

    def _inline_loop(self, call: InlineCall, loc: Loc, take_item: Callable[[Operand], None], body: Callable[[], None], orelse: Callable[[], None]) -> None:
        """The loop over an inlined generator call (``_inline_iterable``): the generator's
        statements in place, ``take_item`` and ``body`` at each ``yield``, ``orelse`` at its end."""
        plan, values = call.plan, call.values
        fdef = plan.node
        self.temps += 1
        suffix = self.temps
        own = param_names(fdef.args) | assigned_names(fdef.body)
        renames = {name: f"{name}.{suffix}" for name in sorted(own)}
        consumer = self._scope_state()
        exit_, finished = self.new_block(), self.new_block()
        converter = self._stop_iteration_converter(loc)
        gate = None
        if call.stop is not None:  # islice: the count of items taken, checked before each one is made
            take_item, gate = self._counting(call.stop, take_item, loc)
            begin = self.new_block()
            gate(begin, finished)  # islice(g(), 0) never starts g
            self.start(begin)
        frame = _Frame(consumer, take_item, body, exit_, finished, plan.name, gate, hidden=plan.model)
        self._set_scope_state(
            {
                "handler": converter.label,
                "caught": [],
                "loops": [],
                "cleanups": [],
                "reraisable": [],
                "locals": set(own),
                "renames": renames,
                "comprehension_scopes": [],
                "own_name": None,
                "cellvars": frozenset(),
                "cell_captures": frozenset(),
                "own_nonlocals": frozenset(),
                "own_globals": {},
                "shared": frozenset(),
                "generator": False,
                "cls": None,
                "first_param": None,
                "captures": (),
                "inline_frames": [*self.inline_frames, frame],
            }
        )
        start = self.new_block()
        self.goto(start, loc)
        self.start(start)
        for name in sorted(own - param_names(fdef.args)):  # a fresh run: g's other locals are unbound
            self.emit(ir.Unbind(renames[name], loc))
        for index, (param, _, default) in enumerate(plan.binding):
            self.emit(ir.Assign(renames[param], values[index] if index in values else Const(default), loc))
        self.body(fdef.body)
        self.goto(finished, loc)
        self._set_scope_state(consumer)
        self.start(finished)
        orelse()
        self.goto(exit_, loc)
        self.start(exit_)

    def _inline_return(self, node: ast.Return) -> bool:
        """``return`` in an inlined generator's statements: the generator is exhausted (the value,
        evaluated, ends in StopIteration, which a loop drops)."""
        frames = self.inline_frames
        if not frames or self.generator:
            return False
        if node.value is not None:
            self.expr(node.value)
        self.goto(frames[-1].finished, node_loc(node))
        self.dead_block()
        return True

    def _inline_yield(self, value: Operand, loc: Loc) -> bool:
        """``yield value`` in an inlined generator's statements: the consumer takes the item and
        runs its body, then the generator resumes. False when not inlining."""
        frames = self.inline_frames
        if not frames or self.generator:
            return False
        frame = frames[-1]
        if isinstance(value, Var):  # read here, in g (an unbound local is g's error, at the yield)
            held = self.temp()
            self.emit(ir.Assign(held, value, loc))
            value = Var(held)
        resume = self.new_block()  # in g's scope: g's handler
        own = self._scope_state()
        self._set_scope_state(frame.consumer)
        self.loops = [*self.loops, LoopTargets(resume.label, frame.exit.label, forward=True)]
        self.cleanups = list(self.cleanups)
        self.caught = list(self.caught)
        self.reraisable = list(self.reraisable)
        body = self.new_block()
        self.goto(body, loc)
        self.start(body)
        frame.take_item(value)
        if frame.gate is not None:  # the body's end and its continue go through the gate
            gate = self.new_block()
            self.loops[-1] = LoopTargets(gate.label, frame.exit.label, forward=True)
            frame.body()
            self.goto(gate, loc)
            self.start(gate)
            frame.gate(resume, frame.finished)
        else:
            frame.body()
            self.goto(resume, loc)
        self._set_scope_state(own)
        self.start(resume)
        return True

    def _inline_yield_from(self, node: ast.YieldFrom) -> bool:
        """``yield from it`` in an inlined generator's statements: ``for v in it: yield v``
        (``it`` itself inlined when it is a generator call that can be). False when not inlining."""
        if not self.inline_frames or self.generator:
            return False
        loc = node_loc(node)
        iterable = self._inline_iterable(node.value)
        if iterable is not None:
            self._inline_loop(_marked(iterable), loc, lambda item: None if self._inline_yield(item, loc) else None, lambda: None, lambda: None)
            return True
        it, item, _ = self._start_iteration((self.expr(node.value), None, ""), loc)
        decide = lambda body, done: self.terminate(ir.ForIter(it, item, body.label, done.label, loc))  # noqa: E731
        self._loop_blocks(loc, decide, lambda: self._inline_yield(Var(item), loc), lambda: None)
        return True

    def _stop_iteration_converter(self, loc: Loc) -> ir.Block:
        """The handler of g's blocks: a StopIteration becomes CPython's RuntimeError at the
        consumer's line; any other exception goes on to the consumer's handler."""
        here = self.current
        converter = self.new_block()
        self.start(converter)
        exc, flag = self.temp(), self.temp()
        self.emit(ir.CurrentException(exc, loc))
        self.emit(ir.ExcMatch(flag, Var(exc), (Global("StopIteration"),), loc))
        convert, other = self.new_block(), self.new_block()
        self.terminate(ir.Branch(Var(flag), convert.label, other.label, loc, hidden=True))
        self.start(convert)
        error = self.temp()
        self.emit(ir.Call(error, Global("RuntimeError"), (Const("generator raised StopIteration"),), (), loc))
        self.terminate(ir.Raise(Var(error), "implicit", loc))
        self.start(other)
        self.terminate(ir.Raise(None, "explicit", loc))
        self.start(here)
        return converter

    def _counting(
        self, stop: tuple[Var, Var], take_item: Callable[[Operand], None], loc: Loc
    ) -> tuple[Callable[[Operand], None], Callable[[ir.Block, ir.Block], None]]:
        """islice's count: ``take_item`` counting each item as it is taken, and the gate that
        finishes, instead of making another item, once the count reaches the stop."""
        limited, limit = stop
        count = self.temp()
        self.emit(ir.Assign(count, Const(0), loc))

        def counted(item: Operand) -> None:
            self.emit(ir.BinOp(count, "+", Var(count), Const(1), loc))
            take_item(item)

        def gate(go_on: ir.Block, finish: ir.Block) -> None:
            check = self.new_block()
            self._branch_on(limited, check, go_on, loc)
            self.start(check)
            self._branch_compare(ir.Compare(self.temp(), ">=", Var(count), limit, loc), finish, go_on)

        return counted, gate

    def _scope_state(self) -> dict[str, object]:
        return {name: getattr(self, name, None) for name in _SCOPE_FIELDS}

    def _set_scope_state(self, state: dict[str, object]) -> None:
        for name, value in state.items():
            setattr(self, name, value)


def _marked(iterable: tuple[Operand, Operand | None, str]) -> InlineCall:
    source = iterable[0]
    assert iterable[2] == INLINE and isinstance(source, Const) and isinstance(source.value, InlineCall)
    return source.value


def inline_call(iterable: tuple[Operand, Operand | None, str]) -> InlineCall | None:
    """The inlined generator call a loop's evaluated iterable stands for, or None."""
    return _marked(iterable) if iterable[2] == INLINE else None


def _bind(call: ast.Call, fdef: ast.FunctionDef, name: str) -> _Plan | None:
    """``call``'s arguments bound to ``fdef``'s parameters as CPython binds them, or None when
    they do not bind (a TypeError, not modelled here) or use ``*``/``**``."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(k.arg is None for k in call.keywords):
        return None
    args = fdef.args
    positional = [*args.posonlyargs, *args.args]
    if len(call.args) > len(positional):
        return None
    given: dict[str, int] = {}  # param -> index of its argument among the call's arguments
    arguments: list[ast.expr] = [*call.args, *(k.value for k in call.keywords)]
    for k, param in enumerate(positional[: len(call.args)]):
        given[param.arg] = k
    by_keyword = {a.arg for a in [*args.args, *args.kwonlyargs]}
    for k, keyword in enumerate(call.keywords):
        if keyword.arg not in by_keyword or keyword.arg in given:
            return None
        given[keyword.arg] = len(call.args) + k
    defaults: dict[str, object] = {}
    for param, default in zip(positional[len(positional) - len(args.defaults) :], args.defaults):
        defaults[param.arg] = _literal_default(default)
    for param, kw_default in zip(args.kwonlyargs, args.kw_defaults):
        if kw_default is not None:
            defaults[param.arg] = _literal_default(kw_default)
    binding: list[tuple[str, ast.expr | None, object]] = []
    source_index: dict[int, int] = {}
    for param in [*positional, *args.kwonlyargs]:
        if param.arg in given:
            source_index[given[param.arg]] = len(binding)
            binding.append((param.arg, arguments[given[param.arg]], None))
        elif param.arg in defaults:
            binding.append((param.arg, None, defaults[param.arg]))
        else:
            return None
    order = tuple(source_index[k] for k in sorted(source_index))
    return _Plan(name, fdef, tuple(binding), order)
