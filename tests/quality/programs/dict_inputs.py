"""Dict parameters: str, int and bare dict keys, and a dict of input objects (tests/unit/test_dict_inputs.py)."""

from typing import Optional


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


def lookup(d: dict[str, int], k: str) -> int:
    if k in d:
        if d[k] > 10:
            return 1
        return 2
    if len(d) >= 2:
        return 3
    return 0


def total(d: dict[int, int]) -> int:
    s = 0
    for k, v in d.items():
        if k < 0:
            raise ValueError("negative key")
        s += v
    assert s != 7
    return s


def first(d: dict) -> str:
    for k in d:
        return k
    return ""


def heads(d: dict[str, Node], key: str) -> int:
    n = d.get(key)
    if n is None:
        return -1
    if n.next is not None and n.next is d.get("b"):
        return 1
    return n.val
