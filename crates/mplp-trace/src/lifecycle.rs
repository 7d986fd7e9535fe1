//! The trace and segment lifecycles: one table of triggers each
//! ([`TraceTrigger::rule`], [`SegmentTrigger::rule`]).

use mplp_core::{Error, Timestamp};

use crate::{
    SegmentId, SegmentStatus, TRACE_FINISHED_AFTER_STARTED, TRACE_SEGMENTS_NEED_RUNNING_TRACE,
    Trace, TraceStatus, UNKNOWN_SEGMENT, state_error,
};

mplp_core::wire_enum! {
    /// What changes a Trace's status.
    pub enum TraceTrigger {
        /// `pending → running`; stamps `started_at`.
        Start = "start",
        /// `running → completed`; stamps `finished_at`.
        Complete = "complete",
        /// `running → failed`; stamps `finished_at`.
        Fail = "fail",
        /// `pending | running → cancelled`; stamps `finished_at`.
        Cancel = "cancel",
    }
}

mplp_core::wire_enum! {
    /// What changes a segment's status.
    pub enum SegmentTrigger {
        /// `pending → running`; stamps `started_at`.
        Start = "start",
        /// `running → completed`; stamps `finished_at`.
        Complete = "complete",
        /// `running → failed`; stamps `finished_at`.
        Fail = "fail",
        /// `pending | running → cancelled`; stamps `finished_at`.
        Cancel = "cancel",
        /// `pending → skipped`.
        Skip = "skip",
    }
}

impl TraceTrigger {
    /// The trace lifecycle table, and the only place it lives: the statuses
    /// this trigger fires from, and the status it leads to.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `start` | pending | running |
    /// | `complete` | running | completed |
    /// | `fail` | running | failed |
    /// | `cancel` | pending, running | cancelled |
    ///
    /// `completed`, `failed` and `cancelled` are final.
    ///
    /// ```
    /// use mplp_trace::{TraceStatus::*, TraceTrigger};
    /// assert_eq!(TraceTrigger::Cancel.rule(), (&[Pending, Running][..], Cancelled));
    /// ```
    pub const fn rule(self) -> (&'static [TraceStatus], TraceStatus) {
        use TraceStatus::*;
        match self {
            TraceTrigger::Start => (&[Pending], Running),
            TraceTrigger::Complete => (&[Running], Completed),
            TraceTrigger::Fail => (&[Running], Failed),
            TraceTrigger::Cancel => (&[Pending, Running], Cancelled),
        }
    }
}

impl SegmentTrigger {
    /// The segment lifecycle table, and the only place it lives.
    ///
    /// | trigger | from | to |
    /// |---|---|---|
    /// | `start` | pending | running |
    /// | `complete` | running | completed |
    /// | `fail` | running | failed |
    /// | `cancel` | pending, running | cancelled |
    /// | `skip` | pending | skipped |
    ///
    /// Every status but `pending` and `running` is final.
    ///
    /// ```
    /// use mplp_trace::{SegmentStatus::*, SegmentTrigger};
    /// assert_eq!(SegmentTrigger::Skip.rule(), (&[Pending][..], Skipped));
    /// ```
    pub const fn rule(self) -> (&'static [SegmentStatus], SegmentStatus) {
        use SegmentStatus::*;
        match self {
            SegmentTrigger::Start => (&[Pending], Running),
            SegmentTrigger::Complete => (&[Running], Completed),
            SegmentTrigger::Fail => (&[Running], Failed),
            SegmentTrigger::Cancel => (&[Pending, Running], Cancelled),
            SegmentTrigger::Skip => (&[Pending], Skipped),
        }
    }
}

mplp_core::trigger_table!(TraceStatus, TraceTrigger, "trace");
mplp_core::trigger_table!(SegmentStatus, SegmentTrigger, "segment");

impl Trace {
    /// Fires `trigger` if the table allows it, stamping `started_at`
    /// (`start`) or `finished_at` (the final triggers) with `at`; on
    /// refusal nothing changes.
    ///
    /// # Errors
    /// A [`TransitionError`](mplp_core::TransitionError) (rule `lifecycle-transition`, at `/status`).
    pub fn fire(&mut self, trigger: TraceTrigger, at: Timestamp) -> Result<(), Error> {
        let next = self.status.fire_at(trigger, "/status")?;
        if next.is_final() {
            not_before(self.started_at.as_ref(), &at, "/finished_at")?;
        }
        if next == TraceStatus::Running {
            self.started_at = Some(at);
        } else if next.is_final() {
            self.finished_at = Some(at);
        }
        self.status = next;
        Ok(())
    }

    /// `pending → running`, now.
    ///
    /// # Errors
    /// As [`Trace::fire`].
    pub fn start(&mut self) -> Result<(), Error> {
        self.fire(TraceTrigger::Start, Timestamp::now())
    }

    /// `running → completed`, now.
    ///
    /// # Errors
    /// As [`Trace::fire`].
    pub fn complete(&mut self) -> Result<(), Error> {
        self.fire(TraceTrigger::Complete, Timestamp::now())
    }

    /// `running → failed`, now.
    ///
    /// # Errors
    /// As [`Trace::fire`].
    pub fn fail(&mut self) -> Result<(), Error> {
        self.fire(TraceTrigger::Fail, Timestamp::now())
    }

    /// `pending | running → cancelled`, now.
    ///
    /// # Errors
    /// As [`Trace::fire`].
    pub fn cancel(&mut self) -> Result<(), Error> {
        self.fire(TraceTrigger::Cancel, Timestamp::now())
    }

    /// Fires `trigger` on the segment `id`, stamping its times as
    /// [`Trace::fire`] does. Segments change only while the trace is
    /// `running`.
    ///
    /// # Errors
    /// `unknown-segment`; `trace_segments_need_running_trace`; a
    /// [`TransitionError`](mplp_core::TransitionError) at `/segments/i/status`.
    pub fn fire_segment(
        &mut self,
        id: SegmentId,
        trigger: SegmentTrigger,
        at: Timestamp,
    ) -> Result<(), Error> {
        if self.status != TraceStatus::Running {
            return Err(state_error(
                "/status",
                TRACE_SEGMENTS_NEED_RUNNING_TRACE,
                format!(
                    "segments change only while the trace is `running`; it is `{}`",
                    self.status
                ),
            ));
        }
        let segments = self.segments.get_or_insert_with(Vec::new);
        // From the end: the segment a runtime fires is almost always the
        // one it just added (O(1) per step instead of O(segments)).
        let Some((i, seg)) = segments
            .iter_mut()
            .enumerate()
            .rev()
            .find(|(_, s)| s.segment_id == id)
        else {
            return Err(state_error(
                "/segments",
                UNKNOWN_SEGMENT,
                format!("there is no segment {id} in this trace"),
            ));
        };
        let next = seg
            .status
            .fire_at(trigger, &format!("/segments/{i}/status"))?;
        if next.is_final() && next != SegmentStatus::Skipped {
            not_before(
                seg.started_at.as_ref(),
                &at,
                &format!("/segments/{i}/finished_at"),
            )?;
        }
        if next == SegmentStatus::Running {
            seg.started_at = Some(at);
        } else if next.is_final() && next != SegmentStatus::Skipped {
            seg.finished_at = Some(at);
        }
        seg.status = next;
        Ok(())
    }
}

/// Refuses a finishing time before the start (`trace_finished_after_started`).
fn not_before(started: Option<&Timestamp>, at: &Timestamp, pointer: &str) -> Result<(), Error> {
    match started {
        Some(s) if at.instant() < s.instant() => Err(state_error(
            pointer,
            TRACE_FINISHED_AFTER_STARTED,
            format!("cannot finish at {at}, before the start ({s})"),
        )),
        _ => Ok(()),
    }
}
