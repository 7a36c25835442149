"""Instrumentation for the fallback engines: a copy of the module in which reaching a target
raises a marker exception of kind ``reach``.

Each site of the target (``targets.sites``) is replaced by the marker: the block keeps its
instructions before the site, then builds a ``BaseException`` and raises it with no handler
in that block, so the marker leaves the frame at once and ends the path. Invariant: a path of
the instrumented function ends with a ``reach`` raise exactly when the same path of the real
function reaches the target; the original module is never changed (the copy has its own table
of lowered functions). A marker could be caught only by a handler of a calling frame, that is
by a recursive call of the target inside a ``try``: ``may_hide_marker`` tells that case, where
no unreachability claim is made from a run.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from pathloom.frontend import ir
from pathloom.frontend.module import Module
from pathloom.navigation.targets import Target, sites
from pathloom.results import RaiseKind

MARKER_KIND = RaiseKind.REACH
MARKER_VAR = "%reach"


def _marked(block: ir.Block, index: int, loc: ir.Loc) -> ir.Block:
    build = ir.Call(MARKER_VAR, ir.Global("BaseException"), (ir.Const("pathloom: reach target"),), (), loc)
    return ir.Block(block.label, list(block.instrs[:index]) + [build], ir.Raise(ir.Var(MARKER_VAR), MARKER_KIND, loc), None, block.loops)


def instrumented(module: Module, qualname: str, target: Target) -> Module:
    """A copy of ``module`` whose function ``qualname`` raises the marker at ``target``."""
    function = module.function(qualname)
    blocks = dict(function.blocks)
    for site in sites(function, target):
        block = blocks[site.label]
        nodes = list(block.instrs) + ([block.terminator] if block.terminator is not None else [])
        blocks[site.label] = _marked(block, site.index, nodes[site.index].loc)
    clone = copy.copy(module)
    clone._lowered = dict(module._lowered)
    clone.register_lowered(replace(function, blocks=blocks))
    return clone


def may_hide_marker(function: ir.Function) -> bool:
    """A recursive call inside a ``try`` could catch the marker of an inner frame."""
    has_handler = any(block.handler is not None for block in function.blocks.values())
    calls_itself = any(
        (isinstance(instr, ir.Call) and isinstance(instr.func, ir.Global) and instr.func.name == function.name)
        or (isinstance(instr, ir.CallMethod) and instr.name == function.name)
        for block in function.blocks.values()
        for instr in block.instrs
    )
    return has_handler and calls_itself
