"""One module per reference case; each defines ``CASE`` (a :class:`validation.case.Case`)."""
