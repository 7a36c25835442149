"""Statements: assignments, ``del``, ``if``, loops, ``break``/``continue``/``return`` (through the
cleanups of the regions they leave), ``raise``, ``assert``, ``try``/``except``, and conditions.

Job: the ``stmt_*`` methods (``stmt`` dispatches on the node's type) and ``branch``, which lowers
a test straight to control flow. Invariants: short-circuit operators and ``not`` in a condition
become explicit control flow, and every ``Branch`` tests a bool made by ``Truth`` or ``Compare``;
a statement outside the supported subset raises ``Unsupported`` with the node's location (the
messages of ``_UNSUPPORTED_STMT``); a binding goes to the local, the ``nonlocal`` cell or the
module's ``global`` cell (``_bind``); loop items of ``enumerate``/``reversed``/``zip`` stay the
iterated lists' own items (``_iterable``).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Callable

from pathloom.errors import Unsupported
from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import YIELDED, Builder, Cleanup, node_loc
from pathloom.frontend.lowering.generators import inline_call

_UNSUPPORTED_STMT = {
    ast.AsyncWith: "async with",
    ast.AsyncFor: "async for",
    ast.ClassDef: "nested class",
    ast.AsyncFunctionDef: "async function",
    ast.TryStar: "try/except*",
}


@dataclass(frozen=True)
class _Saved:
    """The lowering state before a statement (``Statements._saved``)."""

    blocks: int  # how many blocks there were
    current: ir.Block
    instrs: int  # how many instructions the current block had
    terminator: ir.Terminator | None
    handler: int | None
    loop_headers: tuple[int, ...]
    renames: dict[str, str]
    stacks: tuple[list[object], ...]  # the lists of ``Statements._STACKS``, copied


class Statements(Builder):
    """The ``stmt_*`` methods and conditions (``branch``)."""

    def body(self, stmts: list[ast.stmt]) -> None:
        for stmt in stmts:
            self.stmt(stmt)

    def stmt(self, node: ast.stmt) -> None:
        """Lower one statement; one outside the supported subset becomes ``ir.Unmodelled`` (the
        path that reaches it is cut there; the rest of the function is lowered as usual), with
        the lowering state as it was before the statement (``_saved``/``_restore``)."""
        saved = self._saved()
        try:
            method = getattr(self, f"stmt_{type(node).__name__}", None)
            if method is None:
                what = _UNSUPPORTED_STMT.get(type(node), f"{type(node).__name__} statement")
                raise self.unsupported(node, what)
            method(node)
        except Unsupported as exc:
            if exc.filename != self.module.filename:  # about another file (a linked module's class): refused as before
                raise
            self._restore(saved)
            self.emit(ir.Unmodelled(exc.what, Loc(exc.line, exc.col)))
            self.terminate(ir.Return(Const(None), Loc(exc.line, exc.col)))  # never reached: the path is cut
            self.dead_block()

    _STACKS = ("caught", "loops", "cleanups", "reraisable", "comprehension_scopes", "inline_frames", "element_handlers")

    def _saved(self) -> _Saved:
        """What lowering a statement may change and ``_restore`` puts back when it fails."""
        current = self.current
        stacks = tuple(list(getattr(self, name)) for name in self._STACKS)
        return _Saved(len(self.blocks), current, len(current.instrs), current.terminator, self.handler, self.loop_headers, dict(self.renames), stacks)

    def _restore(self, saved: _Saved) -> None:
        for label in [label for label in self.blocks if label >= saved.blocks]:
            del self.blocks[label]
        del saved.current.instrs[saved.instrs :]
        saved.current.terminator = saved.terminator
        self.current, self.handler, self.loop_headers, self.renames = saved.current, saved.handler, saved.loop_headers, saved.renames
        for name, stack in zip(self._STACKS, saved.stacks):
            setattr(self, name, stack)

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
        if (
            len(node.targets) == 1
            and isinstance(node.targets[0], ast.Subscript)
            and isinstance(node.targets[0].slice, ast.Slice)
            and isinstance(source, ast.Call)
            and isinstance(source.func, ast.Name)
            and source.func.id == "reversed"
            and self._is_builtin("reversed")
            and self._is_builtin("list")
        ):
            # xs[a:b] = reversed(ys): a slice assignment takes list(value) (PySequence_Fast), and
            # a reverse iterator of a sequence raises nothing while it is listed
            source = ast.copy_location(ast.Call(ast.Name("list", ast.Load()), [source], []), source)
        if isinstance(source, ast.GeneratorExp) and len(node.targets) == 1 and isinstance(node.targets[0], (ast.Tuple, ast.List)):
            value = self._generator_to_unpack(source, node.targets[0])  # a, b = (... for ...): the items it pulls
        else:
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
        if isinstance(node.iter, ast.GeneratorExp):  # lazy: its items made one at a time, between the body's runs
            self._for_over_generator_expression(node)
            return
        iterable = self._iterable(node.iter)
        call = inline_call(iterable)
        if call is not None:  # a loop over a call of a generator function: inlined (``generators``)
            self._inline_loop(call, loc, lambda item: self.assign(node.target, item), lambda: self.body(node.body), lambda: self.body(node.orelse))
            return
        it, item, counter = self._start_iteration(iterable, loc)
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
        inlined = self._inline_iterable(node)
        if inlined is not None:
            return inlined
        plain_args = isinstance(node, ast.Call) and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args)
        if (
            plain_args
            and isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "reversed"
            and self._is_builtin("reversed")
            and len(node.args) == 1
        ):
            return self.expr(node.args[0]), None, "reversed"
        lax_zip = (
            isinstance(node, ast.Call)
            and all(k.arg == "strict" and isinstance(k.value, ast.Constant) and k.value.value is False for k in node.keywords)
            and not any(isinstance(a, ast.Starred) for a in node.args)
        )
        if lax_zip and isinstance(node.func, ast.Name) and node.func.id == "zip" and self._is_builtin("zip") and node.args:  # type: ignore[attr-defined]
            # strict=False is zip's default: stop at the first exhausted iterator
            parts = tuple(self.expr(a) for a in node.args)  # type: ignore[attr-defined]
            both = self.temp()
            self.emit(ir.BuildTuple(both, parts, node_loc(node)))
            return Var(both), None, "zip"
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == "enumerate"
            and self._is_builtin("enumerate")
            and len(node.args) in (1, 2)
            and not isinstance(node.args[0], ast.Starred)
        ):
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

    def _leave_loop(self, loc: Loc) -> None:
        """The cleanups of the ``finally`` and ``with`` regions inside the innermost loop."""
        self._unwind(sum(1 for c in self.cleanups if c.loop_depth < len(self.loops)), loc)

    def stmt_Break(self, node: ast.Break) -> None:
        self._leave_loop(node_loc(node))
        self.goto(self.blocks[self.loops[-1].exit], node_loc(node))
        self.dead_block()

    def stmt_Continue(self, node: ast.Continue) -> None:
        self._leave_loop(node_loc(node))
        self.goto(self.blocks[self.loops[-1].header], node_loc(node), back_edge=not self.loops[-1].forward)
        self.dead_block()

    def stmt_Return(self, node: ast.Return) -> None:
        loc = node_loc(node)
        if self._inline_return(node):
            return
        value = self.expr(node.value) if node.value is not None else Const(None)
        if self.cleanups and not self.generator:  # held: a finally body may rebind the name returned
            held = self.temp()
            self.emit(ir.Assign(held, value, loc))
            value = Var(held)
        self._unwind(0, loc)
        # a generator's return value ends up in StopIteration, which list() drops: its items are the result
        self.terminate(ir.Return(Var(YIELDED) if self.generator else value, loc))
        self.dead_block()

    def stmt_Raise(self, node: ast.Raise) -> None:
        loc = node_loc(node)
        cause = node.cause
        if (
            cause is not None
            and not (isinstance(cause, ast.Constant) and cause.value is None)
            and not (isinstance(cause, ast.Name) and cause.id in self.caught)
        ):
            # the cause only sets __cause__, which no outcome shows; any other cause may be a
            # TypeError ("exception causes must derive from BaseException")
            raise self.unsupported(node, "raise ... from a cause other than None or the exception an except clause caught")
        if node.exc is None:
            if not self.reraisable:
                # CPython re-raises the exception being handled when the raise runs, perhaps by
                # a caller: not known here (a handled exception would be re-raised instead)
                raise self.unsupported(node, "bare raise outside an except clause")
            if not self.reraisable[-1]:
                raise self.unsupported(node, "bare raise after a try or with statement inside its except clause")
            self.terminate(ir.Raise(None, "explicit", loc))
        else:
            exc = self.expr(node.exc)
            # a library model's raise is the library's error, as when CPython runs it (implicit)
            self.terminate(ir.Raise(exc, "implicit" if self.module.library_model else "explicit", loc))
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
            self._try_finally(node)
        else:
            self._try_except(node)

    def _try_except(self, node: ast.Try) -> None:
        """``try``/``except``/``else`` (its ``finally`` body, if any, is ``_try_finally``'s)."""
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
        rebound = any(isinstance(n, ast.Name) and n.id == node.name and not isinstance(n.ctx, ast.Load) for statement in node.body for n in ast.walk(statement))
        caught = [node.name] if node.name and not rebound else []
        self.caught += caught
        self.reraisable.append(not any(isinstance(n, (ast.Try, ast.TryStar, ast.With)) for s in node.body for n in ast.walk(s)))
        name = node.name
        if name:  # CPython unbinds the name on every way out of the clause: break and continue too
            self.cleanups.append(Cleanup(lambda: self.emit(ir.Unbind(name, loc)), len(self.loops), self.loop_headers, self.handler, tuple(self.caught)))
        self.body(node.body)
        if name:
            self.cleanups.pop()
        self.reraisable.pop()
        del self.caught[len(self.caught) - len(caught) :]
        if name:
            self.emit(ir.Unbind(name, loc))
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
