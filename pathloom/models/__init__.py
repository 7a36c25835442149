"""Library functions written as the Python pathloom analyses (see ``models.library``)."""

LIBRARY = "pathloom.models.library"  # the module of the models, linked under this name
