"""The only door to git: pygit2, the git command line, snapshots, the workspace."""
