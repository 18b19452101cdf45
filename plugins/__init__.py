"""Rules plugins that ship with bezique; each is registered like an outside plugin."""
