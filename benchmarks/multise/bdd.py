"""BDD: build a reduced ordered BDD (node objects, a unique table as a list) for the Boolean
function whose truth table is given by the input items (item > 0 means true; the table has
2**3 = 8 rows, missing rows are false), then count the nodes and evaluate it at ``probe``.

``mk`` shares equal nodes and drops redundant tests, so many truth tables give the same BDD
shape; the result is the node count times 10 plus the value at ``probe``'s low three bits.
"""


class BddNode:
    def __init__(self, var: int, low: "BddNode", high: "BddNode", ident: int) -> None:
        self.var = var
        self.low = low
        self.high = high
        self.ident = ident


class Bdd:
    def __init__(self) -> None:
        self.zero = BddNode(3, None, None, 0)
        self.one = BddNode(3, None, None, 1)
        self.table = []
        self.count = 2

    def mk(self, var: int, low: BddNode, high: BddNode) -> BddNode:
        if low is high:
            return low
        for node in self.table:
            if node.var == var and node.low is low and node.high is high:
                return node
        node = BddNode(var, low, high, self.count)
        self.count += 1
        self.table.append(node)
        return node

    def build(self, bits: list[bool], var: int, start: int, width: int) -> BddNode:
        if var == 3:
            if bits[start]:
                return self.one
            return self.zero
        half = width // 2
        low = self.build(bits, var + 1, start, half)
        high = self.build(bits, var + 1, start + half, half)
        return self.mk(var, low, high)


def evaluate(node: BddNode, a: int) -> int:
    while node.var < 3:
        if (a // (4 // (2 ** node.var))) % 2 == 1:
            node = node.high
        else:
            node = node.low
    return node.ident


def bdd(table: list[int], probe: int) -> int:
    bits = []
    for t in table:
        bits.append(t > 0)
    while len(bits) < 8:
        bits.append(False)
    b = Bdd()
    root = b.build(bits, 0, 0, 8)
    return b.count * 10 + evaluate(root, probe % 8)
