"""The lowering of one Python function (``ast``) to the IR control-flow graph, in parts.

``pathloom.frontend.lower`` is the public entry; it composes the class that lowers from these
modules, one job each:

- ``scope``: analyses of a function's syntax tree (its locals, ``nonlocal``/``global``
  declarations, binding sites, generator or not, preconditions); no IR.
- ``desugar``: library rewrites that are pure ``ast`` to ``ast`` (``functools.cache``,
  ``map``/``filter``/``reversed`` as generator expressions); no IR.
- ``builder``: the state of one lowering and the primitives that build the graph.
- ``statements``, ``expressions``, ``comprehensions``, ``functions``: the mixins lowering
  Python's statements, expressions, comprehensions (and generators consumed in place), and
  functions, lambdas and closures.
- ``library``: library calls lowered to the IR of the loops they run (``reduce``, ``sorted``
  with a key, ``sum``/``any``/``all``/``min``/``max`` of a generator).
- ``cleanups``, ``contexts``, ``matching``: ``try``/``finally`` (and the ``finally`` bodies and
  ``__exit__`` calls a ``return``/``break``/``continue`` runs on its way out), ``with``, and
  ``match``, each lowered to explicit control flow, so no engine knows them.

Lowering is the only place that knows Python's statement and expression syntax.
"""
