//! The dialog lifecycle: statuses and the one transition table.

use mplp_core::TransitionError;

mplp_core::wire_enum! {
    /// Lifecycle state of a Dialog (`status`).
    ///
    /// | status | new messages allowed | meaning |
    /// |---|---|---|
    /// | `active` | yes | conversation in progress |
    /// | `paused` | no | temporarily paused |
    /// | `completed` | no | successfully finished (final) |
    /// | `cancelled` | no | aborted (final) |
    pub enum DialogStatus {
        /// Conversation in progress; the only status that accepts messages.
        Active = "active",
        /// Temporarily paused; may be resumed.
        Paused = "paused",
        /// Successfully finished. Final.
        Completed = "completed",
        /// Aborted. Final.
        Cancelled = "cancelled",
    }
}

impl DialogStatus {
    /// True for `completed` and `cancelled`: no transition leaves them.
    pub const fn is_final(self) -> bool {
        matches!(self, DialogStatus::Completed | DialogStatus::Cancelled)
    }

    /// True only for `active` (the seed's "New Messages Allowed" column).
    pub const fn accepts_messages(self) -> bool {
        matches!(self, DialogStatus::Active)
    }

    /// The transition table, and the only place it lives:
    ///
    /// | from \ to | active | paused | completed | cancelled |
    /// |---|---|---|---|---|
    /// | active    | -   | yes | yes | yes |
    /// | paused    | yes | -   | yes | yes |
    /// | completed | -   | -   | -   | -   |
    /// | cancelled | -   | -   | -   | -   |
    ///
    /// Staying in the same status is not a transition and is refused.
    ///
    /// ```
    /// use mplp_dialog::DialogStatus::*;
    /// assert!(Active.can_transition_to(Paused) && Paused.can_transition_to(Active));
    /// assert!(Paused.can_transition_to(Cancelled));
    /// assert!(!Completed.can_transition_to(Active));
    /// ```
    pub const fn can_transition_to(self, next: DialogStatus) -> bool {
        use DialogStatus::{Active, Cancelled, Completed, Paused};
        matches!(
            (self, next),
            (Active, Paused) | (Paused, Active) | (Active | Paused, Completed | Cancelled)
        )
    }

    /// `Ok(next)` when the table allows it, else a [`TransitionError`] that
    /// says why.
    pub fn transition(self, next: DialogStatus) -> Result<DialogStatus, TransitionError> {
        if self.can_transition_to(next) {
            return Ok(next);
        }
        let reason = if self.is_final() {
            format!("{self} is a final status")
        } else if self == next {
            format!("the dialog is already {self}")
        } else {
            "the dialog lifecycle does not allow it".to_owned()
        };
        Err(TransitionError::new(
            "dialog",
            "/status",
            self.as_str(),
            next.as_str(),
            reason,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::DialogStatus::{self, *};

    #[test]
    fn table_over_all_pairs() {
        // (from, to, allowed), written out literally so any change shows in review.
        let table = [
            (Active, Active, false),
            (Active, Paused, true),
            (Active, Completed, true),
            (Active, Cancelled, true),
            (Paused, Active, true),
            (Paused, Paused, false),
            (Paused, Completed, true),
            (Paused, Cancelled, true),
            (Completed, Active, false),
            (Completed, Paused, false),
            (Completed, Completed, false),
            (Completed, Cancelled, false),
            (Cancelled, Active, false),
            (Cancelled, Paused, false),
            (Cancelled, Completed, false),
            (Cancelled, Cancelled, false),
        ];
        assert_eq!(
            table.len(),
            DialogStatus::ALL.len() * DialogStatus::ALL.len()
        );
        for from in DialogStatus::ALL {
            for to in DialogStatus::ALL {
                let expected = table
                    .iter()
                    .find(|(f, t, _)| f == from && t == to)
                    .map(|(_, _, a)| *a)
                    .unwrap();
                assert_eq!(from.can_transition_to(*to), expected, "{from} -> {to}");
                assert_eq!(from.transition(*to).is_ok(), expected, "{from} -> {to}");
            }
        }
    }

    #[test]
    fn refusals_say_why() {
        let e = Completed.transition(Active).unwrap_err();
        assert_eq!(
            e.to_string(),
            "dialog cannot go from `completed` to `active`: completed is a final status"
        );
        assert_eq!(e.pointer, "/status");
        let e = Paused.transition(Paused).unwrap_err();
        assert!(e.to_string().contains("already paused"), "{e}");
    }
}
