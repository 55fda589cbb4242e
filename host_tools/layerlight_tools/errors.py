"""Errors the `layerlight` command reports as one line."""


class UserError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""
