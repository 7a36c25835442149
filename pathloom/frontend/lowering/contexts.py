"""``with`` statements: context managers of the analysed code's own classes, and
``contextlib.suppress``.

Job: ``stmt_With``. ``with a as x, b as y: body`` is ``with a as x: with b as y: body``. For a
manager ``C(...)`` of a class the module defines (``__enter__`` and ``__exit__`` plain methods of
it or of its bases in the module), as PEP 343 expands it: the manager is evaluated and held,
``__enter__()`` called, and the ``as`` target bound inside the region; ``__exit__(None, None,
None)`` runs on the normal end and on every ``return``/``break``/``continue`` leaving the region
(a ``Builder.cleanups`` entry, as a ``finally`` body); an exception in the region calls
``__exit__(type(e), e, None)`` and is raised again (keeping its line) unless the result is
true. The traceback is passed as None, which is exact only when ``__exit__`` never reads it:
one that does is unsupported. ``contextlib.suppress(E, ...)`` of exception classes named in the
source is an ``except`` that matches those classes and does nothing; its ``as`` target is None.

Every other context manager (files, locks, a manager held in a variable, ``contextlib``'s
other helpers) is unsupported: which ``__enter__``/``__exit__`` would run is not known here.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
from typing import Callable

from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import Builder, Cleanup, node_loc

_PROTOCOL = ("__enter__", "__exit__")


class Contexts(Builder):
    """``with`` over the code's own context managers and ``contextlib.suppress``."""

    def stmt_With(self, node: ast.With) -> None:
        self._with_items(node.items, node.body, node_loc(node))

    def _with_items(self, items: list[ast.withitem], body: list[ast.stmt], loc: Loc) -> None:
        if not items:
            self.body(body)
            return
        item = items[0]
        manager = item.context_expr
        if isinstance(manager, ast.Call) and self._names_real(manager.func, contextlib.suppress):
            self._suppress(item, manager, items[1:], body, loc)
            return
        self._check_manager(manager)
        value = self.expr(manager)
        held = self.temp()
        self.emit(ir.Assign(held, value, loc))
        entered = self.temp()
        self.emit(ir.CallMethod(entered, Var(held), "__enter__", (), (), loc))

        def exit_clean() -> None:
            self.emit(ir.CallMethod(self.temp(), Var(held), "__exit__", (Const(None),) * 3, (), loc))

        def exit_raised(exc: Var) -> Var:
            kind, result = self.temp(), self.temp()
            self.emit(ir.Call(kind, Global("type"), (exc,), (), loc))
            self.emit(ir.CallMethod(result, Var(held), "__exit__", (Var(kind), exc, Const(None)), (), loc))
            return Var(result)

        self._region(item, Var(entered), items[1:], body, loc, exit_clean, exit_raised)

    def _region(
        self,
        item: ast.withitem,
        entered: Operand,
        rest: list[ast.withitem],
        body: list[ast.stmt],
        loc: Loc,
        exit_clean: Callable[[], None],
        on_raise: Callable[[Var], Var],
    ) -> None:
        """The protected region of one item: the target bound to ``entered``, the other items and
        the body; ``exit_clean`` on the ways out but an exception, ``on_raise(exc)`` (a value
        whose truth suppresses the exception) on an exception."""
        outer = self.handler
        cleanup = Cleanup(exit_clean, len(self.loops), self.loop_headers, outer, tuple(self.caught))
        on_exception = self.new_block()  # in the outer handler's region
        self.handler = on_exception.label
        region = self.new_block()
        self.goto(region, loc)
        self.start(region)
        if item.optional_vars is not None:
            self.assign(item.optional_vars, entered)
        self.cleanups.append(cleanup)
        self._with_items(rest, body, loc)
        self.cleanups.pop()
        self.handler = outer
        normal = self.new_block()
        self.goto(normal, loc)
        self.start(normal)
        exit_clean()
        after = self.new_block()
        self.goto(after, loc)
        self.start(on_exception)
        exc = self.temp()
        self.emit(ir.CurrentException(exc, loc))
        suppressed = on_raise(Var(exc))
        reraise = self.new_block()
        self._branch_on(suppressed, after, reraise, loc)
        self.start(reraise)
        self.terminate(ir.Raise(None, "explicit", loc))
        self.start(after)

    def _suppress(self, item: ast.withitem, manager: ast.Call, rest: list[ast.withitem], body: list[ast.stmt], loc: Loc) -> None:
        """``with contextlib.suppress(E, ...)``: exceptions of those classes end the region."""
        for arg in [*manager.args, *(k.value for k in manager.keywords)]:
            if not (isinstance(arg, ast.Name) and self._exception_class(arg.id)) or manager.keywords:
                raise self.unsupported(arg, "contextlib.suppress of other than exception classes named in the source")
        classes = tuple(self.expr(arg) for arg in manager.args)

        def matched(exc: Var) -> Var:
            flag = self.temp()
            self.emit(ir.ExcMatch(flag, exc, classes, loc))
            return Var(flag)

        self._region(item, Const(None), rest, body, loc, lambda: None, matched)

    def _exception_class(self, name: str) -> bool:
        if name in self.module.classes:
            return self.module.classes[name].is_exception and name not in self.locals
        found = getattr(builtins, name, None)
        return self._is_builtin(name) and isinstance(found, type) and issubclass(found, BaseException)

    def _check_manager(self, manager: ast.expr) -> None:
        """``with C(...)`` of a class of the module whose protocol methods are plain methods of
        the class (no instance attribute anywhere shadows them), and whose ``__exit__`` never
        reads its traceback; else unsupported."""
        module = self.module
        name = manager.func.id if isinstance(manager, ast.Call) and isinstance(manager.func, ast.Name) else None
        if name is None or name not in module.classes or name in self.locals or not self._is_builtin("type"):
            raise self.unsupported(manager, "with statement over a context manager other than a class of the analysed code or contextlib.suppress")
        found: dict[str, str] = {}
        cls: str | None = name
        while cls in module.classes:
            info = module.classes[cls]
            for method in _PROTOCOL:
                if method in info.other or method in info.decorated:
                    raise self.unsupported(manager, f"context manager whose {method} is not a plain method")
                if method in info.methods:
                    found.setdefault(method, info.methods[method])
            cls = info.base
        if cls not in (None, "object") or len(found) < 2:
            raise self.unsupported(manager, f"context manager class {name!r} without its own __enter__ and __exit__")
        exit_ = module.function_defs[found["__exit__"]]
        params = exit_.args
        if params.vararg or params.kwarg or len(params.args) < 4:
            raise self.unsupported(exit_, "__exit__ without the parameters (self, type, value, traceback)")
        traceback = params.args[3].arg
        if any(isinstance(n, ast.Name) and n.id == traceback for stmt in exit_.body for n in ast.walk(stmt)):
            raise self.unsupported(exit_, "__exit__ that uses its traceback argument")
        for function in module.function_defs.values():
            for n in ast.walk(function):
                if isinstance(n, ast.Attribute) and n.attr in _PROTOCOL and not isinstance(n.ctx, ast.Load):
                    raise self.unsupported(n, f"assignment to an attribute {n.attr}")
