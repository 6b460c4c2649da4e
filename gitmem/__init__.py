"""gitmem: a project's shared memory, kept as reviewed Markdown entries in its git repository.

The command and the import package are `gitmem`; the distribution that installs them has a
name of its own, DISTRIBUTION, because the name `gitmem` on the package index belongs to an
unrelated project. Every text that tells a user what to install (the README, the hooks' "not
installed" hint, the install step of the GitHub workflows, the docs) takes the name from here,
and a test holds pyproject.toml and those texts to it.
"""

from typing import Final

__version__ = "0.1.0"

#: The distribution's name on the package index: `pipx install gitmem-cli` gets the command.
DISTRIBUTION: Final = "gitmem-cli"
