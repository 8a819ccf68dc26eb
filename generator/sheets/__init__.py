"""Sheet drawings: each turns a validated layout into a scene (mm)."""
