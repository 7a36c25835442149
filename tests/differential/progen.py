"""Hypothesis strategies generating random programs in pathloom's supported subset.

    program = data.draw(programs())          # GeneratedProgram(source, entry, params, ...)
    inputs = data.draw(inputs_for(program))  # {"x": 3, "xs": [1, -2], ...}

The generator writes module source text directly from drawn choices, laid out so that
Hypothesis shrinking works on program structure:

* every decision is an ``st.integers`` draw and option lists are ordered simplest-first
  (literal ``0``, the first variable, an assignment), so shrinking simplifies choices;
* every statement, expression, helper and class is drawn inside its own labelled span
  (``_SPANS``), so the shrinker can delete a statement or replace an expression by a
  sub-expression of the same kind;
* optional units (statements after the first in a block, ``elif``/``else``, module
  constants, helpers, the class, parameters after the first) are encoded like
  ``st.lists`` elements: a "one more?" flag and the unit share one span.

Naming: entry ``f``; params ``x y z x2`` (int), ``p q ..`` (bool), ``s t ..`` (str),
``xs ys ..`` (list[int]); locals ``v0..`` (int), ``ok0`` (bool), ``u0`` (str), ``t0``
in helpers/methods; module constants ``K0 K1``; helpers ``h0 h1`` (params ``a b c``, or
``n a b`` for the recursive one; a helper may be a generator of ints, ``Iterator[int]``,
which yields in its body and in a bounded ``for`` loop, maybe ``yield from`` a list or an
earlier generator helper, and is consumed whole: ``sum(list(h(...)))``, ``len(tuple(...))``,
``sorted(h(...))[i]``); class ``C0`` with fields ``v``/``w`` and methods
``step(d)`` / ``get()``, instance ``o0``; while counters ``iN``; for variables ``kN``
(range), ``itN`` (list items), ``chN`` (chars); exception names ``errN``. The
real-module features (``progen_edges``, ``EDGE_FEATURES``; ``programs(edges=False)``
leaves them out) add the module constants ``LIMIT PRIMES KP TABLE WORD``, the classes
``N0`` (dunders), ``Color`` (an Enum) and ``D0`` (a dataclass), the entry's instances
``n0 n1``, ``c0``, ``d0 d1`` and the list ``l0``, and the modules ``math``, ``enum`` and
``dataclasses``, imported at the top. ``programs(heap=True)`` (``progen_heap``,
``HEAP_FEATURES``) adds input objects: the classes ``Node`` and maybe ``Pair``, the entry's
parameters ``a b`` (``Node``), ``m n`` (``Optional[Node]``), ``ns`` (``list[Node]``), ``pr``
(``Pair``), the local ``r0`` and walk variables ``wN``; ``typing.Optional`` is imported.
The breadth features (``progen_breadth``, ``BREADTH_FEATURES``, also left out by
``edges=False``) add the entry parameters ``xn yn ..`` (``int | None``), ``xu yu ..``
(``int | str``), read only after ``is None`` / ``isinstance`` narrowing, and ``g g2 ..``
(``Callable[[int], int]``, called on ints); the locals ``dd0`` (``defaultdict(int)`` or
``defaultdict(list)``) and ``cnt0`` with the nested function ``tick(dv)`` that updates it
through ``nonlocal``; ``functools.reduce(lambda a, b: ..., xs, init)``; slice assignment
``xs[a:b] = ...`` / ``xs[:] = ...`` / ``xs[::k] = ...``; ``typing.Callable`` (or
``collections.abc``), ``collections.defaultdict`` and ``functools.reduce`` are imported.

Guarantees (by construction, checked by ``test_progen_selfcheck.py``):

* the module compiles, the entry function ``f`` has the declared annotated params;
* every name is defined before use on every path: all locals of a function are
  initialised at its top; loop / counter / exception variables are fresh names
  that are only read inside the construct that binds them;
* expressions are well typed (no ``TypeError``): ints and bools mix freely in
  arithmetic and ``and``/``or``; ``ord`` only gets 1-char strings; bool variables
  only ever hold bools; str variables only strs;
* union-typed parameters are only read where narrowed to one type, the ``Callable`` ones
  only called on ints; the nested ``tick`` is the one nested function (it ends with a
  ``return``), ``nonlocal cnt0`` its one ``nonlocal``, ``lambda a, b: ...`` only the first
  argument of ``reduce``;
* termination: ``while`` loops use a fresh read-only counter ``iN = 0; while
  iN < K ...`` with ``K <= 4`` that is incremented first (then ``continue`` is
  allowed) or last (then no ``continue`` targets that loop); ``for`` loops iterate
  over constant ranges, ``range(len(xs))``, a list that the body never mutates, or
  a string; helpers only call lower-numbered helpers; the one possibly recursive
  helper has a read-only depth parameter that decreases by 1 or 2 per call and is
  bounded by ``min(e, K)`` at each call site or by an ``n > K`` base-case guard;
* bounded value growth: in helpers, methods and inside loops ``*`` / ``*=`` only
  multiply by a literal in -3..3 or a module constant and ``**`` only uses exponents
  0/1; the few genuinely non-linear operations (``e * e``, ``e ** 2``, ``e ** 3``)
  are allowed only in straight-line entry code, at most two per program.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from typing import Callable, Sequence

from hypothesis import reject
from hypothesis import strategies as st

from .progen_base import (
    _E,
    ANNOTATION,
    BOOL,
    CHAR,
    CMP_OPS,
    DC,
    DOBJ,
    ENTRY_NAME,
    ENUM,
    GEN,
    INT,
    LIST,
    MAX_NONLINEAR,
    MESSAGES,
    OBJ,
    SET,
    STR,
    STR_LITERALS,
    T,
    _Class,
    _Ctx,
    _Fn,
    _indent,
    _par,
    _Sig,
    _Var,
)
from .progen_breadth import (
    BREADTH_ANNOTATION,
    BREADTH_FEATURES,
    BREADTH_PARAM_NAMES,
    FUNC,
    INTSTR,
    OPTINT,
    BreadthBuilder,
    breadth_imports,
    breadth_input_types,
)
from .progen_edges import EDGE_FEATURES, EdgeBuilder
from .progen_syntax import FROZ, HUE, SYNTAX_ANNOTATION, SYNTAX_PARAM_NAMES, syntax_imports, syntax_input_types
from .progen_heap import (
    HEAP_ANNOTATION,
    HEAP_FEATURES,
    HEAP_PARAM_NAMES,
    NLIST,
    NODE,
    ONODE,
    PAIR,
    HeapBuilder,
    object_graphs,
    object_param,
    object_schema,
)

__all__ = [
    "BREADTH_FEATURES",
    "EDGE_FEATURES",
    "FEATURES",
    "HEAP_FEATURES",
    "GeneratedProgram",
    "inputs_for",
    "int_values",
    "programs",
    "str_values",
]


#: Every feature tag the generator can record in ``GeneratedProgram.features``.
FEATURES: frozenset[str] = (
    frozenset(
        {
            # entry signature
            "param:int",
            "param:bool",
            "param:str",
            "param:list",
            "return:int",
            "return:bool",
            "return:str",
            # module structure
            "module_const",
            "helper",
            "helper_call",
            "helper_calls_helper",
            "recursion",
            "class",
            "method",
            "method_call",
            "field_read",
            "field_write",
            # statements
            "assign",
            "tuple_unpack",
            "unpack_one",
            "unpack_one_for",
            "unpack_one_comp",
            "genexp_unpack",
            "unpack_star",
            "swap",
            "augassign:+=",
            "augassign:-=",
            "augassign:*=",
            "if",
            "elif",
            "else",
            "if_nested_3",
            "while",
            "while_cond",
            "while_incr_first",
            "while_incr_last",
            "for_range",
            "for_range_len",
            "for_list",
            "for_str",
            "nested_loop",
            "break",
            "continue",
            "return_early",
            "assert",
            "assert_msg",
            "raise",
            "try",
            "except:ZeroDivisionError",
            "except:IndexError_as",
            "except:ValueError",
            "except:tuple",
            "try_else",
            "finally",
            "finally_only",
            "append",
            "pop",
            "del_item",
            "sort",
            "insert",
            "for_enumerate",
            "for_reversed",
            "for_zip",
            # expressions
            "lit_neg",
            "binop:+",
            "binop:-",
            "binop:*",
            "binop://",
            "binop:%",
            "mul_nonlinear",
            "pow",
            "unary_minus",
            "abs",
            "min",
            "max",
            "compare",
            "compare_chain",
            "and",
            "or",
            "not",
            "and_or_mixed",
            "truthiness",
            "ifexp",
            "len_list",
            "len_str",
            "index_list",
            "index_neg",
            "index_str",
            "in_list",
            "in_str",
            "str_eq",
            "ord",
            "chr",
            "str_literal",
            "bool_literal",
            "sum_list",
            "max_list",
            "sorted_index",
            "isinstance",
            "join",
            # generator helpers, consumed whole by the entry and by other helpers
            "generator",
            "generator_loop",
            "generator_return",
            "yield_from_list",
            "yield_from_call",
            "generator_list",
            "generator_tuple",
            "generator_sorted",
            # generator helpers consumed item by item (frontend.lowering.generators)
            "for_generator",
            "for_genexp",
            "generator_sum_call",
            "generator_any",
            "generator_next",
            "generator_islice",
        }
    )
    | EDGE_FEATURES
    | BREADTH_FEATURES
    | HEAP_FEATURES
)


# --------------------------------------------------------------------------------------
# public data


@dataclass(frozen=True)
class GeneratedProgram:
    """A generated module; ``entry`` is the function under test."""

    source: str
    entry: str
    params: tuple[tuple[str, str], ...]
    features: frozenset[str] = frozenset()
    returns: str = "int"

    def numbered(self) -> str:
        """The source with 1-based line numbers (handy in failure messages)."""
        return "\n".join(f"{i:3d}| {line}" for i, line in enumerate(self.source.splitlines(), start=1))

    def _repr_pretty_(self, p, cycle):  # used by Hypothesis when reporting examples
        p.text(f"GeneratedProgram(entry={self.entry!r}, params={self.params!r}, returns={self.returns!r}, source=\n{self.numbered()}\n)")


# --------------------------------------------------------------------------------------
# input values


def int_values(small: int = 20) -> st.SearchStrategy[int]:
    """Mostly ints in ``-small..small``, occasionally a large one."""
    large = st.sampled_from([100, -100, 1000, 2**31 - 1, -(2**31), 2**32, 10**9, -(10**9), 2**63, -(2**63) - 1])
    return st.integers(0, 9).flatmap(lambda k: large if k == 9 else st.integers(-small, small))


def str_values(alphabet: str = "ab", max_len: int = 3) -> st.SearchStrategy[str]:
    return st.text(alphabet=alphabet, max_size=max_len)


def inputs_for(program: GeneratedProgram, max_list_len: int = 3, alphabet: str = "ab") -> st.SearchStrategy[dict[str, object]]:
    """Concrete arguments for ``program.entry`` keyed by parameter name."""
    per_type = {
        "int": int_values(),
        "bool": st.booleans(),
        "str": str_values(alphabet),
        "list[int]": st.lists(int_values(), max_size=max_list_len),
        **breadth_input_types(int_values(), str_values(alphabet)),
        **syntax_input_types(int_values()),
    }
    schema = object_schema(program.source) if "class " in program.source else {}
    if any(object_param(ann, schema) for _, ann in program.params):
        return object_graphs(program.params, schema, per_type, max_list_len)
    names = [name for name, _ in program.params]
    return st.tuples(*(per_type[ann] for _, ann in program.params)).map(lambda values: dict(zip(names, values)))


_pending = threading.local()  # stack of thunks for the span strategies below


def _make_span(kind: str) -> st.SearchStrategy:
    # Hypothesis labels a composite by its function's code *and defaults*, so each kind
    # gets its own label; the shrinker can then delete whole statements and replace an
    # expression by a sub-expression of the same kind ("pass to descendant"). The
    # strategy is built once (validation is cached); the work to do is the thunk on top
    # of the thread-local stack, pushed by _Builder.span just before drawing.
    def span(draw, _kind=kind):
        builder, thunk = _pending.stack[-1]
        outer = builder.draw  # the thunk draws through this span's own draw (same data)
        builder.draw = draw
        try:
            return thunk()
        finally:
            builder.draw = outer

    return st.composite(span)()


_SPANS = {
    k: _make_span(k)
    for k in (
        "num",
        "boolean",
        "cond",
        "str_",
        "char",
        "stmt",
        "block",
        "helper",
        "klass",
        "item",
        "edge_class",
        "edge_const",
    )
}
_INTS: dict[tuple[int, int], st.SearchStrategy[int]] = {}


class _Builder(BreadthBuilder, EdgeBuilder, HeapBuilder):
    def __init__(
        self,
        draw: Callable,
        max_functions: int,
        edges: bool = True,
        without: frozenset[str] = frozenset(),
        heap: bool = False,
    ):
        self.draw = draw
        self.max_functions = max_functions
        self.edges = edges  # generate the real-module features (EDGE_FEATURES)
        self.heap = heap  # input objects: the class Node and Node-typed parameters (HEAP_FEATURES)
        self.without = without  # feature tags no program may have
        self.tags: set[str] = set()
        self.nonlinear = MAX_NONLINEAR
        self.in_finally = 0  # writing a finally body: no try inside (pathloom refuses it)

    # -- choice helpers (all shrink towards the first / smallest option) -------------
    def int_in(self, lo: int, hi: int) -> int:
        strategy = _INTS.get((lo, hi))
        if strategy is None:
            strategy = _INTS[(lo, hi)] = st.integers(lo, hi)
        return self.draw(strategy)

    def flag(self, num: int = 1, den: int = 2) -> bool:
        """True with probability about num/den; shrinks to False."""
        return self.int_in(0, den - 1) >= den - num

    def choice(self, items: Sequence[T]) -> T:
        return items[0] if len(items) == 1 else items[self.int_in(0, len(items) - 1)]

    def pick(self, options: list[tuple[int, Callable[[], T]]]) -> T:
        options = [(w, f) for w, f in options if w > 0]
        total = sum(w for w, _ in options)
        r = self.int_in(0, total - 1)
        for w, f in options:
            if r < w:
                return f()
            r -= w
        raise AssertionError("unreachable")

    def tag(self, *names: str) -> None:
        for n in names:
            assert n in FEATURES, n
            if n in self.without:
                reject()  # the whole program: Hypothesis draws another
            self.tags.add(n)

    # -- spans: give the shrinker structure to delete / replace ---------------------
    def span(self, kind: str, thunk: Callable[[], T]) -> T:
        stack = getattr(_pending, "stack", None)
        if stack is None:
            stack = _pending.stack = []
        stack.append((self, thunk))
        try:
            return self.draw(_SPANS[kind])
        finally:
            stack.pop()

    def optional(self, thunk: Callable[[], T], num: int = 1, den: int = 2) -> T | None:
        """``thunk()`` with probability ~num/den, else None.

        Like ``st.lists`` elements, the "one more?" flag and the element share one span:
        deleting the span deletes the element without shifting later choices, and
        zeroing the flag drops it.
        """
        return self.span("item", lambda: thunk() if self.flag(num, den) else None)

    def num(self, c, d):
        return self.span("num", lambda: self._num(c, d))

    def boolean(self, c, d):
        return self.span("boolean", lambda: self._boolean(c, d))

    def cond(self, c, d):
        return self.span("cond", lambda: self._cond(c, d))

    def str_(self, c, d):
        return self.span("str_", lambda: self._str_(c, d))

    def char(self, c, d):
        return self.span("char", lambda: self._char(c, d))

    def stmt(self, c):
        return self.span("stmt", lambda: self._stmt(c))

    def block(self, c, max_stmts):
        return self.span("block", lambda: self._block(c, max_stmts))

    def helper(self, sig, callables, consts):
        return self.span("helper", lambda: self._helper(sig, callables, consts))

    def klass(self, name, helpers, consts):
        return self.span("klass", lambda: self._klass(name, helpers, consts))

    # -- leaves ----------------------------------------------------------------------
    def int_lit(self, lo: int = -4, hi: int = 9) -> _E:
        v = self.int_in(lo, hi)
        if v < 0:
            self.tag("lit_neg")
            return _E(str(v), False)
        return _E(str(v), True)

    def read(self, v: _Var) -> _E:
        if "." in v.text:
            self.tag("field_read")
        return _E(v.text, True)

    def str_lit(self) -> _E:
        self.tag("str_literal")
        return _E(repr(self.choice(STR_LITERALS)), True)

    def small_factor(self, c: _Ctx) -> _E:
        consts = [v for v in c.vars(INT) if v.text.startswith("K")]
        opts: list[tuple[int, Callable[[], _E]]] = [(4, lambda: self.int_lit(-3, 3))]
        if consts:
            opts.append((1, lambda: self.read(self.choice(consts))))
        return self.pick(opts)

    # -- int-valued expressions (may evaluate to a bool at runtime) -----------------
    def _num(self, c: _Ctx, d: int) -> _E:
        ints, bools = c.vars(INT), c.vars(BOOL)
        lists, strs = c.vars(LIST), c.vars(STR)
        opts: list[tuple[int, Callable[[], _E]]] = [(3, self.int_lit)]
        if ints:
            opts.append((7, lambda: self.read(self.choice(ints))))
        if bools:
            opts.append((1, lambda: self.read(self.choice(bools))))
        if lists:
            opts.append((1, lambda: self.len_of(lists, "len_list")))
        if strs:
            opts.append((1, lambda: self.len_of(strs, "len_str")))
        if d > 0:
            opts += [
                (4, lambda: self.addsub(c, d)),
                (2, lambda: self.mul(c, d)),
                (2, lambda: self.divmod(c, d)),
                (1, lambda: self.neg(c, d)),
                (2, lambda: self.builtin_call(c, d)),
                (1, lambda: self.ifexp(c, d, self.num)),
                (1, lambda: self.and_or_num(c, d)),
                (1, lambda: self.pow(c, d)),
                (1, lambda: self.ord(c, d)),
            ]
            if lists:
                opts.append((3, lambda: self.index_list(c, d, lists)))
                opts.append((3, lambda: self.whole_list(lists)))
            calls = [s for s in c.fn.callables if s.ret == INT]
            if calls:
                w = 6 if c.fn.kind == "helper" else 2
                opts.append((w, lambda: self.call(c, d, self.choice(calls))))
            generators = [s for s in c.fn.callables if s.ret == GEN]
            if generators:
                opts.append((4, lambda: self.generator_use(c, d, self.choice(generators))))
            objs = c.vars(OBJ)
            if objs:
                opts.append((2, lambda: self.method_call(c, d, self.choice(objs))))
            if self.edges:
                opts += self.edge_nums(c, d)
                opts += self.breadth_nums(c, d)
            if self.heap:
                opts += self.heap_nums(c, d)
        return self.pick(opts)

    def whole_list(self, lists: list[_Var]) -> _E:
        """A builtin over a whole list: ``sum``, ``max``/``min`` (ValueError when empty),
        ``sorted(xs)[i]`` (IndexError when too short)."""
        xs = self.choice(lists).text
        kind = self.choice(["sum_list", "max_list", "sorted_index"])
        self.tag(kind)
        if kind == "sum_list":
            return _E(f"sum({xs})" if self.flag() else f"sum({xs}, {self.int_in(-3, 3)})", True)
        if kind == "max_list":
            return _E(f"{self.choice(['max', 'min'])}({xs})", True)
        reverse = ", reverse=True" if self.flag(1, 3) else ""
        return _E(f"sorted({xs}{reverse})[{self.int_in(-2, 1)}]", True)

    def len_of(self, vs: list[_Var], tag: str) -> _E:
        self.tag(tag)
        return _E(f"len({self.choice(vs).text})", True)

    def addsub(self, c: _Ctx, d: int) -> _E:
        op = self.choice(["+", "-"])
        self.tag(f"binop:{op}")
        a, b = self.num(c, d - 1), self.num(c, d - 1)
        return _E(f"{_par(a)} {op} {_par(b)}", False)

    def mul(self, c: _Ctx, d: int) -> _E:
        self.tag("binop:*")
        a = self.num(c, d - 1)
        if not c.linear and self.nonlinear > 0 and self.flag():
            self.nonlinear -= 1
            self.tag("mul_nonlinear")
            b = self.num(c, d - 1)
        else:
            b = self.small_factor(c)
        if self.flag(1, 3):
            a, b = b, a
        return _E(f"{_par(a)} * {_par(b)}", False)

    def divmod(self, c: _Ctx, d: int) -> _E:
        op = self.choice(["//", "%"])
        self.tag(f"binop:{op}")
        a, b = self.num(c, d - 1), self.num(c, d - 1)
        return _E(f"{_par(a)} {op} {_par(b)}", False)

    def neg(self, c: _Ctx, d: int) -> _E:
        self.tag("unary_minus")
        return _E(f"-{_par(self.num(c, d - 1))}", False)

    def builtin_call(self, c: _Ctx, d: int) -> _E:
        fn = self.choice(["abs", "min", "max"])
        self.tag(fn)
        if fn == "abs":
            return _E(f"abs({self.num(c, d - 1).text})", True)
        a, b = self.num(c, d - 1), self.num(c, d - 1)
        return _E(f"{fn}({a.text}, {b.text})", True)

    def ifexp(self, c: _Ctx, d: int, gen: Callable[[_Ctx, int], _E]) -> _E:
        self.tag("ifexp")
        a = gen(c, d - 1)
        cond = self.cond(c, d - 1)
        b = gen(c, d - 1)
        return _E(f"{_par(a)} if {_par(cond)} else {_par(b)}", False)

    def and_or_num(self, c: _Ctx, d: int) -> _E:
        op = self.choice(["and", "or"])
        self.tag(op, "and_or_mixed")
        a = self.num(c, d - 1)
        b = self.num(c, d - 1) if self.flag() else self.boolean(c, d - 1)
        if self.flag():
            a, b = b, a
        return _E(f"{_par(a)} {op} {_par(b)}", False)

    def pow(self, c: _Ctx, d: int) -> _E:
        self.tag("pow")
        base = self.num(c, d - 1)
        if not c.linear and self.nonlinear > 0:
            k = self.int_in(0, 3)
            if k >= 2:
                self.nonlinear -= 1
        else:
            k = self.int_in(0, 1)
        return _E(f"{_par(base)} ** {k}", False)

    def index(self, c: _Ctx, d: int) -> _E:
        if self.flag(1, 3):
            self.tag("index_neg")
            return _E(str(-self.int_in(1, 2)), False)
        return self.num(c, d - 1)

    def index_list(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        self.tag("index_list")
        xs = self.choice(lists)
        return _E(f"{xs.text}[{self.index(c, d).text}]", True)

    def ord(self, c: _Ctx, d: int) -> _E:
        self.tag("ord")
        return _E(f"ord({self.char(c, d - 1).text})", True)

    def call(self, c: _Ctx, d: int, sig: _Sig) -> _E:
        self.tag("helper_call")
        if c.fn.kind == "helper":
            self.tag("helper_calls_helper")
        args: list[str] = []
        for i, _ in enumerate(sig.params):
            if i == 0 and sig.rec is not None and sig.rec[0] == "min":
                k = sig.rec[1]
                if self.flag():
                    self.tag("min")
                    args.append(f"min({self.num(c, d - 1).text}, {k})")
                else:
                    args.append(str(self.int_in(0, k)))
            else:
                args.append(self.num(c, d - 1).text)
        return _E(f"{sig.name}({', '.join(args)})", True)

    def generator_use(self, c: _Ctx, d: int, sig: _Sig) -> _E:
        """A generator helper's items consumed whole: summed from ``list()``, counted from
        ``tuple()``, or one of ``sorted()`` (an IndexError when there are too few); or item by
        item: ``sum()`` of the call, ``any()`` over it (which stops the generator early),
        ``next()`` of it with a default (the first item only), sometimes of
        ``itertools.islice`` of it."""
        made = self.call(c, d, sig).text
        k = self.int_in(0, 4)
        if k == 3 or (k == 4 and ":=" in made):  # a walrus in a comprehension's iterable is CPython's SyntaxError
            self.tag("generator_sum_call")
            return _E(f"sum({made})", True)
        if k == 4 and self.flag():
            self.tag("generator_next")
            if self.flag(1, 3):  # its first items only: itertools.islice (a stop of 0 ends at once)
                self.tag("generator_islice")
                made = f"itertools.islice({made}, {self.int_in(0, 3)})"
            return _E(f"next({made}, {self.int_in(-2, 2)})", True)
        if k == 4:
            self.tag("generator_any")
            v = c.fn.fresh("v")
            return _E(f"int(any({v} > {self.int_in(-2, 3)} for {v} in {made}))", True)
        if k == 0:
            self.tag("generator_list")
            return _E(f"sum(list({made}))", True)
        if k == 1:
            self.tag("generator_tuple")
            return _E(f"len(tuple({made}))", True)
        self.tag("generator_sorted")
        reverse = ", reverse=True" if self.flag() else ""
        return _E(f"sorted({made}{reverse})[{self.index(c, d).text}]", True)

    def method_call(self, c: _Ctx, d: int, obj: _Var) -> _E:
        self.tag("method_call")
        assert obj.cls is not None
        sig = self.choice(obj.cls.methods)
        args = [self.num(c, d - 1).text for _ in sig.params]
        return _E(f"{obj.text}.{sig.name}({', '.join(args)})", True)

    # -- bool-valued expressions (always a real bool at runtime) ---------------------
    def _boolean(self, c: _Ctx, d: int) -> _E:
        bools = c.vars(BOOL)
        opts: list[tuple[int, Callable[[], _E]]] = [(1, self.bool_lit)]
        if bools:
            opts.append((3, lambda: self.read(self.choice(bools))))
        if d > 0:
            opts += [
                (6, lambda: self.compare(c, d)),
                (1, lambda: self.not_(c, d, self.boolean)),
                (2, lambda: self.bool_op(c, d, self.boolean)),
                (1, lambda: self.str_eq(c, d)),
                (1, lambda: self.ifexp(c, d, self.boolean)),
            ]
            lists, strs = c.vars(LIST), c.vars(STR, CHAR)
            if lists:
                opts.append((3, lambda: self.in_list(c, d, lists)))
            if strs:
                opts.append((2, lambda: self.in_str(c, d)))
            opts.append((1, lambda: self.isinstance_(c, d)))
            calls = [s for s in c.fn.callables if s.ret == BOOL]
            if calls:
                opts.append((1, lambda: self.call(c, d, self.choice(calls))))
            if self.edges:
                opts += self.edge_bools(c, d)
                opts += self.breadth_bools(c, d)
            if self.heap:
                opts += self.heap_bools(c, d)
        return self.pick(opts)

    def isinstance_(self, c: _Ctx, d: int) -> _E:
        self.tag("isinstance")
        value = self.typed(c, self.choice([INT, STR, LIST]) if c.vars(LIST) else self.choice([INT, STR]), d - 1)
        classes = self.choice(["int", "str", "(int, str)", "list", "bool", "(tuple, list)", "(str, bool)"])
        return _E(f"isinstance({value.text}, {classes})", True)

    def bool_lit(self) -> _E:
        self.tag("bool_literal")
        return _E(self.choice(["True", "False"]), True)

    def compare(self, c: _Ctx, d: int) -> _E:
        self.tag("compare")
        n = 3 if self.flag(1, 4) else 2
        if n == 3:
            self.tag("compare_chain")
        parts = [_par(self.num(c, d - 1))]
        for _ in range(n - 1):
            parts += [self.choice(CMP_OPS), _par(self.num(c, d - 1))]
        return _E(" ".join(parts), False)

    def not_(self, c: _Ctx, d: int, gen: Callable[[_Ctx, int], _E]) -> _E:
        self.tag("not")
        return _E(f"not {_par(gen(c, d - 1))}", False)

    def bool_op(self, c: _Ctx, d: int, gen: Callable[[_Ctx, int], _E]) -> _E:
        op = self.choice(["and", "or"])
        self.tag(op)
        a, b = gen(c, d - 1), gen(c, d - 1)
        return _E(f"{_par(a)} {op} {_par(b)}", False)

    def str_eq(self, c: _Ctx, d: int) -> _E:
        self.tag("str_eq")
        op = self.choice(["==", "!="])
        a = self.str_(c, d - 1)
        b = self.str_lit() if self.flag(2, 3) else self.str_(c, d - 1)
        return _E(f"{_par(a)} {op} {_par(b)}", False)

    def in_list(self, c: _Ctx, d: int, lists: list[_Var]) -> _E:
        self.tag("in_list")
        return _E(f"{_par(self.num(c, d - 1))} in {self.choice(lists).text}", False)

    def in_str(self, c: _Ctx, d: int) -> _E:
        self.tag("in_str")
        hay = self.choice(c.vars(STR, CHAR))
        needle = self.str_lit() if self.flag(2, 3) else self.str_(c, d - 1)
        return _E(f"{_par(needle)} in {hay.text}", False)

    # -- conditions: Python truthiness of any value ----------------------------------
    def _cond(self, c: _Ctx, d: int) -> _E:
        opts: list[tuple[int, Callable[[], _E]]] = [(8, lambda: self.boolean(c, d))]
        opts.append((1, lambda: self.truthy_num(c, d)))
        others = c.vars(STR, LIST)
        if others:
            opts.append((1, lambda: self.truthy_var(others)))
        if d > 0:
            opts.append((1, lambda: self.not_(c, d, self.cond)))
            opts.append((1, lambda: self.bool_op(c, d, self.cond)))
        objects = c.vars(DOBJ, ENUM, DC)
        if objects:
            opts.append((2, lambda: self.truthy_object(objects)))
            if d > 0:
                opts.append((6, lambda: self.object_bool(c, d)))
        if self.heap:
            opts += self.heap_conds(c, d)
        return self.pick(opts)

    def truthy_num(self, c: _Ctx, d: int) -> _E:
        self.tag("truthiness")
        return self.num(c, d)

    def truthy_var(self, vs: list[_Var]) -> _E:
        self.tag("truthiness")
        return self.read(self.choice(vs))

    # -- str-valued expressions --------------------------------------------------------
    def _str_(self, c: _Ctx, d: int) -> _E:
        strs = c.vars(STR, CHAR)
        opts: list[tuple[int, Callable[[], _E]]] = [(2, self.str_lit)]
        if strs:
            opts.append((3, lambda: self.read(self.choice(strs))))
        if d > 0:
            opts.append((1, lambda: self.chr_(c, d)))
            opts.append((1, lambda: self.ifexp(c, d, self.str_)))
            if c.vars(STR):
                opts.append((2, lambda: self.index_str(c, d)))
                opts.append((1, lambda: self.join(c)))
            calls = [s for s in c.fn.callables if s.ret == STR]
            if calls:
                opts.append((1, lambda: self.call(c, d, self.choice(calls))))
            if self.edges:
                opts += self.edge_strs(c, d)
                opts += self.breadth_strs(c, d)
        return self.pick(opts)

    def _char(self, c: _Ctx, d: int) -> _E:
        """A str of length exactly 1 (or an expression raising IndexError)."""
        chars, strs = c.vars(CHAR), c.vars(STR)
        opts: list[tuple[int, Callable[[], _E]]] = [(1, lambda: self.chr_(c, d))]
        if chars:
            opts.append((2, lambda: self.read(self.choice(chars))))
        if strs:
            opts.append((3, lambda: self.index_str(c, d)))
        return self.pick(opts)

    def join(self, c: _Ctx) -> _E:
        self.tag("join")
        s = self.choice(c.vars(STR)).text
        sep = self.choice(['""', '"-"', '", "'])
        if self.flag():
            return _E(f"{sep}.join(sorted([ch for ch in {s}]))", True)
        if self.flag():
            self.tag("unpack_one_comp")
            target = self.choice(["ch,", "(ch,)", "[ch]"])
            return _E(f"{sep}.join([ch + ch for {target} in zip({s})])", True)
        return _E(f"{sep}.join([ch for ch in {s} if ch != {self.choice(STR_LITERALS)!r}])", True)

    def chr_(self, c: _Ctx, d: int) -> _E:
        self.tag("chr")
        return _E(f"chr(65 + {_par(self.num(c, max(d - 1, 0)))} % 26)", True)

    def index_str(self, c: _Ctx, d: int) -> _E:
        self.tag("index_str")
        s = self.choice(c.vars(STR))
        return _E(f"{s.text}[{self.index(c, max(d, 1)).text}]", True)

    def typed(self, c: _Ctx, ty: str, d: int) -> _E:
        if ty == INT:
            return self.num(c, d)
        if ty == BOOL:
            return self.boolean(c, d)
        if ty == ONODE:
            return self.node_ref(c, d, True)
        return self.str_(c, d)

    # -- statements --------------------------------------------------------------------
    def _block(self, c: _Ctx, max_stmts: int) -> list[str]:
        """A non-empty statement list; stops after a terminator or when out of budget.

        Statements after the first are "one more?" items (see ``optional``), so the
        shrinker deletes a statement by deleting its span.
        """
        more = (3, 4) if max_stmts >= 5 else (3, 5)
        first, terminal = self.stmt(c)
        lines = list(first)
        count = 1
        while not terminal and count < max_stmts and c.fn.budget > 0:
            item = self.optional(lambda: self.stmt(c), *more)
            if item is None:
                break
            lines += item[0]
            terminal = item[1]
            count += 1
        return lines

    def _stmt(self, c: _Ctx) -> tuple[list[str], bool]:
        fn = c.fn
        fn.budget -= 1
        simple_ok = fn.budget >= 0
        compound_ok = c.depth < 3 and fn.budget >= 1
        loop_ok = compound_ok and c.loop_depth < fn.max_loop_depth
        ints_w = c.writable(INT)
        opts: list[tuple[int, Callable[[], tuple[list[str], bool]]]] = [(6, lambda: ([self.assign(c)], False))]
        if ints_w:
            opts.append((3, lambda: ([self.augassign(c, ints_w)], False)))
        if simple_ok:
            if len(c.writable(INT, BOOL, STR)) >= 2:
                opts.append((2, lambda: ([self.tuple_assign(c)], False)))
            if len(ints_w) >= 2 and self.edges:
                opts.append((1, lambda: ([self.divmod_unpack(c, ints_w)], False)))
            enums = c.writable(ENUM)
            if enums:
                opts.append((1, lambda: ([self.enum_assign(c, enums)], False)))
            sets = c.vars(SET)
            if sets:
                opts.append((2, lambda: ([self.set_stmt(c, sets)], False)))
            if c.mutable_lists() or c.vars(OBJ):
                opts.append((2, lambda: ([self.expr_stmt(c)], False)))
            opts.append((1, lambda: ([self.assert_(c)], False)))
            if self.heap:
                opts += self.heap_stmts(c, loop_ok)
        if compound_ok:
            if c.if_depth > 0:
                if_weight = 16 if fn.budget >= 2 else 8  # nested ifs (down to depth 3)
            elif c.loop_depth > 0 and not c.in_branch:
                if_weight = 8  # an if in a loop body makes break/continue possible
            else:
                if_weight = 5
            opts.append((if_weight, lambda: (self.if_(c), False)))
            if not self.in_finally:
                opts.append((2, lambda: (self.try_(c), False)))
        if loop_ok:
            if fn.budget >= 3:
                opts.append((3, lambda: (self.while_(c), False)))
            opts.append((5, lambda: (self.for_(c), False)))
        if self.edges:
            opts += self.breadth_stmts(c, simple_ok, compound_ok)
        if c.in_branch:
            opts.append((1, lambda: ([self.raise_()], True)))
            opts.append((1, lambda: ([self.return_(c)], True)))
            if c.loop_depth > 0:
                opts.append((3, lambda: ([self.loop_jump(c, "break")], True)))
                if c.can_continue:
                    opts.append((3, lambda: ([self.loop_jump(c, "continue")], True)))
        return self.pick(opts)

    def assign(self, c: _Ctx) -> str:
        targets = c.writable(INT, BOOL, STR)
        v = self.choice(targets)
        self.tag("assign")
        self.note_write(v)
        lists = c.mutable_lists()
        if v.ty == INT and lists and self.flag(1, 6):
            self.tag("pop")
            return f"{v.text} = {self.choice(lists).text}.pop()"
        if v.ty == INT and c.vars(DOBJ, ENUM, DC) and self.flag(1, 3):
            return f"{v.text} = {self.object_num(c, 2).text}"
        return f"{v.text} = {self.typed(c, v.ty, 2).text}"

    def augassign(self, c: _Ctx, ints_w: list[_Var]) -> str:
        v = self.choice(ints_w)
        op = self.choice(["+=", "-=", "*="])
        self.tag(f"augassign:{op}")
        self.note_write(v)
        if op != "*=":
            rhs = self.num(c, 1)
        elif not c.linear and self.nonlinear > 0 and self.flag(1, 3):
            self.nonlinear -= 1
            self.tag("mul_nonlinear")
            rhs = self.num(c, 1)
        else:
            rhs = self.small_factor(c)
        return f"{v.text} {op} {rhs.text}"

    def tuple_assign(self, c: _Ctx) -> str:
        targets = c.writable(INT, BOOL, STR)
        a = self.choice(targets)
        if self.flag(1, 4):
            return self.unpack_one(c, a)
        if self.flag(1, 3) and c.vars(LIST):
            return self.unpack_star(c, a)
        same = [t for t in targets if t is not a and t.ty == a.ty]
        b = self.choice(same if same and self.flag(2, 3) else [t for t in targets if t is not a])
        self.tag("tuple_unpack")
        self.note_write(a)
        self.note_write(b)
        if a.ty == b.ty and self.flag():
            self.tag("swap")
            return f"{a.text}, {b.text} = {b.text}, {a.text}"
        ea, eb = self.typed(c, a.ty, 1), self.typed(c, b.ty, 1)
        return f"{a.text}, {b.text} = {ea.text}, {eb.text}"

    def unpack_one(self, c: _Ctx, a: _Var) -> str:
        """Unpacking into one name, in each target and source shape: ``a, = (e,)``,
        ``(a,) = [e]``, ``[a] = (e,)``, ``a, = [e]``, or ``a, = (e for _ in range(k))``."""
        self.tag("unpack_one")
        self.note_write(a)
        target = self.choice([f"{a.text},", f"({a.text},)", f"[{a.text}]"])
        e = self.typed(c, a.ty, 1).text
        source = self.choice([f"({e},)", f"[{e}]", f"({e} for _ in range(1))"])  # (a generator expression: one item more is pulled)
        if source.endswith("range(1))"):
            self.tag("genexp_unpack")
        return f"{target} = {source}"

    def unpack_star(self, c: _Ctx, a: _Var) -> str:
        """A starred target over a list: ``a, *rest = xs`` or ``*rest, a = xs`` (the int
        ``a`` is one item; the starred name is a new list, read only for its length)."""
        self.tag("unpack_star")
        self.note_write(a)
        xs = self.choice(c.vars(LIST)).text
        rest = c.fn.fresh("rest")
        target = f"{a.text}, *{rest}" if self.flag() else f"*{rest}, {a.text}"
        return (
            f"{target} = {xs} + [{self.typed(c, a.ty, 1).text}]; {a.text} = {a.text} + len({rest})"
            if a.ty == INT
            else f"{target} = [{self.typed(c, a.ty, 1).text}, {self.typed(c, a.ty, 1).text}]"
        )

    def expr_stmt(self, c: _Ctx) -> str:
        lists, objs = c.mutable_lists(), c.vars(OBJ)
        opts: list[tuple[int, Callable[[], str]]] = []
        if lists:
            opts.append((1, lambda: self.del_item(c, lists)))
            opts.append((3, lambda: self.append(c, lists)))
            opts.append((1, lambda: self.sort(lists)))
            opts.append((1, lambda: self.pop_stmt(lists)))
            opts.append((1, lambda: self.insert(c, lists)))
        if objs:
            opts.append((2, lambda: self.method_call(c, 1, self.choice(objs)).text))
        return self.pick(opts)

    def append(self, c: _Ctx, lists: list[_Var]) -> str:
        self.tag("append")
        xs = self.choice(lists)
        return f"{xs.text}.append({self.num(c, 1).text})"

    def insert(self, c: _Ctx, lists: list[_Var]) -> str:
        self.tag("insert")
        xs = self.choice(lists)
        return f"{xs.text}.insert({self.num(c, 1).text}, {self.num(c, 1).text})"

    def del_item(self, c: _Ctx, lists: list[_Var]) -> str:
        self.tag("del_item")
        return f"del {self.choice(lists).text}[{self.num(c, 1).text}]"

    def sort(self, lists: list[_Var]) -> str:
        self.tag("sort")
        return f"{self.choice(lists).text}.sort({'reverse=True' if self.flag(1, 3) else ''})"

    def pop_stmt(self, lists: list[_Var]) -> str:
        self.tag("pop")
        return f"{self.choice(lists).text}.pop()"

    def assert_(self, c: _Ctx) -> str:
        self.tag("assert")
        test = self.cond(c, 2).text
        if self.flag():
            self.tag("assert_msg")
            return f"assert {test}, {self.choice(MESSAGES)!r}"
        return f"assert {test}"

    def raise_(self) -> str:
        self.tag("raise")
        return f"raise ValueError({self.choice(MESSAGES)!r})"

    def return_(self, c: _Ctx) -> str:
        self.tag("return_early")
        return f"return {self.typed(c, c.fn.ret, 2).text}"

    def loop_jump(self, c: _Ctx, kw: str) -> str:
        self.tag(kw)
        return kw

    def if_(self, c: _Ctx) -> list[str]:
        self.tag("if")
        if c.if_depth >= 2:
            self.tag("if_nested_3")
        inner = c.branch(is_if=True)
        lines = [f"if {self.cond(c, 2).text}:"] + _indent(self.block(inner, 3))

        def elif_() -> list[str]:
            self.tag("elif")
            return [f"elif {self.cond(c, 2).text}:"] + _indent(self.block(inner, 2))

        def else_() -> list[str]:
            self.tag("else")
            return ["else:"] + _indent(self.block(inner, 2))

        for _ in range(2):
            part = self.optional(elif_, 1, 3) if c.fn.budget > 0 else None
            if part is None:
                break
            lines += part
        part = self.optional(else_) if c.fn.budget > 0 else None
        return lines + (part or [])

    def try_(self, c: _Ctx) -> list[str]:
        self.tag("try")
        inner = c.branch()
        lines = ["try:"] + _indent(self.block(inner, 3))
        finally_only = self.flag(1, 6)
        kinds = [] if finally_only else self.draw(st.lists(st.integers(0, 3), min_size=1, max_size=2, unique=True))
        for k in kinds:
            if k == 0:
                self.tag("except:ZeroDivisionError")
                head = "except ZeroDivisionError:"
            elif k == 1:
                self.tag("except:IndexError_as")
                head = f"except (IndexError) as {c.fn.fresh('err')}:"
            elif k == 2:
                self.tag("except:ValueError")
                head = "except ValueError:"
            else:
                self.tag("except:tuple")
                head = "except (IndexError, ZeroDivisionError):"
            lines += [head] + _indent(self.block(inner, 2))
        if kinds and self.flag(1, 4):
            self.tag("try_else", "else")
            lines += ["else:"] + _indent(self.block(inner, 2))
        if finally_only or self.flag(1, 3):
            self.tag("finally_only" if finally_only else "finally")
            self.in_finally += 1
            lines += ["finally:"] + _indent(self.block(inner, 2))
            self.in_finally -= 1
        return lines

    def while_(self, c: _Ctx) -> list[str]:
        self.tag("while")
        c.fn.budget -= 2  # counter init + increment
        if c.loop_depth > 0:
            self.tag("nested_loop")
        counter = c.fn.fresh("i")
        bound = self.int_in(1, 4)
        incr_first = self.flag()
        test = f"{counter} < {bound}"
        body_ctx = c.loop(_Var(counter, INT, False), can_continue=incr_first)
        if self.flag():
            self.tag("while_cond")
            test += f" and {_par(self.cond(body_ctx, 2))}"
        body = self.block(body_ctx, 3)
        incr = f"{counter} += 1"
        if incr_first:
            self.tag("while_incr_first")
            body = [incr] + body
        else:
            self.tag("while_incr_last")
            body = body + [incr]
        return [f"{counter} = 0", f"while {test}:"] + _indent(body)

    def for_(self, c: _Ctx) -> list[str]:
        if c.loop_depth > 0:
            self.tag("nested_loop")
        lists, strs = c.vars(LIST), c.vars(STR)
        opts: list[tuple[int, Callable[[], tuple[str, _Var, str | None]]]] = [(2, lambda: self.range_const(c))]
        if lists:
            opts.append((3, lambda: self.for_zip(c, lists, lists + strs)))
            opts.append((4, lambda: self.range_len(c, lists)))
            opts.append((4, lambda: self.for_list(c, lists)))
            opts.append((2, lambda: self.for_enumerate(c, lists)))
            opts.append((2, lambda: self.for_reversed(c, lists)))
        if strs:
            opts.append((2, lambda: self.for_str(c, strs)))
        generators = [s for s in c.fn.callables if s.ret == GEN]
        if generators:
            opts.append((3, lambda: self.for_generator(c, generators)))
        head, var, freeze = self.pick(opts)
        body_ctx = c.loop(var, can_continue=True, freeze=freeze)
        return [head] + _indent(self.block(body_ctx, 3))

    def for_generator(self, c: _Ctx, generators: list[_Sig]):
        """``for v in gen(...)``: the generator's items one at a time, interleaved with the body
        (which may ``break`` out of it or ``continue``)."""
        self.tag("for_generator")
        v = c.fn.fresh("v")
        return f"for {v} in {self.call(c, 1, self.choice(generators)).text}:", _Var(v, INT, False), None

    def range_const(self, c: _Ctx):
        self.tag("for_range")
        k = c.fn.fresh("k")
        if self.flag():
            lo = self.int_in(-2, 2)
            head = f"for {k} in range({lo}, {lo + self.int_in(0, 4)}):"
        else:
            head = f"for {k} in range({self.int_in(0, 4)}):"
        return head, _Var(k, INT, False), None

    def range_len(self, c: _Ctx, lists: list[_Var]):
        self.tag("for_range_len")
        k = c.fn.fresh("k")
        return f"for {k} in range(len({self.choice(lists).text})):", _Var(k, INT, False), None

    def for_list(self, c: _Ctx, lists: list[_Var]):
        it = c.fn.fresh("it")
        xs = self.choice(lists)
        if self.flag(1, 4):  # over a generator expression: its items made between the body's runs
            self.tag("for_genexp")
            w = c.fn.fresh("gw")
            return f"for {it} in ({w} * {self.int_in(-2, 3)} for {w} in {xs.text} if {w} != {self.int_in(-1, 2)}):", _Var(it, INT, False), xs.text
        self.tag("for_list")
        return f"for {it} in {xs.text}:", _Var(it, INT, False), xs.text

    def for_enumerate(self, c: _Ctx, lists: list[_Var]):
        """``for k, it in enumerate(xs[, start])``: the counter or the item is the loop's var."""
        self.tag("for_enumerate")
        k, it = c.fn.fresh("k"), c.fn.fresh("it")
        xs = self.choice(lists)
        start = self.choice(["", ", 1", ", start=-2"])
        var = _Var(k, INT, False) if self.flag() else _Var(it, INT, False)
        return f"for {k}, {it} in enumerate({xs.text}{start}):", var, xs.text

    def for_reversed(self, c: _Ctx, lists: list[_Var]):
        self.tag("for_reversed")
        it = c.fn.fresh("it")
        xs = self.choice(lists)
        return f"for {it} in reversed({xs.text}):", _Var(it, INT, False), xs.text

    def for_zip(self, c: _Ctx, lists: list[_Var], others: list[_Var]):
        """``for it, other in zip(xs, ys_or_s)``: the list's item is the loop's var; or
        ``for (it,) in zip(xs)`` (or ``for it, in``), one name unpacked from each 1-tuple."""
        self.tag("for_zip")
        it, other = c.fn.fresh("it"), c.fn.fresh("ch")
        xs, ys = self.choice(lists), self.choice(others)
        if self.flag(1, 4):
            self.tag("unpack_one_for")
            target = self.choice([f"({it},)", f"{it},", f"[{it}]"])
            return f"for {target} in zip({xs.text}):", _Var(it, INT, False), xs.text
        return f"for {it}, {other} in zip({xs.text}, {ys.text}):", _Var(it, INT, False), xs.text

    def for_str(self, c: _Ctx, strs: list[_Var]):
        self.tag("for_str")
        ch = c.fn.fresh("ch")
        s = self.choice(strs)
        return f"for {ch} in {s.text}:", _Var(ch, CHAR, False), None

    # -- functions & module ------------------------------------------------------------
    def local_inits(self, c: _Ctx, n_int: int, n_bool: int, n_str: int, prefix: str = "v"):
        """Initialise fresh locals from leaves over the current scope; returns lines, vars."""
        lines, new = [], []
        for ty, count, pre in ((INT, n_int, prefix), (BOOL, n_bool, "ok"), (STR, n_str, "u")):
            for i in range(count):
                name = f"{pre}{i}"
                lines.append(f"{name} = {self.typed(c, ty, 0).text}")
                new.append(_Var(name, ty, True))
        return lines, new

    def function_body(self, c: _Ctx, top_max: int) -> list[str]:
        lines = self.block(c, top_max)
        if c.fn.kind == "entry":
            self.tag(f"return:{_ANNOTATIONS[c.fn.ret]}")
        lines.append(f"return {self.typed(c, c.fn.ret, 2).text}")
        return lines

    def _generator_helper(self, sig: _Sig, callables: tuple[_Sig, ...], consts: list[_Var]) -> list[str]:
        """A generator of ints: statements, ``yield`` of ints, a bounded ``for`` loop that
        yields, maybe an early ``return`` and ``yield from`` a list or an earlier generator."""
        self.tag("helper", "generator")
        fn = _Fn("helper", INT, callables, budget=self.int_in(1, 4), max_loop_depth=1)
        c = _Ctx(fn, tuple(consts) + tuple(_Var(p, INT, True) for p in sig.params))
        init_lines, local_vars = self.local_inits(c, self.int_in(0, 1), 0, 0, "t")
        c = _Ctx(fn, c.scope + tuple(local_vars))
        body = list(init_lines) + self.block(c, 2) + [f"yield {self.num(c, 1).text}"]
        if self.flag():
            self.tag("generator_loop", "for_range")
            k = fn.fresh("k")
            inner = c.loop(_Var(k, INT, False), can_continue=True)
            body += [f"for {k} in range({self.int_in(0, 3)}):"] + _indent(self.block(inner, 2) + [f"yield {self.num(inner, 1).text}"])
        if self.flag(1, 3):
            self.tag("generator_return", "if")
            body += [f"if {self.cond(c, 1).text}:", "    return"]
        earlier = [s for s in callables if s.ret == GEN]
        if earlier and self.flag(3, 4):
            self.tag("yield_from_call", "helper_call", "helper_calls_helper")
            body.append(f"yield from {self.call(c, 1, self.choice(earlier)).text}")
        elif self.flag(1, 3):
            self.tag("yield_from_list")
            body.append(f"yield from [{self.num(c, 1).text}, {self.num(c, 1).text}]")
        body.append(f"return {self.num(c, 1).text}")  # dropped by list(): the items are the result
        header = f"def {sig.name}({', '.join(p + ': int' for p in sig.params)}) -> Iterator[int]:"
        return [header] + _indent(body)

    def _helper(self, sig: _Sig, callables: tuple[_Sig, ...], consts: list[_Var]) -> list[str]:
        if sig.ret == GEN:
            return self._generator_helper(sig, callables, consts)
        self.tag("helper")
        fn = _Fn("helper", sig.ret, callables, budget=self.int_in(1, 5), max_loop_depth=1)
        params = [_Var(p, INT, not (sig.rec is not None and p == "n")) for p in sig.params]
        c = _Ctx(fn, tuple(consts) + tuple(params))
        # the recursive helper's n is read-only: give it a local so something is assignable
        n_int = 1 if sig.rec is not None else self.int_in(0, 1)
        init_lines, local_vars = self.local_inits(c, n_int, self.int_in(0, 1), 0, "t")
        c = _Ctx(fn, c.scope + tuple(local_vars))
        assert c.writable(INT), "every function needs an assignable int"
        header = f"def {sig.name}({', '.join(p + ': int' for p in sig.params)}) -> {sig.ret}:"
        body = list(init_lines)
        if sig.rec is None:
            body += self.function_body(c, 3)
            return [header] + _indent(body)
        # bounded recursion on the read-only first parameter n
        self.tag("recursion")
        style, k = sig.rec
        guard = "n <= 0" if style == "min" else f"n <= 0 or n > {k}"
        body += [f"if {guard}:", f"    return {self.num(c, 1).text}"]
        body += self.block(c, 2)
        step = self.int_in(1, 2)
        rest = [self.num(c, 1).text for _ in sig.params[1:]]
        rec_call = f"{sig.name}({', '.join([f'n - {step}'] + rest)})"
        if self.flag(2, 3):
            op = self.choice(["+", "-"])
            self.tag(f"binop:{op}")
            body.append(f"return {rec_call} {op} {_par(self.num(c, 1))}")
        else:
            body.append(f"return {rec_call}")
        return [header] + _indent(body)

    def _klass(self, name: str, helpers: tuple[_Sig, ...], consts: list[_Var]) -> tuple[_Class, list[str]]:
        self.tag("class", "method")
        fields = ("v", "w") if self.flag() else ("v",)
        methods = [_Sig("step", ("d",), INT)]
        if self.flag(1, 3):
            methods.append(_Sig("get", (), INT))
        cls = _Class(name, fields, tuple(methods))
        lines = [f"class {name}:", "    def __init__(self, v: int) -> None:"]
        init_c = _Ctx(_Fn("method", INT, (), 0, 0), tuple(consts) + (_Var("v", INT, False),))
        lines.append("        self.v = v")
        if "w" in fields:
            lines.append(f"        self.w = {self.num(init_c, 1).text}")
        field_vars = tuple(_Var(f"self.{f}", INT, True) for f in fields)
        for sig in methods:
            fn = _Fn("method", INT, helpers, budget=self.int_in(1, 4), max_loop_depth=1)
            params = tuple(_Var(p, INT, True) for p in sig.params)
            c = _Ctx(fn, tuple(consts) + field_vars + params)
            if sig.name == "get":
                body = [f"return {self.num(c, 1).text}"]
            else:
                init_lines, local_vars = self.local_inits(c, self.int_in(0, 1), 0, 0, "t")
                c = _Ctx(fn, c.scope + tuple(local_vars))
                body = init_lines + self.function_body(c, 3)
            ps = "".join(f", {p}: int" for p in sig.params)
            lines += ["", f"    def {sig.name}(self{ps}) -> int:"] + _indent(_indent(body))
        return cls, lines

    def const_item(self, consts: list[_Var]) -> str:
        self.tag("module_const")
        name = f"K{len(consts)}"
        consts.append(_Var(name, INT, False))
        return f"{name} = {self.int_in(-9, 9)}"

    def helper_item(self, sigs: list[_Sig], consts: list[_Var]) -> list[str]:
        """Signature and body of the next helper h<j>; it may call h0..h<j-1>."""
        j = len(sigs)
        if j == 0 and self.flag(1, 3):
            rec = (self.choice(["min", "guard"]), self.int_in(1, 4))
            params = ("n",) + ("a", "b")[: self.int_in(0, 2)]
            sig = _Sig(f"h{j}", params, INT, rec)
        else:
            ret = self.pick([(4, lambda: INT), (1, lambda: BOOL), (1, lambda: STR), (4 if any(s.ret == GEN for s in sigs) else 2, lambda: GEN)])
            sig = _Sig(f"h{j}", ("a", "b", "c")[: self.int_in(1, 3)], ret)
        lines = self.helper(sig, tuple(sigs), consts)
        sigs.append(sig)
        return lines

    def param_item(self, used: dict[str, int]) -> tuple[str, str]:
        kinds = [(4, lambda: INT), (3, lambda: LIST), (2, lambda: STR), (1, lambda: BOOL)]
        if self.edges:
            kinds += self.breadth_param_kinds() + self.syntax_param_kinds()
        ty = self.pick(kinds)
        name = _PARAM_NAMES[ty][used[ty]]
        used[ty] += 1
        self.tag(f"param:{ty}")
        self.note_param(ty, used[ty] == 1)
        return name, ty

    def module(self) -> GeneratedProgram:
        chunks: list[list[str]] = []  # top-level definitions, separated by blank lines
        # module-level int constants
        consts: list[_Var] = []
        const_lines: list[str] = []
        for _ in range(2):
            line = self.optional(lambda: self.const_item(consts))
            if line is None:
                break
            const_lines.append(line)
        if self.edges:
            const_lines += self.edge_constants(consts)
        if const_lines:
            chunks.append(const_lines)
        counter = self.optional(self.global_counter, 1, 5) if self.edges else None
        if counter is not None:
            chunks.append(counter[0])
        kinds = self.optional(self.kinds_helper, 1, 4) if self.edges else None
        if kinds is not None:
            chunks.append(kinds)
        decorated = self.optional(self.syntax_helper, 1, 4) if self.edges else None
        if decorated is not None:
            chunks.append(decorated)
        # helpers (h_j may call h_i for i < j; the entry and the class call all)
        sigs: list[_Sig] = []
        for _ in range(self.max_functions - 1):
            lines = self.optional(lambda: self.helper_item(sigs, consts), 3, 5)
            if lines is None:
                break
            chunks.append(lines)
        # an optional class
        classes: list[_Class] = []
        made = self.optional(lambda: self.klass("C0", tuple(sigs), consts), 1, 3)
        if made is not None:
            classes.append(made[0])
            chunks.append(made[1])
        # classes the analysis runs in CPython: dunders, an Enum, a dataclass
        edge_classes = self.edge_classes(chunks) if self.edges else []
        pair = False
        if self.heap:  # the classes of input objects
            heap_lines, pair = self.heap_classes()
            chunks.append(heap_lines)
        # entry signature: 1..4 params (heap: the first an input object)
        used = {k: 0 for k in (*_PARAM_NAMES, *HEAP_PARAM_NAMES)}
        typed_params = [self.heap_param(used, pair) if self.heap else self.param_item(used)]
        for _ in range(3):
            if self.heap:
                item = self.optional(lambda: self.heap_param(used, pair) if self.flag() else self.param_item(used))
            else:
                item = self.optional(lambda: self.param_item(used))
            if item is None:
                break
            typed_params.append(item)
        params = tuple((name, _ANNOTATIONS[ty]) for name, ty in typed_params)
        chunks += self.syntax_classes({ty for _, ty in typed_params})
        read_only = (LIST, NODE, ONODE, NLIST, PAIR, OPTINT, INTSTR, FUNC, HUE, FROZ)
        param_vars = [_Var(name, ty, ty not in read_only) for name, ty in typed_params]
        param_vars += self.heap_scope(typed_params)
        rets = [(4, lambda: INT), (2, lambda: BOOL), (2, lambda: STR)]
        if self.heap:
            rets = [(4, lambda: INT), (2, lambda: BOOL), (1, lambda: STR), (2, lambda: ONODE)]
        ret = self.pick(rets)
        fn = _Fn("entry", ret, tuple(sigs), budget=self.int_in(3, 11), max_loop_depth=2)
        c = _Ctx(fn, tuple(consts) + tuple(param_vars) + (tuple(counter[1]) if counter is not None else ()))
        head, used_first, head_vars = self.syntax_head(c) if self.edges else ([], [], [])
        c = _Ctx(fn, c.scope + tuple(head_vars))
        init_lines, local_vars = self.local_inits(c, self.int_in(1, 3), self.int_in(0, 1), self.int_in(0, 1))
        init_lines = used_first + init_lines
        objs: list[_Var] = []
        for i, cls in enumerate(classes):
            arg = self.num(c, 1).text
            init_lines.append(f"o{i} = {cls.name}({arg})")
            objs.append(_Var(f"o{i}", OBJ, False, cls))
            objs += [_Var(f"o{i}.{f}", INT, True) for f in cls.fields]
        for edge in edge_classes:
            init_lines += self.edge_instances(c, edge, objs)
        if self.edges:
            made_local = self.optional(lambda: self.container_local(c), 1, 3)
            if made_local is not None:
                init_lines.append(made_local[0])
                objs.append(made_local[1])
        if self.edges:
            breadth_lines, breadth_vars = self.breadth_locals(c)
            init_lines += breadth_lines
            objs += breadth_vars
        if self.heap:
            ref_lines, ref_vars = self.heap_locals(c)
            init_lines += ref_lines
            local_vars += ref_vars
        c = _Ctx(fn, c.scope + tuple(local_vars) + tuple(objs))
        body = init_lines + self.function_body(c, 7)
        body = head + body  # a local import first: it binds its name for the whole entry
        if counter is not None and counter[2]:
            body = ["global gc0"] + body
        sig_text = ", ".join(f"{n}: {a}" for n, a in params)
        chunks.append([f"def {ENTRY_NAME}({sig_text}) -> {_ANNOTATIONS[ret]}:"] + _indent(body))
        source = "\n\n\n".join("\n".join(chunk) for chunk in chunks) + "\n"
        imports = [
            line
            for line, used in (
                ("import math", "math." in source),
                ("import itertools", "itertools." in source),
                ("from dataclasses import dataclass", "@dataclass" in source),
                ("from enum import Enum", "(Enum):" in source),
                ("from typing import Optional", "Optional[" in source),
                ("from typing import Iterator", "Iterator[" in source),
                *breadth_imports(source, self.callable_abc),
                *syntax_imports(source),
            )
            if used
        ]
        imports = list(dict.fromkeys(imports))  # import functools for reduce and for the cache: once
        if imports:
            source = "\n".join(imports) + "\n\n\n" + source
        return GeneratedProgram(
            source=source,
            entry=ENTRY_NAME,
            params=params,
            features=frozenset(self.tags),
            returns=_ANNOTATIONS[ret],
        )


_ANNOTATIONS = {**ANNOTATION, **HEAP_ANNOTATION, **BREADTH_ANNOTATION, **SYNTAX_ANNOTATION}
_PARAM_NAMES = {
    INT: ["x", "y", "z", "x2"],
    BOOL: ["p", "q", "p2", "q2"],
    STR: ["s", "t", "s2", "t2"],
    LIST: ["xs", "ys", "xs2", "ys2"],
    **BREADTH_PARAM_NAMES,
    **SYNTAX_PARAM_NAMES,
}


def programs(
    max_functions: int = 3,
    edges: bool = True,
    without: frozenset[str] = frozenset(),
    heap: bool = False,
) -> st.SearchStrategy[GeneratedProgram]:
    """Random well-formed, terminating modules in pathloom's subset.

    ``max_functions`` bounds the number of top-level functions (entry + helpers);
    an optional class ``C0`` (and the global counter's ``gtick``, and ``progen_kinds``' ``kw0``) comes on top of that. ``edges=False`` leaves out the
    real-module features (``EDGE_FEATURES``: computed constants, the classes ``N0``,
    ``Color`` and ``D0``, stdlib calls, list repetition and comparison) and the breadth
    features (``BREADTH_FEATURES``: union and ``Callable`` parameters, ``defaultdict``,
    ``functools.reduce``, ``nonlocal``, slice assignment). ``without``:
    feature tags no generated program has (a program that would is rejected and another
    drawn), e.g. to fuzz around a known engine bug until it is fixed. ``heap=True``:
    programs with input objects (``progen_heap``): the entry's first parameter is a
    ``Node``, ``Optional[Node]``, ``list[Node]`` or ``Pair``.
    """
    if max_functions < 1:
        raise ValueError("max_functions must be >= 1")
    unknown = set(without) - FEATURES
    if unknown:
        raise ValueError(f"unknown feature tags {sorted(unknown)}")

    @st.composite
    def _programs(draw) -> GeneratedProgram:
        return _Builder(draw, max_functions, edges, frozenset(without), heap).module()

    return _programs()
