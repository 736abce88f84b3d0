"""The user-facing languages and the one table of elementary functions they share.

``functions`` (the table), ``activation_language`` (``--activation``, with its bounds, float
estimates and sign rules in ``expression_*``), ``layer_language`` (``--layer``),
``transform_language`` (``--transform``), ``text_checks`` (the checks shared before
``ast.parse``) and ``domain_sign`` (exact sign decisions for the realness checks).
"""
