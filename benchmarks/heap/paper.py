"""The three programs of the POSE paper's Figure 1, in Python (benchmarks/heap_models.py).

``this`` is an explicit parameter of type ``Sample`` (never None: a Python method's ``self``
is never None either); the paper's other references may be null, ours are ``Optional``
where the paper's program tests them, and plain ``Sample`` where it dereferences them."""

from __future__ import annotations

from typing import Optional


class Sample:
    def __init__(self, data: Optional[Sample] = None, next: Optional[Sample] = None, val: int = 0) -> None:
        self.data = data
        self.next = next
        self.val = val


def swap(this: Sample, s: Optional[Sample]) -> None:
    if s is not None:
        d = this.data
        this.data = s.data
        s.data = d


def sum3(this: Sample, s0: Sample, s1: Sample, s2: Sample) -> int:
    return s0.val + s1.val + s2.val


def has_null(this: Sample) -> bool:
    s = this.next
    i = 1
    while s is not None and i <= 4:
        s = s.next
        i = i + 1
    return s is None


def has_null_10(this: Sample) -> bool:
    s = this.next
    i = 1
    while s is not None and i <= 10:
        s = s.next
        i = i + 1
    return s is None
