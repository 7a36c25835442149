"""The ``match`` statement, lowered to explicit tests.

Job: ``stmt_Match``. The subject is evaluated once; each ``case`` tests its pattern, binds the
pattern's names only once the whole pattern matched (CPython stores captures at the end), then
tests the guard; the first case that matches runs its body, and no match falls through.
Patterns, with CPython's tests: a literal is ``subject == literal`` (its truth), ``None``,
``True`` and ``False`` are ``subject is ...`` (for the bools, ``isinstance(subject, bool)``
and ``subject == True``: the only bools are those two objects), a dotted name is ``subject == value``, a capture
binds, ``_`` matches anything, ``p as name`` binds after ``p`` matched, ``p | q`` tries the
alternatives in order. A sequence pattern first requires ``isinstance(subject,
collections.abc.Sequence)`` and not a ``str``, ``bytes`` or ``bytearray``, then the length
(``len(subject) == n``, or ``>=`` the items around a star), then matches the items read by
index (``len(subject) - k`` after a star, as CPython computes it; a ``_`` item is not read);
with a named star the subject is unpacked as CPython does (``*rest`` a new list).

Mapping and class patterns are unsupported (one line each).
"""

from __future__ import annotations

import ast
import collections.abc

from pathloom.domain.values import PyObj
from pathloom.frontend import ir
from pathloom.frontend.ir import Const, Global, Loc, Operand, Var
from pathloom.frontend.lowering.builder import Builder, node_loc

_SEQUENCE = Const(PyObj(collections.abc.Sequence))
_BUILTINS = ("isinstance", "len", "str", "bytes", "bytearray")


class Matching(Builder):
    """``match`` statements: patterns as tests and jumps."""

    def stmt_Match(self, node: ast.Match) -> None:
        loc = node_loc(node)
        subject = self.temp()
        self.emit(ir.Assign(subject, self.expr(node.subject), loc))
        join = self.new_block()
        for case in node.cases:
            fail = self.new_block()
            captures: dict[str, Operand] = {}
            self._pattern(case.pattern, Var(subject), fail, captures)
            for name, value in captures.items():  # bound once the whole pattern matched, as CPython
                self.assign(ast.copy_location(ast.Name(name, ast.Store()), case.pattern), value)
            if case.guard is not None:
                ok = self.new_block()
                self.branch(case.guard, ok, fail)
                self.start(ok)
            self.body(case.body)
            self.goto(join, loc)
            self.start(fail)
        self.goto(join, loc)
        self.start(join)

    def _pattern(self, p: ast.pattern, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        """Test ``subject`` against ``p``: on to ``fail`` if it does not match, else go on in
        the current block with the pattern's names (not bound yet) in ``captures``."""
        loc = node_loc(p)
        if isinstance(p, ast.MatchValue):
            self._test(ir.Compare(self.temp(), "==", subject, self.expr(p.value), loc), fail)
        elif isinstance(p, ast.MatchSingleton) and p.value is None:
            self._test(ir.Compare(self.temp(), "is", subject, Const(None), loc), fail)
        elif isinstance(p, ast.MatchSingleton):  # x is True: a bool (no subclass exists) equal to True
            if not self._is_builtin("bool") or not self._is_builtin("isinstance"):
                raise self.unsupported(p, "True or False pattern where 'bool' or 'isinstance' is not the builtin")
            self._test(ir.Call(self.temp(), Global("isinstance"), (subject, Global("bool")), (), loc), fail)
            self._test(ir.Compare(self.temp(), "==", subject, Const(p.value), loc), fail)
        elif isinstance(p, ast.MatchAs):
            if p.pattern is not None:
                self._pattern(p.pattern, subject, fail, captures)
            if p.name is not None:
                captures[p.name] = subject
        elif isinstance(p, ast.MatchOr):
            self._alternatives(p, subject, fail, captures)
        elif isinstance(p, ast.MatchSequence):
            self._sequence(p, subject, fail, captures)
        elif isinstance(p, ast.MatchMapping):
            raise self.unsupported(p, "mapping pattern in a match statement")
        elif isinstance(p, ast.MatchClass):
            raise self.unsupported(p, "class pattern in a match statement")
        else:
            raise self.unsupported(p, f"{type(p).__name__} in a match statement")

    def _test(self, made: ir.Compare | ir.Call, fail: ir.Block) -> None:
        """Go on when the value ``made`` computes is true, else to ``fail``."""
        self.emit(made)
        ok = self.new_block()
        self._branch_on(Var(made.dst), ok, fail, made.loc)
        self.start(ok)

    def _alternatives(self, p: ast.MatchOr, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        matched = self.new_block()
        shared: dict[str, Var] = {}
        for alternative in p.patterns:
            next_one = self.new_block()
            own: dict[str, Operand] = {}
            self._pattern(alternative, subject, next_one, own)
            for name in sorted(own):  # every alternative binds the same names (a SyntaxError else)
                slot = shared.setdefault(name, Var(self.temp()))
                self.emit(ir.Assign(slot.name, own[name], node_loc(alternative)))
            self.goto(matched, node_loc(alternative))
            self.start(next_one)
        self.goto(fail, node_loc(p))
        self.start(matched)
        captures.update(shared)

    def _sequence(self, p: ast.MatchSequence, subject: Operand, fail: ir.Block, captures: dict[str, Operand]) -> None:
        loc = node_loc(p)
        for name in _BUILTINS:
            if not self._is_builtin(name):
                raise self.unsupported(p, f"sequence pattern where {name!r} is not the builtin")
        self._test(ir.Call(self.temp(), Global("isinstance"), (subject, _SEQUENCE), (), loc), fail)
        for excluded in ("str", "bytes", "bytearray"):
            flag = self.temp()
            self.emit(ir.Call(flag, Global("isinstance"), (subject, Global(excluded)), (), loc))
            ok = self.new_block()
            self._branch_on(Var(flag), fail, ok, loc)
            self.start(ok)
        stars = [k for k, q in enumerate(p.patterns) if isinstance(q, ast.MatchStar)]
        star = stars[0] if stars else None
        length = self.temp()
        self.emit(ir.Call(length, Global("len"), (subject,), (), loc))
        count = len(p.patterns) - (1 if star is not None else 0)
        self._test(ir.Compare(self.temp(), "==" if star is None else ">=", Var(length), Const(count), loc), fail)
        unpacked: tuple[str, ...] = ()
        if star is not None and getattr(p.patterns[star], "name", None) is not None:
            unpacked = tuple(self.temp() for _ in p.patterns)  # UNPACK_EX, as CPython for a named star
            self.emit(ir.Unpack(unpacked, subject, loc, star))
        for k, q in enumerate(p.patterns):
            if isinstance(q, ast.MatchStar):
                if q.name is not None:
                    captures[q.name] = Var(unpacked[k])
            elif unpacked:
                self._pattern(q, Var(unpacked[k]), fail, captures)
            elif not (isinstance(q, ast.MatchAs) and q.pattern is None and q.name is None):  # _ reads nothing
                self._pattern(q, self._item(subject, Var(length), k, len(p.patterns), star, loc), fail, captures)

    def _item(self, subject: Operand, length: Var, k: int, total: int, star: int | None, loc: Loc) -> Var:
        """Item ``k`` of the subject as CPython reads it: ``subject[k]`` before a star,
        ``subject[len(subject) - (total - k)]`` after it."""
        at: Operand = Const(k)
        if star is not None and k > star:
            index = self.temp()
            self.emit(ir.BinOp(index, "-", length, Const(total - k), loc))
            at = Var(index)
        item = self.temp()
        self.emit(ir.GetItem(item, subject, at, loc))
        return Var(item)
