"""Recall: the search engine, its cache, the semantic extra, the recall service."""
