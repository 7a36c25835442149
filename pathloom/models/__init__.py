"""Library functions written as the Python pathloom analyses (see ``models.library``)."""
