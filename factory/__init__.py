"""factory: an unattended software factory and the agent harness behind it."""

__version__ = "0.1.0"
