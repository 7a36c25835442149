"""Readable text for terms, used in ``repr`` and in reports; never parsed back."""

from __future__ import annotations

from pathloom.terms.expr import Arg, Term

_INFIX = {
    "add": "+", "sub": "-", "mul": "*", "floordiv": "//", "mod": "%", "eq": "==", "lt": "<",
    "le": "<=", "str_lt": "<", "str_le": "<=", "and": "and", "or": "or", "concat": "+",
}


def show(term: Arg) -> str:
    if not isinstance(term, Term):
        return repr(term)
    op, args = term.op, term.args
    if op == "sym":
        return str(args[0])
    if op in _INFIX:
        return f"({show(args[0])} {_INFIX[op]} {show(args[1])})"
    if op == "neg":
        return f"-{show(args[0])}"
    if op == "not":
        return f"not {show(args[0])}"
    if op == "ite":
        return f"({show(args[1])} if {show(args[0])} else {show(args[2])})"
    if op == "at":
        return f"{show(args[0])}[{show(args[1])}]"
    if op == "contains":
        return f"({show(args[1])} in {show(args[0])})"
    names = {"len": "len", "to_code": "ord", "from_code": "chr"}
    return f"{names.get(op, op)}({', '.join(show(a) for a in args)})"
