//! Integration events (`integration/*.schema.json`): what IDEs, CI systems,
//! Git and external tools report to an MPLP runtime.
//!
//! The integration taxonomy (`taxonomy/integration-event-taxonomy.yaml`)
//! carries these as the payload of an `external_integration` observability
//! event ([`crate::CoreEvent`]); each is also a document of its own (the
//! CLI's kinds `tool-event`, `file-update-event`, `git-event`, `ci-event`).
//! All four schemas are closed objects (`additionalProperties: false`).
//!
//! The invariants of `integration-invariants.yaml` are rules of
//! [`crate::rules`] (`integration_*`): the schema already says most of them
//! (`minLength: 1`, the enums, `date-time`, the UUID v4 pattern); the
//! `non-empty-string` ones are stricter (a blank string such as `" "` has a
//! length of 1) and are checked by [`Document::check_rules`].
//!
//! ```
//! use mplp_core::Document;
//! use mplp_events::integration::{ToolEvent, ToolKind, RunStatus};
//!
//! let json = r#"{"tool_id": "eslint-v8.50.0", "tool_kind": "linter",
//!   "invocation_id": "550e8400-e29b-41d4-a716-446655440000", "status": "succeeded",
//!   "exit_code": 0}"#;
//! let event = ToolEvent::from_json(json)?;
//! assert_eq!(event.tool_kind, ToolKind::Linter);
//! assert_eq!(event.status, RunStatus::Succeeded);
//!
//! // A blank tool id passes `minLength: 1` but not the invariant.
//! let report = ToolEvent::validate_json(json.replace("eslint-v8.50.0", " ")).report;
//! assert!(report.errors().any(|v| v.rule.as_str() == "integration_tool_event_id_non_empty"));
//! # Ok::<(), mplp_core::Error>(())
//! ```

use mplp_core::{Document, NonEmptyString, Report, Timestamp, Wire};

use crate::core_event::require_non_blank;
use crate::formats::{Email, Uri};
use crate::rules::*;

mplp_core::mplp_id! {
    /// Identifies one invocation of a tool (`invocation_id` of a tool event).
    pub struct InvocationId;
}

mplp_core::wire_enum! {
    /// `tool_kind` of a tool event.
    pub enum ToolKind {
        /// A code formatter.
        Formatter = "formatter",
        /// A linter.
        Linter = "linter",
        /// A test runner.
        TestRunner = "test_runner",
        /// A code generator.
        Generator = "generator",
        /// Any other tool.
        Other = "other",
    }
}

mplp_core::wire_enum! {
    /// `status` of a tool invocation or a CI pipeline run.
    pub enum RunStatus {
        /// Not started yet.
        Pending = "pending",
        /// Running.
        Running = "running",
        /// Finished successfully.
        Succeeded = "succeeded",
        /// Finished with an error.
        Failed = "failed",
        /// Stopped before finishing.
        Cancelled = "cancelled",
    }
}

mplp_core::wire_enum! {
    /// `status` of one stage of a CI pipeline (a run's statuses and `skipped`).
    pub enum StageRunStatus {
        /// Not started yet.
        Pending = "pending",
        /// Running.
        Running = "running",
        /// Finished successfully.
        Succeeded = "succeeded",
        /// Finished with an error.
        Failed = "failed",
        /// Stopped before finishing.
        Cancelled = "cancelled",
        /// Not run.
        Skipped = "skipped",
    }
}

mplp_core::wire_enum! {
    /// `change_type` of a file update event.
    pub enum ChangeType {
        /// The file was created.
        Created = "created",
        /// The file was changed.
        Modified = "modified",
        /// The file was deleted.
        Deleted = "deleted",
        /// The file was renamed or moved.
        Renamed = "renamed",
    }
}

mplp_core::wire_enum! {
    /// `event_kind` of a Git event.
    pub enum GitEventKind {
        /// A commit was made.
        Commit = "commit",
        /// Commits were pushed.
        Push = "push",
        /// A merge was completed.
        Merge = "merge",
        /// A tag was created.
        Tag = "tag",
        /// A branch was created.
        BranchCreate = "branch_create",
        /// A branch was deleted.
        BranchDelete = "branch_delete",
    }
}

mplp_core::wire_enum! {
    /// `trigger_kind` of a CI event: what started the pipeline.
    pub enum TriggerKind {
        /// A push.
        Push = "push",
        /// A pull request.
        PullRequest = "pull_request",
        /// A schedule.
        Schedule = "schedule",
        /// A person, by hand.
        Manual = "manual",
        /// A tag.
        Tag = "tag",
        /// Anything else.
        Other = "other",
    }
}

/// An external tool invocation and its result (`mplp-tool-event.schema.json`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct ToolEvent {
    /// The tool, for example `eslint-v8.50.0` (`minLength: 1`).
    pub tool_id: NonEmptyString,
    /// What sort of tool it is.
    pub tool_kind: ToolKind,
    /// This invocation: a lowercase UUID v4.
    pub invocation_id: InvocationId,
    /// Where the invocation stands.
    pub status: RunStatus,
    /// When the invocation started (RFC 3339).
    pub started_at: Option<Timestamp>,
    /// When it finished (RFC 3339).
    pub completed_at: Option<Timestamp>,
    /// The process exit code.
    pub exit_code: Option<i64>,
    /// A short summary of the output or the errors.
    pub output_summary: Option<String>,
    /// The command-line arguments.
    pub args: Option<Vec<String>>,
    /// The directory the tool ran in.
    pub working_directory: Option<String>,
}

/// A file change in an IDE or workspace (`mplp-file-update-event.schema.json`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct FileUpdateEvent {
    /// The file, absolute or relative to the workspace (`minLength: 1`).
    pub file_path: NonEmptyString,
    /// What happened to it.
    pub change_type: ChangeType,
    /// The workspace root, to resolve relative paths.
    pub workspace_root: Option<String>,
    /// A short description of the change.
    pub change_summary: Option<String>,
    /// When the change happened (RFC 3339).
    pub timestamp: Timestamp,
    /// Lines added.
    pub lines_added: Option<u64>,
    /// Lines removed.
    pub lines_removed: Option<u64>,
    /// The path before a rename.
    pub previous_path: Option<String>,
    /// The file's encoding, for example `utf-8`.
    pub encoding: Option<String>,
    /// The language or file type, for example `rust`.
    pub language: Option<String>,
}

/// A Git operation (`mplp-git-event.schema.json`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct GitEvent {
    /// The repository's URL or name (`minLength: 1`).
    pub repo_url: NonEmptyString,
    /// The commit (`minLength: 1`).
    pub commit_id: NonEmptyString,
    /// The branch, tag or ref (`minLength: 1`).
    pub ref_name: NonEmptyString,
    /// What operation it was.
    pub event_kind: GitEventKind,
    /// The commit's author.
    pub author_name: Option<String>,
    /// The author's email address (`format: email`).
    pub author_email: Option<Email>,
    /// The commit message (or its first line).
    pub commit_message: Option<String>,
    /// When the operation happened (RFC 3339).
    pub timestamp: Timestamp,
    /// Files changed.
    pub files_changed: Option<u64>,
    /// Lines inserted.
    pub insertions: Option<u64>,
    /// Lines deleted.
    pub deletions: Option<u64>,
    /// The parent commits (several for a merge).
    pub parent_commits: Option<Vec<String>>,
}

/// One stage of a CI pipeline run.
#[derive(Clone, Debug, PartialEq, Wire)]
#[non_exhaustive]
pub struct CiStage {
    /// The stage's name.
    pub stage_name: String,
    /// Where the stage stands.
    pub status: StageRunStatus,
    /// How long it ran, in milliseconds.
    pub duration_ms: Option<u64>,
}

/// A CI pipeline run (`mplp-ci-event.schema.json`).
#[derive(Clone, Debug, PartialEq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct CiEvent {
    /// The CI system, for example `github-actions` (`minLength: 1`).
    pub ci_provider: NonEmptyString,
    /// The pipeline or workflow (`minLength: 1`).
    pub pipeline_id: NonEmptyString,
    /// This run (`minLength: 1`).
    pub run_id: NonEmptyString,
    /// Where the run stands.
    pub status: RunStatus,
    /// When the run started (RFC 3339).
    pub started_at: Option<Timestamp>,
    /// When it finished (RFC 3339).
    pub completed_at: Option<Timestamp>,
    /// The branch that triggered it.
    pub branch_name: Option<String>,
    /// The commit that triggered it.
    pub commit_id: Option<String>,
    /// Where to see the run (`format: uri`).
    pub run_url: Option<Uri>,
    /// How long the run took, in milliseconds.
    pub duration_ms: Option<u64>,
    /// The stages and their statuses.
    pub stages: Option<Vec<CiStage>>,
    /// What started the run.
    pub trigger_kind: Option<TriggerKind>,
}

impl ToolEvent {
    /// A tool event with the required members and a fresh `invocation_id`.
    pub fn new(tool_id: NonEmptyString, tool_kind: ToolKind, status: RunStatus) -> Self {
        ToolEvent {
            tool_id,
            tool_kind,
            invocation_id: InvocationId::new(),
            status,
            started_at: None,
            completed_at: None,
            exit_code: None,
            output_summary: None,
            args: None,
            working_directory: None,
        }
    }
}

/// The members of an integration event that must not be blank, each with
/// its rule: the one declaration both passes read (the typed event's
/// fields, in this order, or the members of a value that failed its
/// schema).
type NonBlank = [(&'static str, mplp_core::Rule)];

const TOOL_NON_BLANK: &NonBlank = &[("/tool_id", INTEGRATION_TOOL_EVENT_ID_NON_EMPTY)];
const FILE_NON_BLANK: &NonBlank = &[("/file_path", INTEGRATION_FILE_PATH_NON_EMPTY)];
const GIT_NON_BLANK: &NonBlank = &[
    ("/repo_url", INTEGRATION_GIT_REPO_URL_NON_EMPTY),
    ("/commit_id", INTEGRATION_GIT_COMMIT_ID_NON_EMPTY),
    ("/ref_name", INTEGRATION_GIT_REF_NAME_NON_EMPTY),
];
const CI_NON_BLANK: &NonBlank = &[
    ("/ci_provider", INTEGRATION_CI_PROVIDER_NON_EMPTY),
    ("/pipeline_id", INTEGRATION_CI_PIPELINE_ID_NON_EMPTY),
    ("/run_id", INTEGRATION_CI_RUN_ID_NON_EMPTY),
];

/// The non-blank rules of `members` over `texts` (one per member, `None`
/// for a member that cannot be read, which is not checked).
fn check_non_blank<'a>(
    members: &NonBlank,
    texts: impl IntoIterator<Item = Option<&'a str>>,
    report: &mut Report,
) {
    for (&(pointer, rule), text) in members.iter().zip(texts) {
        if let Some(text) = text {
            require_non_blank(text, pointer, rule, report);
        }
    }
}

/// The non-blank rules of `members` over what can still be read of an
/// event that failed its schema: the members that are strings and have
/// passed their own schema rules (an empty one already has its
/// `min-length` violation, under the same rule id).
fn check_non_blank_of_value(members: &NonBlank, value: &serde_json::Value, report: &mut Report) {
    let texts: Vec<Option<&str>> = members
        .iter()
        .map(|&(pointer, _)| crate::core_event::read_text(value, pointer, report))
        .collect();
    check_non_blank(members, texts, report);
}

impl Document for ToolEvent {
    const KIND: &'static str = "tool-event";
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = crate::invariants::TOOL_STATED;

    /// `integration_tool_event_id_non_empty` (a blank `tool_id`).
    fn check_rules(&self, report: &mut Report) {
        check_non_blank(TOOL_NON_BLANK, [Some(self.tool_id.as_str())], report);
    }

    /// The same rule, when `tool_id` can still be read.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        check_non_blank_of_value(TOOL_NON_BLANK, value, report);
    }
}

impl Document for FileUpdateEvent {
    const KIND: &'static str = "file-update-event";
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = crate::invariants::FILE_STATED;

    /// `integration_file_path_non_empty` (a blank `file_path`).
    fn check_rules(&self, report: &mut Report) {
        check_non_blank(FILE_NON_BLANK, [Some(self.file_path.as_str())], report);
    }

    /// The same rule, when `file_path` can still be read.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        check_non_blank_of_value(FILE_NON_BLANK, value, report);
    }
}

impl Document for GitEvent {
    const KIND: &'static str = "git-event";
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = crate::invariants::GIT_STATED;

    /// `integration_git_repo_url_non_empty`, `integration_git_commit_id_non_empty`,
    /// `integration_git_ref_name_non_empty` (blank values).
    fn check_rules(&self, report: &mut Report) {
        check_non_blank(
            GIT_NON_BLANK,
            [
                Some(self.repo_url.as_str()),
                Some(self.commit_id.as_str()),
                Some(self.ref_name.as_str()),
            ],
            report,
        );
    }

    /// The same rules over the members that can still be read.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        check_non_blank_of_value(GIT_NON_BLANK, value, report);
    }
}

impl Document for CiEvent {
    const KIND: &'static str = "ci-event";
    const STATED_BY_SCHEMA: &'static [mplp_core::Stated] = crate::invariants::CI_STATED;

    /// `integration_ci_provider_non_empty`, `integration_ci_pipeline_id_non_empty`,
    /// `integration_ci_run_id_non_empty` (blank values).
    fn check_rules(&self, report: &mut Report) {
        check_non_blank(
            CI_NON_BLANK,
            [
                Some(self.ci_provider.as_str()),
                Some(self.pipeline_id.as_str()),
                Some(self.run_id.as_str()),
            ],
            report,
        );
    }

    /// The same rules over the members that can still be read.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        check_non_blank_of_value(CI_NON_BLANK, value, report);
    }
}
