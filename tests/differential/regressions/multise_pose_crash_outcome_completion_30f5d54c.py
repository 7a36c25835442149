# pathloom differential regression: multise/pose:crash:AssertionError@multise.py:_input_heap_model
# entry: f
# params: a: Node
# engines: dse/pose,dse/lazier,dse/lazy,compose/pose,compose/lazier,compose/lazy,multise/pose,multise/lazier,multise/lazy
# inputs: []
# found: fuzz --seed 1212 (not shrunk: the statement reduction dropped a field store and made the program's inputs invalid); a returned input object whose
# fields the model left out made the first outcome-completion loop re-solve without end

from enum import Enum
from typing import Optional


WORD = 'a'.upper()


def h0(a: int) -> int:
    ok0 = False
    a -= a + (-2)
    return (3 ** 0) + (-a)


class Color(Enum):
    RED = 1
    GREEN = 2
    BLUE = 3
    CRIMSON = 1


class Node:
    def __init__(self, val: int, next: Optional["Node"] = None) -> None:
        self.val = val
        self.next = next


class Pair:
    def __init__(self, left: Node, right: Optional[Node] = None) -> None:
        self.left = left
        self.right = right


def f(a: Node) -> Optional[Node]:
    v0 = 9
    c0 = Color(5 % 4)
    r0 = a
    w0 = a
    i0 = 0
    while w0 and i0 < 4:
        i0 += 1
        a.next.val = int(len(Color))
        w0 = w0.next
    if a:
        v0 = (r0.val if r0 is not None else r0.val)
    return a.next
