"""Reach targets of a function and the IR blocks that reach them.

A target is a source line of the analysed function with a kind: ``line`` (the line runs),
``assert`` (the assert on that line fails) or ``raise`` (the ``raise`` statement on that line
raises). Its *sites* are the places in the IR where reaching the target begins: for ``line``,
in every block, the first instruction or non-``goto`` terminator with that line (a ``goto``
is synthetic: CPython reports no line for it); for ``assert``, every block that raises the
failed assert's ``AssertionError``; for ``raise``, the first node of that line in the block the
``raise`` ends. Invariant: control reaches a site exactly when CPython would begin the target,
and ``observed`` says, from a CPython trace, whether it did.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from pathloom.errors import UsageError
from pathloom.frontend import ir

KINDS = ("line", "assert", "raise")


@dataclass(frozen=True)
class Target:
    line: int
    kind: str  # line | assert | raise

    @property
    def is_bug(self) -> bool:
        """Reaching it is a bug (exit 1), as ``check`` reports a failed assert."""
        return self.kind in ("assert", "raise")

    def label(self) -> str:
        return f"line {self.line}" if self.kind == "line" else f"line {self.line} ({self.kind})"


@dataclass(frozen=True)
class Site:
    """Reaching ``instrs[index]`` (``index == len(instrs)``: the terminator) of block ``label``."""

    label: int
    index: int


def _nodes(block: ir.Block) -> list[ir.Instruction | ir.Terminator]:
    nodes: list[ir.Instruction | ir.Terminator] = list(block.instrs)
    if block.terminator is not None and not isinstance(block.terminator, ir.Goto):
        nodes.append(block.terminator)
    return nodes


def _first_at(block: ir.Block, line: int) -> int | None:
    for index, node in enumerate(_nodes(block)):
        if node.loc.line == line:
            return index
    return None


def sites(function: ir.Function, target: Target) -> list[Site]:
    found: list[Site] = []
    for label in sorted(function.blocks):
        block = function.blocks[label]
        term = block.terminator
        if target.kind == "assert":
            if isinstance(term, ir.Raise) and term.kind in ("assert", "precondition") and term.loc.line == target.line:
                found.append(Site(label, 0))
            continue
        if target.kind == "raise" and not (isinstance(term, ir.Raise) and term.kind == "explicit" and term.loc.line == target.line):
            continue
        index = _first_at(block, target.line)
        if index is not None:
            found.append(Site(label, index))
    return found


def line_targets(function: ir.Function, lines: list[int]) -> list[Target]:
    targets = []
    for line in lines:
        target = Target(line, "line")
        if not sites(function, target):
            raise UsageError(f"--line {line}: no statement of {function.qualname} runs on line {line}")
        targets.append(target)
    return targets


def statement_lines(node: ast.AST) -> set[tuple[int, str]]:
    """(line, ``assert`` or ``raise``) of the statements of a function's source; the IR also
    raises where no statement does (the re-raise that ends a ``try`` without a match)."""
    return {(n.lineno, "assert" if isinstance(n, ast.Assert) else "raise") for n in ast.walk(node) if isinstance(n, (ast.Assert, ast.Raise))}


def assert_targets(function: ir.Function, statements: set[tuple[int, str]], preconditions: bool = True) -> list[Target]:
    """Every assert and ``raise`` statement; the leading asserts only without ``preconditions``
    (with them, they bound the input domain, as for ``check``)."""
    kinds = ("assert", "explicit") if preconditions else ("assert", "explicit", "precondition")
    found: set[Target] = set()
    for block in function.blocks.values():
        term = block.terminator
        if isinstance(term, ir.Raise) and term.kind in kinds:
            found.add(Target(term.loc.line, "raise" if term.kind == "explicit" else "assert"))
    return sorted((t for t in found if (t.line, t.kind) in statements), key=lambda t: (t.line, t.kind))


def observed(target: Target, lines: set[int], raised: set[tuple[str, int]]) -> bool:
    """Whether a CPython trace (lines run, (exception, line) raised in the function) reached it."""
    if target.kind == "line":
        return target.line in lines
    if target.kind == "assert":
        return ("AssertionError", target.line) in raised
    return any(line == target.line for _, line in raised)
