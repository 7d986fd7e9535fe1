//! The streaming SA log validator.

use mplp_core::{Report, Rule, Violation};
use uuid::Uuid;

use super::few::FewMap;
use super::{Books, Refused, Tracked};
use crate::rules::*;
use crate::sa::{SaEvent, SaEventType, SaPayload};

#[derive(Default)]
struct RunState {
    started_line: u64,
    /// The highest lifecycle phase seen.
    phase: u8,
    /// Which event types were seen (bit per `SaEventType` index).
    seen: u16,
    /// step_id → line of its start (usually one or none: a short list).
    open_steps: FewMap<Uuid, u64>,
}

impl Tracked for RunState {
    fn started_line(&self) -> u64 {
        self.started_line
    }
    fn set_started_line(&mut self, line: u64) {
        self.started_line = line;
    }
}

/// The bit of `t` in `RunState::seen`: its position in `SaEventType::ALL`
/// (the enum's declaration order, so its discriminant; a search of `ALL`
/// cost some 20 instructions a line).
fn type_bit(t: SaEventType) -> u16 {
    1 << (t as u16)
}

const PHASE_NAMES: [&str; 6] = [
    "initialize",
    "load_context",
    "evaluate_plan",
    "execute_steps",
    "emit_trace",
    "complete",
];

/// The streaming SA log validator (runs keyed by `sa_id`, which may interleave).
///
/// Rules: schema and payload rules of each line; `sa_initialized_first`,
/// `sa_lifecycle_order` (the profile's phases in order: initialize,
/// load_context, evaluate_plan, execute_steps, emit_trace, complete),
/// `sa_step_started_is_finished`, `sa_step_finished_without_start`,
/// `sa_completed_last`, and the warning `sa_mandatory_event_missing`.
pub struct SaLogValidator {
    books: Books<RunState>,
}

impl SaLogValidator {
    /// The number of items still open (runs and running steps).
    pub fn open_items(&self) -> usize {
        self.books.open.len()
            + self
                .books
                .open
                .values()
                .map(|r| r.open_steps.len())
                .sum::<usize>()
    }

    /// Validates one (already parsed) event found on `line`.
    pub fn push(&mut self, line: u64, event: &SaEvent) {
        // Unique event ids across the log (crate::unique_ids), looked up
        // at the next event (Books::hold_id).
        self.books.hold_id(&event.event_id, line);
        let id = *event.sa_id.as_schema_uuid().as_uuid();
        let t = event.event_type();
        let (state, fresh) = match self.books.enter(id, line, t == SaEventType::Initialized) {
            Ok(entered) => entered,
            Err(Refused::AfterCompletion) => {
                self.books.err(
                    line,
                    "/event_type",
                    SA_COMPLETED_LAST,
                    format!(
                        "{t} comes after the SACompleted of run {}: nothing may follow it",
                        event.sa_id
                    ),
                );
                return;
            }
            Err(Refused::StartedAgain(first)) => {
                self.books.err(
                    line,
                    "/event_type",
                    SA_INITIALIZED_FIRST,
                    format!("run {} was already initialized (line {first})", event.sa_id),
                );
                return;
            }
        };
        let mut out: Vec<Violation> = Vec::new();
        let mut err = |pointer: &str, rule: Rule, message: String| {
            out.push(Violation::error(pointer, rule, message).at_line(line));
        };
        if fresh && t != SaEventType::Initialized {
            err(
                "/event_type",
                SA_INITIALIZED_FIRST,
                format!(
                    "the first event of run {} is {t}; a run begins with SAInitialized",
                    event.sa_id
                ),
            );
        }
        let phase = t.phase();
        if phase < state.phase {
            err(
                "/event_type",
                SA_LIFECYCLE_ORDER,
                format!(
                    "{t} (phase {}) comes after phase {}: the SA phases are {}",
                    PHASE_NAMES[usize::from(phase).min(5)],
                    PHASE_NAMES[usize::from(state.phase).min(5)],
                    PHASE_NAMES.join(", ")
                ),
            );
        } else {
            state.phase = phase;
        }
        state.seen |= type_bit(t);
        let mut close = false;
        match &event.payload {
            SaPayload::StepStarted(p) => {
                let step = *p.step_id.as_uuid();
                if let Some(first) = state.open_steps.get(&step) {
                    err(
                        "/payload/step_id",
                        SA_STEP_STARTED_IS_FINISHED,
                        format!(
                            "step {} starts again, but its start on line {first} has not finished",
                            p.step_id
                        ),
                    );
                } else {
                    state.open_steps.insert_absent(step, || line);
                }
            }
            SaPayload::StepCompleted(_) | SaPayload::StepFailed(_) => {
                if let Some(step) = event.payload.step_id() {
                    if state.open_steps.remove(step.as_uuid()).is_none() {
                        err(
                            "/payload/step_id",
                            SA_STEP_FINISHED_WITHOUT_START,
                            format!(
                                "step {step} finishes, but it is not running (no SAStepStarted, or already finished)"
                            ),
                        );
                    }
                }
            }
            SaPayload::Completed(_) => close = true,
            _ => {}
        }
        if close {
            for (t, why) in [
                (SaEventType::ContextLoaded, "load_context"),
                (SaEventType::PlanEvaluated, "evaluate_plan"),
                (SaEventType::TraceEmitted, "emit_trace"),
            ] {
                if state.seen & type_bit(t) == 0 {
                    out.push(
                        Violation::warning(
                            "/event_type",
                            SA_MANDATORY_EVENT_MISSING,
                            format!("run {} completes without {t} (phase {why}), which the SA profile lists as mandatory", event.sa_id),
                        )
                        .at_line(line),
                    );
                }
            }
        }
        if !out.is_empty() {
            self.books.report.extend(out);
        }
        if close {
            // The run's name is written only for a run that leaves steps
            // running (`close` reports nothing otherwise).
            if let Some(state) = self.books.complete(id) {
                if !state.open_steps.is_empty() {
                    self.close(&event.sa_id.to_string(), state, false);
                }
            }
        }
    }

    fn close(&mut self, run: &str, state: RunState, at_end: bool) {
        let mut steps: Vec<_> = state.open_steps.into_entries().collect();
        steps.sort_by_key(|(_, line)| *line);
        for (step, line) in steps {
            self.books.open_item(
                at_end,
                line,
                "/payload/step_id",
                SA_STEP_STARTED_IS_FINISHED,
                format!(
                    "step {} of run {run} starts but never completes or fails",
                    step.hyphenated()
                ),
            );
        }
    }

    /// Ends the log: reports every run not completed, and returns all
    /// violations sorted by line.
    pub fn finish(mut self) -> Report {
        let open = self.books.take_open();
        for (id, state) in open {
            let run = id.hyphenated().to_string();
            self.books.open_at_end(
                state.started_line,
                "/sa_id",
                SA_COMPLETED_LAST,
                format!("run {run} is never completed: a run ends with SACompleted"),
            );
            self.close(&run, state, true);
        }
        self.books.empty_log_warning();
        self.books.into_sorted()
    }
}

log_entry_points!(
    SaLogValidator,
    SaEvent,
    "an SA",
    "runs",
    validate_sa_log,
    validate_sa_log_with,
    stream_sa_log
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_type_has_its_own_bit_its_place_in_all() {
        for (i, t) in SaEventType::ALL.iter().enumerate() {
            assert_eq!(type_bit(*t), 1 << i, "{t}");
        }
    }
}
