"""Settings: the project's file, the user's own file, GITMEM_* variables, merged."""
