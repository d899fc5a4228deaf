"""The wire between the referee and bots: protocol v1 (see SPEC.md)."""

from protocol.messages import PROTOCOL_VERSION

__all__ = ["PROTOCOL_VERSION"]
