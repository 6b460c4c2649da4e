"""gitmem: a project's shared memory, kept as reviewed Markdown entries in its git repository."""

__version__ = "0.1.0"
