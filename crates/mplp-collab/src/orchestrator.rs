//! Who is the orchestrator of a session (SPEC-QUESTIONS 15), and the rule
//! `map_orchestrator_required`.
//!
//! The schema has no orchestrator flag, and the seeds name the orchestrator
//! in two ways: by `participant_id` (`orchestrator-1`, the Collab seed's
//! complete example) and by `role_id` (`role-orchestrator`, the MAP
//! seed). A participant is **recognised** as the orchestrator when its
//! `participant_id` or its `role_id` is an orchestrator name
//! ([`is_orchestrator_name`]): `orchestrator`, optionally prefixed `role-` /
//! `role_` and optionally suffixed `-<digits>` / `_<digits>`, in any letter
//! case (`orchestrator`, `Orchestrator`, `role-orchestrator`,
//! `orchestrator-1`, `ROLE_ORCHESTRATOR_02`). Names that merely contain the
//! word (`orchestrator-assistant`, `sub-orchestrator`) are not.
//!
//! When a session names its orchestrator otherwise, designate it
//! explicitly: [`Designation::Participant`] with
//! [`Collab::check_orchestrator`] / [`Collab::orchestrator_by`].
//!
//! The rule, in an `orchestrated` session: no orchestrator is an **error**
//! (`map_orchestrator_required` at `/participants`: the frozen invariant);
//! more than one is a **warning** at each extra participant (the invariant
//! asks for one to exist and nothing forbids a second; the runtime uses the
//! first, in participant order). Other modes need none.
//!
//! ```
//! use mplp_collab::orchestrator::{is_orchestrator_name, Designation};
//! use mplp_collab::{Collab, Participant, ParticipantKind};
//! use mplp_core::{CollabMode, ContextId, NonEmptyVec, Report};
//!
//! assert!(is_orchestrator_name("role-orchestrator"));
//! assert!(is_orchestrator_name("Orchestrator-1"));
//! assert!(!is_orchestrator_name("orchestrator-assistant"));
//!
//! let mut people = NonEmptyVec::new(Participant::new("lead", ParticipantKind::Agent)?.with_role("architect"));
//! people.push(Participant::new("coder", ParticipantKind::Agent)?.with_role("coder"));
//! // Nobody is named as orchestrator: refused...
//! assert!(Collab::new(ContextId::new(), "t", "p", CollabMode::Orchestrated, people.clone()).is_err());
//! // ...unless designated explicitly.
//! let broadcast = Collab::new(ContextId::new(), "t", "p", CollabMode::Broadcast, people)?;
//! let mut v = mplp_core::Document::to_value(&broadcast);
//! v["mode"] = "orchestrated".into();
//! // Without a named orchestrator this is not a valid document (read here
//! // with the schema-only escape hatch); a runtime that designates one
//! // explicitly checks it so:
//! let collab = <Collab as mplp_core::Wire>::deserialize_unchecked(&v).unwrap();
//! let mut report = Report::new();
//! collab.check_orchestrator(Designation::Participant("lead"), &mut report);
//! assert!(report.is_empty());
//! assert_eq!(collab.orchestrator_by(Designation::Participant("lead")).map(|p| p.participant_id.as_str()), Some("lead"));
//! # Ok::<(), mplp_core::Error>(())
//! ```

use mplp_core::{CollabMode, Pointer, Report};

use crate::{Collab, MAP_ORCHESTRATOR_REQUIRED, Participant};

/// How the orchestrator of a session is found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Designation<'a> {
    /// By name: every participant whose `participant_id` or `role_id` is an
    /// orchestrator name ([`is_orchestrator_name`]). The default, and what
    /// document validation uses.
    #[default]
    ByName,
    /// Explicitly: the participant with this `participant_id`, and only it.
    Participant(&'a str),
}

/// True when `name` designates the orchestrator: `orchestrator`, with an
/// optional `role-`/`role_` prefix and an optional `-<digits>`/`_<digits>`
/// suffix, in any letter case.
pub fn is_orchestrator_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let rest = lower
        .strip_prefix("role-")
        .or_else(|| lower.strip_prefix("role_"))
        .unwrap_or(&lower);
    let Some(suffix) = rest.strip_prefix("orchestrator") else {
        return false;
    };
    match suffix.as_bytes() {
        [] => true,
        [b'-' | b'_', digits @ ..] => !digits.is_empty() && digits.iter().all(u8::is_ascii_digit),
        _ => false,
    }
}

/// True when the participant is recognised as orchestrator by name.
pub(crate) fn named_orchestrator(p: &Participant) -> bool {
    is_orchestrator_name(p.participant_id.as_str())
        || p.role_id.as_deref().is_some_and(is_orchestrator_name)
}

impl Collab {
    /// The indexes of the participants that are orchestrators under `how`.
    pub fn orchestrators(&self, how: Designation<'_>) -> Vec<usize> {
        self.participants
            .iter()
            .enumerate()
            .filter(|(_, p)| match how {
                Designation::ByName => named_orchestrator(p),
                Designation::Participant(id) => p.participant_id.as_str() == id,
            })
            .map(|(i, _)| i)
            .collect()
    }

    /// The orchestrator under `how`: the first one, in participant order.
    pub fn orchestrator_by(&self, how: Designation<'_>) -> Option<&Participant> {
        let first = *self.orchestrators(how).first()?;
        self.participants.get(first)
    }

    /// The rule `map_orchestrator_required` with the orchestrator found as
    /// `how` says (see the [module documentation](self)): in an
    /// `orchestrated` session, none is an error, each extra one a warning.
    pub fn check_orchestrator(&self, how: Designation<'_>, report: &mut Report) {
        if self.mode != CollabMode::Orchestrated {
            return;
        }
        let at = || Pointer::root().key("participants");
        match (self.orchestrators(how).as_slice(), how) {
            ([], Designation::ByName) => report.error(
                at(),
                MAP_ORCHESTRATOR_REQUIRED,
                "an `orchestrated` session needs an orchestrator: a participant whose participant_id or role_id is `orchestrator`, `role-orchestrator` or `orchestrator-<n>` (any case), or one designated explicitly; found none",
            ),
            ([], Designation::Participant(id)) => report.error(
                at(),
                MAP_ORCHESTRATOR_REQUIRED,
                format!("the designated orchestrator `{id}` is not a participant of the session"),
            ),
            ([_], _) => {}
            ([first, rest @ ..], _) => {
                for i in rest {
                    report.warn(
                        at().index(*i),
                        MAP_ORCHESTRATOR_REQUIRED,
                        format!(
                            "participant {i} is named as an orchestrator too; the session's orchestrator is the first one, participant {first} (`{}`)",
                            self.participants
                                .get(*first)
                                .map_or("", |p| p.participant_id.as_str())
                        ),
                    );
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::is_orchestrator_name;

    #[test]
    fn names() {
        for yes in [
            "orchestrator",
            "Orchestrator",
            "ORCHESTRATOR",
            "role-orchestrator",
            "role_orchestrator",
            "Role-Orchestrator",
            "orchestrator-1",
            "orchestrator_002",
            "role-orchestrator-7",
        ] {
            assert!(is_orchestrator_name(yes), "{yes}");
        }
        for no in [
            "",
            "orch",
            "orchestrator-",
            "orchestrator-a",
            "orchestrator-assistant",
            "sub-orchestrator",
            "role-",
            "role-architect-001",
            "orchestrators",
            "xorchestrator",
            "role-role-orchestrator",
        ] {
            assert!(!is_orchestrator_name(no), "{no}");
        }
    }
}
