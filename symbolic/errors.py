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
    """Before any work: a file can be written at ``path`` (an empty probe ``path.tmp`` is made and
    removed), else ``InvalidArgument`` naming ``option``."""
    probe = f"{path}.tmp"
    try:
        with open(probe, "w", encoding="utf-8"):
            pass
        os.remove(probe)
    except OSError as exc:
        raise InvalidArgument(
            f"{option} {path}: cannot write there ({exc.strerror or exc})"
        ) from None
