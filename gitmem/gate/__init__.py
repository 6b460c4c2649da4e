"""The rules: file rules, the history judge, the secret scanner, the check report."""
