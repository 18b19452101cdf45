"""Game records: written as JSON, read as untrusted input, checked, replayed."""
