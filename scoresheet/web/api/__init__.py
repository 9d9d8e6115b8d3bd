"""The JSON API (API.md): its routes, under /api with Bearer tokens, and its JSON shapes."""
