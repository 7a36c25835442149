"""Breadth features of the random program generator (mixed into ``progen._Builder``).

Constructs pathloom models symbolically beyond the classic subset; like the real-module
features (``progen_edges``) they are written only with ``edges=True`` (they import
``typing``/``collections``/``functools``), and every unit is tagged (``BREADTH_FEATURES``):

* union-typed entry parameters ``xn yn ..`` (``int | None``) and ``xu yu ..``
  (``int | str``), never read before a narrowing: ``if xn is not None:`` (``xn`` an int in
  the branch), ``if xn is None: ... else:`` (an int in the ``else``), ``if isinstance(xu,
  int): ... else:`` (an int, then a str), ``if isinstance(xu, str): ...``; the expressions
  ``(xn if xn is not None else e)``, ``(e if xn is None else xn + e)``, ``(xu if
  isinstance(xu, int) else len(xu))``, ``(xu if isinstance(xu, str) else s)`` and the tests
  ``xn is None`` / ``xn is not None`` / ``isinstance(xu, int)``;
* a ``Callable[[int], int]`` parameter ``g`` (``g2``..; imported from ``typing`` or
  ``collections.abc``), called on int expressions, ``g(e)`` and ``g(g(e))``, its result an
  int operand anywhere; inputs are the lookup tables pathloom reports
  (``{"$table": [[k, v], ...], "default": d}``, ``lambda x: {k: v}.get(x, d)`` in CPython);
* a local ``dd0 = defaultdict(int)`` or ``defaultdict(list)`` (``from collections import
  defaultdict`` or ``collections.defaultdict``): ``dd0[k] += e`` / ``-= e``,
  ``dd0[k].append(e)``, the reads ``dd0[k]`` (inserting a missing key), ``sum(dd0[k])``,
  ``len(dd0[k])``, ``dd0[k][i]`` (IndexError), ``len(dd0)`` and ``k in dd0``;
* ``functools.reduce(lambda a, b: ..., xs, init)`` (or ``reduce`` imported by name) over a
  list of ints with a sum, a ``max``/``min``-like (``max(a, b)``, ``a if a > b else b``) or
  another folding lambda, always with an initial value (without one an empty list is a
  TypeError);
* a nested function ``tick(dv)`` of the entry declaring ``nonlocal cnt0`` and changing the
  entry's counter ``cnt0`` (maybe under an ``if``), called as a statement or inside
  expressions: as often as the bounded loops allow; the entry reads and may write
  ``cnt0`` too;
* a module-level counter ``gc0 = k`` and a module-level function ``gtick(dv)`` declaring
  ``global gc0`` and changing it (maybe under an ``if``), called by the entry like ``tick``;
  the entry reads ``gc0`` and, when it declares ``global gc0`` itself, may write it (every
  run of the oracle executes the module afresh, as pathloom's replay sets ``gc0`` back);
* slice assignment to a list that may be changed: ``xs[a:b] = [..]``, ``xs[a:b] = ys``
  (``xs`` itself too: CPython copies it first), ``xs[:] = ...`` and an extended slice
  ``xs[::k] = ys`` (ValueError when the sizes differ); bounds symbolic, literal, negative
  or omitted. Inside a loop only ``xs[a:b] = []`` / ``[e]``, ``xs[:] = ...`` and the
  extended form (which keeps the length), so lists stay small;
* displays with starred items, read as ints: ``len([*xs, e])``, ``[e, *xs][i]`` (IndexError),
  ``sum((*xs, e))``, ``len({*xs, e})``, ``len([*s, *range(e % 3), *xs])`` (a str, a range and
  a list unpacked), ``len({**{e: 1}, e2: 2})`` and ``{e: 0, **{e2: e3}}[e]``;
* calls with ``*`` and ``**`` arguments: a helper ``h(e, *[e2, e3])``, ``h(*(e,), e2)``,
  ``h(**{"a": e, "b": e2})``, ``h(e, **{"b": e2})``, ``h(*[e], **{"b": e2})`` (always the
  helper's own parameter names and count), and ``max(*xs, e, e2)`` / ``min(e, e2, *xs)``.

Every expression is well typed after its narrowing; the exceptions stay those of progen
(ZeroDivisionError, IndexError, ValueError, AssertionError, KeyError) and nothing loops.
"""

from __future__ import annotations

import re
from typing import Callable

from hypothesis import strategies as st

from .progen_base import _E, INT, LIST, STR, _Ctx, _indent, _par, _Sig, _Var
from .progen_kinds import KINDS_FEATURES, KindsBuilder
from .progen_syntax import SYNTAX_FEATURES, SyntaxBuilder

# value kinds (also the suffix of the ``param:`` tag): an ``int | None`` parameter, an
# ``int | str`` parameter, a ``Callable[[int], int]`` parameter, the defaultdict local
# ``dd0`` of ints or of lists, the nested function ``tick``
OPTINT, INTSTR, FUNC = "int|None", "int|str", "Callable"
DDINT, DDLIST, TICK = "ddint", "ddlist", "tick"
BREADTH_ANNOTATION = {OPTINT: "int | None", INTSTR: "int | str", FUNC: "Callable[[int], int]"}
BREADTH_PARAM_NAMES = {
    OPTINT: ["xn", "yn", "zn", "xn2"],
    INTSTR: ["xu", "yu", "zu", "xu2"],
    FUNC: ["g", "g2", "g3", "g4"],
}

#: The feature tags of the breadth features (a subset of ``progen.FEATURES``).
BREADTH_FEATURES: frozenset[str] = (
    frozenset(
        {
            # union-typed parameters and their narrowing
            "param:int|None",
            "param:int|str",
            "narrow_is_not_none",
            "narrow_is_none",
            "narrow_isinstance_int",
            "narrow_isinstance_str",
            "narrow_else",
            "narrow_ifexp_none",
            "narrow_ifexp_isinstance",
            "narrow_ifexp_str",
            "union_is_none",
            "union_isinstance",
            # Callable[[int], int] parameters
            "param:Callable",
            "callable_call",
            "callable_nested",
            "callable_abc_import",
            # collections.defaultdict locals
            "defaultdict_int",
            "defaultdict_list",
            "defaultdict_module",
            "defaultdict_incr",
            "defaultdict_append",
            "defaultdict_read",
            "defaultdict_list_read",
            "defaultdict_len",
            "defaultdict_in",
            # functools.reduce
            "reduce_sum",
            "reduce_minmax",
            "reduce_fold",
            "reduce_by_name",
            # a nested function with nonlocal
            "nonlocal_counter",
            "nonlocal_guarded",
            "nonlocal_call_stmt",
            "nonlocal_call_expr",
            "nonlocal_outer_write",
            # a module-level counter rebound through global
            "global_counter",
            "global_guarded",
            "global_call_stmt",
            "global_call_expr",
            "global_entry_write",
            # slice assignment
            "slice_assign",
            "slice_assign_list",
            "slice_assign_self",
            "slice_assign_whole",
            "slice_assign_step",
            # starred items in displays, ** in dict displays
            "star_list",
            "star_tuple",
            "star_set",
            "star_dict",
            "star_kinds",
            # * and ** arguments in calls
            "star_call",
            "kw_call",
            "star_call_builtin",
        }
    )
    | KINDS_FEATURES
    | SYNTAX_FEATURES
)

Option = tuple[int, Callable[[], _E]]  # (weight, what to write), for ``_Builder.pick``
StmtOption = tuple[int, Callable[[], tuple[list[str], bool]]]
MAX_TABLE = 3  # entries of a sampled Callable input (pathloom's max_dict_len is 4)


def _present(*options: tuple[int, object, Callable[[], _E]]) -> list[Option]:
    return [(weight, write) for weight, needed, write in options if needed]


def breadth_input_types(ints: st.SearchStrategy[int], strs: st.SearchStrategy[str]) -> dict[str, st.SearchStrategy[object]]:
    """Concrete arguments of the breadth parameter annotations (JSON, as pathloom reports
    them): ``int | None``, ``int | str`` and a lookup table for ``Callable[[int], int]``."""
    entries = st.lists(st.tuples(st.integers(-3, 5), ints), max_size=MAX_TABLE, unique_by=lambda kv: kv[0])
    table = st.tuples(entries, ints).map(lambda t: {"$table": [[k, v] for k, v in t[0]], "default": t[1]})
    return {
        BREADTH_ANNOTATION[OPTINT]: st.none() | ints,
        BREADTH_ANNOTATION[INTSTR]: ints | strs,
        BREADTH_ANNOTATION[FUNC]: table,
    }


def breadth_imports(source: str, callable_abc: bool) -> list[tuple[str, bool]]:
    """The import lines the breadth features need, each with whether ``source`` needs it."""
    return [
        ("from typing import Callable", "Callable[" in source and not callable_abc),
        ("from collections.abc import Callable", "Callable[" in source and callable_abc),
        ("import collections", "collections.defaultdict(" in source),
        ("from collections import defaultdict", re.search(r"(?<![.\w])defaultdict\(", source) is not None),
        ("import functools", "functools.reduce(" in source),
        ("from functools import reduce", re.search(r"(?<![.\w])reduce\(", source) is not None),
    ]


class BreadthBuilder(KindsBuilder, SyntaxBuilder):
    """The breadth features; mixed into ``progen._Builder`` (before ``EdgeBuilder``, whose
    ``note_write`` it extends), whose choice helpers (``int_in``, ``flag``, ``choice``,
    ``pick``, ``tag``, ``optional``) and writers (``num``, ``boolean``, ``str_``, ``block``,
    ``index``) it uses; the parameter kinds and the walrus are ``progen_kinds``'."""

    callable_abc = False  # Callable from collections.abc (else from typing)

    # -- entry parameters and locals -----------------------------------------------------
    def breadth_param_kinds(self) -> list[tuple[int, Callable[[], str]]]:
        return [(1, lambda: OPTINT), (1, lambda: INTSTR), (1, lambda: FUNC)]

    def note_param(self, ty: str, first: bool) -> None:
        """The first Callable parameter chooses where ``Callable`` is imported from."""
        if ty == FUNC and first and self.flag(1, 3):
            self.callable_abc = True
            self.tag("callable_abc_import")

    def breadth_locals(self, c: _Ctx) -> tuple[list[str], list[_Var]]:
        """Maybe the defaultdict ``dd0``, maybe the counter ``cnt0`` and its nested ``tick``."""
        lines: list[str] = []
        made: list[_Var] = []
        dd = self.optional(self.defaultdict_local, 1, 4)
        if dd is not None:
            lines.append(dd[0])
            made.append(dd[1])
        counter = self.optional(self.nonlocal_counter, 1, 4)
        if counter is not None:
            lines += counter[0]
            made += counter[1]
        return lines, made

    def defaultdict_local(self) -> tuple[str, _Var]:
        factory = self.choice(["int", "list"])
        self.tag(f"defaultdict_{factory}")
        call = f"defaultdict({factory})"
        if self.flag(1, 3):
            self.tag("defaultdict_module")
            call = f"collections.{call}"
        return f"dd0 = {call}", _Var("dd0", DDINT if factory == "int" else DDLIST, False)

    def counter_function(self, kind: str, var: str, fn: str) -> list[str]:
        """``var = k`` and ``def fn(dv: int) -> int: <kind> var; <update>; return ...``
        (``kind``: ``nonlocal`` or ``global``)."""
        self.tag(f"{kind}_counter")
        update = self.choice([f"{var} += dv", f"{var} += 1", f"{var} -= dv", f"{var} = {var} + dv % 3"])
        body = [f"{kind} {var}"]
        if self.flag(1, 3):
            self.tag(f"{kind}_guarded")
            body += [f"if dv > {self.int_in(-2, 2)}:", f"    {update}"]
        else:
            body.append(update)
        body.append(f"return {self.choice([var, f'{var} + dv', f'dv - {var}', 'dv'])}")
        return [f"{var} = {self.int_in(0, 2)}", f"def {fn}(dv: int) -> int:"] + _indent(body)

    def nonlocal_counter(self) -> tuple[list[str], list[_Var]]:
        """The entry's counter ``cnt0`` and its nested function ``tick``."""
        lines = self.counter_function("nonlocal", "cnt0", "tick")
        return lines, [_Var("cnt0", INT, True), _Var("tick", TICK, False)]

    def global_counter(self) -> tuple[list[str], list[_Var], bool]:
        """The module-level counter ``gc0`` and function ``gtick``, the entry's variables, and
        whether the entry declares ``global gc0`` (then it may write it)."""
        first, *rest = self.counter_function("global", "gc0", "gtick")
        declares = self.flag(1, 3)
        return [first, "", ""] + rest, [_Var("gc0", INT, declares), _Var("gtick", TICK, False)], declares

    def note_write(self, v: _Var) -> None:
        if v.text == "gc0":
            self.tag("global_entry_write")
        if v.text == "cnt0":
            self.tag("nonlocal_outer_write")
        super().note_write(v)  # type: ignore[misc]

    # -- expressions ---------------------------------------------------------------------
    def breadth_nums(self, c: _Ctx, d: int) -> list[Option]:
        optints, intstrs, funcs = c.vars(OPTINT), c.vars(INTSTR), c.vars(FUNC)
        dds, ticks, lists = c.vars(DDINT, DDLIST), c.vars(TICK), c.vars(LIST)
        helpers = [s for s in c.fn.callables if s.ret == INT and s.rec is None and s.params]
        return _present(
            (4, optints, lambda: self.optional_num(c, d, optints)),
            (4, intstrs, lambda: self.union_num(c, d, intstrs)),
            (8, funcs, lambda: self.callable_num(c, d, funcs)),
            (4, dds, lambda: self.defaultdict_num(c, d, dds)),
            (2, lists, lambda: self.reduce_num(c, d, lists)),
            (3, ticks, lambda: self.tick_call(c, d, "nonlocal_call_expr")),
            (2, lists, lambda: self.star_display_num(c, d, lists)),
            (2, lists, lambda: self.star_builtin_num(c, d, lists)),
            (3, helpers, lambda: self.star_call_num(c, d, helpers)),
            (3, self.kinds is not None, lambda: self.kinds_call_num(c, d)),
            (2, True, lambda: self.walrus_num(c, d, lists)),
        ) + self.syntax_nums(c)

    def breadth_bools(self, c: _Ctx, d: int) -> list[Option]:
        unions, dds = c.vars(OPTINT, INTSTR), c.vars(DDINT, DDLIST)
        return _present(
            (2, unions, lambda: self.union_test(unions)),
            (2, dds, lambda: self.defaultdict_in(c, d, dds)),
        ) + self.syntax_bools(c)

    def breadth_strs(self, c: _Ctx, d: int) -> list[Option]:
        intstrs = c.vars(INTSTR)
        return _present((3, intstrs, lambda: self.union_str(c, d, intstrs))) + self.syntax_strs(c)

    def optional_num(self, c: _Ctx, d: int, optints: list[_Var]) -> _E:
        self.tag("narrow_ifexp_none")
        v = self.choice(optints).text
        other = _par(self.num(c, d - 1))
        if self.flag():
            return _E(f"{v} if {v} is not None else {other}", False)
        narrowed = v if self.flag() else f"{v} + {_par(self.num(c, d - 1))}"
        return _E(f"{other} if {v} is None else {narrowed}", False)

    def union_num(self, c: _Ctx, d: int, intstrs: list[_Var]) -> _E:
        self.tag("narrow_ifexp_isinstance")
        v = self.choice(intstrs).text
        k = self.int_in(0, 2)
        if k == 0:
            return _E(f"{v} if isinstance({v}, int) else len({v})", False)
        if k == 1:
            return _E(f"len({v}) if isinstance({v}, str) else {v}", False)
        return _E(f"{v} if isinstance({v}, int) else {_par(self.num(c, d - 1))}", False)

    def union_str(self, c: _Ctx, d: int, intstrs: list[_Var]) -> _E:
        self.tag("narrow_ifexp_str")
        v = self.choice(intstrs).text
        return _E(f"{v} if isinstance({v}, str) else {_par(self.str_(c, d - 1))}", False)

    def union_test(self, unions: list[_Var]) -> _E:
        v = self.choice(unions)
        if v.ty == OPTINT:
            self.tag("union_is_none")
            return _E(f"{v.text} {self.choice(['is', 'is not'])} None", False)
        self.tag("union_isinstance")
        return _E(f"isinstance({v.text}, {self.choice(['int', 'str'])})", True)

    def callable_num(self, c: _Ctx, d: int, funcs: list[_Var]) -> _E:
        self.tag("callable_call")
        g = self.choice(funcs).text
        arg = self.num(c, d - 1).text
        if self.flag(1, 4):
            self.tag("callable_nested")
            arg = f"{self.choice(funcs).text}({arg})"
        return _E(f"{g}({arg})", True)

    def dd_key(self, c: _Ctx, d: int) -> str:
        return self.pick([(2, lambda: str(self.int_in(0, 3))), (3, lambda: self.num(c, max(d - 1, 0)).text)])

    def defaultdict_num(self, c: _Ctx, d: int, dds: list[_Var]) -> _E:
        v = self.choice(dds)
        if self.flag(1, 3):
            self.tag("defaultdict_len")
            return _E(f"len({v.text})", True)
        item = f"{v.text}[{self.dd_key(c, d)}]"
        if v.ty == DDINT:
            self.tag("defaultdict_read")  # a missing key is inserted, as 0
            return _E(item, True)
        self.tag("defaultdict_list_read")
        k = self.int_in(0, 2)
        if k == 0:
            return _E(f"sum({item})", True)
        if k == 1:
            return _E(f"len({item})", True)
        return _E(f"{item}[{self.index(c, d).text}]", True)  # IndexError when too short

    def defaultdict_in(self, c: _Ctx, d: int, dds: list[_Var]) -> _E:
        self.tag("defaultdict_in")
        key = _par(self.num(c, d - 1))
        return _E(f"{key} {self.choice(['in', 'not in'])} {self.choice(dds).text}", False)

    def reduce_num(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        """``functools.reduce(lambda a, b: ..., xs, init)``, always with an initial value."""
        xs = self.choice(lists).text
        k = self.int_in(0, 2)
        if k == 0:
            self.tag("reduce_sum")
            body = "a + b"
        elif k == 1:
            self.tag("reduce_minmax")
            body = self.choice(["max(a, b)", "min(a, b)", "a if a > b else b", "a if a < b else b", "b if b >= a else a"])
        else:
            self.tag("reduce_fold")
            body = self.choice(["a - b", "a * 2 + b", "b - a", "a + b % 3", "a + 1"])
        init = self.int_lit(-2, 3) if self.flag() else self.num(c, d - 1)
        fn = "functools.reduce"
        if self.flag(1, 3):
            self.tag("reduce_by_name")
            fn = "reduce"
        return _E(f"{fn}(lambda a, b: {body}, {xs}, {init.text})", True)

    def star_display_num(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        """An int read from a display with starred items (or ``**`` items)."""
        xs = self.choice(lists).text
        e = _par(self.num(c, d - 1))
        k = self.int_in(0, 5)
        if k == 0:
            self.tag("star_list")
            return _E(self.choice([f"len([*{xs}, {e}])", f"[{e}, *{xs}][{self.index(c, d).text}]"]), True)
        if k == 1:
            self.tag("star_tuple")
            return _E(f"sum(({e}, *{xs}))" if self.flag() else f"sum((*{xs}, {e}))", True)
        if k == 2:
            self.tag("star_set")
            return _E(f"len({{*{xs}, {e}}})", True)
        if k == 3:
            self.tag("star_kinds")
            strs = c.vars(STR)
            s = self.choice(strs).text if strs else "'ab'"
            return _E(f"len([*{s}, *range({e} % 3), *{xs}])", True)
        self.tag("star_dict")
        e2 = _par(self.num(c, d - 1))
        if k == 4:
            return _E(f"len({{**{{{e}: 1}}, {e2}: 2}})", True)
        return _E(f"{{{e}: 0, **{{{e2}: {_par(self.num(c, d - 1))}}}}}[{e}]", True)

    def star_builtin_num(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        self.tag("star_call_builtin")
        xs, e, e2 = self.choice(lists).text, self.num(c, d - 1).text, self.num(c, d - 1).text  # two items: never min(e) of an int
        return _E(f"max(*{xs}, {e}, {e2})" if self.flag() else f"min({e}, {e2}, *{xs})", True)

    def star_call_num(self, c: _Ctx, d: int, helpers: list[_Sig]) -> _E:
        """A helper called with ``*`` or ``**`` arguments, each parameter given once."""
        sig = self.choice(helpers)
        args = [self.num(c, d - 1).text for _ in sig.params]
        cut = self.int_in(0, len(args))
        if self.flag():
            self.tag("star_call")
            rest = args[cut:]
            starred = f"*[{', '.join(rest)}]" if self.flag() else f"*({', '.join(rest)}{',' if len(rest) == 1 else ''})"
            return _E(f"{sig.name}({', '.join(args[:cut] + [starred])})", True)
        self.tag("kw_call")
        named = ", ".join(f"{p!r}: {a}" for p, a in zip(sig.params[cut:], args[cut:]))
        head = f"*[{', '.join(args[:cut])}]" if cut and self.flag() else ", ".join(args[:cut])
        return _E(f"{sig.name}({', '.join(x for x in (head, f'**{{{named}}}') if x)})", True)

    def tick_call(self, c: _Ctx, d: int, tag: str) -> _E:
        name = self.choice(c.vars(TICK)).text
        self.tag(tag.replace("nonlocal", "global") if name == "gtick" else tag)
        return _E(f"{name}({self.num(c, max(d - 1, 0)).text})", True)

    # -- statements ----------------------------------------------------------------------
    def breadth_stmts(self, c: _Ctx, simple_ok: bool, compound_ok: bool) -> list[StmtOption]:
        opts: list[StmtOption] = []
        if simple_ok:
            dds, lists = c.vars(DDINT, DDLIST), c.mutable_lists()
            if dds:
                opts.append((3, lambda: ([self.defaultdict_stmt(c, dds)], False)))
            if c.vars(TICK):
                opts.append((2, lambda: ([self.tick_call(c, 1, "nonlocal_call_stmt").text], False)))
            if lists:
                opts.append((2, lambda: ([self.slice_assign(c, lists)], False)))
        if compound_ok and c.vars(OPTINT, INTSTR):
            opts.append((8, lambda: (self.narrow_if(c), False)))
        return opts + self.syntax_stmts(c, compound_ok)

    def defaultdict_stmt(self, c: _Ctx, dds: list[_Var]) -> str:
        v = self.choice(dds)
        key = self.dd_key(c, 1)
        if v.ty == DDINT:
            self.tag("defaultdict_incr")
            rhs = "1" if self.flag() else self.num(c, 1).text
            return f"{v.text}[{key}] {self.choice(['+=', '-='])} {rhs}"
        self.tag("defaultdict_append", "append")
        return f"{v.text}[{key}].append({self.num(c, 1).text})"

    def slice_assign(self, c: _Ctx, lists: list[_Var]) -> str:
        """``xs[a:b] = ...``, ``xs[:] = ...`` or ``xs[::k] = ...`` of a list that may change."""
        xs = self.choice(lists).text
        sources = c.vars(LIST)
        in_loop = c.loop_depth > 0

        def bound() -> str:
            return self.pick([(2, lambda: self.num(c, 1).text), (2, lambda: str(self.int_in(-3, 3))), (1, lambda: "")])

        def display(most: int) -> str:
            return "[" + ", ".join(self.num(c, 1).text for _ in range(self.int_in(0, most))) + "]"

        def a_list() -> str:
            self.tag("slice_assign_list")
            ys = self.choice(sources).text
            if ys == xs:
                self.tag("slice_assign_self")  # CPython copies xs first
            return ys

        k = self.pick([(4, lambda: 0), (2, lambda: 1), (1, lambda: 2)])
        if k == 1:
            self.tag("slice_assign_whole")
            rhs = self.pick([(1, lambda: display(3)), (2, a_list)])
            return f"{xs}[:] = {rhs}"
        if k == 2:
            self.tag("slice_assign_step")  # ValueError when the sizes differ
            rhs = self.pick([(1, lambda: display(2)), (2, a_list)])
            return f"{xs}[::{self.choice([-1, 2, -2])}] = {rhs}"
        self.tag("slice_assign")
        lo, hi = bound(), bound()
        if in_loop:
            rhs = display(1)
        else:
            rhs = self.pick([(2, lambda: display(3)), (2, a_list)])
        return f"{xs}[{lo}:{hi}] = {rhs}"

    def narrow_if(self, c: _Ctx) -> list[str]:
        """``if xn is not None:`` / ``if xn is None: ... else:`` / ``if isinstance(xu, int):
        ... else:``: the parameter is an int (or a str) in the branch that narrows it."""
        v = self.choice(c.vars(OPTINT, INTSTR))
        self.tag("if")
        if c.if_depth >= 2:
            self.tag("if_nested_3")
        as_int, as_str = _Var(v.text, INT, False), _Var(v.text, STR, False)
        then_var: _Var | None
        else_var: _Var | None
        if v.ty == OPTINT:
            if self.flag():
                self.tag("narrow_is_not_none")
                test, then_var, else_var = f"{v.text} is not None", as_int, None
            else:
                self.tag("narrow_is_none")
                test, then_var, else_var = f"{v.text} is None", None, as_int
        else:
            cls = self.choice(["int", "str"])
            self.tag(f"narrow_isinstance_{cls}")
            test = f"isinstance({v.text}, {cls})"
            then_var, else_var = (as_int, as_str) if cls == "int" else (as_str, as_int)

        def body(narrowed: _Var | None, most: int) -> list[str]:
            inner = c.branch(is_if=True)
            if narrowed is not None:
                inner = _Ctx(
                    inner.fn, inner.scope + (narrowed,), inner.depth, inner.if_depth, inner.loop_depth, inner.in_branch, inner.can_continue, inner.frozen
                )
            return _indent(self.block(inner, most))

        def else_() -> list[str]:
            self.tag("else")
            if else_var is not None:
                self.tag("narrow_else")
            return ["else:"] + body(else_var, 2)

        lines = [f"if {test}:"] + body(then_var, 3)
        part = self.optional(else_, 2 if else_var is not None else 1, 3) if c.fn.budget > 0 else None
        return lines + (part or [])
