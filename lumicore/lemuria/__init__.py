"""Lemuria: card data, planning instances, the year simulator (see docs/lemuria.md)."""
