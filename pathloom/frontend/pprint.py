"""Canonical text of the IR (used by golden tests and ``pathloom ir``-style debugging)."""

from __future__ import annotations

from pathloom.frontend import ir


def operand(op: ir.Operand | None) -> str:
    if op is None:
        return "<current>"
    if isinstance(op, ir.Var):
        return op.name
    if isinstance(op, ir.Global):
        return f"@{op.name}"
    return repr(op.value)


def _args(args: tuple[ir.Operand, ...], kwargs: tuple[tuple[str, ir.Operand], ...]) -> str:
    parts = [operand(a) for a in args] + [f"{k}={operand(v)}" for k, v in kwargs]
    return ", ".join(parts)


def instruction(i: ir.Instruction) -> str:
    if isinstance(i, ir.Assign):
        return f"{i.dst} = {operand(i.src)}"
    if isinstance(i, ir.BinOp):
        return f"{i.dst} = {operand(i.left)} {i.op} {operand(i.right)}"
    if isinstance(i, ir.UnaryOp):
        return f"{i.dst} = {i.op} {operand(i.operand)}"
    if isinstance(i, ir.Compare):
        return f"{i.dst} = {operand(i.left)} {i.op} {operand(i.right)}"
    if isinstance(i, ir.Truth):
        return f"{i.dst} = truth {operand(i.operand)}"
    if isinstance(i, ir.Call):
        return f"{i.dst} = call {operand(i.func)}({_args(i.args, i.kwargs)})"
    if isinstance(i, ir.CallMethod):
        return f"{i.dst} = call {operand(i.obj)}.{i.name}({_args(i.args, i.kwargs)})"
    if isinstance(i, ir.GetAttr):
        return f"{i.dst} = {operand(i.obj)}.{i.name}"
    if isinstance(i, ir.SetAttr):
        return f"{operand(i.obj)}.{i.name} = {operand(i.value)}"
    if isinstance(i, ir.GetItem):
        return f"{i.dst} = {operand(i.obj)}[{operand(i.index)}]"
    if isinstance(i, ir.GetSlice):
        return f"{i.dst} = {operand(i.obj)}[{operand(i.start)}:{operand(i.stop)}:{operand(i.step)}]"
    if isinstance(i, ir.SetItem):
        return f"{operand(i.obj)}[{operand(i.index)}] = {operand(i.value)}"
    if isinstance(i, ir.DelItem):
        return f"del {operand(i.obj)}[{operand(i.index)}]"
    if isinstance(i, ir.BuildList):
        return f"{i.dst} = [{', '.join(operand(x) for x in i.items)}]"
    if isinstance(i, ir.BuildTuple):
        return f"{i.dst} = ({', '.join(operand(x) for x in i.items)})"
    if isinstance(i, ir.BuildSet):
        return f"{i.dst} = set({', '.join(operand(x) for x in i.items)})"
    if isinstance(i, ir.BuildDict):
        return f"{i.dst} = {{{', '.join(f'{operand(k)}: {operand(v)}' for k, v in zip(i.keys, i.values))}}}"
    if isinstance(i, ir.Unpack):
        names = [f"*{d}" if k == i.star else d for k, d in enumerate(i.dsts)]
        return f"{', '.join(names)} = unpack {operand(i.src)}"
    if isinstance(i, ir.MakeFunction):
        closed = f" closing over ({', '.join(operand(c) for c in i.captures)})" if i.captures else ""
        return f"{i.dst} = function {i.qualname}{closed}"
    if isinstance(i, ir.GetIter):
        return f"{i.dst} = iter {i.how + ' ' if i.how else ''}{operand(i.iterable)}"
    if isinstance(i, ir.CurrentException):
        return f"{i.dst} = current exception"
    if isinstance(i, ir.ExcMatch):
        return f"{i.dst} = {operand(i.exc)} matches ({', '.join(operand(c) for c in i.classes)})"
    if isinstance(i, ir.Format):
        conversion = f"!{i.conversion}" if i.conversion else ""
        return f"{i.dst} = format {operand(i.value)}{conversion} spec {operand(i.spec)}"
    if isinstance(i, ir.BuildString):
        return f"{i.dst} = f-string({', '.join(operand(x) for x in i.parts)})"
    if isinstance(i, ir.MakeCell):
        return f"{i.dst} = new cell"
    if isinstance(i, ir.StoreCell):
        return f"cell {operand(i.cell)} = {operand(i.value)}"
    if isinstance(i, ir.LoadCell):
        return f"{i.dst} = cell {operand(i.cell)} ({i.name})"
    if isinstance(i, ir.Unmodelled):
        return f"unmodelled: {i.what}"
    assert isinstance(i, ir.Unbind)
    return f"del {i.name}"


def terminator(t: ir.Terminator | None) -> str:
    if isinstance(t, ir.Goto):
        return f"goto L{t.target}" + (" (back edge)" if t.back_edge else "")
    if isinstance(t, ir.Branch):
        return f"branch {operand(t.cond)} ? L{t.then} : L{t.orelse}"
    if isinstance(t, ir.ForIter):
        return f"for {t.dst} in {t.it} ? L{t.body} : L{t.exit}"
    if isinstance(t, ir.Return):
        return f"return {operand(t.value)}"
    if isinstance(t, ir.Raise):
        return f"raise {operand(t.value)} ({t.kind})"
    return "<no terminator>"


def _params(params: tuple[ir.Param, ...]) -> str:
    """The parameters as a ``def`` writes them: ``/`` after the positional-only ones, ``*``
    before the keyword-only ones (unless ``*args`` is), ``*args``, ``**kwargs``."""
    texts: list[str] = []
    for i, p in enumerate(params):
        if p.kind == "kwonly" and not any(q.kind in ("kwonly", "*") for q in params[:i]):
            texts.append("*")
        star = p.kind if p.kind in ("*", "**") else ""
        texts.append(star + p.name + (f": {p.annotation}" if p.annotation else ""))
        if p.kind == "posonly" and (i + 1 == len(params) or params[i + 1].kind != "posonly"):
            texts.append("/")
    return ", ".join(texts)


def function(f: ir.Function) -> str:
    params = _params(f.params)
    lines = [f"def {f.qualname}({params}):  # entry L{f.entry}"]
    for label in sorted(f.blocks):
        block = f.blocks[label]
        notes = []
        if block.handler is not None:
            notes.append(f"handler L{block.handler}")
        if block.loops:
            notes.append("loops " + ",".join(f"L{h}" for h in block.loops))
        lines.append(f"  L{label}:" + (f"  # {'; '.join(notes)}" if notes else ""))
        for instr in block.instrs:
            lines.append(f"    {instruction(instr)}  # line {instr.loc.line}")
        lines.append(f"    {terminator(block.terminator)}")
    return "\n".join(lines) + "\n"
