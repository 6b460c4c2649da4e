"""The command line: the group, the exit-code mapping, one module per command family."""
