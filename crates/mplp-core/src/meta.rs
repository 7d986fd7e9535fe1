//! `meta`: the metadata block every module document starts with
//! (`common/metadata.schema.json`).

use crate::{ShortString, Timestamp, UniqueVec, Version, Wire};

crate::wire_enum! {
    /// A cross-cutting concern of the governance plane (one of the 11 that MPLP names).
    pub enum CrossCutting {
        /// Coordination between agents.
        Coordination = "coordination",
        /// Error handling.
        ErrorHandling = "error-handling",
        /// The event bus.
        EventBus = "event-bus",
        /// Learning from feedback.
        LearningFeedback = "learning-feedback",
        /// Observability.
        Observability = "observability",
        /// Orchestration.
        Orchestration = "orchestration",
        /// Performance.
        Performance = "performance",
        /// Protocol versioning.
        ProtocolVersioning = "protocol-versioning",
        /// Security.
        Security = "security",
        /// State synchronisation.
        StateSync = "state-sync",
        /// Transactions.
        Transaction = "transaction",
    }
}

/// Protocol metadata: versions, who created and changed the object, tags and
/// cross-cutting concerns. No other fields are allowed.
///
/// ```
/// use mplp_core::{Meta, Version};
/// let meta = Meta::v1();
/// assert_eq!(meta.protocol_version, Version::V1_0_0);
/// assert_eq!(serde_json::to_string(&meta).unwrap(),
///            r#"{"protocol_version":"1.0.0","schema_version":"1.0.0"}"#);
///
/// // The seeds' `protocolVersion` is refused, with a suggestion:
/// let err = serde_json::from_str::<Meta>(r#"{"protocolVersion": "1.0.0"}"#).unwrap_err();
/// assert!(err.to_string().contains("unknown member `protocolVersion`: did you mean `protocol_version`?"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Wire)]
#[wire(crate = "crate")]
#[non_exhaustive]
pub struct Meta {
    /// The MPLP protocol version (`MAJOR.MINOR.PATCH`). Required.
    pub protocol_version: Version,
    /// The version of the schema the object follows (`MAJOR.MINOR.PATCH`). Required.
    pub schema_version: Version,
    /// When the object was created.
    pub created_at: Option<Timestamp>,
    /// Who created it (a user id, agent name or system id).
    pub created_by: Option<ShortString>,
    /// When it was last changed.
    pub updated_at: Option<Timestamp>,
    /// Who last changed it.
    pub updated_by: Option<ShortString>,
    /// Tags for search and grouping; all different.
    pub tags: Option<UniqueVec<String>>,
    /// The cross-cutting concerns this object takes part in; all different.
    pub cross_cutting: Option<UniqueVec<CrossCutting>>,
}

impl Meta {
    /// Metadata for protocol 1.0.0 and schema 1.0.0, with nothing else set.
    pub fn v1() -> Self {
        Meta::new(Version::V1_0_0, Version::V1_0_0)
    }

    /// Metadata with the given versions and nothing else set.
    pub fn new(protocol_version: Version, schema_version: Version) -> Self {
        Meta {
            protocol_version,
            schema_version,
            created_at: None,
            created_by: None,
            updated_at: None,
            updated_by: None,
            tags: None,
            cross_cutting: None,
        }
    }

    /// Fresh 1.0.0 metadata stamped with the current time as `created_at`.
    ///
    /// ```
    /// let meta = mplp_core::Meta::created_now(Some("agent-planner"));
    /// assert!(meta.created_at.is_some());
    /// assert_eq!(meta.created_by.as_deref(), Some("agent-planner"));
    /// ```
    pub fn created_now(created_by: Option<&str>) -> Self {
        Meta {
            created_at: Some(Timestamp::now()),
            created_by: created_by.map(ShortString::from),
            ..Meta::v1()
        }
    }

    /// Records a change: sets `updated_at` to now and `updated_by`.
    pub fn touch(&mut self, updated_by: Option<&str>) {
        self.updated_at = Some(Timestamp::now());
        if let Some(by) = updated_by {
            self.updated_by = Some(ShortString::from(by));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CheckValue;
    use crate::{Pointer, Report};

    #[test]
    fn null_is_not_absent() {
        let text = r#"{"protocol_version":"1.0.0","schema_version":"1.0.0","created_by":null}"#;
        assert!(serde_json::from_str::<Meta>(text).is_err());
        let mut report = Report::new();
        Meta::check_value(
            &serde_json::from_str(text).unwrap(),
            &Pointer::root(),
            &mut report,
        );
        assert_eq!(report.violations().len(), 1);
        assert_eq!(report.violations()[0].pointer, "/created_by");
        assert_eq!(report.violations()[0].rule, crate::Rule::TYPE);
    }

    #[test]
    fn cross_cutting_and_tags_must_be_unique() {
        let text = r#"{"protocol_version":"1.0.0","schema_version":"1.0.0","tags":["a","a"],"cross_cutting":["security","security"]}"#;
        assert!(serde_json::from_str::<Meta>(text).is_err());
        let mut report = Report::new();
        Meta::check_value(
            &serde_json::from_str(text).unwrap(),
            &Pointer::root(),
            &mut report,
        );
        let pointers: Vec<_> = report
            .violations()
            .iter()
            .map(|v| v.pointer.as_str())
            .collect();
        assert_eq!(pointers, ["/tags/1", "/cross_cutting/1"]);
    }

    #[test]
    fn created_now_and_touch_stamp_the_current_time_and_the_author() {
        let before = Timestamp::now();
        let mut meta = Meta::created_now(Some("agent-planner"));
        let after = Timestamp::now();
        let created = meta.created_at.clone().unwrap();
        assert!(before <= created && created <= after, "{created}");
        assert_eq!(meta.created_by.as_deref(), Some("agent-planner"));
        assert_eq!(
            (meta.updated_at.clone(), meta.updated_by.clone()),
            (None, None)
        );
        assert_eq!(Meta::created_now(None).created_by, None);

        meta.touch(Some("agent-reviewer"));
        let touched = meta.updated_at.clone().unwrap();
        assert!(after <= touched && touched <= Timestamp::now(), "{touched}");
        assert_eq!(meta.updated_by.as_deref(), Some("agent-reviewer"));
        // Without an author, the last one stays; the time moves on.
        meta.updated_at = None;
        meta.touch(None);
        assert!(meta.updated_at.is_some());
        assert_eq!(meta.updated_by.as_deref(), Some("agent-reviewer"));
        // The creation is left alone.
        assert_eq!(meta.created_at, Some(created));
        assert_eq!(meta.created_by.as_deref(), Some("agent-planner"));
    }
}
