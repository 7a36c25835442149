"""Terms to and from JSON-compatible data (summaries are stored on disk in later issues).

Format: a concrete value is ``{"c": value}`` (keeps bool apart from int), a float
``{"f": float.hex(value)}`` (exact, signed zeros, ``inf`` and ``nan`` included); a term is
``{"op": name, "sort": sort, "args": [...]}``; a symbol is ``{"op": "sym", "sort": s,
"args": [name]}``. Decoding rebuilds through ``make`` (interning), never through eval.
"""

from __future__ import annotations

from typing import Any

from pathloom.terms.expr import Arg, Term, make, postorder

JSON = Any


def _const(value: Arg) -> JSON:
    return {"f": value.hex()} if isinstance(value, float) else {"c": value}


def to_json(term: Arg) -> JSON:
    if not isinstance(term, Term):
        return _const(term)
    done: dict[Term, JSON] = {}
    for t in postorder(term):  # iterative: terms can be deeper than the recursion limit
        if t.op == "sym":
            done[t] = {"op": "sym", "sort": t.sort, "args": [t.args[0]]}
        else:
            args = [done[a] if isinstance(a, Term) else _const(a) for a in t.args]
            done[t] = {"op": t.op, "sort": t.sort, "args": args}
    return done[term]


def from_json(data: JSON) -> Arg:
    built: dict[int, Arg] = {}  # id of a JSON object -> its term (shared objects built once)
    stack = [data]
    while stack:
        node = stack[-1]
        if id(node) in built:
            stack.pop()
            continue
        if not isinstance(node, dict):
            raise ValueError("term JSON must be an object")
        if "f" in node:
            built[id(node)] = float.fromhex(str(node["f"]))  # ValueError if it is not a float's hex
            stack.pop()
            continue
        if "c" in node:
            value = node["c"]
            if not isinstance(value, (int, str)):
                raise ValueError("bad constant in term JSON")
            built[id(node)] = value
            stack.pop()
            continue
        op, sort, args = node.get("op"), node.get("sort"), node.get("args")
        if not isinstance(op, str) or not isinstance(sort, str) or not isinstance(args, list):
            raise ValueError("bad term JSON")
        if op == "sym":
            built[id(node)] = make("sym", (str(args[0]),), sort)
            stack.pop()
            continue
        missing = [a for a in args if id(a) not in built]
        if missing:
            stack.extend(reversed(missing))
            continue
        built[id(node)] = make(op, tuple(built[id(a)] for a in args), sort)
        stack.pop()
    return built[id(data)]
