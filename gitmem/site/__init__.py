"""The memory site: a static, self-contained view of the memory at one commit (`gitmem site`)."""
