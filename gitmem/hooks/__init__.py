"""Git hooks: what each does, the one template, the installer, the GitHub workflows."""
