"""The paper's linked list repOk, called 3 and 5 times. The list is passed as ints: up to 4
nodes, ``n0..n3`` the index of each node's successor (-1: none), ``size`` the size it
claims; repOk follows the links from node 0 and checks that they end within 4 steps after
exactly ``size`` nodes. ``call3times`` and ``call5times`` check one unchanged list;
``after_removals`` and the ``shrinking`` targets check it after each removal of its second
node, as the paper's driver calls repOk after each operation, so each call gets other
arguments. ``links3times`` and ``links5times`` pass the list itself, a ``list[int]`` of
successors (compose summarizes list arguments it only reads)."""


def successor(node: int, n0: int, n1: int, n2: int, n3: int) -> int:
    if node == 0:
        return n0
    if node == 1:
        return n1
    if node == 2:
        return n2
    return n3


def rep_ok(n0: int, n1: int, n2: int, n3: int, size: int) -> bool:
    node = 0
    count = 0
    for _ in range(4):
        if node == -1:
            break
        if node < 0 or node > 3:
            return False
        count += 1
        node = successor(node, n0, n1, n2, n3)
    return node == -1 and count == size


def call3times(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    ok = 0
    for _ in range(3):
        if rep_ok(n0, n1, n2, n3, size):
            ok += 1
    return ok


def call5times(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    ok = 0
    for _ in range(5):
        if rep_ok(n0, n1, n2, n3, size):
            ok += 1
    return ok


def rep_ok_seeded(n0: int, n1: int, n2: int, n3: int, size: int) -> bool:
    ok = rep_ok(n0, n1, n2, n3, size)
    if ok and size == 4:
        assert not (n2 == 3 and n3 == -1), "seeded error"
    return ok


def seeded_calls(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    """The target heuristics' subject: repOk (with an error seeded on one path) called 3 times."""
    if rep_ok_seeded(n0, n1, n2, n3, size) and rep_ok_seeded(n0, n1, n2, n3, size):
        return 2 if rep_ok_seeded(n0, n1, n2, n3, size) else 1
    return 0


def rep_ok_seeded_first(n0: int, n1: int, n2: int, n3: int, size: int) -> bool:
    """The error seeded on a path DSE meets early: node 0 links to itself (not a list)."""
    ok = rep_ok(n0, n1, n2, n3, size)
    if not ok and n0 == 0:
        assert size != 0, "seeded error"
    return ok


def rep_ok_seeded_last(n0: int, n1: int, n2: int, n3: int, size: int) -> bool:
    """The error seeded on the list of one node."""
    ok = rep_ok(n0, n1, n2, n3, size)
    if ok and size == 1:
        assert n0 != -1, "seeded error"
    return ok


def seeded_first(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    if rep_ok_seeded_first(n0, n1, n2, n3, size) and rep_ok_seeded_first(n0, n1, n2, n3, size):
        return 2 if rep_ok_seeded_first(n0, n1, n2, n3, size) else 1
    return 0


def seeded_last(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    if rep_ok_seeded_last(n0, n1, n2, n3, size) and rep_ok_seeded_last(n0, n1, n2, n3, size):
        return 2 if rep_ok_seeded_last(n0, n1, n2, n3, size) else 1
    return 0


def unlink_second(n0: int, n1: int, n2: int, n3: int) -> int:
    """Node 0's successor once the list's second node is removed (the paper's list calls repOk
    after each operation on it, so each call sees another list)."""
    if n0 < 0 or n0 > 3:
        return n0
    return successor(n0, n0, n1, n2, n3)


def after_removals(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    """repOk after each of 3 removals of the second node: other arguments at each call."""
    ok = 0
    for _ in range(3):
        if rep_ok(n0, n1, n2, n3, size):
            ok += 1
        n0 = unlink_second(n0, n1, n2, n3)
        size -= 1
    return ok


def shrinking(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    """repOk (error seeded in a 4-node list) after each of 3 removals: other arguments each call."""
    ok = 0
    for _ in range(3):
        if rep_ok_seeded(n0, n1, n2, n3, size):
            ok += 1
        n0 = unlink_second(n0, n1, n2, n3)
        size -= 1
    return ok


def shrinking_first(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    """As ``shrinking``, the error seeded where node 0 links to itself."""
    ok = 0
    for _ in range(3):
        if rep_ok_seeded_first(n0, n1, n2, n3, size):
            ok += 1
        n0 = unlink_second(n0, n1, n2, n3)
        size -= 1
    return ok


def shrinking_last(n0: int, n1: int, n2: int, n3: int, size: int) -> int:
    """As ``shrinking``, the error seeded in the list of one node."""
    ok = 0
    for _ in range(3):
        if rep_ok_seeded_last(n0, n1, n2, n3, size):
            ok += 1
        n0 = unlink_second(n0, n1, n2, n3)
        size -= 1
    return ok


def rep_ok_links(links: list[int], size: int) -> bool:
    """repOk over the list itself: ``links[i]`` is node i's successor (-1: none)."""
    node = 0
    count = 0
    for _ in range(4):
        if node == -1:
            break
        if node < 0 or node >= len(links):
            return False
        count += 1
        node = links[node]
    return node == -1 and count == size


def links3times(links: list[int], size: int) -> int:
    """``call3times`` with the list passed as a ``list[int]``."""
    ok = 0
    for _ in range(3):
        if rep_ok_links(links, size):
            ok += 1
    return ok


def links5times(links: list[int], size: int) -> int:
    """``call5times`` with the list passed as a ``list[int]``."""
    ok = 0
    for _ in range(5):
        if rep_ok_links(links, size):
            ok += 1
    return ok
