"""``python -m corefscore``: the command line."""

from .cli import run

run()
