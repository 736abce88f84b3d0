"""Renderings of the engine's objects (claims, steps, results, reports, tables): text, LaTeX,
HTML and the notebook displays. Nothing here decides anything; every module returns strings
built from the objects the kernel and the engine made.

Modules, each importing only those above it:

* ``formula_text`` — a formula in plain text (``∀ t ∈ (0, ∞): …``), and ``sympy.sstr``'s text;
* ``text`` — reports, results and tables in plain text (the dashboard, ``-v``);
* ``latex_breaks``, ``latex_printer``, ``latex_spans`` — the project's SymPy LaTeX printer,
  where TeX may break what it prints, and the SymPy syntax inside prose;
* ``latex_symbols``, ``latex_text`` — characters as LaTeX (rules as data), ``escape``, ``math``
  and ``prose``;
* ``latex_steps``, ``latex_claims``, ``latex_tables``, ``latex_document`` — the LaTeX document
  (``python -m proofs --latex``): derivations, claims, tables, then the document itself;
* ``html_text``, ``html_status``, ``html_links``, ``html_graphs``, ``html_pages``,
  ``html_site`` — the HTML blueprint (``python -m proofs --html DIR``);
* ``notebook`` — Markdown, MathJax, HTML and ``repr`` of results for Python and Jupyter.
"""
