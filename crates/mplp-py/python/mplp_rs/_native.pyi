"""Type stubs of the mplp_rs extension module (built from crates/mplp-py/src)."""

import os
from collections.abc import Callable, Iterable
from typing import Any, Literal, Optional, Union

PROTOCOL_VERSION: str
__version__: str

JsonInput = Union[bytes, bytearray, str, dict[str, Any], list[Any], "os.PathLike[str]"]
"""JSON text (bytes, bytearray, str), a parsed value (dict, list) or a file (os.PathLike)."""

Kind = Literal[
    "auto", "dialog", "plan", "collab", "context", "confirm", "trace", "role", "extension", "network", "core", "map-event", "sa-event", "event", "learning-sample", "common-learning-sample", "tool-event", "file-update-event", "git-event", "ci-event", "module-event", "map-log", "sa-log", "event-log"
]
LogKind = Literal["map", "sa", "auto", "map-log", "sa-log", "event-log"]

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
    def __eq__(self, other: object) -> bool: ...

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

def validate(data: JsonInput, kind: Kind = "auto", profile: None = None) -> ValidationResult:
    """Validates one MPLP document (or a log file: .ndjson/.jsonl paths, or a log kind).

    A str is JSON text (a str naming a file raises TypeError: pass a pathlib.Path).
    Raises TypeError for other input types, ValidationError for a dict/list
    with no JSON form (NaN, too deep, circular), OSError for unreadable files,
    ValueError for an unknown kind or profile.
    """

def validate_log(
    source: Union[str, "os.PathLike[str]", bytes, bytearray, Iterable[Union[str, bytes]]],
    kind: LogKind = "map",
    profile: None = None,
) -> ValidationResult:
    """Validates an NDJSON event log, streaming (a path, the content as bytes, or lines)."""

def kinds() -> list[str]:
    """The names validate(kind=...) accepts: "auto" and every document kind."""

def simulate_session(
    mode: Literal["broadcast", "round_robin", "orchestrated", "swarm", "pair"],
    participants: int,
    turns: int,
    seed: int = 0,
    plan: Union["Plan", JsonInput, None] = None,
) -> list[dict[str, Any]]:
    """The MAP event log of a simulated session (deterministic for a seed)."""

class Plan:
    """A valid MPLP Plan; the constructor raises ValidationError for an invalid one."""

    def __init__(self, data: JsonInput) -> None: ...
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
    def check(self) -> ValidationResult: ...
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

class Dialog:
    """A valid MPLP Dialog; the constructor raises ValidationError for an invalid one."""

    def __init__(self, data: JsonInput) -> None: ...
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

class Collab:
    """A valid MPLP Collab; the constructor raises ValidationError for an invalid one."""

    def __init__(self, data: JsonInput) -> None: ...
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
    def to_json(self, pretty: bool = False) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

class SaSession:
    """Runs a Plan under the SA profile with a Python callable as the executor.

    ``executor(step)`` gets a dict (``step_id``, ``description``, ``agent_role``,
    ``position``, ``attempt``, ``approved``) and returns a dict (the step's
    result) or ``None``; raising fails the attempt; returning
    ``("needs_approval", reason)`` asks ``approver(request)`` (default: approve).
    """

    def __init__(
        self,
        plan: JsonInput,
        executor: Callable[[dict[str, Any]], Any],
        context: Optional[JsonInput] = None,
        out: Union[str, "os.PathLike[str]", None] = None,
        retries: int = 0,
        on_exhausted: Literal["fail_plan", "skip_dependents"] = "fail_plan",
        approver: Optional[Callable[[dict[str, Any]], bool]] = None,
    ) -> None: ...
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
