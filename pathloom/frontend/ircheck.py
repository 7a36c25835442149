"""Validate the IR's invariants: every block has one terminator, every jump targets an
existing block, handlers exist, back edges go to loop headers, branch conditions are
variables defined in the same block (the frontend makes them with ``Truth``/``Compare``/
``ExcMatch``), temporaries are never Python names, a dict display has one value per key."""

from __future__ import annotations

from pathloom.frontend import ir
from pathloom.frontend.cfg import successors


def check_function(f: ir.Function) -> list[str]:
    errors: list[str] = []
    if f.entry not in f.blocks:
        errors.append(f"{f.qualname}: entry L{f.entry} missing")
    for label, block in f.blocks.items():
        where = f"{f.qualname} L{label}"
        if block.label != label:
            errors.append(f"{where}: label mismatch")
        if block.terminator is None:
            errors.append(f"{where}: no terminator")
            continue
        for succ in successors(block):
            if succ not in f.blocks:
                errors.append(f"{where}: jump to missing L{succ}")
        term = block.terminator
        if isinstance(term, ir.Goto) and term.back_edge:
            header = f.blocks.get(term.target)
            if header is None or header.loops[-1:] != (term.target,):
                errors.append(f"{where}: back edge to L{term.target}, which is not a loop header")
        if isinstance(term, ir.Branch):
            if not isinstance(term.cond, ir.Var):
                errors.append(f"{where}: branch on a non-variable")
            else:
                makers = [i for i in block.instrs if getattr(i, "dst", None) == term.cond.name]
                if not makers or not isinstance(makers[-1], (ir.Truth, ir.Compare, ir.ExcMatch)):
                    errors.append(f"{where}: branch condition {term.cond.name} is not a bool made in the block")
        for instr in block.instrs:
            if isinstance(instr, ir.BuildDict) and len(instr.keys) != len(instr.values):
                errors.append(f"{where}: dict display with {len(instr.keys)} keys and {len(instr.values)} values")
            for name in getattr(instr, "dsts", ()) + ((getattr(instr, "dst"),) if hasattr(instr, "dst") else ()):
                if name.startswith("%") and not name[1:].isdigit() and name not in ("%self", "%result", "%yield") and not name.startswith(("%cell.", "%enum.")):
                    errors.append(f"{where}: odd temporary name {name}")
    return errors
