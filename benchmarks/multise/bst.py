"""Binary search tree: insert the symbolic keys (duplicates ignored), then search ``k``.

Returns the depth at which ``k`` was found, or -1.  The tree shape differs between paths,
the search results are few.
"""


class TreeNode:
    def __init__(self, key: int) -> None:
        self.key = key
        self.left = None
        self.right = None


class BST:
    def __init__(self) -> None:
        self.root = None
        self.size = 0

    def insert(self, key: int) -> None:
        if self.root is None:
            self.root = TreeNode(key)
            self.size = 1
            return
        node = self.root
        while True:
            if key == node.key:
                return
            if key < node.key:
                if node.left is None:
                    node.left = TreeNode(key)
                    self.size += 1
                    return
                node = node.left
            else:
                if node.right is None:
                    node.right = TreeNode(key)
                    self.size += 1
                    return
                node = node.right

    def depth_of(self, key: int) -> int:
        node = self.root
        depth = 0
        while node is not None:
            if key == node.key:
                return depth
            if key < node.key:
                node = node.left
            else:
                node = node.right
            depth += 1
        return -1


def bst(keys: list[int], k: int) -> int:
    t = BST()
    for key in keys:
        t.insert(key)
    return t.depth_of(k)
