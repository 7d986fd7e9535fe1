//! The Dialog document, its messages and roles.

use mplp_core::rules::Source;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use mplp_core::{
    BaseEvent, ContextId, DialogId, Document, Error, Governance, Meta, Pointer, Report, ThreadId,
    Timestamp, TraceBase, Violation, Wire,
};

use crate::status::DialogStatus;

mplp_core::wire_enum! {
    /// Kind of speaker that produced a message (`dialog_message_core.role`).
    pub enum DialogRole {
        /// A human user: questions, commands.
        User = "user",
        /// An AI assistant: LLM-generated responses.
        Assistant = "assistant",
        /// A system instruction: prompts, configuration.
        System = "system",
        /// An MPLP agent: agent-to-agent communication.
        Agent = "agent",
    }
}

const TIMING: Source = Source::Sdk {
    note: "mplp-dialog: 4. Timing rules (SPEC-QUESTIONS 19)",
};

mplp_core::declare_rules! {
    /// The rules of a Dialog document and of its API (listed by [`crate::rules::rules`]).
    pub const RULES;

    /// Rule id: a message was added to a dialog that is not `active`
    /// (reported as [`Error::State`] by [`Dialog::add_message`]).
    pub const DIALOG_NOT_ACTIVE = "dialog_not_active" {
        strict: Error,
        scope: Api,
        source: Source::Prose { doc: "Dialog Module", section: "4.2 Status Semantics" },
        summary: "a message is added to a dialog that is not `active`",
    }

    /// Rule id (error): `ended_at` is earlier than `started_at`.
    pub const DIALOG_ENDED_BEFORE_STARTED = "dialog_ended_before_started" {
        strict: Error,
        scope: Document,
        source: TIMING,
        summary: "`ended_at` is earlier than `started_at`",
    }

    /// Rule id (error): an `active` or `paused` dialog has `ended_at`.
    pub const DIALOG_OPEN_WITH_ENDED_AT = "dialog_open_with_ended_at" {
        strict: Error,
        scope: Document,
        source: TIMING,
        summary: "an `active` or `paused` dialog has `ended_at`",
    }

    /// Rule id (warning): a `completed` or `cancelled` dialog has no `ended_at`.
    pub const DIALOG_ENDED_WITHOUT_ENDED_AT = "dialog_ended_without_ended_at" {
        strict: Warning,
        scope: Document,
        source: TIMING,
        summary: "a `completed` or `cancelled` dialog has no `ended_at`",
    }

    /// Rule id (warning): a message is timestamped after `ended_at`.
    pub const DIALOG_MESSAGE_AFTER_END = "dialog_message_after_end" {
        strict: Warning,
        scope: Document,
        source: TIMING,
        summary: "a message is timestamped after `ended_at`",
    }

    /// Rule id (warning): a message is timestamped before the message preceding it.
    pub const DIALOG_MESSAGES_OUT_OF_ORDER = "dialog_messages_out_of_order" {
        strict: Warning,
        scope: Document,
        source: TIMING,
        summary: "a message is timestamped before the one preceding it",
    }
}

/// A single chat message: who said it, what was said and when
/// (`#/$defs/dialog_message_core`). No other fields are allowed on the wire.
///
/// ```
/// use mplp_dialog::{DialogRole, Message};
/// let m = Message::new(DialogRole::User, "Please fix the login bug", "2025-12-07T00:00:00.000Z".parse()?);
/// assert_eq!(
///     serde_json::to_string(&m)?,
///     r#"{"role":"user","content":"Please fix the login bug","timestamp":"2025-12-07T00:00:00.000Z"}"#
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[non_exhaustive]
pub struct Message {
    /// Kind of speaker that produced the message. Required.
    pub role: DialogRole,
    /// Plain-text body of the message (may be empty). Required.
    pub content: String,
    /// RFC 3339 date-time at which the message was produced. Required.
    pub timestamp: Timestamp,
    /// Optional base event attached to the message, linking it to the Trace module.
    /// Boxed: events on messages are rare, and a small `Message` makes long
    /// dialogs faster to read and prune.
    pub event: Option<Box<BaseEvent>>,
}

impl Message {
    /// A message without an attached event.
    pub fn new(role: DialogRole, content: impl Into<String>, timestamp: Timestamp) -> Self {
        Message {
            role,
            content: content.into(),
            timestamp,
            event: None,
        }
    }

    /// A message stamped with the current time.
    pub fn now(role: DialogRole, content: impl Into<String>) -> Self {
        Message::new(role, content, Timestamp::now())
    }

    /// The same message with a base event attached.
    #[must_use]
    pub fn with_event(mut self, event: BaseEvent) -> Self {
        self.event = Some(Box::new(event));
        self
    }
}

/// An MPLP v1.0 Dialog (`schemas/mplp-dialog.schema.json`): a conversation
/// between people, assistants and agents, recorded as a flat list of
/// role/content/timestamp messages.
///
/// ```
/// use mplp_core::{ContextId, Document};
/// use mplp_dialog::{Dialog, DialogRole, DialogStatus};
///
/// let mut dialog = Dialog::with_system_prompt(ContextId::new(), "You are a helpful coding assistant.");
/// dialog.add_message(DialogRole::User, "Please fix the login bug")?;
/// dialog.add_message(DialogRole::Assistant, "I will analyze the error and create a fix.")?;
/// dialog.transition(DialogStatus::Paused)?;
///
/// // Only an active dialog takes messages.
/// let err = dialog.add_message(DialogRole::User, "hello?").unwrap_err();
/// assert_eq!(err.rule(), Some(mplp_dialog::DIALOG_NOT_ACTIVE));
/// assert!(err.to_string().contains("paused"));
///
/// let back = Dialog::from_json(dialog.to_json())?;
/// assert_eq!(back, dialog);
/// # Ok::<(), mplp_core::Error>(())
/// ```
///
/// `Deserialize` runs the timing rules too, so every public way to obtain a
/// `Dialog` yields a valid one. The status and the message list are
/// guarded (only an active dialog takes messages), so these do not compile:
///
/// ```compile_fail,E0616
/// # use mplp_dialog::{Dialog, DialogRole, Message};
/// fn sneak(d: &mut Dialog) { d.messages.push(Message::now(DialogRole::User, "hi")); }
/// ```
///
/// ```compile_fail,E0616
/// # use mplp_dialog::{Dialog, DialogStatus};
/// fn force(d: &mut Dialog) { d.status = DialogStatus::Active; }
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(document)]
#[non_exhaustive]
pub struct Dialog {
    /// [PROTOCOL-CORE] Protocol and schema version information for this document. Required.
    pub meta: Meta,
    /// [PROTOCOL-CORE] Governance state of this document: lifecycle phase, truth domain, lock.
    pub governance: Option<Governance>,
    /// [PROTOCOL-CORE] UUID v4 that names this Dialog everywhere. Required.
    pub dialog_id: DialogId,
    /// [PROTOCOL-CORE] UUID v4 of the Context the Dialog belongs to. Required.
    pub context_id: ContextId,
    /// [PROTOCOL-CORE] UUID v4 grouping several dialogs into one conversation thread.
    pub thread_id: Option<ThreadId>,
    /// [PROTOCOL-CORE] Lifecycle state of the Dialog. Required. Guarded: read
    /// it with [`Dialog::status`], change it with [`Dialog::transition`],
    /// which enforces the state table and sets `ended_at`.
    pub(crate) status: DialogStatus,
    /// [PROTOCOL-CORE] Messages exchanged so far, oldest first; may be empty.
    /// Required. Guarded: read them with [`Dialog::messages`], add them with
    /// [`Dialog::add_message`] / [`Dialog::push`] (only an active dialog
    /// takes messages).
    pub(crate) messages: Vec<Message>,
    /// [PROTOCOL-CORE] RFC 3339 date-time at which the Dialog began.
    /// Guarded by the timing rules: read it with [`Dialog::started_at`].
    pub(crate) started_at: Option<Timestamp>,
    /// [PROTOCOL-CORE] RFC 3339 date-time at which the Dialog finished.
    /// Guarded: set by [`Dialog::transition`]; read it with [`Dialog::ended_at`].
    pub(crate) ended_at: Option<Timestamp>,
    /// [PROTOCOL-CORE] Trace span used to audit this Dialog.
    pub trace: Option<TraceBase>,
    /// [PROTOCOL-CORE] Notable events about this Dialog.
    pub events: Option<Vec<BaseEvent>>,
}

impl Dialog {
    /// Where the dialog is in its lifecycle.
    pub fn status(&self) -> DialogStatus {
        self.status
    }

    /// The messages, oldest first.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// When the dialog began, if recorded.
    pub fn started_at(&self) -> Option<&Timestamp> {
        self.started_at.as_ref()
    }

    /// When the dialog finished, if it has.
    pub fn ended_at(&self) -> Option<&Timestamp> {
        self.ended_at.as_ref()
    }

    /// A new, empty, `active` dialog in the given context: a fresh
    /// `dialog_id`, `meta` stamped with `created_at`, and `started_at` now.
    pub fn new(context_id: ContextId) -> Self {
        Dialog::new_at(context_id, Timestamp::now())
    }

    /// A new, empty, `active` dialog that started at `started_at` (also its
    /// `meta.created_at`): for replaying a recorded conversation or for
    /// deterministic tests.
    ///
    /// ```
    /// use mplp_core::{ContextId, Timestamp};
    /// use mplp_dialog::{Dialog, DialogRole, Message};
    /// let t0: Timestamp = "2025-12-07T00:00:00Z".parse()?;
    /// let mut d = Dialog::new_at(ContextId::new(), t0.clone());
    /// d.push_message(Message::new(DialogRole::User, "hi", t0.clone()))?;
    /// assert_eq!(d.started_at(), Some(&t0));
    /// assert_eq!(d.messages().len(), 1);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new_at(context_id: ContextId, started_at: Timestamp) -> Self {
        let now = started_at;
        let mut meta = Meta::v1();
        meta.created_at = Some(now.clone());
        Dialog {
            meta,
            governance: None,
            dialog_id: DialogId::new(),
            context_id,
            thread_id: None,
            status: DialogStatus::Active,
            messages: Vec::new(),
            started_at: Some(now),
            ended_at: None,
            trace: None,
            events: None,
        }
    }

    /// A new `active` dialog whose first message is the given system prompt
    /// (as the seed's `createDialog(context_id, systemPrompt)`).
    pub fn with_system_prompt(context_id: ContextId, system_prompt: impl Into<String>) -> Self {
        let mut dialog = Dialog::new(context_id);
        let at = dialog.started_at.clone().unwrap_or_else(Timestamp::now);
        dialog
            .messages
            .push(Message::new(DialogRole::System, system_prompt, at));
        dialog
    }

    /// The same dialog, placed in a thread.
    #[must_use]
    pub fn in_thread(mut self, thread_id: ThreadId) -> Self {
        self.thread_id = Some(thread_id);
        self
    }

    /// Appends a message stamped with the current time.
    ///
    /// Only an `active` dialog accepts messages: otherwise this returns
    /// [`Error::State`] with rule [`DIALOG_NOT_ACTIVE`], pointer `/status`
    /// and a message naming the status, and the dialog is unchanged.
    pub fn add_message(
        &mut self,
        role: DialogRole,
        content: impl Into<String>,
    ) -> Result<(), Error> {
        self.push_message(Message::now(role, content))
    }

    /// Appends a message as given (its own timestamp and event), under the
    /// same rule as [`Dialog::add_message`].
    pub fn push_message(&mut self, message: Message) -> Result<(), Error> {
        if self.status != DialogStatus::Active {
            return Err(Error::State(Violation::error(
                "/status",
                DIALOG_NOT_ACTIVE,
                format!(
                    "cannot add a message to a {} dialog: only an active dialog accepts new messages",
                    self.status
                ),
            )));
        }
        self.messages.push(message);
        Ok(())
    }

    /// Changes the status along the state table (see [`DialogStatus::can_transition_to`]),
    /// stamping `ended_at` with the current time when the dialog ends.
    pub fn transition(&mut self, to: DialogStatus) -> Result<(), Error> {
        self.transition_at(to, Timestamp::now())
    }

    /// Like [`Dialog::transition`], with the time of the change given.
    ///
    /// - Ending (`completed`, `cancelled`) sets `ended_at` to `at`.
    /// - `started_at` is never changed by a transition: it records when the
    ///   conversation began, and a pause does not begin a new one.
    /// - A refused transition leaves the dialog unchanged.
    pub fn transition_at(&mut self, to: DialogStatus, at: Timestamp) -> Result<(), Error> {
        let next = self.status.transition(to)?;
        self.status = next;
        if next.is_final() {
            self.ended_at = Some(at);
        }
        Ok(())
    }

    /// Pauses an active dialog.
    pub fn pause(&mut self) -> Result<(), Error> {
        self.transition(DialogStatus::Paused)
    }

    /// Resumes a paused dialog.
    pub fn resume(&mut self) -> Result<(), Error> {
        self.transition(DialogStatus::Active)
    }

    /// Completes an active or paused dialog (sets `ended_at`).
    pub fn complete(&mut self) -> Result<(), Error> {
        self.transition(DialogStatus::Completed)
    }

    /// Cancels an active or paused dialog (sets `ended_at`).
    pub fn cancel(&mut self) -> Result<(), Error> {
        self.transition(DialogStatus::Cancelled)
    }

    /// The first message (usually the system prompt), if any.
    pub fn head(&self) -> Option<&Message> {
        self.messages.first()
    }

    /// The last message, if any.
    pub fn tail(&self) -> Option<&Message> {
        self.messages.last()
    }

    /// A readable transcript: one header line, then one block per message.
    ///
    /// ```
    /// # use mplp_core::{ContextId, Document};
    /// let dialog = mplp_dialog::Dialog::from_json(r#"{"meta":{"protocol_version":"1.0.0","schema_version":"1.0.0"},
    ///   "dialog_id":"36398c50-7383-4f61-b96f-4525123599da","context_id":"0ddb0a8e-a488-47b1-8fbc-0133d0a359a2",
    ///   "status":"active","messages":[{"role":"user","content":"Hi\nthere","timestamp":"2025-12-07T00:00:05Z"}]}"#)?;
    /// assert_eq!(dialog.overview(), "\
    /// dialog 36398c50-7383-4f61-b96f-4525123599da [active] context 0ddb0a8e-a488-47b1-8fbc-0133d0a359a2, 1 message
    /// #0 2025-12-07T00:00:05Z user:
    ///     Hi
    ///     there
    /// ");
    /// # Ok::<(), mplp_core::Error>(())
    /// ```
    pub fn overview(&self) -> String {
        let mut out = String::new();
        let n = self.messages.len();
        let _ = write!(
            out,
            "dialog {} [{}] context {}",
            self.dialog_id, self.status, self.context_id
        );
        if let Some(thread) = &self.thread_id {
            let _ = write!(out, ", thread {thread}");
        }
        let _ = writeln!(out, ", {n} message{}", if n == 1 { "" } else { "s" });
        if let Some(s) = &self.started_at {
            let _ = writeln!(out, "started {s}");
        }
        for (i, m) in self.messages.iter().enumerate() {
            let _ = writeln!(out, "#{i} {} {}:", m.timestamp, m.role);
            if m.content.is_empty() {
                out.push_str("    (empty)\n");
            }
            for line in m.content.lines() {
                let _ = writeln!(out, "    {line}");
            }
        }
        if let Some(e) = &self.ended_at {
            let _ = writeln!(out, "ended {e}");
        }
        out
    }
}

impl Document for Dialog {
    const KIND: &'static str = "dialog";

    /// The timing rules of the lifecycle (see the crate's "Spec notes"):
    ///
    /// | rule | severity |
    /// |---|---|
    /// | [`DIALOG_ENDED_BEFORE_STARTED`]: `ended_at` < `started_at` | error |
    /// | [`DIALOG_OPEN_WITH_ENDED_AT`]: `active`/`paused` with `ended_at` | error |
    /// | [`DIALOG_ENDED_WITHOUT_ENDED_AT`]: `completed`/`cancelled` without `ended_at` | warning |
    /// | [`DIALOG_MESSAGE_AFTER_END`]: a message later than `ended_at` | warning |
    /// | [`DIALOG_MESSAGES_OUT_OF_ORDER`]: a message earlier than the one before it | warning |
    ///
    /// Times are compared as instants, so `10:00+05:30` equals `04:30Z`; equal
    /// instants are in order. Linear in the number of messages.
    fn check_rules(&self, report: &mut Report) {
        check_timing(
            Some(self.status),
            self.started_at.as_ref(),
            Some(self.ended_at.as_ref()),
            self.messages.iter().map(|m| Some(&m.timestamp)),
            report,
        );
    }

    /// The timing rules over the status and times that can still be read
    /// of a dialog that failed its schema (the same function as
    /// [`Document::check_rules`]); a rule whose inputs cannot all be read
    /// is not checked.
    fn check_rules_of_value(value: &serde_json::Value, report: &mut Report) {
        use serde_json::Value;
        let read_time = |v: &Value| v.as_str().and_then(|s| s.parse::<Timestamp>().ok());
        let started_at = value.get("started_at").and_then(read_time);
        let ended_at = match value.get("ended_at") {
            None => Some(None),
            Some(v) => read_time(v).map(Some),
        };
        let status = value
            .get("status")
            .and_then(Value::as_str)
            .and_then(|s| s.parse().ok());
        let messages: Vec<Option<Timestamp>> = value
            .get("messages")
            .and_then(Value::as_array)
            .map(|ms| {
                ms.iter()
                    .map(|m| m.get("timestamp").and_then(read_time))
                    .collect()
            })
            .unwrap_or_default();
        check_timing(
            status,
            started_at.as_ref(),
            ended_at.as_ref().map(Option::as_ref),
            messages.iter().map(Option::as_ref),
            report,
        );
    }
}

/// The timing rules (see [`Document::check_rules`] for [`Dialog`]) over a
/// dialog's status, times and message timestamps, typed or read from a
/// dialog that failed its schema: `None` for what cannot be read (and for
/// an absent `started_at`), `ended_at` is `Some(None)` when absent and
/// `None` when it cannot be read. A message is compared with the one just
/// before it.
fn check_timing<'a>(
    status: Option<DialogStatus>,
    started_at: Option<&Timestamp>,
    ended_at: Option<Option<&Timestamp>>,
    messages: impl Iterator<Item = Option<&'a Timestamp>>,
    report: &mut Report,
) {
    if let (Some(start), Some(Some(end))) = (started_at, ended_at) {
        if end.instant() < start.instant() {
            report.error(
                "/ended_at",
                DIALOG_ENDED_BEFORE_STARTED,
                format!("the dialog ends ({end}) before it starts ({start})"),
            );
        }
    }
    if let (Some(status), Some(ended_at)) = (status, ended_at) {
        match (status.is_final(), ended_at) {
            (false, Some(end)) => report.error(
                "/ended_at",
                DIALOG_OPEN_WITH_ENDED_AT,
                format!(
                    "an {status} dialog has not ended, but ended_at is {end}; \
                     only completed and cancelled dialogs have ended_at"
                ),
            ),
            (true, None) => report.warn(
                "/ended_at",
                DIALOG_ENDED_WITHOUT_ENDED_AT,
                format!("a {status} dialog should record when it ended in ended_at"),
            ),
            _ => {}
        }
    }
    let end = ended_at.flatten().map(Timestamp::instant);
    // The message before, with its instant.
    let mut previous: Option<(&Timestamp, time::OffsetDateTime)> = None;
    for (i, time) in messages.enumerate() {
        let Some(time) = time else {
            previous = None;
            continue;
        };
        // Built only when something is reported: most documents report nothing.
        let at = || Pointer::root().key("messages").index(i).key("timestamp");
        let t = time.instant();
        if let Some((p, pt)) = previous {
            // Instants at the same offset (the usual case: a dialog's
            // messages are stamped by one clock) compare as their local
            // date and time, inline; others as instants.
            let earlier = if t.offset() == pt.offset() {
                (t.date(), t.time()) < (pt.date(), pt.time())
            } else {
                t < pt
            };
            if earlier {
                report.warn(
                    at(),
                    DIALOG_MESSAGES_OUT_OF_ORDER,
                    format!(
                        "message {i} ({time}) is earlier than message {} ({p}); messages are listed oldest first",
                        i - 1
                    ),
                );
            }
        }
        if let Some(end) = end {
            if t > end {
                report.warn(
                    at(),
                    DIALOG_MESSAGE_AFTER_END,
                    format!("message {i} ({time}) is later than the dialog's ended_at"),
                );
            }
        }
        previous = Some((time, t));
    }
}

/// Dialogs grouped by `thread_id` (the seed's thread grouping), each group in
/// input order; dialogs without a thread are kept apart.
///
/// ```
/// use mplp_core::{ContextId, ThreadId};
/// use mplp_dialog::{Dialog, Threads};
/// let ctx = ContextId::new();
/// let t = ThreadId::new();
/// let dialogs = [Dialog::new(ctx).in_thread(t), Dialog::new(ctx), Dialog::new(ctx).in_thread(t)];
/// let threads = Threads::group(&dialogs);
/// assert_eq!(threads.thread(&t).len(), 2);
/// assert_eq!(threads.unthreaded().len(), 1);
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Threads<'a> {
    by_thread: BTreeMap<ThreadId, Vec<&'a Dialog>>,
    unthreaded: Vec<&'a Dialog>,
}

impl<'a> Threads<'a> {
    /// Groups dialogs by their `thread_id`.
    pub fn group(dialogs: impl IntoIterator<Item = &'a Dialog>) -> Self {
        let mut threads = Threads::default();
        for d in dialogs {
            match d.thread_id {
                Some(t) => threads.by_thread.entry(t).or_default().push(d),
                None => threads.unthreaded.push(d),
            }
        }
        threads
    }

    /// The dialogs of one thread, in input order (empty if none).
    pub fn thread(&self, thread_id: &ThreadId) -> &[&'a Dialog] {
        self.by_thread.get(thread_id).map_or(&[], Vec::as_slice)
    }

    /// Every thread with its dialogs, ordered by thread id.
    pub fn iter(&self) -> impl Iterator<Item = (&ThreadId, &[&'a Dialog])> {
        self.by_thread.iter().map(|(t, d)| (t, d.as_slice()))
    }

    /// The dialogs that have no `thread_id`, in input order.
    pub fn unthreaded(&self) -> &[&'a Dialog] {
        &self.unthreaded
    }

    /// The number of distinct threads.
    pub fn len(&self) -> usize {
        self.by_thread.len()
    }

    /// True when no dialog has a thread.
    pub fn is_empty(&self) -> bool {
        self.by_thread.is_empty()
    }
}

/// The dialogs of one thread, in input order (the seed's `getDialogsByThread`).
pub fn dialogs_in_thread<'a>(
    dialogs: impl IntoIterator<Item = &'a Dialog>,
    thread_id: ThreadId,
) -> impl Iterator<Item = &'a Dialog> {
    dialogs
        .into_iter()
        .filter(move |d| d.thread_id == Some(thread_id))
}
