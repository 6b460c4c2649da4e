"""The MCP server: the project memory as tools for AI agents (docs/architecture.md)."""
