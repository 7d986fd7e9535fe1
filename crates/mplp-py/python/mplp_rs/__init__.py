"""mplp_rs: MPLP v1.0.0 (Multi-Agent Lifecycle Protocol) in Python, on mplp-rs.

Validation with the verdicts, JSON pointers and rule ids of ``mplp validate``::

    import mplp_rs
    result = mplp_rs.validate(b'{"plan_id": "..."}')          # bytes, str, dict, list or a pathlib.Path
    if not result.valid:
        for e in result.errors:
            print(e.pointer, e.rule, e.message)
    mplp_rs.validate(data, profile="canonical")                  # as --profile canonical
    mplp_rs.validate_log("events.ndjson")                        # streamed, constant memory
    mplp_rs.validate_bundle("work/")                             # as --bundle: the binding rules too

Documents: one class per module document (``Plan``, ``Dialog``, ``Collab``,
``Context``, ``Confirm``, ``Trace``, ``Role``, ``Extension``, ``Network``,
``Core``; ``DOCUMENT_CLASSES`` maps each kind name to its class). Each
validates on construction (``ValidationError``, a ``ValueError``, lists
every violation) and offers the lifecycle operations, which raise
``TransitionError`` when refused. ``simulate_session`` returns the MAP
event log of a simulated session. ``SaSession`` runs a plan under the SA
profile with a Python callable as the executor.
"""

from ._native import (
    PROFILES,
    PROTOCOL_VERSION,
    BundleResult,
    Collab,
    Confirm,
    Context,
    Core,
    Dialog,
    Extension,
    MplpError,
    Network,
    Plan,
    Role,
    SaSession,
    Trace,
    TransitionError,
    ValidationError,
    ValidationResult,
    Violation,
    __version__,
    kind_table,
    kinds,
    simulate_session,
    validate,
    validate_bundle,
    validate_log,
)

#: The class of each module document, by its kind name (``Plan.KIND``, ...).
DOCUMENT_CLASSES: "dict[str, type[object]]" = {
    cls.KIND: cls
    for cls in (Dialog, Plan, Collab, Context, Confirm, Trace, Role, Extension, Network, Core)
}

__all__ = [
    "DOCUMENT_CLASSES",
    "PROFILES",
    "PROTOCOL_VERSION",
    "BundleResult",
    "Collab",
    "Confirm",
    "Context",
    "Core",
    "Dialog",
    "Extension",
    "MplpError",
    "Network",
    "Plan",
    "Role",
    "SaSession",
    "Trace",
    "TransitionError",
    "ValidationError",
    "ValidationResult",
    "Violation",
    "__version__",
    "kind_table",
    "kinds",
    "simulate_session",
    "validate",
    "validate_bundle",
    "validate_log",
]
