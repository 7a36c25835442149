"""Red-black tree (left-leaning, Sedgewick's LLRB): insert the symbolic keys with rotations and
colour flips, then check the invariants and return the black height times 10 plus the size.

The shape of the tree depends on the order of the keys; the black height and the size are
shared by most paths.
"""

RED = True
BLACK = False


class RbNode:
    def __init__(self, key: int) -> None:
        self.key = key
        self.left = None
        self.right = None
        self.color = RED


def is_red(node: RbNode) -> bool:
    if node is None:
        return False
    return node.color == RED


def rotate_left(h: RbNode) -> RbNode:
    x = h.right
    h.right = x.left
    x.left = h
    x.color = h.color
    h.color = RED
    return x


def rotate_right(h: RbNode) -> RbNode:
    x = h.left
    h.left = x.right
    x.right = h
    x.color = h.color
    h.color = RED
    return x


def flip_colors(h: RbNode) -> None:
    h.color = not h.color
    h.left.color = not h.left.color
    h.right.color = not h.right.color


class RedBlackTree:
    def __init__(self) -> None:
        self.root = None
        self.size = 0

    def put(self, key: int) -> None:
        self.root = self.insert(self.root, key)
        self.root.color = BLACK

    def insert(self, h: RbNode, key: int) -> RbNode:
        if h is None:
            self.size += 1
            return RbNode(key)
        if key < h.key:
            h.left = self.insert(h.left, key)
        elif key > h.key:
            h.right = self.insert(h.right, key)
        if is_red(h.right) and not is_red(h.left):
            h = rotate_left(h)
        if is_red(h.left) and is_red(h.left.left):
            h = rotate_right(h)
        if is_red(h.left) and is_red(h.right):
            flip_colors(h)
        return h


def black_height(h: RbNode) -> int:
    if h is None:
        return 0
    left = black_height(h.left)
    right = black_height(h.right)
    assert left == right, "unbalanced"
    assert not is_red(h.right), "right-leaning red link"
    if is_red(h):
        return left
    return left + 1


def red_black(keys: list[int]) -> int:
    t = RedBlackTree()
    for k in keys:
        t.put(k)
    return black_height(t.root) * 10 + t.size
