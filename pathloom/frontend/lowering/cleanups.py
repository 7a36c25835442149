"""Regions with a cleanup: ``try``/``finally``.

Job: ``_try_finally`` and ``_unwind``. A ``finally`` body is lowered once per way out of its
region, so every engine runs it with no engine code of its own: once after the region's normal
end, once in the region's exception handler (then the exception is raised again, unless the
body returned, broke out or raised first), and once more on the way out of every ``return``,
``break`` or ``continue`` that leaves the region (``Builder.cleanups``, unwound innermost first,
each copy lowered in the state of the statement that opened its region: loops, handler, loop
headers). A ``return`` value is held in a temporary before the cleanups run, and a ``return`` or
``break`` inside a ``finally`` body ends that copy's path, so it overrides the pending exit as in
CPython.

Invariants: the re-raise of the handler copy is ``raise`` without a value, which keeps the
exception's line and kind (``semantics.control.raise_origin``); so the body of a ``finally``
may not change which exception is being handled (a ``try`` or ``with`` inside it, a bare
``raise``: unsupported), nor read a name an ``except ... as`` clause of its region binds
(CPython unbinds it on every way out of the clause).
"""

from __future__ import annotations

import ast

from pathloom.frontend import ir
from pathloom.frontend.lowering.builder import Builder, Cleanup, node_loc


class Cleanups(Builder):
    """``try``/``finally`` and the unwinding of cleanups on ``return``/``break``/``continue``."""

    def _unwind(self, keep: int, loc: ir.Loc) -> None:
        saved = (self.cleanups, self.loops, self.loop_headers, self.handler, self.caught)
        for k in range(len(saved[0]) - 1, keep - 1, -1):
            cleanup = saved[0][k]
            self.cleanups, self.loops = saved[0][:k], saved[1][: cleanup.loop_depth]
            self.loop_headers, self.handler, self.caught = cleanup.loop_headers, cleanup.handler, list(cleanup.caught)
            step = self.new_block()  # in the opening statement's handler region
            self.goto(step, loc)
            self.start(step)
            cleanup.run()
        self.cleanups, self.loops, self.loop_headers, self.handler, self.caught = saved

    def _try_finally(self, node: ast.Try) -> None:
        self._check_finally_body(node)
        loc = node_loc(node)
        outer = self.handler
        cleanup = Cleanup(lambda: self.body(node.finalbody), len(self.loops), self.loop_headers, outer, tuple(self.caught))
        on_exception = self.new_block()  # in the outer handler's region
        self.handler = on_exception.label
        region = self.new_block()
        self.goto(region, loc)
        self.start(region)
        self.cleanups.append(cleanup)
        if node.handlers:
            self._try_except(node)
        else:
            self.body(node.body)
        self.cleanups.pop()
        self.handler = outer
        normal = self.new_block()
        self.goto(normal, loc)
        self.start(normal)
        self.body(node.finalbody)
        after = self.current
        self.start(on_exception)
        self.emit(ir.CurrentException(self.temp(), loc))
        self.body(node.finalbody)
        self.terminate(ir.Raise(None, "explicit", loc))
        self.start(after)

    def _check_finally_body(self, node: ast.Try) -> None:
        bound = {h.name for stmt in [*node.body, *node.handlers, *node.orelse] for h in ast.walk(stmt) if isinstance(h, ast.ExceptHandler) and h.name}
        for stmt in node.finalbody:
            for sub in ast.walk(stmt):
                if isinstance(sub, (ast.Try, ast.TryStar, ast.With)):
                    raise self.unsupported(sub, f"{'a try' if isinstance(sub, (ast.Try, ast.TryStar)) else 'a with'} statement inside a finally body")
                if isinstance(sub, ast.Raise) and sub.exc is None:
                    raise self.unsupported(sub, "bare raise inside a finally body")
                if isinstance(sub, ast.Name) and sub.id in bound:
                    raise self.unsupported(sub, f"finally body using {sub.id!r}, which an except clause of its try binds")
