"""Type stubs of the mplp_rs extension module (built from crates/mplp-py/src)."""

import os
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Literal, Optional, TypedDict, Union, final

__all__ = [
    "MplpError",
    "ValidationError",
    "TransitionError",
    "Violation",
    "ValidationResult",
    "Plan",
    "Dialog",
    "Collab",
    "Context",
    "Confirm",
    "Trace",
    "Role",
    "Extension",
    "Network",
    "Core",
    "BundleResult",
    "SaSession",
    "validate",
    "validate_log",
    "kinds",
    "kind_table",
    "validate_bundle",
    "PROFILES",
    "simulate_session",
    "PROTOCOL_VERSION",
    "__version__",
]

PROTOCOL_VERSION: str
__version__: str
PROFILES: list[str]
"""The names profile= accepts: "strict" (the default, also None) and "canonical"."""

_JsonInput = Union[bytes, bytearray, str, dict[str, Any], list[Any], "os.PathLike[str]"]
"""JSON text (bytes, bytearray, str), a parsed value (dict, list) or a file (os.PathLike)."""

_Kind = Literal[
    "auto", "dialog", "plan", "collab", "context", "confirm", "trace", "role", "extension", "network", "core", "map-event", "sa-event", "event", "learning-sample", "common-learning-sample", "tool-event", "file-update-event", "git-event", "ci-event", "module-event", "map-log", "sa-log", "event-log"
]
_LogKind = Literal["map", "sa", "event", "auto", "map-log", "sa-log", "event-log"]
_Profile = Optional[Literal["strict", "canonical"]]
_PathInput = Union[str, "os.PathLike[str]"]

@final
class Violation:
    """One problem found: where (pointer, line), which rule, what was expected."""

    @property
    def pointer(self) -> str:
        """RFC 6901 JSON pointer into the document ("" is the whole document)."""
    @property
    def rule(self) -> str:
        """The stable rule id (required, pattern, plan_dag_acyclic, ...)."""
    @property
    def message(self) -> str:
        """What is wrong and what was expected."""
    @property
    def severity(self) -> Literal["error", "warning"]:
        """Whether the violation makes the document invalid."""
    @property
    def line(self) -> Optional[int]:
        """For NDJSON logs, the 1-based line number."""
    def to_dict(self) -> dict[str, Any]:
        """{"pointer", "rule", "message"[, "line"]}, as `mplp validate --format json`."""
    def __eq__(self, value: object, /) -> bool: ...

@final
class ValidationResult:
    """The outcome of validate() or validate_log()."""

    @property
    def kind(self) -> Optional[str]:
        """The kind validated, or None when it could not be recognised."""
    @property
    def valid(self) -> bool:
        """True when there is no error (warnings allowed)."""
    @property
    def errors(self) -> list[Violation]:
        """The errors, in document (or line) order."""
    @property
    def warnings(self) -> list[Violation]:
        """The warnings, in document (or line) order."""
    @property
    def violations(self) -> list[Violation]:
        """Errors and warnings, in the order found."""
    def to_dict(self) -> dict[str, Any]:
        """{"kind", "valid", "errors", "warnings"}: one `mplp validate --format json` line without "file"."""
    def raise_for_errors(self) -> None:
        """Raises ValidationError (with every violation) unless valid."""
    def __bool__(self) -> bool: ...

class MplpError(ValueError):
    """Base of every mplp_rs error."""

    violations: list[Violation]

class ValidationError(MplpError):
    """The input is not a valid MPLP document; `violations` lists every violation."""

class TransitionError(MplpError):
    """A lifecycle operation was refused; `violations` holds the reason."""

def validate(
    data: _JsonInput,
    kind: _Kind = "auto",
    profile: _Profile = None,
    partial: bool = False,
    *,
    max_document_bytes: Optional[int] = None,
    event_id_window: Optional[int] = None,
) -> ValidationResult:
    """Validates one MPLP document (or a log file: .ndjson/.jsonl paths, or a log kind).

    profile: "strict" (None) or "canonical", as `mplp validate --profile`;
    partial: logs still being written, as `--partial`; max_document_bytes and
    event_id_window as `--max-document-bytes` and `--event-id-window`.
    A str is JSON text (a str naming a file raises TypeError: pass a pathlib.Path).
    Raises TypeError for other input types, ValidationError for a dict/list
    with no JSON form (NaN, too deep, circular), OSError for unreadable files,
    ValueError for an unknown kind or profile.
    """

def validate_log(
    source: Union[str, "os.PathLike[str]", bytes, bytearray, Iterable[Union[str, bytes]]],
    kind: _LogKind = "map",
    profile: _Profile = None,
    partial: bool = False,
    *,
    event_id_window: Optional[int] = None,
) -> ValidationResult:
    """Validates an NDJSON event log, streaming (a path, the content as bytes, or lines)."""

def kinds() -> list[str]:
    """The names validate(kind=...) accepts: "auto" and every document kind."""

class _KindRow(TypedDict):
    """One row of the kind table."""

    name: str
    description: str
    shape: Literal["document", "log"]
    event: bool
    line_kind: Optional[str]

def kind_table() -> list[_KindRow]:
    """The kind table, a dict per kind: name, description, shape, event, line_kind."""

@final
class BundleResult:
    """What validate_bundle found: a ValidationResult per file, in order."""

    @property
    def valid(self) -> bool:
        """True when no file has an error."""
    @property
    def files(self) -> list[str]:
        """The files, in the order they were checked."""
    @property
    def errors(self) -> list[tuple[str, Violation]]:
        """Every error, as (file, Violation)."""
    def results(self) -> list[tuple[str, ValidationResult]]:
        """(file, ValidationResult) for each file, in order."""
    def to_dicts(self) -> list[dict[str, Any]]:
        """One dict per file, as `mplp validate --bundle --format json` lines."""
    def __getitem__(self, file: str, /) -> ValidationResult: ...
    def __len__(self) -> int: ...
    def __bool__(self) -> bool: ...

def validate_bundle(
    files: Union[_PathInput, Iterable[_PathInput]],
    profile: _Profile = None,
    partial: bool = False,
    *,
    max_document_bytes: Optional[int] = None,
    event_id_window: Optional[int] = None,
) -> BundleResult:
    """Validates files together as one bundle, as `mplp validate --bundle` (a directory, a file, or several)."""

def simulate_session(
    mode: Literal["broadcast", "round_robin", "orchestrated", "swarm", "pair"],
    participants: int,
    turns: int,
    seed: int = 0,
    plan: Union["Plan", _JsonInput, None] = None,
) -> list[dict[str, Any]]:
    """The MAP event log of a simulated session (deterministic for a seed)."""

@final
class Plan:
    """A valid MPLP Plan; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Plan": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    @staticmethod
    def build(
        title: str,
        objective: str,
        steps: list[Union[str, dict[str, Any]]],
        context_id: Optional[str] = None,
    ) -> "Plan":
        """A new draft plan; a step is a description or a dict with description and
        optionally step_id, role and after (indices into steps, or step ids)."""
    @property
    def plan_id(self) -> str: ...
    @property
    def status(self) -> str:
        """draft, proposed, approved, in_progress, completed, cancelled or failed."""
    def propose(self) -> None:
        """draft -> proposed."""
    def approve(self, by: Optional[str] = None, reason: Optional[str] = None) -> None:
        """proposed -> approved."""
    def reject(self, by: Optional[str] = None, reason: Optional[str] = None) -> None:
        """proposed -> draft."""
    def decide(
        self, confirm: "Confirm", approved: bool, by: Optional[str] = None, reason: Optional[str] = None
    ) -> None:
        """Decides the Confirm and moves the plan with it (proposed -> approved or draft)."""
    def apply_confirm(self, confirm: "Confirm") -> None:
        """Applies the Confirm's last decision (decided elsewhere) to the plan."""
    def start(self) -> None:
        """approved -> in_progress."""
    def cancel(self) -> None:
        """draft|in_progress -> cancelled."""
    def start_step(self, step_id: str) -> None: ...
    def complete_step(self, step_id: str) -> None: ...
    def fail_step(self, step_id: str) -> None: ...
    def skip_step(self, step_id: str) -> None: ...
    def retry_step(self, step_id: str) -> str:
        """Retries a failed step; returns the new step's id."""
    def ready_steps(self) -> list[str]:
        """Pending steps whose dependencies are done (empty unless in_progress)."""
    def topological_order(self) -> list[str]: ...
    def execution_layers(self) -> list[list[str]]: ...
    def longest_path(self) -> list[str]: ...
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class Dialog:
    """A valid MPLP Dialog; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Dialog": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    @staticmethod
    def create(system_prompt: Optional[str] = None, context_id: Optional[str] = None) -> "Dialog":
        """A new, empty, active dialog (starting with the system prompt when given)."""
    @property
    def dialog_id(self) -> str: ...
    @property
    def status(self) -> str: ...
    def add_message(
        self, role: Literal["user", "assistant", "system", "agent"], content: str
    ) -> None: ...
    def pause(self) -> None: ...
    def resume(self) -> None: ...
    def complete(self) -> None: ...
    def cancel(self) -> None: ...
    def fork(self, last_n: int = 0, first_k: int = 1) -> "Dialog":
        """A child dialog with the first first_k and last last_n messages."""
    def prune(self, max_tokens: int, safety_margin: int = ...) -> "Dialog":
        """A copy pruned to fit max_tokens (4 characters a token) less safety_margin."""
    def to_openai(self, model: str = "gpt-4o") -> dict[str, Any]: ...
    def to_anthropic(self, model: str = "claude-sonnet-4-5", max_tokens: int = 1024) -> dict[str, Any]: ...
    def overview(self) -> str: ...
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class Collab:
    """A valid MPLP Collab; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Collab": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    @property
    def collab_id(self) -> str: ...
    @property
    def status(self) -> str: ...
    @property
    def mode(self) -> str: ...
    def start(self) -> None: ...
    def suspend(self) -> None: ...
    def resume(self) -> None: ...
    def complete(self) -> None: ...
    def cancel(self) -> None: ...
    def ensure_can_act(self) -> None:
        """Raises TransitionError (map_participants_can_act) unless active."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class SaSession:
    """Runs a Plan under the SA profile with a Python callable as the executor.

    ``executor(step)`` gets a dict (``step_id``, ``description``, ``agent_role``,
    ``position``, ``attempt``, ``approved``) and returns a dict (the step's
    result) or ``None``; raising fails the attempt; returning
    ``("needs_approval", reason)`` asks ``approver(request)`` (default: approve).
    """

    def __new__(
        cls,
        plan: _JsonInput,
        executor: Callable[[dict[str, Any]], Any],
        *,
        context: Optional[_JsonInput] = None,
        out: Union[str, "os.PathLike[str]", None] = None,
        retries: int = 0,
        on_exhausted: Literal["fail_plan", "skip_dependents"] = "fail_plan",
        approver: Optional[Callable[[dict[str, Any]], bool]] = None,
    ) -> "SaSession": ...
    def run(self) -> dict[str, Any]:
        """Runs to the end; the report (outcome, attempts, completed, failures, retries, skipped, events)."""
    def events(self) -> list[dict[str, Any]]:
        """The SA events emitted, as dicts."""
    def plan(self) -> dict[str, Any]:
        """The plan as a dict."""
    def trace(self) -> dict[str, Any]:
        """The trace as a dict."""
    def close(self) -> None:
        """Releases the store (the directory's lock)."""

@final
class Context:
    """A valid MPLP Context; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Context": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @staticmethod
    def create(title: str, domain: str, environment: str, entry_point: Optional[str] = None) -> "Context":
        """A new draft Context with a fresh id."""
    @property
    def context_id(self) -> str: ...
    @property
    def status(self) -> str:
        """draft, active, suspended, archived or closed."""
    @property
    def title(self) -> str: ...
    def fire(self, trigger: Literal["activate", "suspend", "resume", "archive", "restore", "close"]) -> None:
        """Fires a trigger of the Context table by name."""
    def activate(self) -> None:
        """draft -> active."""
    def suspend(self) -> None:
        """active -> suspended."""
    def resume(self) -> None:
        """suspended -> active."""
    def archive(self) -> None:
        """active|suspended -> archived."""
    def restore(self) -> None:
        """archived -> active."""
    def close(self) -> None:
        """Closes the Context (final)."""
    def ensure_active(self) -> None:
        """Raises TransitionError (sa_context_must_be_active) unless active."""

@final
class Confirm:
    """A valid MPLP Confirm; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Confirm": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @staticmethod
    def request(target_type: str, target_id: str, requested_by: str, reason: Optional[str] = None) -> "Confirm":
        """A pending request to approve the document target_id of kind target_type."""
    @property
    def confirm_id(self) -> str: ...
    @property
    def status(self) -> str:
        """pending, approved, rejected or cancelled."""
    @property
    def target_type(self) -> str: ...
    @property
    def target_id(self) -> str: ...
    def decide(
        self, decision: Literal["approved", "rejected", "cancelled"], by: str, reason: Optional[str] = None
    ) -> None:
        """Takes a decision: recorded and the status moved together, or TransitionError."""
    def approve(self, by: str) -> None: ...
    def reject(self, by: str, reason: str) -> None: ...
    def cancel(self, by: str) -> None: ...
    def decisions(self) -> list[dict[str, Any]]:
        """The decisions, oldest first."""

@final
class Trace:
    """A valid MPLP Trace; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Trace": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @staticmethod
    def create(context_id: str, plan_id: Optional[str] = None) -> "Trace":
        """A pending trace of an execution in context_id (of plan_id)."""
    @property
    def trace_id(self) -> str: ...
    @property
    def status(self) -> str:
        """pending, running, completed, failed or cancelled."""
    @property
    def context_id(self) -> str: ...
    @property
    def plan_id(self) -> Optional[str]: ...
    def fire(self, trigger: Literal["start", "complete", "fail", "cancel"]) -> None:
        """Fires a trigger of the trace table by name."""
    def start(self) -> None: ...
    def complete(self) -> None: ...
    def fail(self) -> None: ...
    def cancel(self) -> None: ...
    def add_segment(self, label: str, parent: Optional[str] = None) -> str:
        """Adds a pending segment; returns its id."""
    def fire_segment(
        self, segment_id: str, trigger: Literal["start", "complete", "fail", "cancel", "skip"]
    ) -> None:
        """Fires a segment trigger (only while the trace is running)."""
    def segments(self) -> list[dict[str, Any]]: ...

@final
class Role:
    """A valid MPLP Role; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Role": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @staticmethod
    def create(
        name: str, description: Optional[str] = None, capabilities: Optional[list[str]] = None
    ) -> "Role":
        """A new Role with a fresh id."""
    @property
    def role_id(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def capabilities(self) -> list[str]: ...
    def can(self, capability: str) -> bool: ...
    def grant(self, capability: str) -> bool:
        """False when the role had it already."""
    def revoke(self, capability: str) -> bool:
        """False when the role did not have it."""

@final
class Extension:
    """A valid MPLP Extension; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Extension": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @staticmethod
    def create(context_id: str, name: str, extension_type: str, version: str) -> "Extension":
        """A registered Extension with a fresh id (version: SemVer 2.0.0)."""
    @property
    def extension_id(self) -> str: ...
    @property
    def status(self) -> str:
        """registered, active, inactive or deprecated."""
    @property
    def version(self) -> str: ...
    def fire(self, trigger: Literal["activate", "deactivate", "deprecate"]) -> None: ...
    def activate(self) -> None: ...
    def deactivate(self) -> None: ...
    def deprecate(self) -> None: ...
    def upgrade(self, version: str) -> None:
        """Moves to a newer version (TransitionError otherwise)."""

@final
class Network:
    """A valid MPLP Network; the constructor raises ValidationError for an invalid one."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Network": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @staticmethod
    def create(context_id: str, name: str, topology_type: str) -> "Network":
        """A draft network with no nodes."""
    @property
    def network_id(self) -> str: ...
    @property
    def status(self) -> str:
        """draft, provisioning, active, degraded, maintenance or retired."""
    def fire(
        self, trigger: Literal["provision", "activate", "degrade", "maintain", "restore", "retire"]
    ) -> None: ...
    def provision(self) -> None: ...
    def activate(self) -> None: ...
    def degrade(self) -> None: ...
    def maintain(self) -> None: ...
    def restore(self) -> None: ...
    def retire(self) -> None: ...
    def add_node(self, kind: str, name: Optional[str] = None, role_id: Optional[str] = None) -> str:
        """Adds an inactive node; returns its id."""
    def remove_node(self, node_id: str) -> dict[str, Any]: ...
    def fire_node(
        self,
        node_id: str,
        trigger: Literal["activate", "deactivate", "degrade", "disconnect", "recover", "retire"],
    ) -> None: ...
    def nodes(self) -> list[dict[str, Any]]: ...

@final
class Core:
    """A valid MPLP Core document (a protocol instance's manifest)."""

    KIND: ClassVar[str]
    def __new__(cls, data: _JsonInput) -> "Core": ...
    def check(self, profile: _Profile = None) -> ValidationResult:
        """The dispatch's verdict on the document as it is now."""
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    @staticmethod
    def create(modules: list[str]) -> "Core":
        """A draft manifest enabling the modules, each at 1.0.0."""
    @property
    def core_id(self) -> str: ...
    @property
    def status(self) -> str:
        """draft, active, deprecated or archived."""
    def fire(self, trigger: Literal["activate", "deprecate", "archive"]) -> None: ...
    def activate(self) -> None: ...
    def deprecate(self) -> None: ...
    def archive(self) -> None: ...
    def add_module(self, module: str, version: str = "1.0.0", description: Optional[str] = None) -> None: ...
    def remove_module(self, module: str) -> dict[str, Any]: ...
    def set_required(self, module: str, required: bool) -> None: ...
    def fire_module(self, module: str, trigger: Literal["enable", "disable", "trial", "deprecate"]) -> None: ...
    def is_enabled(self, module: str) -> bool: ...
    def modules(self) -> list[dict[str, Any]]: ...
