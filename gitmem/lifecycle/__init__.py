"""A proposal's life: propose, candidates, admit, refuse; read, refresh, init, pulls."""
