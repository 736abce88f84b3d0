"""The toolkit's exception tree (user errors also subclass ``ValueError``), and the argument
parser every command uses: a usage error is one line and exit 2."""

import argparse
import os


class ToolkitError(Exception):
    """Base class of every error the toolkit raises on purpose."""


class InvalidExpression(ToolkitError, ValueError):
    """User text that is not an activation the toolkit accepts. The message is one line."""


class InvalidArgument(ToolkitError, ValueError):
    """A bad command-line or API argument, reported as ``name=value: what to do``."""


class OneLineErrorParser(argparse.ArgumentParser):
    """``argparse`` with a usage error as one line on stderr and exit 2 (no usage dump)."""

    def error(self, message: str) -> None:
        self.exit(2, f"{self.prog}: error: {message} (see --help)\n")


def check_writable(path: str, option: str) -> None:
    """Before any work: a file can be written in ``path``'s folder (a temporary file of a fresh
    name is made there and removed: no file of the user's is touched), else ``InvalidArgument``
    naming ``option``."""
    import tempfile

    try:
        if os.path.isdir(path):
            raise IsADirectoryError(21, "a folder")
        with tempfile.NamedTemporaryFile(dir=os.path.dirname(os.path.abspath(path))):
            pass
    except OSError as exc:
        raise InvalidArgument(
            f"{option} {path}: cannot write there ({exc.strerror or exc})"
        ) from None
