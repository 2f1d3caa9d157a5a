"""rancf's validation layer: the papers' reference cases, rerun and reported.

Every case lives in ``validation/cases/<name>.py`` and exposes ``CASE``, a
:class:`validation.case.Case`. ``python -m validation`` runs them and writes the report.
"""
