"""Pure data: the entry, its fields, YAML and Markdown, schemas, names, problems."""
