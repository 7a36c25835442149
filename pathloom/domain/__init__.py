"""The value domain every layer shares: the values and heap records the semantics computes
(``values``), the outcomes of one instruction (``outcome``) and the builtin names the supported
subset knows (``names``).

It imports nothing of pathloom but ``terms``, so the frontend, the semantics, the heap models,
the engines and the reporters can all name a value without importing each other.
"""
