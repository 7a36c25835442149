"""The JSON value format: how inputs, returned values and exceptions are written (``values``).

Engines encode what they found with it, the replay and the generated tests decode it, and the
reporters print it. It sits above the heap models (an input object is decoded from a model of
the input heap) and below the engines, so that engines need no reporter.
"""
