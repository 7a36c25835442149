"""Chain program form (the paper's section 3.1) over pathloom's IR.

The IR's back edges (``Goto.back_edge``) are the only edges that close cycles, so the CFG
without them is acyclic. A *subchain* of the loop with header ``H`` is a path of that acyclic
graph from ``H`` to a block that jumps back to ``H``, inside ``H``'s loop: one unique path
through the loop body. A *root chain* is a path of the acyclic graph from the entry to a block
holding a target site. A block that heads a loop other than the chain's own is a *loop node*:
there the loop's subchains may run any number of times in any order before the chain goes on
(through the header again, to the exit or into a last, partial, iteration). Chains are tuples of
block labels; a loop node is its header's label.

Departures from the paper: chains are paths of basic blocks rather than of single
instructions, and the IR is not in SSA form (the analysis keeps a state per variable instead).
A root chain ends at the target site, which may be inside a loop (the last iteration is then
partial). The form applies to a function without exception handlers (their edges are not
modelled) and with at most ``MAX_CHAINS`` chains; otherwise ``NotApplicable`` says why.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial

from pathloom.frontend import ir
from pathloom.frontend.cfg import successors

MAX_CHAINS = 5000
MAX_STEPS = 200_000  # partial paths tried while enumerating one loop's chains


class NotApplicable(Exception):
    """The chain technique does not apply to this function or target (the message says why)."""


@dataclass(frozen=True)
class Chain:
    id: int
    header: int
    blocks: tuple[int, ...]  # from the header to the block with the back edge


@dataclass
class ChainForm:
    function: ir.Function
    loops: dict[int, list[Chain]] = field(default_factory=dict)  # header -> its subchains
    parent: dict[int, int | None] = field(default_factory=dict)  # header -> enclosing header
    by_path: dict[tuple[int, tuple[int, ...]], Chain] = field(default_factory=dict)

    def is_header(self, label: int) -> bool:
        return self.function.blocks[label].loops[-1:] == (label,)

    def chains_under(self, header: int) -> list[Chain]:
        """The subchains of ``header``'s loop and of every loop nested in it."""
        found = list(self.loops.get(header, []))
        for inner, outer in self.parent.items():
            if outer == header:
                found += self.chains_under(inner)
        return found

    def top_loop(self, header: int) -> int:
        while self.parent.get(header) is not None:
            header = self.parent[header]  # type: ignore[assignment]
        return header


def _forward(block: ir.Block) -> list[int]:
    term = block.terminator
    if isinstance(term, ir.Goto) and term.back_edge:
        return []
    return successors(block)


def _paths(function: ir.Function, start: int, accept: object, allowed: object, limit: int) -> list[tuple[int, ...]]:
    """Paths of the acyclic graph from ``start``; ``accept(label)`` ends one (kept),
    ``allowed(label)`` says whether a block may be entered."""
    found: list[tuple[int, ...]] = []
    stack: list[tuple[int, ...]] = [(start,)]
    steps = 0
    while stack:
        steps += 1
        if steps > MAX_STEPS:
            raise NotApplicable(f"more than {MAX_STEPS} partial paths while forming chains")
        path = stack.pop()
        label = path[-1]
        if accept(label):  # type: ignore[operator]
            found.append(path)
            if len(found) > limit:
                raise NotApplicable(f"more than {limit} chains")
            continue
        for succ in reversed(_forward(function.blocks[label])):
            if allowed(succ):  # type: ignore[operator]
                stack.append(path + (succ,))
    return found


def _inside(function: ir.Function, header: int, label: int) -> bool:
    """Block ``label`` is in the body of the loop headed by ``header`` (not the header)."""
    return header in function.blocks[label].loops and label != header


def build(function: ir.Function) -> ChainForm:
    if any(block.handler is not None for block in function.blocks.values()):
        raise NotApplicable("the function has exception handlers")
    form = ChainForm(function)
    headers = sorted({label for label, block in function.blocks.items() if block.loops[-1:] == (label,)})
    next_id = 0
    for header in headers:
        loops = function.blocks[header].loops
        form.parent[header] = loops[-2] if len(loops) > 1 else None
        back_sources = {
            label
            for label, block in function.blocks.items()
            if isinstance(block.terminator, ir.Goto) and block.terminator.back_edge and block.terminator.target == header
        }
        paths = _paths(function, header, back_sources.__contains__, partial(_inside, function, header), MAX_CHAINS)
        form.loops[header] = []
        for path in paths:
            chain = Chain(next_id, header, path)
            next_id += 1
            form.loops[header].append(chain)
            form.by_path[(header, path)] = chain
        if next_id > MAX_CHAINS:
            raise NotApplicable(f"more than {MAX_CHAINS} chains")
    return form


def root_chains(form: ChainForm, site_labels: set[int]) -> list[tuple[int, ...]]:
    """Paths of the acyclic graph from the entry to a block with a target site."""
    function = form.function
    return _paths(function, function.entry, lambda b: b in site_labels, lambda b: True, MAX_CHAINS)
