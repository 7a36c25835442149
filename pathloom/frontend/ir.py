"""The intermediate representation: a closed set of instruction and terminator classes.

A ``Function`` is a control-flow graph of ``Block``s. Every block holds straight-line
three-address instructions and ends in exactly one terminator (``Goto``, ``Branch``,
``ForIter``, ``Return``, ``Raise``). Exception edges are explicit: a block's ``handler`` is the
label control moves to when one of its instructions raises; ``None`` means the exception
leaves the function. Operands are ``Var`` (a local), ``Const`` (a Python constant) or
``Global`` (a module-level name resolved at run time). Every instruction and terminator carries
the source line and column it came from. Nothing here knows Python syntax; nothing here
knows what an instruction means (that is ``pathloom.semantics``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Union


@dataclass(frozen=True)
class Var:
    name: str


@dataclass(frozen=True)
class Const:
    value: object


@dataclass(frozen=True)
class Global:
    name: str


Operand = Union[Var, Const, Global]


@dataclass(frozen=True)
class Loc:
    line: int
    col: int


# ---------------------------------------------------------------- instructions


@dataclass(frozen=True)
class Assign:
    dst: str
    src: Operand
    loc: Loc


@dataclass(frozen=True)
class BinOp:
    dst: str
    op: str  # + - * // % ** / & | ^ << >> (Python operator text); += -= ... for augmented assignment (in place)
    left: Operand
    right: Operand
    loc: Loc


@dataclass(frozen=True)
class UnaryOp:
    dst: str
    op: str  # "-", "+", "~", "not"
    operand: Operand
    loc: Loc


@dataclass(frozen=True)
class Compare:
    dst: str
    op: str  # == != < <= > >= in "not in" is "is not"
    left: Operand
    right: Operand
    loc: Loc


@dataclass(frozen=True)
class Truth:
    """``dst = bool(operand)`` with Python truthiness."""

    dst: str
    operand: Operand
    loc: Loc


@dataclass(frozen=True)
class Call:
    """``dst = func(*args, **kwargs)``. ``whole``: the call's value is consumed whole at once
    (``list(f(...))``, ``yield from f(...)``), so a generator function may be called here and
    gives the list of its items (``Function.generator``)."""

    dst: str
    func: Operand
    args: tuple[Operand, ...]
    kwargs: tuple[tuple[str, Operand], ...]
    loc: Loc
    whole: bool = False


@dataclass(frozen=True)
class CallMethod:
    """``dst = obj.name(*args, **kwargs)``; ``whole`` as for ``Call``."""

    dst: str
    obj: Operand
    name: str
    args: tuple[Operand, ...]
    kwargs: tuple[tuple[str, Operand], ...]
    loc: Loc
    whole: bool = False


@dataclass(frozen=True)
class GetAttr:
    dst: str
    obj: Operand
    name: str
    loc: Loc


@dataclass(frozen=True)
class SetAttr:
    obj: Operand
    name: str
    value: Operand
    loc: Loc


@dataclass(frozen=True)
class GetItem:
    dst: str
    obj: Operand
    index: Operand
    loc: Loc


@dataclass(frozen=True)
class GetSlice:
    """``dst = obj[start:stop:step]``; an omitted bound is ``Const(None)``."""

    dst: str
    obj: Operand
    start: Operand
    stop: Operand
    step: Operand
    loc: Loc


@dataclass(frozen=True)
class SetItem:
    obj: Operand
    index: Operand
    value: Operand
    loc: Loc


@dataclass(frozen=True)
class DelItem:
    """``del obj[index]``."""

    obj: Operand
    index: Operand
    loc: Loc


@dataclass(frozen=True)
class BuildList:
    dst: str
    items: tuple[Operand, ...]
    loc: Loc


@dataclass(frozen=True)
class BuildTuple:
    dst: str
    items: tuple[Operand, ...]
    loc: Loc


@dataclass(frozen=True)
class BuildSet:
    """``dst = {items[0], ...}`` (``BUILD_SET``: a new set, the items added left to right).
    ``foldable``: more than two items, each an expression CPython's compiler may fold into a
    constant; CPython then builds the set from a frozenset constant (``SET_UPDATE``), whose
    table, hence the set's order, can differ (``semantics.sets``)."""

    dst: str
    items: tuple[Operand, ...]
    loc: Loc
    foldable: bool = False


@dataclass(frozen=True)
class BuildDict:
    """``dst = {keys[0]: values[0], ...}``; operands are evaluated key, value, key, value..."""

    dst: str
    keys: tuple[Operand, ...]
    values: tuple[Operand, ...]
    loc: Loc


@dataclass(frozen=True)
class Unpack:
    """``dsts`` = the items of ``src``; with ``star`` (``a, *rest, z = src``), the destination
    at that index takes a new list of the items the others leave."""

    dsts: tuple[str, ...]
    src: Operand
    loc: Loc
    star: int | None = None


@dataclass(frozen=True)
class MakeFunction:
    """``dst`` = the function value of the nested function or lambda ``qualname``, closing over
    the values of ``captures`` (its trailing capture parameters, ``Function.captures``)."""

    dst: str
    qualname: str
    loc: Loc
    captures: tuple[Operand, ...] = ()


@dataclass(frozen=True)
class GetIter:
    """``dst = iter(iterable)``; with ``how`` ``"reversed"``, ``iter(reversed(iterable))``; with
    ``"zip"``, ``iter(zip(*iterable))`` of a tuple (a ``for`` over ``reversed(...)``/``zip(...)``)."""

    dst: str
    iterable: Operand
    loc: Loc
    how: str = ""


@dataclass(frozen=True)
class CurrentException:
    """First instruction of a handler: ``dst`` = the exception being handled."""

    dst: str
    loc: Loc


@dataclass(frozen=True)
class ExcMatch:
    """``dst = isinstance(exc, classes)`` for an ``except`` clause."""

    dst: str
    exc: Operand
    classes: tuple[Operand, ...]
    loc: Loc


@dataclass(frozen=True)
class Format:
    """``dst = format(value, spec)`` after the ``conversion`` (``""`` none, ``"s"`` str, ``"r"``
    repr, ``"a"`` ascii): one ``{value!conversion:spec}`` field of an f-string; ``spec`` holds
    a str (``""`` when the field has none)."""

    dst: str
    value: Operand
    conversion: str
    spec: Operand
    loc: Loc


@dataclass(frozen=True)
class BuildString:
    """``dst`` = the concatenation of ``parts``, each holding a str: an f-string."""

    dst: str
    parts: tuple[Operand, ...]
    loc: Loc


@dataclass(frozen=True)
class MakeCell:
    """``dst`` = a new, empty cell: a variable of this function that a nested function reads
    while this one may still bind it (CPython's cell variable)."""

    dst: str
    loc: Loc


@dataclass(frozen=True)
class StoreCell:
    """Bind the cell's variable to ``value`` (every binding of a cell variable is mirrored)."""

    cell: Operand
    value: Operand
    loc: Loc


@dataclass(frozen=True)
class LoadCell:
    """``dst`` = the value in the cell of the free variable ``name``; NameError when empty."""

    dst: str
    cell: Operand
    name: str
    loc: Loc


@dataclass(frozen=True)
class Unbind:
    """Delete a local (``except E as e`` unbinds ``e`` at the end of the clause)."""

    name: str
    loc: Loc


@dataclass(frozen=True)
class Unmodelled:
    """A statement of an explored function that pathloom does not model (``what``, as the
    refusal would say it): executing it cuts the path (``CutReason.UNSUPPORTED``, reason
    ``unsupported: <what>``), whose input still drives the real code there. The frontend emits
    it in place of the whole statement, so the rest of the function is explored."""

    what: str
    loc: Loc


Instruction = Union[
    Unmodelled,
    Assign,
    BinOp,
    UnaryOp,
    Compare,
    Truth,
    Call,
    CallMethod,
    GetAttr,
    SetAttr,
    GetItem,
    GetSlice,
    SetItem,
    DelItem,
    BuildList,
    BuildTuple,
    BuildSet,
    BuildDict,
    Unpack,
    MakeFunction,
    GetIter,
    CurrentException,
    ExcMatch,
    Unbind,
    MakeCell,
    StoreCell,
    LoadCell,
    Format,
    BuildString,
]


# ---------------------------------------------------------------- terminators


@dataclass(frozen=True)
class Goto:
    target: int
    loc: Loc
    back_edge: bool = False


@dataclass(frozen=True)
class Branch:
    cond: Operand  # must hold a bool (the frontend emits a Truth first)
    then: int
    orelse: int
    loc: Loc
    # a decision the lowering adds that is no branch of the source (PEP 479's StopIteration
    # test around a generator's code): not counted in branch coverage (``cfg.branch_edges``)
    hidden: bool = False


@dataclass(frozen=True)
class ForIter:
    """Advance iterator ``it``: on an item assign it to ``dst`` and go to ``body``, else ``exit``."""

    it: str
    dst: str
    body: int
    exit: int
    loc: Loc
    hidden: bool = False  # a library model's loop (``lowering.generators``): not a branch of the user's code


@dataclass(frozen=True)
class Return:
    value: Operand
    loc: Loc


@dataclass(frozen=True)
class Raise:
    """Raise ``value``; ``None`` re-raises the exception being handled.

    ``kind`` is "explicit" for a ``raise`` statement and "assert" for a failed ``assert``.
    """

    value: Operand | None
    kind: str
    loc: Loc


Terminator = Union[Goto, Branch, ForIter, Return, Raise]


@dataclass
class Block:
    label: int
    instrs: list[Instruction] = field(default_factory=list)
    terminator: Terminator | None = None
    handler: int | None = None
    loops: tuple[int, ...] = ()  # headers of the loops enclosing this block, outermost first


@dataclass(frozen=True)
class Param:
    """A parameter, in the order of the ``def``: positional-only ones, the others that a
    positional argument may fill, ``*args``, keyword-only ones, ``**kwargs``. ``kind`` says
    which: ``""`` (positional or keyword), ``"posonly"``, ``"kwonly"``, ``"*"`` (its value is
    the tuple of extra positionals; ``annotation`` is then the tuple's type,
    ``tuple[int, ...]`` for ``*args: int``) or ``"**"`` (the dict of extra keywords,
    ``dict[str, int]`` for ``**kw: int``)."""

    name: str
    annotation: str | None  # normalized text, e.g. "int", "list[int]"
    default: Operand | None
    line: int
    col: int
    kind: str = ""


@dataclass
class Function:
    qualname: str
    name: str
    params: tuple[Param, ...]
    blocks: dict[int, Block]
    entry: int
    line: int
    col: int
    class_name: str | None = None
    foreign_file: str | None = None  # the source file of a linked module's function; None: the target file
    captures: tuple[str, ...] = ()  # the last parameters: values closed over, never passed by a call
    # a generator function, lowered to collect its items: each ``yield`` appends to a hidden
    # list that every ``return`` returns, which is ``list(f(...))`` exactly (nothing runs
    # between two items); it may be called only where its value is consumed whole (``Call.whole``)
    generator: bool = False

    @property
    def unmodelled(self) -> bool:
        """Whether a statement of it is ``Unmodelled`` (a path that reaches it is cut)."""
        return any(isinstance(i, Unmodelled) for b in self.blocks.values() for i in b.instrs)

    def block(self, label: int) -> Block:
        return self.blocks[label]


@dataclass(frozen=True)
class ClassInfo:
    name: str
    base: str | None  # a user class or a builtin exception name
    methods: dict[str, str]  # method name -> function qualname
    attrs: dict[str, object]  # class-level constants
    line: int
    is_exception: bool
    # names the class body binds otherwise (decorated methods such as properties, computed
    # class attributes): read from the real class, in CPython
    other: frozenset[str] = frozenset()
    # comparison dunder -> qualname of a method that answers the operator for two instances of
    # exactly this class (a dataclass's generated __eq__ returns NotImplemented for any other
    # operand): not attributes of the class (those are read in CPython, through ``other``)
    compare_methods: dict[str, str] = field(default_factory=dict)
    # methods decorated with exactly @property (no setter), @staticmethod or @classmethod:
    # name -> (decorator, qualname of the undecorated function)
    decorated: dict[str, tuple[str, str]] = field(default_factory=dict)
    abstract: frozenset[str] = frozenset()  # abstract methods not overridden: CPython refuses to instantiate
    # properties of ``decorated`` with a setter (``@name.setter``, a plain def of that name):
    # name -> qualname of the undecorated setter (``"C.name.setter"``); no deleter
    setters: dict[str, str] = field(default_factory=dict)
