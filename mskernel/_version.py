"""The mskernel version (part of every build-cache key)."""
__version__ = "0.1.0"
