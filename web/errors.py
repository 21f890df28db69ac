"""The one error type of the web layer: a 4xx answer with a message for people."""
from __future__ import annotations


class ApiError(Exception):
    """An answer ``status`` with ``{"error": message, ...extra}``; nothing was changed."""

    def __init__(self, status: int, message: str, **extra):
        super().__init__(message)
        self.status = status
        self.message = message
        self.extra = {k: v for k, v in extra.items() if v is not None}

    def body(self) -> dict:
        return {"error": self.message, **self.extra}
