"""The real-module features of the random program generator (mixed into ``progen._Builder``).

Programs pathloom analyses import their real module: module-level names take their real
values, and what the symbolic model does not cover runs in CPython on pinned values
(concretization). This part of the generator writes exactly that:

* computed module constants: ``LIMIT = 10 ** 3``, ``PRIMES = [2, 3, 5]`` (never mutated),
  ``KP = len(PRIMES)``, ``TABLE = {1: 'a'}`` (membership, ``TABLE[k]`` with its KeyError,
  ``TABLE.get``), ``WORD = 'ab' * 2``;
* a class ``N0(v)`` with some of ``__eq__``, ``__lt__``, ``__len__``, ``__bool__``,
  ``__contains__``, ``__add__`` (and ``__radd__``), a property ``big``, a static method
  ``clamp`` and a class method ``make``, used directly and through reflected operations
  (``3 == n0`` calls ``n0.__eq__(3)``, ``3 > n0`` calls ``n0.__lt__(3)``); some dunders
  raise (``7 // self.v``, a negative ``__len__``), deterministically;
* an ``Enum`` ``Color`` (values 1..n, maybe an alias), members compared by ``==`` and
  ``is``, ``.value``, ``.name``, ``Color(k)`` (ValueError for a value that is no member);
* a ``@dataclass`` ``D0`` (``a: int``, ``b: int = k``, maybe ``s: str``, maybe
  ``order=True`` and a method ``total``), built positionally and by keyword, compared,
  its fields read and written;
* list repetition ``[e] * n`` / ``n * [e]`` / ``xs * k`` (n concrete or symbolic, negative
  and 0 included, at most 3) and list comparison with the six operators;
* stdlib calls and builtins run in CPython: ``math.gcd``, ``math.isqrt``, ``math.floor``
  and ``math.ceil`` of a true division, ``divmod``, ``sorted``, ``sum``, ``max``/``min``
  with ``default=``, ``str``, ``len(str(e))``, ``s.upper()``, ``s.lower()``,
  ``s.replace``, ``s.find``, ``s.count``, ``s.startswith``, ``strip``/``lstrip``/``rstrip``,
  ``zfill``, the ``is*`` tests, ``int(s)``, int format specs (``f"{n:03d}"``).

Every expression is well typed; the exceptions a program can raise stay ZeroDivisionError,
IndexError, ValueError, AssertionError and KeyError; lists stay at most 6 items long and
nothing loops, so programs still terminate. Every unit is tagged (``EDGE_FEATURES``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Callable

from hypothesis import strategies as st

from .progen_base import (
    _E,
    CMP_OPS,
    DC,
    DICT,
    DOBJ,
    ENUM,
    INT,
    LIST,
    SET,
    STR,
    STR_LITERALS,
    _Ctx,
    _DataCls,
    _Dunder,
    _EnumCls,
    _par,
    _Var,
)

#: The feature tags of the real-module features (module-level names with real values,
#: classes the analysis runs in CPython, stdlib calls): a subset of ``FEATURES``.
EDGE_FEATURES: frozenset[str] = frozenset(
    {
        "property_setter",  # ``n0.big = e`` through the class's ``@big.setter``
        # computed module constants
        "const_computed",
        "bytes_literal",
        "const_list",
        "const_len",
        "const_dict",
        "const_str",
        "dict_index",
        "dict_get",
        "dict_in",
        "dict_len",
        # a class with dunders, a property, a static and a class method
        "dunder_class",
        "dunder:__eq__",
        "dunder:__lt__",
        "dunder:__len__",
        "dunder:__bool__",
        "dunder:__contains__",
        "dunder:__add__",
        "dunder:__radd__",
        "dunder_reflected",
        "dunder_identity",
        "dunder_truth",
        "dunder_raises",
        "property",
        "staticmethod",
        "classmethod",
        "method_on_instance",
        # Enum
        "enum",
        "enum_alias",
        "enum_eq",
        "enum_is",
        "enum_eq_int",
        "enum_value",
        "enum_name",
        "enum_call",
        "enum_len",
        "enum_assign",
        # dataclasses
        "dataclass",
        "dataclass_order",
        "dataclass_eq",
        "dataclass_lt",
        "dataclass_method",
        "dataclass_kw",
        "dataclass_write",
        "dataclass_str_field",
        # lists
        "list_repeat",
        "list_repeat_symbolic",
        "list_repeat_min",
        "list_repeat_reflected",
        "list_repeat_list",
        "list_compare",
        "list_local",
        # comprehensions and the generator expressions builtins consume
        "listcomp",
        "genexp_sum",
        "genexp_minmax",
        "genexp_minmax_default",
        "genexp_anyall",
        "comprehension_filter",
        # slices of lists and strs (symbolic bounds, negative, stepped, omitted)
        "slice_list",
        "slice_str",
        "slice_step",
        # sets of ints (semantics.sets): made, combined, queried, iterated, changed
        "set_display",
        "set_from_list",
        "setcomp",
        "set_op",
        "set_len",
        "set_in",
        "set_compare",
        "set_method",
        "set_sum",
        "set_minmax",
        "set_sorted",
        "set_iter",
        "set_local",
        "set_add",
        "set_discard",
        "set_remove",
        "set_update",
        # stdlib calls and builtins run in CPython
        "math.gcd",
        "math.isqrt",
        "math.floor",
        "math.ceil",
        "divmod",
        "divmod_unpack",
        "sorted",
        "sum",
        "max_default",
        "str()",
        "len_str()",
        "str.upper",
        "str.find",
        "str.count",
        "str.startswith",
        "str.replace",
        "str.strip",
        "str.zfill",
        "str.is_class",
        "int(str)",
        "format_spec",
        # reversed() consumed whole, sorted() of a str
        "sum_reversed",
        "join_reversed",
        "join_sorted_str",
    }
)


Option = tuple[int, Callable[[], _E]]  # (weight, what to write), for ``_Builder.pick``


def _present(*options: tuple[int, object, Callable[[], _E]]) -> list[Option]:
    """The options whose second item (what they need in scope) is truthy."""
    return [(weight, write) for weight, needed, write in options if needed]


class EdgeBuilder:
    """The real-module features; mixed into ``progen._Builder``, whose choice helpers
    (``int_in``, ``flag``, ``choice``, ``pick``, ``tag``, ``span``, ``optional``) and
    expression writers (``num``, ``boolean``, ``cond``, ``str_``, ...) it uses."""

    def edge_nums(self, c: _Ctx, d: int) -> list[Option]:
        lists, strs = c.vars(LIST), c.vars(STR)
        dobjs, enums, dcs, dicts = c.vars(DOBJ), c.vars(ENUM), c.vars(DC), c.vars(DICT)
        with_method = [v for v in dcs if isinstance(v.cls, _DataCls) and v.cls.method]
        return _present(
            (2, True, lambda: self.stdlib_num(c, d)),
            (2, lists, lambda: self.list_num(c, d, lists)),
            (4, lists, lambda: self.comprehension_num(c, d, lists)),
            (2, lists, lambda: self.list_slice_num(c, d, lists)),
            (1, strs, lambda: self.str_num(c, d, strs)),
            (6, dobjs, lambda: self.dunder_num(c, d, dobjs)),
            (3, enums, lambda: self.enum_num(enums)),
            (2, with_method, lambda: self.dataclass_method(with_method)),
            (1, dicts, lambda: self.dict_len(dicts)),
            (2, True, lambda: self.set_num(c, d)),
        )

    def edge_bools(self, c: _Ctx, d: int) -> list[Option]:
        strs = c.vars(STR)
        dobjs, enums, dcs, dicts = c.vars(DOBJ), c.vars(ENUM), c.vars(DC), c.vars(DICT)
        return _present(
            (2, True, lambda: self.list_compare(c, d)),
            (8, dobjs, lambda: self.dunder_bool(c, d, dobjs)),
            (5, enums, lambda: self.enum_bool(c, d, enums)),
            (4, dcs, lambda: self.dataclass_bool(c, d, dcs)),
            (1, dicts, lambda: self.dict_in(c, d, dicts)),
            (1, strs, lambda: self.startswith(c, d, strs)),
            (1, strs, lambda: self.str_class(strs)),
            (2, True, lambda: self.set_bool(c, d)),
        )

    def edge_strs(self, c: _Ctx, d: int) -> list[Option]:
        strs, enums, dicts = c.vars(STR), c.vars(ENUM), c.vars(DICT)
        return _present(
            (1, True, lambda: self.str_call(c, d)),
            (2, strs, lambda: self.str_method(c, d, strs)),
            (2, strs, lambda: self.str_slice(c, d, strs)),
            (2, enums, lambda: self.enum_name(enums)),
            (3, dicts, lambda: self.dict_value(c, d, dicts)),
        )

    def object_bool(self, c: _Ctx, d: int) -> _E:
        """A test on an instance of N0, Color or D0 (one of those in scope)."""
        dobjs, enums, dcs = c.vars(DOBJ), c.vars(ENUM), c.vars(DC)
        return self.pick(
            _present(
                (2, dobjs, lambda: self.dunder_bool(c, d, dobjs)),
                (1, enums, lambda: self.enum_bool(c, d, enums)),
                (1, dcs, lambda: self.dataclass_bool(c, d, dcs)),
            )
        )

    def object_num(self, c: _Ctx, d: int) -> _E:
        """An int from an instance of N0, Color or D0 (one of those in scope)."""
        dobjs, enums, dcs = c.vars(DOBJ), c.vars(ENUM), c.vars(DC)
        with_method = [v for v in dcs if isinstance(v.cls, _DataCls) and v.cls.method]
        fields = [v for v in c.vars(INT) if isinstance(v.cls, _DataCls)]

        def dataclass_int() -> _E:
            if with_method and self.flag():
                return self.dataclass_method(with_method)
            return self.read(self.choice(fields))

        return self.pick(
            _present(
                (2, dobjs, lambda: self.dunder_num(c, d, dobjs)),
                (1, enums, lambda: self.enum_num(enums)),
                (1, dcs, dataclass_int),
            )
        )

    # stdlib calls and builtins the model does not cover
    def stdlib_num(self, c: _Ctx, d: int) -> _E:
        fn = self.choice(["math.gcd", "math.isqrt", "math.floor", "math.ceil", "divmod", "len_str()", "bytes_literal"])
        self.tag(fn)
        a = self.num(c, d - 1)
        if fn == "bytes_literal":  # an opaque bytes constant, indexed (run in CPython on the pinned index)
            literal = self.choice(["b'\\x01ab'", "b'xyz'", "b'xy' + b'z'"])
            return _E(f"({literal})[{_par(a)} % 3]", True)
        if fn == "math.gcd":
            return _E(f"math.gcd({a.text}, {self.num(c, d - 1).text})", True)
        if fn == "math.isqrt":  # ValueError for a negative argument
            return _E(f"math.isqrt({a.text})", True)
        if fn in ("math.floor", "math.ceil"):  # true division: a float, back to an int
            den = str(self.int_in(2, 4)) if self.flag(2, 3) else _par(self.num(c, d - 1))
            return _E(f"{fn}({_par(a)} / {den})", True)
        if fn == "divmod":
            b = self.num(c, d - 1)
            return _E(f"divmod({a.text}, {b.text})[{self.int_in(0, 1)}]", True)
        self.tag("str()")
        return _E(f"len(str({a.text}))", True)

    def list_num(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        xs = self.choice(lists).text
        k = self.int_in(0, 4)
        if k == 4:
            self.tag("sum_reversed")
            return _E(f"sum(reversed({xs}))", True)
        if k == 0:
            self.tag("sum")
            return _E(f"sum({xs})", True)
        if k == 1:
            self.tag("max_default")
            fn = self.choice(["max", "min"])
            return _E(f"{fn}({xs}, default={self.num(c, d - 1).text})", True)
        if k == 2:
            self.tag("sorted")
            return _E(f"sorted({xs})[{self.index(c, d).text}]", True)
        return _E(f"len({self.list_repeat(c, d - 1).text})", True)

    def comprehension_num(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        """``len([e for cv in xs if b])``, ``sum``/``min``/``max`` of a generator expression,
        or ``any``/``all`` of one as 1 or 0; ``cv`` is the comprehension's own variable (an
        enclosing comprehension's ``cv`` is shadowed) and ``xs`` is not mutated inside."""
        xs = self.choice(lists)
        inner = replace(c, scope=c.scope + (_Var("cv", INT, False),), loop_depth=c.loop_depth + 1, frozen=c.frozen | {xs.text})
        loop = f"for cv in {xs.text}"
        if self.flag(1, 2):
            self.tag("comprehension_filter")
            loop += f" if {_par(self.boolean(inner, d - 1))}"
        k = self.int_in(0, 3)
        if k == 3:
            self.tag("genexp_anyall")
            fn = self.choice(["any", "all"])
            return _E(f"(1 if {fn}({_par(self.boolean(inner, d - 1))} {loop}) else 0)", True)
        elt = _par(self.num(inner, d - 1))
        if k == 0:
            self.tag("listcomp")
            return _E(f"len([{elt} {loop}])", True)
        if k == 1:
            self.tag("genexp_sum")
            return _E(f"sum({elt} {loop})", True)
        self.tag("genexp_minmax")
        fn = self.choice(["min", "max"])
        if self.flag(1, 3):  # the generator made, then the default evaluated, then the items
            self.tag("genexp_minmax_default")
            return _E(f"{fn}(({elt} {loop}), default={_par(self.num(c, d - 1))})", True)
        return _E(f"{fn}({elt} {loop})", True)

    def slice_text(self, c: _Ctx, d: int) -> str:
        """``[a:b]``, ``[a:]``, ``[:b]`` or ``[::k]`` with bounds symbolic, literal or
        negative, and a literal step (never 0: that is a ValueError every time)."""

        def bound() -> str:
            return self.pick([(2, lambda: self.num(c, d - 1).text), (1, lambda: str(self.int_in(-3, 3))), (1, lambda: "")])

        if self.flag(1, 4):
            self.tag("slice_step")
            return f"[{bound()}:{bound()}:{self.choice([-2, -1, 2])}]"
        return f"[{bound()}:{bound()}]"

    def list_slice_num(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        self.tag("slice_list")
        xs = self.choice(lists).text
        if self.flag():
            return _E(f"len({xs}{self.slice_text(c, d)})", True)
        return _E(f"sum({xs}{self.slice_text(c, d)})", True)

    def str_slice(self, c: _Ctx, d: int, strs: list[_Var]) -> _E:
        self.tag("slice_str")
        return _E(f"{self.choice(strs).text}{self.slice_text(c, d)}", True)

    def str_num(self, c: _Ctx, d: int, strs: list[_Var]) -> _E:
        method = self.choice(["find", "count"])
        self.tag(f"str.{method}")
        s = self.choice(strs).text
        needle = self.str_lit() if self.flag(2, 3) else self.str_(c, d - 1)
        return _E(f"{s}.{method}({needle.text})", True)

    def str_call(self, c: _Ctx, d: int) -> _E:
        self.tag("str()")
        return _E(f"str({self.num(c, d - 1).text})", True)

    def str_method(self, c: _Ctx, d: int, strs: list[_Var]) -> _E:
        s = self.choice(strs).text
        k = self.int_in(0, 8)
        if k == 5:
            self.tag("str.strip")
            chars = self.str_lit().text if self.flag(1, 3) else ""
            return _E(f"{s}.{self.choice(['strip', 'lstrip', 'rstrip'])}({chars})", True)
        if k == 6:
            self.tag("str.zfill")
            return _E(f"{s}.zfill({self.int_in(0, 5)})", True)
        if k == 7:
            self.tag("int(str)")
            return _E(f"str(int({s}))", True)
        if k == 8:
            self.tag("format_spec")
            spec = self.choice(["03d", "5", "+d", "*^6", "<4", " 05", "=+5"])
            return _E(f'f"{{{self.num(c, d - 1).text}:{spec}}}"', True)
        if k == 3:
            self.tag("join_reversed")
            return _E(f"''.join(reversed({s}))", True)
        if k == 4:
            self.tag("join_sorted_str")
            return _E(f"''.join(sorted({s}{', reverse=True' if self.flag(1, 3) else ''}))", True)
        if k < 2:
            self.tag("str.upper")
            return _E(f"{s}.{'upper' if k == 0 else 'lower'}()", True)
        self.tag("str.replace")
        old, new = self.str_lit(), self.str_lit()
        return _E(f"{s}.replace({old.text}, {new.text})", True)

    def str_class(self, strs: list[_Var]) -> _E:
        self.tag("str.is_class")
        method = self.choice(["isdigit", "isdecimal", "isnumeric", "isalpha", "isalnum", "isspace", "islower", "isupper"])
        return _E(f"{self.choice(strs).text}.{method}()", True)

    def startswith(self, c: _Ctx, d: int, strs: list[_Var]) -> _E:
        self.tag("str.startswith")
        prefix = self.str_lit() if self.flag(2, 3) else self.str_(c, d - 1)
        return _E(f"{self.choice(strs).text}.startswith({prefix.text})", True)

    # lists: repetition and comparison
    def list_repeat(self, c: _Ctx, d: int) -> _E:
        """``[e, ...] * n`` or ``n * [e, ...]`` (n concrete or symbolic, negative and 0
        included; at most 3), or a list times a literal 0..2."""
        self.tag("list_repeat")
        d = max(d, 0)
        lists = c.vars(LIST)
        k = self.int_in(0, 3)
        if k == 3 and lists:
            self.tag("list_repeat_list")
            return _E(f"{self.choice(lists).text} * {self.int_in(0, 2)}", False)
        items = ", ".join(self.num(c, d).text for _ in range(self.int_in(1, 2)))
        if k == 1:
            self.tag("list_repeat_symbolic")
            self.tag("list_repeat_min")  # any negative count, below -2**63 too
            count = _E(f"min({self.num(c, d).text}, {self.int_in(1, 3)})", True)
        elif k == 2:
            self.tag("list_repeat_symbolic")
            count = _E(f"{_par(self.num(c, d))} % {self.int_in(2, 4)}", False)
        else:
            count = self.int_lit(-1, 3)
        if self.flag(1, 3):
            self.tag("list_repeat_reflected")
            return _E(f"{_par(count)} * [{items}]", False)
        return _E(f"[{items}] * {_par(count)}", False)

    def list_value(self, c: _Ctx, d: int) -> _E:
        lists = c.vars(LIST)
        if lists and self.flag(1, 3):
            self.tag("sorted")
            return _E(f"sorted({self.choice(lists).text})", True)
        return self.list_repeat(c, d)

    def list_operand(self, c: _Ctx, d: int) -> _E:
        lists = c.vars(LIST)
        opts: list[tuple[int, Callable[[], _E]]] = [
            (1, lambda: _E("[" + ", ".join(self.num(c, max(d - 1, 0)).text for _ in range(self.int_in(0, 2))) + "]", True)),
            (1, lambda: self.list_value(c, d - 1)),
        ]
        if lists:
            opts.append((4, lambda: self.read(self.choice(lists))))
        return self.pick(opts)

    def list_compare(self, c: _Ctx, d: int) -> _E:
        self.tag("list_compare")
        a, b = self.list_operand(c, d), self.list_operand(c, d)
        return _E(f"{_par(a)} {self.choice(CMP_OPS)} {_par(b)}", False)

    # sets of ints
    def set_value(self, c: _Ctx, d: int) -> _E:
        """A set of ints: a display, ``set(xs)``, a comprehension over a list, the set local
        ``s0``, or two of these combined by ``|``, ``&``, ``-`` or ``^``."""
        lists, sets = c.vars(LIST), c.vars(SET)

        def display() -> _E:
            self.tag("set_display")
            items = [self.num(c, max(d - 1, 0)).text for _ in range(self.int_in(0, 3))]
            return _E("{" + ", ".join(items) + "}" if items else "set()", True)

        def from_list() -> _E:
            self.tag("set_from_list")
            return _E(f"set({self.choice(lists).text})", True)

        def comprehension() -> _E:
            self.tag("setcomp")
            xs = self.choice(lists)
            inner = replace(c, scope=c.scope + (_Var("cv", INT, False),), loop_depth=c.loop_depth + 1, frozen=c.frozen | {xs.text})
            loop = f"for cv in {xs.text}"
            if self.flag(1, 2):
                loop += f" if {_par(self.boolean(inner, d - 1))}"
            return _E(f"{{{_par(self.num(inner, d - 1))} {loop}}}", True)

        opts = _present(
            (2, True, display),
            (2, lists, from_list),
            (2, lists, comprehension),
            (2, sets, lambda: _E(self.choice(sets).text, True)),
        )
        made = self.pick(opts)
        if d > 1 and self.flag(1, 3):
            self.tag("set_op")
            other = self.set_value(c, d - 1)
            return _E(f"{_par(made)} {self.choice(['|', '&', '-', '^'])} {_par(other)}", False)
        return made

    def set_num(self, c: _Ctx, d: int) -> _E:
        """``len``, ``sum``, ``min``/``max`` (ValueError for an empty set), ``sorted(...)[i]``
        or ``[cv for cv in s][i]`` (CPython's iteration order; IndexError past the end)."""
        s = _par(self.set_value(c, d))
        forms: list[tuple[str, Callable[[], str]]] = [
            ("set_len", lambda: f"len({s})"),
            ("set_sum", lambda: f"sum({s})"),
            ("set_minmax", lambda: f"{self.choice(['min', 'max'])}({s})"),
            ("set_sorted", lambda: f"sorted({s}{self.choice(['', ', reverse=True'])})[{self.index(c, d).text}]"),
            ("set_iter", lambda: f"[cv for cv in {s}][{self.index(c, d).text}]"),
        ]
        tag, write = self.choice(forms)
        if tag == "set_iter" and ":=" in s:  # a walrus in a comprehension's iterable is CPython's SyntaxError
            tag, write = forms[0]
        self.tag(tag)
        return _E(write(), True)

    def set_bool(self, c: _Ctx, d: int) -> _E:
        k = self.int_in(0, 2)
        a = _par(self.set_value(c, d))
        if k == 0:
            self.tag("set_in")
            return _E(f"{_par(self.num(c, d - 1))} {self.choice(['in', 'not in'])} {a}", False)
        b = _par(self.set_value(c, d - 1))
        if k == 1:
            self.tag("set_compare")
            return _E(f"{a} {self.choice(['==', '!=', '<', '<=', '>', '>='])} {b}", False)
        self.tag("set_method")
        return _E(f"{a}.{self.choice(['issubset', 'issuperset', 'isdisjoint'])}({b})", True)

    def set_local(self, c: _Ctx) -> str:
        self.tag("set_local")
        return f"s0 = {self.set_value(c, 1).text}"

    def set_stmt(self, c: _Ctx, sets: list[_Var]) -> str:
        """A change of the set local: ``add``, ``discard``, ``remove`` (KeyError) or ``|=``."""
        s = self.choice(sets).text
        method = self.choice(["add", "discard", "remove", "update"])
        self.tag(f"set_{method}")
        if method == "update":
            return f"{s} |= {{{self.num(c, 1).text}}}"
        return f"{s}.{method}({self.num(c, 1).text})"

    # module-level dict
    def dict_len(self, dicts: list[_Var]) -> _E:
        self.tag("dict_len")
        return _E(f"len({self.choice(dicts).text})", True)

    def dict_in(self, c: _Ctx, d: int, dicts: list[_Var]) -> _E:
        self.tag("dict_in")
        op = self.choice(["in", "not in"])
        return _E(f"{_par(self.num(c, d - 1))} {op} {self.choice(dicts).text}", False)

    def dict_value(self, c: _Ctx, d: int, dicts: list[_Var]) -> _E:
        table = self.choice(dicts).text
        key = self.num(c, d - 1)
        if self.flag():
            self.tag("dict_get")
            return _E(f"{table}.get({key.text}, {self.str_lit().text})", True)
        self.tag("dict_index")  # KeyError for a missing key
        return _E(f"{table}[{key.text}]", True)

    # the dunder class
    def dunder_num(self, c: _Ctx, d: int, dobjs: list[_Var]) -> _E:
        v = self.choice(dobjs)
        cls = v.cls
        assert isinstance(cls, _Dunder)

        def recv() -> str:  # a static or class method called on the class or an instance
            if self.flag():
                return cls.name
            self.tag("method_on_instance")
            return v.text

        opts: list[tuple[int, Callable[[], _E]]] = [(1, lambda: self.read(_Var(f"{v.text}.v", INT, True)))]
        if "property" in cls.extras:
            opts.append((2, lambda: self.tagged("property", _E(f"{v.text}.big", True))))
        if "staticmethod" in cls.extras:
            opts.append((1, lambda: self.tagged("staticmethod", _E(f"{recv()}.clamp({self.num(c, d - 1).text})", True))))
        if "classmethod" in cls.extras:
            opts.append((1, lambda: self.tagged("classmethod", _E(f"{recv()}.make({self.num(c, d - 1).text}).v", True))))
        if "__len__" in cls.dunders:
            opts.append((2, lambda: self.tagged("dunder:__len__", _E(f"len({v.text})", True))))
        if "__add__" in cls.dunders:
            opts.append((2, lambda: self.dunder_add(c, d, v, dobjs)))
        if "__radd__" in cls.dunders:
            opts.append((2, lambda: self.tagged("dunder:__radd__", _E(f"({_par(self.num(c, d - 1))} + {v.text}).v", True))))
        return self.pick(opts)

    def dunder_add(self, c: _Ctx, d: int, v: _Var, dobjs: list[_Var]) -> _E:
        self.tag("dunder:__add__")
        other = self.choice(dobjs).text if self.flag(1, 3) else _par(self.num(c, d - 1))
        return _E(f"({v.text} + {other}).v", True)

    def tagged(self, tag: str, e: _E) -> _E:
        self.tag(tag)
        return e

    def dunder_bool(self, c: _Ctx, d: int, dobjs: list[_Var]) -> _E:
        v = self.choice(dobjs)
        cls = v.cls
        assert isinstance(cls, _Dunder)
        has = cls.dunders

        def other() -> str:  # another instance, or v itself
            return self.choice(dobjs).text

        def num() -> str:
            return _par(self.num(c, d - 1))

        def contains() -> _E:
            self.tag("dunder:__contains__")
            return _E(f"{num()} {self.choice(['in', 'not in'])} {v.text}", False)

        def identity() -> _E:  # no __eq__: object identity
            self.tag("dunder_identity")
            return _E(f"{v.text} {self.choice(['==', '!='])} {other()}", False)

        return self.pick(
            _present(
                (1, True, lambda: self.dunder_truth(v, f"bool({v.text})")),
                (3, "__eq__" in has, lambda: self.dunder_compare(v, "__eq__", other, num)),
                (2, "__eq__" not in has, identity),
                (3, "__lt__" in has, lambda: self.dunder_compare(v, "__lt__", other, num)),
                (2, "__contains__" in has, contains),
            )
        )

    def dunder_compare(self, v: _Var, dunder: str, other: Callable[[], str], num: Callable[[], str]) -> _E:
        """``v == w``, ``v != n``, ``n == v`` with ``__eq__``; ``v < w``, ``v < n``, ``n > v``,
        ``w > v`` with ``__lt__`` (w an instance, n an int). Reflected: ``int.__eq__`` gives
        NotImplemented, so CPython calls ``v.__eq__(n)``; there is no ``__gt__``, so for
        ``n > v`` and ``w > v`` CPython calls ``v.__lt__``."""
        self.tag(f"dunder:{dunder}")
        op, reflected = ("<", ">") if dunder == "__lt__" else ("==", "==")
        if dunder == "__eq__" and self.flag():
            op = reflected = "!="
        k = self.int_in(0, 3)
        if k < 2:
            return _E(f"{v.text} {op} {other() if k == 0 else num()}", False)
        if k == 2 or dunder == "__lt__":
            self.tag("dunder_reflected")
        return _E(f"{num() if k == 2 else other()} {reflected} {v.text}", False)

    def dunder_truth(self, v: _Var, text: str) -> _E:
        self.tag("dunder_truth")
        assert isinstance(v.cls, _Dunder)
        if "__bool__" in v.cls.dunders:
            self.tag("dunder:__bool__")
        elif "__len__" in v.cls.dunders:
            self.tag("dunder:__len__")
        return _E(text, True)

    def truthy_object(self, objects: list[_Var]) -> _E:
        v = self.choice(objects)
        if v.ty == DOBJ:
            return self.dunder_truth(v, v.text)
        self.tag("truthiness")
        return _E(v.text, True)

    # Enum
    def enum_member(self, cls: _EnumCls) -> str:
        return f"{cls.name}.{self.choice(cls.members)}"

    def enum_expr(self, c: _Ctx, d: int, cls: _EnumCls) -> _E:
        k = self.pick([(3, lambda: 0), (1, lambda: 1), (1, lambda: 2)])
        if k == 0:
            return _E(self.enum_member(cls), True)
        if k == 1:
            self.tag("ifexp")
            cond = self.cond(c, max(d - 1, 0))
            return _E(f"{self.enum_member(cls)} if {_par(cond)} else {self.enum_member(cls)}", False)
        self.tag("enum_call")  # value 0 is no member: ValueError
        n = cls.n_values + (1 if self.flag() else 0)
        offset = " + 1" if n == cls.n_values else ""
        return _E(f"{cls.name}({_par(self.num(c, max(d - 1, 0)))} % {n}{offset})", True)

    def enum_num(self, enums: list[_Var]) -> _E:
        v = self.choice(enums)
        cls = v.cls
        assert isinstance(cls, _EnumCls)
        k = self.int_in(0, 3)
        if k < 2:
            self.tag("enum_value")
            return _E(f"{v.text if k == 0 else self.enum_member(cls)}.value", True)
        if k == 2:
            self.tag("enum_name")
            return _E(f"len({v.text}.name)", True)
        self.tag("enum_len")  # aliases are not counted
        return _E(f"len({cls.name})", True)

    def enum_name(self, enums: list[_Var]) -> _E:
        self.tag("enum_name")
        v = self.choice(enums)
        assert isinstance(v.cls, _EnumCls)
        return _E(f"{v.text if self.flag(2, 3) else self.enum_member(v.cls)}.name", True)

    def enum_bool(self, c: _Ctx, d: int, enums: list[_Var]) -> _E:
        v = self.choice(enums)
        cls = v.cls
        assert isinstance(cls, _EnumCls)
        k = self.pick([(3, lambda: 0), (3, lambda: 1), (1, lambda: 2)])
        if k == 0:
            self.tag("enum_eq")
            return _E(f"{v.text} {self.choice(['==', '!='])} {self.enum_member(cls)}", False)
        if k == 1:
            self.tag("enum_is")
            return _E(f"{v.text} {self.choice(['is', 'is not'])} {self.enum_member(cls)}", False)
        self.tag("enum_eq_int")  # a plain Enum member never equals its value
        return _E(f"{v.text} == {_par(self.num(c, d - 1))}", False)

    # dataclasses
    def dataclass_new(self, c: _Ctx, d: int, cls: _DataCls) -> _E:
        args = [self.num(c, d).text]
        keyword = False
        for name, kind in cls.fields[1 : 1 + self.int_in(0, len(cls.fields) - 1)]:
            value = (self.num(c, d) if kind == INT else self.str_(c, d)).text
            keyword = keyword or self.flag(1, 3)
            if keyword:
                self.tag("dataclass_kw")
                args.append(f"{name}={value}")
            else:
                args.append(value)
        return _E(f"{cls.name}({', '.join(args)})", True)

    def dataclass_bool(self, c: _Ctx, d: int, dcs: list[_Var]) -> _E:
        v = self.choice(dcs)
        cls = v.cls
        assert isinstance(cls, _DataCls)
        other = self.choice(dcs).text if self.flag(2, 3) else self.dataclass_new(c, max(d - 1, 0), cls).text
        if cls.order and self.flag():
            self.tag("dataclass_lt")
            return _E(f"{v.text} {self.choice(['<', '<=', '>', '>='])} {other}", False)
        self.tag("dataclass_eq")
        return _E(f"{v.text} {self.choice(['==', '!='])} {other}", False)

    def dataclass_method(self, dcs: list[_Var]) -> _E:
        self.tag("dataclass_method")
        return _E(f"{self.choice(dcs).text}.total()", True)

    # statements
    def note_write(self, v: _Var) -> None:
        if "." in v.text:
            self.tag("field_write")
            if isinstance(v.cls, _DataCls):
                self.tag("dataclass_write")

    def enum_assign(self, c: _Ctx, enums: list[_Var]) -> str:
        self.tag("enum_assign")
        v = self.choice(enums)
        assert isinstance(v.cls, _EnumCls)
        return f"{v.text} = {self.enum_expr(c, 2, v.cls).text}"

    def divmod_unpack(self, c: _Ctx, ints: list[_Var]) -> str:
        self.tag("divmod", "divmod_unpack")
        q = self.choice(ints)
        r = self.choice([v for v in ints if v is not q])
        self.note_write(q)
        self.note_write(r)
        return f"{q.text}, {r.text} = divmod({self.num(c, 1).text}, {self.num(c, 1).text})"

    # module-level units
    def edge_constants(self, consts: list[_Var]) -> list[str]:
        """Computed module constants, each optional: LIMIT, PRIMES (and KP), TABLE, WORD."""
        lines: list[str] = []
        units = (self.const_limit, self.const_list, self.const_dict, self.const_str)
        for unit in units:
            made = self.optional(lambda unit=unit: unit(consts), 1, 4)
            if made is not None:
                lines += made if isinstance(made, list) else [made]
        return lines

    def edge_classes(self, chunks: list[list[str]]) -> list[_Dunder | _EnumCls | _DataCls]:
        """The classes the analysis runs in CPython, each optional: N0 (one time in two),
        Color and D0 (one in four each); their lines are appended to ``chunks``."""
        made: list[_Dunder | _EnumCls | _DataCls] = []
        units = ((self.dunder_class, "N0", 2), (self.enum_class, "Color", 1), (self.data_class, "D0", 1))
        for unit, name, num in units:
            one = self.optional(lambda unit=unit, name=name: self.span("edge_class", lambda: unit(name)), num, 4)
            if one is not None:
                made.append(one[0])
                chunks.append(one[1])
        return made

    def const_limit(self, consts: list[_Var]) -> str:
        self.tag("const_computed")
        consts.append(_Var("LIMIT", INT, False))
        if self.flag():
            return f"LIMIT = 10 ** {self.int_in(1, 3)}"
        return f"LIMIT = 2 ** {self.int_in(2, 6)} - 1"

    def const_list(self, consts: list[_Var]) -> list[str]:
        self.tag("const_list")
        items = self.draw(st.lists(st.integers(-3, 9), min_size=1, max_size=4))
        lines = [f"PRIMES = {items!r}"]
        consts.append(_Var("PRIMES", LIST, False, mutable=False))
        if self.flag():
            self.tag("const_len")
            lines.append("KP = len(PRIMES)")
            consts.append(_Var("KP", INT, False))
        return lines

    def const_dict(self, consts: list[_Var]) -> str:
        self.tag("const_dict")
        keys = self.draw(st.lists(st.integers(-2, 4), min_size=1, max_size=3, unique=True))
        items = ", ".join(f"{k}: {self.choice(STR_LITERALS)!r}" for k in keys)
        consts.append(_Var("TABLE", DICT, False))
        return f"TABLE = {{{items}}}"

    def const_str(self, consts: list[_Var]) -> str:
        self.tag("const_str")
        consts.append(_Var("WORD", STR, False))
        a, b = self.choice(STR_LITERALS), self.choice(STR_LITERALS)
        k = self.int_in(0, 2)
        if k == 0:
            return f"WORD = {a!r} * {self.int_in(0, 2)}"
        if k == 1:
            return f"WORD = {a!r} + {b!r}"
        return f"WORD = {a!r}.upper()"

    def dunder_class(self, name: str) -> tuple[_Dunder, list[str]]:
        self.tag("dunder_class")
        dunders = {n for n in ("__eq__", "__lt__", "__len__", "__bool__", "__contains__", "__add__") if self.flag()}
        if not dunders:
            dunders.add(self.choice(["__eq__", "__lt__", "__len__", "__bool__", "__contains__", "__add__"]))
        if "__add__" in dunders and self.flag():
            dunders.add("__radd__")
        extras = {n for n in ("property", "staticmethod", "classmethod") if self.flag(1, 3)}
        lines = [f"class {name}:", "    def __init__(self, v: int) -> None:", "        self.v = v"]

        def method(header: str, *body: str, decorator: str | None = None) -> None:
            lines.append("")
            if decorator:
                lines.append(f"    {decorator}")
            lines.extend([f"    {header}"] + [f"        {b}" for b in body])

        def key() -> str:
            k = self.choice(["{}", "{} % 3", "abs({})", "-{}", "7 // {}"])
            if k.startswith("7"):
                self.tag("dunder_raises")  # ZeroDivisionError inside the dunder
            return k

        unwrap = f"o = other.v if isinstance(other, {name}) else other"
        if "__eq__" in dunders:
            k = key()
            method("def __eq__(self, other: object) -> bool:", unwrap, f"return {k.format('self.v')} == {k.format('o')}")
        if "__lt__" in dunders:
            k = key()
            method("def __lt__(self, other: object) -> bool:", unwrap, f"return {k.format('self.v')} < {k.format('o')}")
        if "__len__" in dunders:
            body = self.choice(["abs(self.v) % 4", "self.v % 3", "self.v % 4 - 1", "min(abs(self.v), 5)"])
            if body.endswith("- 1"):
                self.tag("dunder_raises")  # len() of a negative __len__: ValueError
            method("def __len__(self) -> int:", f"return {body}")
        if "__bool__" in dunders:
            body = self.choice(["self.v > 0", "self.v % 2 == 0", "self.v != 3", "bool(self.v)"])
            method("def __bool__(self) -> bool:", f"return {body}")
        if "__contains__" in dunders:  # an int result is made a bool by `in`
            body = self.choice(["item % 3 == self.v % 3", "item > self.v", "item - self.v", "item == self.v or item == -self.v"])
            method("def __contains__(self, item: int) -> bool:", f"return {body}")
        if "__add__" in dunders:
            body = self.choice([f"{name}(self.v + o)", f"{name}(o - self.v)"])
            method(f"def __add__(self, other: object) -> {name!r}:", unwrap, f"return {body}")
        if "__radd__" in dunders:
            method(f"def __radd__(self, other: int) -> {name!r}:", f"return {name}(other + self.v)")
        if "property" in extras:
            body = self.choice(["self.v * 2", "self.v + 1", "-self.v", "abs(self.v)"])
            method("def big(self) -> int:", f"return {body}", decorator="@property")
            if self.flag():  # a setter: ``n0.big = e`` (edge_instances)
                extras.add("property_setter")
                setter = self.choice([["self.v = value // 2"], ["self.v = value - 1"], ["if value < 0:", "    raise ValueError('negative')", "self.v = value"]])
                method("def big(self, value: int) -> None:", *setter, decorator="@big.setter")
        if "staticmethod" in extras:
            body = self.choice(["min(max(a, -3), 3)", "a % 4", "abs(a) // 2"])
            method("def clamp(a: int) -> int:", f"return {body}", decorator="@staticmethod")
        if "classmethod" in extras:
            body = self.choice(["cls(a % 5)", "cls(a + 1)", "cls(-a)"])
            method(f"def make(cls, a: int) -> {name!r}:", f"return {body}", decorator="@classmethod")
        return _Dunder(name, frozenset(dunders), frozenset(extras)), lines

    def enum_class(self, name: str) -> tuple[_EnumCls, list[str]]:
        self.tag("enum")
        members = ["RED", "GREEN", "BLUE"][: self.int_in(2, 3)]
        lines = [f"class {name}(Enum):"] + [f"    {m} = {i + 1}" for i, m in enumerate(members)]
        n_values = len(members)
        if self.flag(1, 3):
            self.tag("enum_alias")  # the same value: another name of RED
            lines.append("    CRIMSON = 1")
            members.append("CRIMSON")
        return _EnumCls(name, tuple(members), n_values), lines

    def data_class(self, name: str) -> tuple[_DataCls, list[str]]:
        self.tag("dataclass")
        order = self.flag(1, 3)
        fields: list[tuple[str, str]] = [("a", INT), ("b", INT)]
        lines = ["@dataclass(order=True)" if order else "@dataclass", f"class {name}:", "    a: int", f"    b: int = {self.int_in(-2, 5)}"]
        if order:
            self.tag("dataclass_order")
        if self.flag(1, 3):
            self.tag("dataclass_str_field")
            fields.append(("s", STR))
            lines.append(f"    s: str = {self.choice(STR_LITERALS)!r}")
        method = self.flag(1, 3)
        if method:
            lines += ["", "    def total(self) -> int:", f"        return {self.choice(['self.a + self.b', 'self.a - 2 * self.b'])}"]
        return _DataCls(name, tuple(fields), order, method), lines

    def edge_instances(self, c: _Ctx, cls: _Dunder | _EnumCls | _DataCls, objs: list[_Var]) -> list[str]:
        """The entry's instances of a real-module class (and their fields, as variables)."""
        lines: list[str] = []
        if isinstance(cls, _EnumCls):
            lines.append(f"c0 = {self.enum_expr(c, 1, cls).text}")
            objs.append(_Var("c0", ENUM, True, cls))
            return lines
        prefix, kind = ("n", DOBJ) if isinstance(cls, _Dunder) else ("d", DC)
        for i in range(1 + (1 if self.flag() else 0)):
            name = f"{prefix}{i}"
            if isinstance(cls, _Dunder):
                lines.append(f"{name} = {cls.name}({self.num(c, 1).text})")
                if "property_setter" in cls.extras and self.flag():
                    self.tag("property_setter")
                    lines.append(f"{name}.big = {self.num(c, 1).text}")
                objs.append(_Var(f"{name}.v", INT, True))
            else:
                lines.append(f"{name} = {self.dataclass_new(c, 1, cls).text}")
                objs += [_Var(f"{name}.{f}", k, True, cls) for f, k in cls.fields]
            objs.append(_Var(name, kind, False, cls))
        return lines

    def container_local(self, c: _Ctx) -> tuple[str, _Var]:
        """``s0``, a local set of ints, when a list parameter can feed it, else ``l0``, a
        local list (no draw of its own: the shrinker keeps its structure)."""
        if c.vars(LIST):
            return self.set_local(c), _Var("s0", SET, False)
        return self.list_local(c), _Var("l0", LIST, False)

    def list_local(self, c: _Ctx) -> str:
        self.tag("list_local")
        return f"l0 = {self.list_value(c, 1).text}"
