"""Terms to and from JSON-compatible data (summaries are stored on disk in later issues).

Format: a concrete value is ``{"c": value}`` (keeps bool apart from int); a term is
``{"op": name, "sort": sort, "args": [...]}``; a symbol is ``{"op": "sym", "sort": s,
"args": [name]}``. Decoding rebuilds through ``make`` (interning), never through eval.
"""

from __future__ import annotations

from typing import Any

from pathloom.terms.expr import Arg, Term, make

JSON = Any


def to_json(term: Arg) -> JSON:
    if not isinstance(term, Term):
        return {"c": term}
    if term.op == "sym":
        return {"op": "sym", "sort": term.sort, "args": [term.args[0]]}
    return {"op": term.op, "sort": term.sort, "args": [to_json(a) for a in term.args]}


def from_json(data: JSON) -> Arg:
    if not isinstance(data, dict):
        raise ValueError("term JSON must be an object")
    if "c" in data:
        value = data["c"]
        if not isinstance(value, (int, str)):
            raise ValueError("bad constant in term JSON")
        return value
    op, sort, args = data["op"], data["sort"], data["args"]
    if not isinstance(op, str) or not isinstance(sort, str) or not isinstance(args, list):
        raise ValueError("bad term JSON")
    if op == "sym":
        return make("sym", (str(args[0]),), sort)
    return make(op, tuple(from_json(a) for a in args), sort)
