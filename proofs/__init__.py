"""Theorem modules: python -m proofs.<name>; python -m proofs checks them all.

Every command starts here: a core dependency that is not installed (a partial install, another
interpreter) is one line on stderr and exit 2, as bad usage is, never a traceback.
"""

import importlib
import sys

# The core dependencies of pyproject.toml: (module, distribution to install).
CORE_DEPENDENCIES = (
    ("sympy", "sympy"),
    ("mpmath", "mpmath"),
    ("numpy", "numpy"),
    ("z3", "z3-solver"),
    ("flint", "python-flint"),
)


def missing_dependencies() -> list[str]:
    """The distributions of ``CORE_DEPENDENCIES`` that cannot be imported."""
    missing = []
    for module, distribution in CORE_DEPENDENCIES:
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(distribution)
    return missing


if _missing := missing_dependencies():
    print(
        f"proofs: error: {', '.join(_missing)} not installed (core dependencies of "
        "transformer-proofs); install the checkout with pip install -e .",
        file=sys.stderr,
    )
    raise SystemExit(2)
