//! Lifecycles written as one table of triggers.

/// Derives the lifecycle methods of a status enum from its trigger table,
/// so that the table stays the only place the lifecycle lives.
///
/// The trigger enum (a [`wire_enum!`](macro@crate::wire_enum)) must have `ALL`
/// and `const fn rule(self) -> (&'static [Status], Status)`: the statuses
/// the trigger fires from and the one it leads to. The macro writes, on the
/// status enum:
/// - `fire_at(self, trigger, pointer)`: the next status, or a
///   [`TransitionError`](crate::TransitionError) (rule
///   `lifecycle-transition`) at `pointer` that names the final status or
///   the statuses the trigger fires from;
/// - `can_transition_to(self, to)`: some trigger leads from here to `to`;
/// - `is_final(self)`: no trigger fires from here.
///
/// The refusal of a trigger from a status that is not final reads
/// "`` `close` fires only from `open`, the door is `shut` ``"; a table whose
/// triggers read better otherwise passes its own format, `refusal = "..."`,
/// with three `{}`: the trigger, the statuses it fires from, the status.
///
/// ```
/// mplp_core::wire_enum! {
///     /// A door.
///     pub enum Door { /// Open.
///         Open = "open", /// Shut.
///         Shut = "shut", /// Gone.
///         Gone = "gone" }
/// }
/// mplp_core::wire_enum! {
///     /// What happens to a door.
///     pub enum DoorTrigger { /// Shut it.
///         Close = "close", /// Open it.
///         Open = "open", /// Remove it.
///         Remove = "remove" }
/// }
/// impl DoorTrigger {
///     /// The table.
///     pub const fn rule(self) -> (&'static [Door], Door) {
///         match self {
///             DoorTrigger::Close => (&[Door::Open], Door::Shut),
///             DoorTrigger::Open => (&[Door::Shut], Door::Open),
///             DoorTrigger::Remove => (&[Door::Open, Door::Shut], Door::Gone),
///         }
///     }
/// }
/// mplp_core::trigger_table!(Door, DoorTrigger, "door");
///
/// assert_eq!(Door::Open.fire_at(DoorTrigger::Close, "/status"), Ok(Door::Shut));
/// assert!(Door::Gone.is_final() && !Door::Shut.is_final());
/// assert!(Door::Shut.can_transition_to(Door::Gone));
/// let err = Door::Shut.fire_at(DoorTrigger::Close, "/doors/0/status").unwrap_err();
/// assert_eq!(err.to_string(), "door cannot go from `shut` to `shut`: `close` fires only from `open`, the door is `shut`");
/// let err = Door::Gone.fire_at(DoorTrigger::Open, "/status").unwrap_err();
/// assert_eq!(err.to_string(), "door cannot go from `gone` to `open`: `gone` is a final status");
/// ```
#[macro_export]
macro_rules! trigger_table {
    ($status:ident, $trigger:ident, $entity:literal) => {
        $crate::trigger_table!(
            $status,
            $trigger,
            $entity,
            refusal = concat!("`{}` fires only from {}, the ", $entity, " is `{}`")
        );
    };
    ($status:ident, $trigger:ident, $entity:literal, refusal = $($refusal:tt)+) => {
        impl $status {
            /// The status `trigger` leads to from this one, or the typed
            /// refusal (rule `lifecycle-transition`, at `pointer`).
            pub fn fire_at(
                self,
                trigger: $trigger,
                pointer: &str,
            ) -> ::std::result::Result<$status, $crate::TransitionError> {
                let (from, to) = trigger.rule();
                if from.contains(&self) {
                    return Ok(to);
                }
                let reason = if self.is_final() {
                    format!("`{self}` is a final status")
                } else {
                    let allowed: Vec<String> = from.iter().map(|s| format!("`{s}`")).collect();
                    format!($($refusal)+, trigger, allowed.join(", "), self)
                };
                Err($crate::TransitionError::new(
                    $entity,
                    pointer,
                    self.as_str(),
                    to.as_str(),
                    reason,
                ))
            }

            /// True when some trigger leads from this status to `to`.
            pub fn can_transition_to(self, to: $status) -> bool {
                $trigger::ALL.iter().any(|t| {
                    let (from, target) = t.rule();
                    target == to && from.contains(&self)
                })
            }

            /// True when no trigger fires from this status.
            pub fn is_final(self) -> bool {
                $trigger::ALL.iter().all(|t| !t.rule().0.contains(&self))
            }
        }
    };
}
