"""Layout files: reading them with positions, validating them, and the resolved models."""
