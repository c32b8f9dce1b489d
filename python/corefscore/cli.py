"""Command line entry point (placeholder until the command line is written)."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Say that the command line is not implemented yet and exit with status 2."""
    print("corefscore: the command line is not implemented yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
