"""Curation: lint, hygiene, harvest and import, which only ever propose."""
