"""Evidence: the export of every kernel fact as files, and their independent re-check.

Nothing here makes a verdict (only ``symbolic.kernel`` does): the export writes what the kernel
decided, the re-check re-decides it from the files alone with engines of its own.
"""
