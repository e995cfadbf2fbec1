"""``python -m peloton`` runs the command-line interface."""

from .cli import main

main()
