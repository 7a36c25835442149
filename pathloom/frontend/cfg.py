"""Control-flow-graph helpers over the IR: successors, reachability, branch edges."""

from __future__ import annotations

from pathloom.frontend import ir
from pathloom.models import LIBRARY


def successors(block: ir.Block) -> list[int]:
    term = block.terminator
    result: list[int] = []
    if isinstance(term, ir.Goto):
        result.append(term.target)
    elif isinstance(term, ir.Branch):
        result += [term.then, term.orelse]
    elif isinstance(term, ir.ForIter):
        result += [term.body, term.exit]
    if block.handler is not None:
        result.append(block.handler)
    return result


def reachable(function: ir.Function) -> list[int]:
    seen: set[int] = set()
    order: list[int] = []
    stack = [function.entry]
    while stack:
        label = stack.pop()
        if label in seen:
            continue
        seen.add(label)
        order.append(label)
        stack.extend(reversed(successors(function.blocks[label])))
    return order


def branch_edges(function: ir.Function) -> list[tuple[str, int, bool]]:
    """Every (function, block, direction) of a two-way decision of the source in a reachable
    block (a ``hidden`` branch the lowering added is none, nor is one of a library model's,
    ``pathloom.models.library``: the coverage is of the user's code)."""
    if function.qualname.startswith(LIBRARY + ":"):
        return []
    edges = []
    for label in reachable(function):
        term = function.blocks[label].terminator
        if isinstance(term, (ir.ForIter, ir.Branch)) and not term.hidden:
            edges += [(function.qualname, label, True), (function.qualname, label, False)]
    return edges


def predecessors(function: ir.Function) -> dict[int, list[int]]:
    preds: dict[int, list[int]] = {label: [] for label in function.blocks}
    for label, block in function.blocks.items():
        for succ in successors(block):
            preds[succ].append(label)
    return preds


def reverse_postorder(function: ir.Function) -> dict[int, int]:
    """Position of each reachable block in reverse post-order (loop headers before their
    bodies, joins after the branches that reach them)."""
    seen: set[int] = set()
    post: list[int] = []
    stack: list[tuple[int, int]] = [(function.entry, 0)]
    seen.add(function.entry)
    while stack:
        label, i = stack.pop()
        succ = successors(function.blocks[label])
        if i < len(succ):
            stack.append((label, i + 1))
            nxt = succ[i]
            if nxt not in seen:
                seen.add(nxt)
                stack.append((nxt, 0))
        else:
            post.append(label)
    return {label: i for i, label in enumerate(reversed(post))}
