"""`python -m arena` runs the command line."""

from arena.cli.app import main

main()
