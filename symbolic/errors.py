"""The toolkit's exception tree. User errors also subclass ``ValueError``."""


class ToolkitError(Exception):
    """Base class of every error the toolkit raises on purpose."""


class InvalidExpression(ToolkitError, ValueError):
    """User text that is not an activation the toolkit accepts. The message is one line."""


class InvalidArgument(ToolkitError, ValueError):
    """A bad command-line or API argument, reported as ``name=value: what to do``."""
