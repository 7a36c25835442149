"""Random programs for compose over input objects: helpers of a linked ``Node`` class (fields ``val: int``, ``name: str``, ``key: Optional[int]``, ``next: Optional[Node]``)
that compose summarizes with heap path conditions, called from an entry point whose
parameters are input objects that may alias (``a``, ``b: Node``, ``c: Optional[Node]``):
on the inputs, on fields of them (``a.next``), on objects the entry creates, after the entry
assigned fields of the inputs, inside ``try``, in conditions, in loops. The helpers compare
fields, test None and identity, walk the list with a bounded loop, raise, divide, call
lower helpers, and write fields (swap a node's value with its successor's, assign a field,
cut the list). Deterministic: a program is a function of its seed.
"""

from __future__ import annotations

import random

HEADER = """from typing import Optional


class Node:
    def __init__(self, val: int, name: str, key: Optional[int], next: Optional["Node"] = None) -> None:
        self.val = val
        self.name = name
        self.key = key
        self.next = next
"""


class _Gen:
    def __init__(self, seed: int) -> None:
        self.r = random.Random(seed)
        self.helpers: list[tuple[str, str]] = []  # (name, kind): "n" (n: Node, t: int), "o" (n: Optional[Node], t: int), "ab" (a: Node, b: Node)

    def const(self) -> int:
        return self.r.randint(-3, 5)

    def field_expr(self, n: str) -> str:
        return self.r.choice([f"{n}.val", f"{n}.val + t", f"len({n}.name)", f"{n}.val - {self.const()}"])

    def node_helper(self, index: int) -> str:
        name = f"h{index}"
        style = self.r.choice(["cmp", "next", "walk", "name", "key", "raises", "calls", "swap", "bump"])
        lines = [f"def {name}(n: Node, t: int) -> int:"]
        if style == "cmp":
            lines += [
                f"    if {self.field_expr('n')} > {self.r.choice(['t', str(self.const())])}:",
                f"        return {self.field_expr('n')}",
                f"    if n.val == {self.const()}:",
                "        return -1",
                "    return t",
            ]
        elif style == "next":
            lines += [
                "    if n.next is None:",
                "        return t",
                f"    if n.next.val {self.r.choice(['>', '<=', '=='])} n.val:",
                "        return 1",
                "    if n.next is n:",
                "        return 2",
                "    return 0",
            ]
        elif style == "walk":
            lines += [
                "    k = 0",
                "    m: Optional[Node] = n",
                f"    while m is not None and k < {self.r.randint(2, 4)}:",
                f"        if m.val {self.r.choice(['>', '<'])} t:",
                "            k += 2",
                "        else:",
                "            k += 1",
                "        m = m.next",
                "    return k",
            ]
        elif style == "name":
            lines += [
                "    if len(n.name) > t:",
                "        return 1",
                f"    if n.name == {self.r.choice(['a', 'ab', ''])!r}:",
                "        return 2",
                "    return 0",
            ]
        elif style == "key":
            lines += ["    if n.key is None:", "        return t", "    if n.key > n.val:", "        return n.key - n.val", "    return 0"]
        elif style == "swap":  # writes: the values of a node and its successor exchanged
            lines += [
                "    if n.next is None:",
                "        return 0",
                f"    if n.val {self.r.choice(['>', '<'])} n.next.val + t:",
                "        v = n.val",
                "        n.val = n.next.val",
                "        n.next.val = v",
                "        return 1",
                "    return 0",
            ]
        elif style == "bump":  # writes a field, then reads fields that may be the same object's
            lines += [
                "    if n.val > t:",
                f"        n.{self.r.choice(['val', 'key'])} = t - 1",
                f"    if n.next is not None and n.next.val {self.r.choice(['==', '<'])} n.val:",
                "        n.next = None",
                "        return 2",
                "    return n.val",
            ]
        elif style == "raises":
            lines += [f"    if n.val == t + {self.const()}:", '        raise ValueError("bad")', f"    return {self.const()} // (n.val - t)"]
        else:
            lower = [h for h, kind in self.helpers if kind == "n"]
            call = f"{self.r.choice(lower)}(n, t + 1)" if lower else "t"
            lines += [f"    c = {call}", "    if c > n.val:", "        return c", "    return n.val"]
        self.helpers.append((name, "n"))
        return "\n".join(lines)

    def optional_helper(self, index: int) -> str:
        name = f"h{index}"
        lines = [f"def {name}(n: Optional[Node], t: int) -> int:", "    if n is None:", f"        return {self.const()}"]
        lines += self.r.choice(
            [
                ["    if n.val > t:", "        return 1", "    return 0"],
                ["    if n.next is not None and n.next.val == n.val:", "        return 3", "    return n.val"],
                ["    if n.key is not None:", "        return n.key", "    return t"],
            ]
        )
        self.helpers.append((name, "o"))
        return "\n".join(lines)

    def pair_helper(self, index: int) -> str:
        name = f"h{index}"
        lines = [f"def {name}(a: Node, b: Node) -> int:", "    if a is b:", "        return 0"]
        lines += self.r.choice(
            [
                ["    if a.val < b.val:", "        return 1", "    return 2"],
                ["    if a.next is b:", "        return 3", "    if b.next is a:", "        return 4", "    return 5"],
                ["    if a.name == b.name:", "        return 6", "    return a.val - b.val"],
            ]
        )
        self.helpers.append((name, "ab"))
        return "\n".join(lines)

    def call(self) -> str:
        name, kind = self.r.choice(self.helpers)
        t = self.r.choice(["x", "x + 1", str(self.const()), "k"])
        if kind == "n":
            return f"{name}({self.r.choice(['a', 'b', 'a', 'm'])}, {t})"
        if kind == "o":
            return f"{name}({self.r.choice(['a', 'c', 'a.next', 'None', 'm'])}, {t})"
        first, second = self.r.choice([("a", "b"), ("b", "a"), ("a", "a"), ("a", "m"), ("m", "b")])
        return f"{name}({first}, {second})"

    def statement(self) -> list[str]:
        kind = self.r.choice(["add", "add", "if", "try", "write", "write", "guarded", "loop"])
        if kind == "add":
            return [f"    k += {self.call()}"]
        if kind == "if":
            return [f"    if {self.call()} > {self.const()}:", f"        k += {self.const()}"]
        if kind == "try":
            return ["    try:", f"        k += {self.call()}", "    except (ValueError, ZeroDivisionError):", "        k -= 1"]
        if kind == "write":
            return [
                self.r.choice(
                    [
                        "    a.val = x",
                        "    b.val = k",
                        "    a.next = c",
                        "    m.next = b",
                        "    b.key = None",
                        "    a.name = 'ab'",
                        "    m = Node(x, 'a', None, c)",
                        "    a.key = x",
                    ]
                )
            ]
        if kind == "guarded":  # c is not None here, though its type says it may be
            nodes = [h for h, kind in self.helpers if kind == "n"]
            call = f"{self.r.choice(nodes)}(c, x)" if nodes else self.call()
            return ["    if c is not None:", f"        k += {call}"]
        return ["    for i in range(2):", f"        k += {self.call().replace(', k)', ', i)')}"]

    def program(self) -> str:
        parts = [HEADER]
        for index in range(self.r.randint(2, 4)):
            maker = self.r.choice([self.node_helper, self.node_helper, self.optional_helper, self.pair_helper])
            parts.append(maker(index))
        body = ["def f(a: Node, b: Node, c: Optional[Node], x: int) -> int:", "    k = 0", "    m = Node(x, 'b', 1, a)"]
        for _ in range(self.r.randint(2, 5)):
            body += self.statement()
        body.append("    return k")
        parts.append("\n".join(body))
        return "\n\n\n".join(parts) + "\n"


def compose_object_program(seed: int) -> str:
    """The program of ``seed``: its entry point is ``f``."""
    return _Gen(seed).program()
