"""The state of one function's lowering and the primitives that build its control-flow graph.

Job: the base class of the lowering mixins (``statements``, ``expressions``, ``comprehensions``,
``functions``, ``library``): the blocks, temporaries, ``emit``/``terminate``/``goto``/``start``,
loops and the queries on what a name means, and the declarations of the methods one mixin calls
in another (``pathloom.frontend.lower`` composes them into the class that lowers).

Invariants of what it builds (checked by ``ircheck``): every block ends in one terminator (the
first ``terminate`` of a block wins: code after a jump goes to a fresh ``dead_block``);
temporaries are named ``%N`` and cannot clash with Python names; blocks made inside a ``try``
body carry the handler label (``handler``) and blocks inside a loop the labels of its headers
(``loop_headers``); loop headers are entered from outside by a plain ``Goto`` and from their
body by a ``Goto(back_edge=True)``; every binding of a cell variable is mirrored into its cell.
"""

from __future__ import annotations

import ast
from abc import ABC, abstractmethod
import dataclasses
from dataclasses import dataclass
from typing import Any, Callable

from pathloom.errors import Unsupported
from pathloom.frontend import ir
from pathloom.frontend.ir import Loc, Operand, Var
from pathloom.frontend.lowering.scope import names_real

YIELDED = "%yield"  # a generator function's hidden list of the items it yielded


@dataclass
class LoopTargets:
    """Where ``continue`` and ``break`` go in the innermost loop. ``forward``: ``continue``
    resumes an inlined generator after its ``yield`` (``generators``), a jump forward, not a
    back edge."""

    header: int
    exit: int
    forward: bool = False


@dataclass
class Cleanup:
    """What a ``return``, ``break`` or ``continue`` leaving a ``finally`` or ``with`` region
    lowers on its way out (``run``: the ``finally`` body, ``__exit__(None, None, None)``), in
    the lowering state of the statement that opened the region: its loops, loop headers,
    handler and caught names."""

    run: Callable[[], None]
    loop_depth: int
    loop_headers: tuple[int, ...]
    handler: int | None
    caught: tuple[str, ...]


def cell_slot(name: str) -> str:
    """The local holding the cell of cell variable ``name``."""
    return f"%cell.{name}"


def node_loc(node: ast.AST) -> Loc:
    return Loc(getattr(node, "lineno", 0), getattr(node, "col_offset", 0) + 1)


class Builder(ABC):
    """One function's lowering: its state, and the primitives that build its graph."""

    def __init__(self, module: object, qualname: str, cls: str | None) -> None:
        from pathloom.frontend.module import Module

        assert isinstance(module, Module)
        self.module = module
        self.qualname = qualname
        self.cls = cls
        self.blocks: dict[int, ir.Block] = {}
        self.current: ir.Block = self._new_block()
        self.handler: int | None = None
        # the names ``except ... as name`` binds around the statement being lowered, which the
        # clause's body never rebinds: a ``raise ... from name`` cause is an exception
        self.caught: list[str] = []
        self.loops: list[LoopTargets] = []
        # the finally bodies and context managers around the statement being lowered, outermost first
        self.cleanups: list[Cleanup] = []
        # per enclosing except clause: whether a bare ``raise`` in it re-raises its exception
        # (False once its body holds a try or with statement, which changes the handled one)
        self.reraisable: list[bool] = []
        self.loop_headers: tuple[int, ...] = ()
        self.locals: set[str] = set()
        self.temps = 0
        self.lambda_count = 0
        self.first_param: str | None = None  # a method's first parameter (the receiver of super())
        self.preconditions: set[ast.Assert] = set()  # the asserts that open the function's body
        self.renames: dict[str, str] = {}  # a comprehension's variables -> their own locals
        # the comprehensions of the source being lowered, outermost first (``<listcomp>``...):
        # CPython's qualified name of a lambda made inside them names them
        self.comprehension_scopes: list[str] = []
        self.captures: tuple[str, ...] = ()  # a nested function's closed-over variables (its last params)
        self.own_name: str | None = None  # a nested function's name: a use inside rebuilds the closure
        self.binding_sites: dict[str, list[tuple[int, bool]]] = {}
        self.top_index = 0  # the top-level statement of the body being lowered
        # variables a nested function reads while this one may still bind them: each has a
        # cell (``cell_slot``) that mirrors every binding (``emit``)
        self.cellvars: frozenset[str] = frozenset()
        self.cell_captures: frozenset[str] = frozenset()  # captured variables that come as cells
        self.own_nonlocals: frozenset[str] = frozenset()  # captured cells this function writes (``nonlocal``)
        self.own_globals: dict[str, ast.Global] = {}  # module-level names this function rebinds (``global``)
        self.shared: frozenset[str] = frozenset()  # cell variables a nested function writes: read through the cell
        self.generator = False  # lowering a generator function: ``yield`` appends to ``YIELDED``
        # the generators inlined into the loops around the statement being lowered (``generators``)
        self.inline_frames: list[Any] = []
        # per comprehension being lowered, innermost last: (a generator expression's own frame,
        # the consumer's handler), see ``comprehensions._element``
        self.element_handlers: list[tuple[bool, int | None]] = []

    # ------------------------------------------------------------ plumbing

    def unsupported(self, node: ast.AST, what: str) -> Unsupported:
        return self.module.unsupported(node, what)

    def _new_block(self) -> ir.Block:
        label = len(self.blocks)
        block = ir.Block(label, handler=getattr(self, "handler", None), loops=getattr(self, "loop_headers", ()))
        self.blocks[label] = block
        return block

    def new_block(self) -> ir.Block:
        return self._new_block()

    def temp(self) -> str:
        self.temps += 1
        return f"%{self.temps}"

    def emit(self, instr: ir.Instruction) -> None:
        self.current.instrs.append(instr)
        if self.cellvars:
            written = instr.dsts if isinstance(instr, ir.Unpack) else (getattr(instr, "dst", None),)
            for name in written:
                if name in self.cellvars:  # the binding, mirrored into the cell closures read
                    self.current.instrs.append(ir.StoreCell(Var(cell_slot(name)), Var(name), instr.loc))

    def terminate(self, term: ir.Terminator) -> None:
        if self.current.terminator is None:
            if self.inline_frames and self.inline_frames[-1].hidden and isinstance(term, (ir.Branch, ir.ForIter)):
                term = dataclasses.replace(term, hidden=True)  # a library model's decision (``generators``)
            self.current.terminator = term

    def goto(self, target: ir.Block, loc: Loc, back_edge: bool = False) -> None:
        self.terminate(ir.Goto(target.label, loc, back_edge))

    def start(self, block: ir.Block) -> None:
        self.current = block

    def dead_block(self) -> None:
        """Continue lowering unreachable code (after return/break) into a fresh block."""
        self.start(self.new_block())

    def _branch_on(self, flag: Var, then: ir.Block, orelse: ir.Block, loc: Loc) -> None:
        truth = self.temp()
        self.emit(ir.Truth(truth, flag, loc))
        self.terminate(ir.Branch(Var(truth), then.label, orelse.label, loc))

    # ------------------------------------------------------------ loops

    def _loop_header(self) -> ir.Block:
        self.loop_headers = self.loop_headers + (len(self.blocks),)
        header = self.new_block()
        assert header.label == self.loop_headers[-1]
        return header

    def _loop_blocks(self, loc: Loc, decide: Callable[[ir.Block, ir.Block], None], body: Callable[[], object], orelse: Callable[[], object]) -> None:
        outer_headers = self.loop_headers
        header = self._loop_header()
        self.goto(header, loc)
        body_block = self.new_block()
        self.loop_headers = outer_headers
        orelse_block, exit_ = self.new_block(), self.new_block()
        self.loop_headers = header.loops
        self.start(header)
        decide(body_block, orelse_block)
        self.loops.append(LoopTargets(header.label, exit_.label))
        self.start(body_block)
        body()
        self.goto(header, loc, back_edge=True)
        self.loops.pop()
        self.loop_headers = outer_headers
        self.start(orelse_block)
        orelse()
        self.goto(exit_, loc)
        self.start(exit_)

    # ------------------------------------------------------------ what names mean

    def _names_real(self, func: ast.expr, real: object) -> bool:
        """``func`` is a module-level name (``reduce``) or an attribute of one (``functools.reduce``)
        that the real module binds to ``real``, and nothing of the function rebinds it."""
        return names_real(self.module, func, real, lambda name: name in self.locals or name in self.renames)

    def _is_builtin(self, name: str) -> bool:
        """``name`` in this function means the builtin: nothing of the code rebinds it."""
        module = self.module
        return not (
            name in self.locals
            or name in self.renames
            or name in module.function_defs
            or name in module.classes
            or name in module.constants
            or name in module.opaque
            or (module.runtime is not None and module.has_runtime(name))
        )

    # ------------------------------------------------------------ one mixin calls another
    # (declared here for the type checker; the final class inherits every one of them)

    @abstractmethod
    def stmt(self, node: ast.stmt) -> None:
        """``statements``: lower one statement."""

    @abstractmethod
    def body(self, stmts: list[ast.stmt]) -> None:
        """``statements``: lower statements in order."""

    @abstractmethod
    def assign(self, target: ast.expr, value: Operand) -> None:
        """``statements``: bind an assignment target to ``value``."""

    @abstractmethod
    def branch(self, test: ast.expr, then: ir.Block, orelse: ir.Block) -> None:
        """``statements``: lower ``test`` as a condition."""

    @abstractmethod
    def _iterable(self, node: ast.expr) -> tuple[Operand, Operand | None, str]:
        """``statements``: what a loop iterates over, evaluated."""

    @abstractmethod
    def _start_iteration(self, iterable: tuple[Operand, Operand | None, str], loc: Loc) -> tuple[str, str, str | None]:
        """``statements``: ``iter()`` of the iterable."""

    @abstractmethod
    def _counted(self, item: str, counter: str | None, loc: Loc) -> Operand:
        """``statements``: the loop's item."""

    @abstractmethod
    def _unwind(self, keep: int, loc: Loc) -> None:
        """``cleanups``: lower the cleanups past the first ``keep``, innermost first."""

    @abstractmethod
    def _try_except(self, node: ast.Try) -> None:
        """``statements``: ``try``/``except``/``else``."""

    @abstractmethod
    def _try_finally(self, node: ast.Try) -> None:
        """``cleanups``: ``try`` with a ``finally`` body."""

    @abstractmethod
    def expr(self, node: ast.expr) -> Operand:
        """``expressions``: lower one expression to the operand holding its value."""

    @abstractmethod
    def name(self, node: ast.Name) -> Operand:
        """``expressions``: a read of a name."""

    @abstractmethod
    def binop_text(self, node: ast.AST, op: ast.operator) -> str:
        """``expressions``: the IR text of a binary operator."""

    @abstractmethod
    def index(self, node: ast.Subscript) -> Operand:
        """``expressions``: the index of an item assignment target."""

    @abstractmethod
    def call_args(self, node: ast.Call) -> tuple[tuple[Operand, ...], tuple[tuple[str, Operand], ...]]:
        """``expressions``: a call's arguments, evaluated."""

    @abstractmethod
    def _call(self, node: ast.Call, whole: bool = False) -> Var:
        """``expressions``: a plain call."""

    @abstractmethod
    def _is_bare_super(self, node: ast.Call) -> bool:
        """``expressions``: ``super()`` in a method."""

    @abstractmethod
    def expr_ListComp(self, node: ast.ListComp | ast.GeneratorExp) -> Operand:
        """``comprehensions``: a list comprehension."""

    @abstractmethod
    def _comprehension(
        self,
        node: ast.ListComp | ast.SetComp | ast.GeneratorExp | ast.DictComp,
        produce: Callable[[], None],
        first: tuple[Operand, Operand | None, str] | None = None,
    ) -> None:
        """``comprehensions``: the loops of a comprehension."""

    @abstractmethod
    def _consumed_generator(self, node: ast.Call) -> Operand | None:
        """``comprehensions``: a generator expression consumed whole by a builtin."""

    @abstractmethod
    def _whole(self, node: ast.expr) -> Operand:
        """``comprehensions``: ``node``, a call of it consumed whole."""

    @abstractmethod
    def _whole_consumer(self, node: ast.Call, items: Operand) -> Var:
        """``comprehensions``: ``list``/``tuple``/``sorted`` of ``items``."""

    @abstractmethod
    def _yield_from(self, node: ast.YieldFrom) -> None:
        """``functions``: ``yield from it`` as a statement."""

    @abstractmethod
    def _reduce(self, node: ast.Call) -> Operand:
        """``library``: ``functools.reduce`` as the loop it runs."""

    @abstractmethod
    def _sort_by_key(self, node: ast.Call) -> Operand | None:
        """``library``: ``sorted``/``sort`` with a key lambda."""

    @abstractmethod
    def _sum(self, generator: ast.GeneratorExp, start: Operand) -> Operand:
        """``library``: ``sum`` of a generator."""

    @abstractmethod
    def _any_all(self, generator: ast.GeneratorExp, is_any: bool) -> Operand:
        """``library``: ``any``/``all`` of a generator."""

    @abstractmethod
    def _min_max(self, generator: ast.GeneratorExp, name: str, keywords: list[ast.keyword]) -> Operand:
        """``library``: ``min``/``max`` of a generator."""

    @abstractmethod
    def _inline_plan(self, node: ast.expr) -> Any:
        """``generators``: whether ``node`` is a generator call that can be inlined (None: not)."""

    @abstractmethod
    def _model_plan_of(self, node: ast.expr) -> bool:
        """``generators``: ``node`` calls a library iterator modelled as an inlined generator."""

    @abstractmethod
    def _islice_of(self, node: ast.expr) -> tuple[ast.Call, ast.Call] | None:
        """``generators``: ``itertools.islice(g(...), stop)`` of a generator call to inline (None: not)."""

    @abstractmethod
    def _inline_iterable(self, node: ast.expr) -> tuple[Operand, Operand | None, str] | None:
        """``generators``: a generator call to inline, its arguments evaluated (None: not one)."""

    @abstractmethod
    def _inline_loop(self, call: Any, loc: Loc, take_item: Callable[[Operand], None], body: Callable[[], None], orelse: Callable[[], None]) -> None:
        """``generators``: the loop over a generator call, with the generator inlined."""

    @abstractmethod
    def _inline_yield(self, value: Operand, loc: Loc) -> bool:
        """``generators``: ``yield value`` in an inlined generator (False: not inlining)."""

    @abstractmethod
    def _inline_return(self, node: ast.Return) -> bool:
        """``generators``: ``return`` in an inlined generator (False: not inlining)."""

    @abstractmethod
    def _inline_yield_from(self, node: ast.YieldFrom) -> bool:
        """``generators``: ``yield from it`` in an inlined generator (False: not inlining)."""

    @abstractmethod
    def _next_item(self, generator: ast.GeneratorExp, default: ast.expr | None, loc: Loc) -> Operand:
        """``library``: ``next()`` of a generator expression."""

    @abstractmethod
    def _stop_iteration_converter(self, loc: Loc) -> ir.Block:
        """``generators``: the handler turning a StopIteration into PEP 479's RuntimeError."""

    @abstractmethod
    def _element(self, elt: ast.expr) -> Operand:
        """``comprehensions``: a comprehension's item, evaluated in its frame."""

    @abstractmethod
    def _generator_made(self, generator: ast.GeneratorExp) -> tuple[Operand, Operand | None, str]:
        """``comprehensions``: a generator expression's first iterable, ``iter()`` called on it."""

    @abstractmethod
    def _generator_to_unpack(self, generator: ast.GeneratorExp, target: ast.Tuple | ast.List) -> Operand:
        """``comprehensions``: the items a generator expression unpacked into ``target`` gives."""

    @abstractmethod
    def _for_over_generator_expression(self, node: ast.For) -> None:
        """``comprehensions``: a ``for`` statement over a generator expression."""
