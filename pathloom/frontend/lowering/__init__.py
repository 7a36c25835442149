"""The lowering of one Python function (``ast``) to the IR control-flow graph, in parts.

``pathloom.frontend.lower`` is the public entry; these modules do one job each:

- ``scope``: analyses of a function's syntax tree (its locals, ``nonlocal``/``global``
  declarations, binding sites, generator or not, preconditions); no IR.
- ``builder``: the state of one lowering and the primitives that build the graph.

Lowering is the only place that knows Python's statement and expression syntax.
"""
