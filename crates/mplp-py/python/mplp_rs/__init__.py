"""mplp_rs: MPLP v1.0.0 (Multi-Agent Lifecycle Protocol) in Python, on mplp-rs.

Validation with the verdicts, JSON pointers and rule ids of ``mplp validate``::

    import mplp_rs
    result = mplp_rs.validate(b'{"plan_id": "..."}')          # bytes, str, dict, list or a pathlib.Path
    if not result.valid:
        for e in result.errors:
            print(e.pointer, e.rule, e.message)
    mplp_rs.validate_log("events.ndjson")                        # streamed, constant memory

Documents: ``Plan``, ``Dialog`` and ``Collab`` validate on construction
(``ValidationError``, a ``ValueError``, lists every violation) and offer the
lifecycle operations, which raise ``TransitionError`` when refused.
``simulate_session`` returns the MAP event log of a simulated session.
``SaSession`` runs a plan under the SA profile with a Python callable as
the executor.
"""

from ._native import (
    PROTOCOL_VERSION,
    Collab,
    Dialog,
    MplpError,
    Plan,
    SaSession,
    TransitionError,
    ValidationError,
    ValidationResult,
    Violation,
    __version__,
    kinds,
    simulate_session,
    validate,
    validate_log,
)

__all__ = [
    "PROTOCOL_VERSION",
    "Collab",
    "Dialog",
    "MplpError",
    "Plan",
    "SaSession",
    "TransitionError",
    "ValidationError",
    "ValidationResult",
    "Violation",
    "__version__",
    "kinds",
    "simulate_session",
    "validate",
    "validate_log",
]
