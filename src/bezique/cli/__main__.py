"""``python -m bezique.cli``: the ``bezique`` command."""

from . import main

main()
