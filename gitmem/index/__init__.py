"""INDEX.md as a pure function of the entries."""
