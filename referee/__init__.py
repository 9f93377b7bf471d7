"""referee: rules specification and referee for three board games."""

__version__ = "0.1.0"
