//! What this SDK implements of MPLP: the protocol version, the schema and
//! invariant bundles, and the eleven kernel duties of the taxonomy
//! (`taxonomy/kernel-duties.yaml`) as data.
//!
//! ```
//! use mplp_core::protocol::{KERNEL_DUTIES, PROTOCOL_VERSION};
//! use mplp_core::CrossCutting;
//!
//! assert_eq!(PROTOCOL_VERSION, "1.0.0");
//! let duty = CrossCutting::StateSync.kernel_duty();
//! assert_eq!((duty.id, duty.name, duty.slug()), ("KD-10", "State Sync", "state-sync"));
//! assert_eq!(KERNEL_DUTIES.len(), 11);
//! ```

use crate::CrossCutting;

/// The MPLP protocol version implemented (`meta.protocol_version` of what
/// the SDK writes).
pub const PROTOCOL_VERSION: &str = "1.0.0";

/// The day MPLP v1.0.0 was frozen (the date its schemas, invariants and
/// taxonomies carry).
pub const FREEZE_DATE: &str = "2025-12-03";

/// The version of the schema bundle implemented (the published truth-source
/// manifest's `manifest_version`).
pub const SCHEMA_BUNDLE_VERSION: &str = "1.0.0";

/// The published hash of that schema bundle (the truth-source manifest's
/// `schema_bundle_hash`), which names the bundle exactly.
pub const SCHEMA_BUNDLE_HASH: &str =
    "sha256:78ea3511cee7cacebff416b5ad6179358032d5322e5991523b5f8d6257d10354";

/// The version of the frozen invariant bundle implemented
/// (`invariants/*.yaml` of MPLP v1.0.0).
pub const INVARIANT_BUNDLE_VERSION: &str = "1.0.0";

/// One kernel duty of the taxonomy: a cross-cutting concern of the
/// governance plane, with its id and name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct KernelDuty {
    /// Its id (`KD-01` ... `KD-11`).
    pub id: &'static str,
    /// Its name (`Error Handling`).
    pub name: &'static str,
    /// The concern it is (its slug is the concern's wire name).
    pub concern: CrossCutting,
}

impl KernelDuty {
    /// Its slug (`error-handling`): the wire name of [`KernelDuty::concern`],
    /// as `meta.cross_cutting` lists it.
    pub fn slug(&self) -> &'static str {
        self.concern.as_str()
    }
}

impl std::fmt::Display for KernelDuty {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {} ({})", self.id, self.name, self.slug())
    }
}

macro_rules! duties {
    ($($concern:ident = $id:literal, $name:literal;)*) => {
        /// The eleven kernel duties, in the taxonomy's order.
        pub const KERNEL_DUTIES: [KernelDuty; 11] = [
            $(KernelDuty { id: $id, name: $name, concern: CrossCutting::$concern },)*
        ];

        impl CrossCutting {
            /// The kernel duty this concern is.
            pub const fn kernel_duty(self) -> KernelDuty {
                match self {
                    $(CrossCutting::$concern => KernelDuty { id: $id, name: $name, concern: self },)*
                }
            }
        }
    };
}

duties! {
    Coordination = "KD-01", "Coordination";
    ErrorHandling = "KD-02", "Error Handling";
    EventBus = "KD-03", "Event Bus";
    LearningFeedback = "KD-04", "Learning Feedback";
    Observability = "KD-05", "Observability";
    Orchestration = "KD-06", "Orchestration";
    Performance = "KD-07", "Performance";
    ProtocolVersioning = "KD-08", "Protocol Versioning";
    Security = "KD-09", "Security";
    StateSync = "KD-10", "State Sync";
    Transaction = "KD-11", "Transaction";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_concern_is_its_duty_and_the_table_is_in_order() {
        for (n, duty) in KERNEL_DUTIES.iter().enumerate() {
            assert_eq!(duty.id, format!("KD-{:02}", n + 1));
            assert_eq!(duty.concern.kernel_duty(), *duty);
            assert_eq!(duty.slug().parse::<CrossCutting>(), Ok(duty.concern));
        }
        assert_eq!(
            KERNEL_DUTIES[1].to_string(),
            "KD-02 Error Handling (error-handling)"
        );
    }

    #[test]
    fn the_protocol_version_is_what_meta_writes() {
        assert_eq!(crate::Version::V1_0_0.to_string(), PROTOCOL_VERSION);
    }
}
