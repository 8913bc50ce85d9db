"""The dashboard's widgets: the parts screens are composed of, one per module."""
