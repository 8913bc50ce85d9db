"""transactions (to be described)."""
