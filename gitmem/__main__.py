"""`python -m gitmem` runs the command line."""

from gitmem.cli import main

main()
