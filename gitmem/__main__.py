"""`python -m gitmem` runs the command line."""

from gitmem.launcher import main

main()
