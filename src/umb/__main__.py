"""``python -m umb`` runs the command line."""

from umb._cli.main import entry

entry()
