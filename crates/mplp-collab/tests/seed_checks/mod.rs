//! The MAP events seed's own check functions (seed 002, section 7,
//! "Invariant Validation"), ported line for line from TypeScript, for
//! tests only: `validateTurnCompletion` (7.1,
//! `map_turn_completion_matches_dispatch`) and `validateBroadcastReceivers`
//! (7.2, `map_broadcast_has_receivers`).
//!
//! The port keeps JavaScript's semantics where the events can differ:
//! events are plain JSON objects; reading a member that is absent gives
//! `undefined`; reading a member of `undefined` or `null` throws a
//! `TypeError` (here: `Err`); `===` is strict equality (`undefined ===
//! undefined`, numbers by value, strings by content, two objects only when
//! they are the same object, which two events' members never are); a
//! template literal writes `undefined` and `null` as such. The seed's
//! quadratic searches (`filter`, `find`) are kept as they are.
//!
//! Shared by `crates/mplp-collab/tests/modes.rs` and
//! `crates/mplp-cli/tests/collab_seed_checks.rs`.
#![allow(dead_code)] // each test binary uses its part

use serde_json::Value;

/// The seed's `ValidationResult`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ValidationResult {
    pub(crate) valid: bool,
    pub(crate) errors: Vec<String>,
}

/// A JavaScript value read from an event: `undefined` or a JSON value.
#[derive(Clone, Copy, Debug)]
enum Js<'a> {
    Undefined,
    Json(&'a Value),
}

/// JavaScript threw (a member read of `undefined` or `null`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct TypeError(pub(crate) String);

impl<'a> Js<'a> {
    /// `self.key`: `undefined` for an absent member or a member of a
    /// non-object that has none (a string's, a number's); a `TypeError` on
    /// `undefined` and `null`.
    fn get(self, key: &str) -> Result<Js<'a>, TypeError> {
        match self {
            Js::Undefined => Err(TypeError(format!(
                "Cannot read properties of undefined (reading '{key}')"
            ))),
            Js::Json(Value::Null) => Err(TypeError(format!(
                "Cannot read properties of null (reading '{key}')"
            ))),
            Js::Json(Value::Object(o)) => Ok(o.get(key).map_or(Js::Undefined, Js::Json)),
            Js::Json(_) => Ok(Js::Undefined),
        }
    }

    /// `===`.
    fn strict_eq(self, other: Js<'_>) -> bool {
        match (self, other) {
            (Js::Undefined, Js::Undefined) => true,
            (Js::Json(a), Js::Json(b)) => match (a, b) {
                (Value::Null, Value::Null) => true,
                (Value::Bool(x), Value::Bool(y)) => x == y,
                // JavaScript numbers are doubles: 1 === 1.0.
                (Value::Number(x), Value::Number(y)) => x.as_f64() == y.as_f64(),
                (Value::String(x), Value::String(y)) => x == y,
                // Objects and arrays: identity; two events never share one.
                _ => false,
            },
            _ => false,
        }
    }

    /// `${value}` in a template literal.
    fn template(self) -> String {
        match self {
            Js::Undefined => "undefined".into(),
            Js::Json(Value::Null) => "null".into(),
            Js::Json(Value::String(s)) => s.clone(),
            Js::Json(Value::Number(n)) => n
                .as_f64()
                .map_or_else(|| n.to_string(), |f| format_js_number(f, n)),
            Js::Json(Value::Bool(b)) => b.to_string(),
            Js::Json(Value::Array(items)) => items
                .iter()
                .map(|v| match v {
                    Value::Null => String::new(),
                    v => Js::Json(v).template(),
                })
                .collect::<Vec<_>>()
                .join(","),
            Js::Json(Value::Object(_)) => "[object Object]".into(),
        }
    }
}

/// How JavaScript writes a number (integers without `.0`).
fn format_js_number(f: f64, n: &serde_json::Number) -> String {
    if f.fract() == 0.0 && f.abs() < 1e21 {
        format!("{f:.0}")
    } else {
        n.to_string()
    }
}

/// `events.filter(e => e.event_type === type)`.
fn of_type<'a>(events: &'a [Value], event_type: &str) -> Result<Vec<Js<'a>>, TypeError> {
    let wanted = Value::String(event_type.to_owned());
    let mut out = Vec::new();
    for e in events {
        let e = Js::Json(e);
        if e.get("event_type")?.strict_eq(Js::Json(&wanted)) {
            out.push(e);
        }
    }
    Ok(out)
}

/// Seed 002, 7.1:
///
/// ```text
/// function validateTurnCompletion(events: MAPEvent[]): ValidationResult {
///   const dispatched = events.filter(e => e.event_type === 'MAPTurnDispatched');
///   const completed = events.filter(e => e.event_type === 'MAPTurnCompleted');
///   const errors: string[] = [];
///   for (const dispatch of dispatched) {
///     const match = completed.find(c =>
///       c.session_id === dispatch.session_id &&
///       c.payload.role_id === dispatch.payload.role_id &&
///       c.payload.turn_number === dispatch.payload.turn_number
///     );
///     if (!match) {
///       errors.push(`Turn ${dispatch.payload.turn_number} for ${dispatch.payload.role_id} has no completion`);
///     }
///   }
///   return { valid: errors.length === 0, errors };
/// }
/// ```
pub(crate) fn validate_turn_completion(events: &[Value]) -> Result<ValidationResult, TypeError> {
    let dispatched = of_type(events, "MAPTurnDispatched")?;
    let completed = of_type(events, "MAPTurnCompleted")?;
    let mut errors = Vec::new();
    for dispatch in &dispatched {
        let mut found = false;
        for c in &completed {
            // `&&` short-circuits: later operands are read only when the
            // earlier ones hold (and may throw only then).
            if c.get("session_id")?.strict_eq(dispatch.get("session_id")?)
                && c.get("payload")?
                    .get("role_id")?
                    .strict_eq(dispatch.get("payload")?.get("role_id")?)
                && c.get("payload")?
                    .get("turn_number")?
                    .strict_eq(dispatch.get("payload")?.get("turn_number")?)
            {
                found = true;
                break;
            }
        }
        if !found {
            errors.push(format!(
                "Turn {} for {} has no completion",
                dispatch.get("payload")?.get("turn_number")?.template(),
                dispatch.get("payload")?.get("role_id")?.template()
            ));
        }
    }
    Ok(ValidationResult {
        valid: errors.is_empty(),
        errors,
    })
}

/// Seed 002, 7.2:
///
/// ```text
/// function validateBroadcastReceivers(events: MAPEvent[]): ValidationResult {
///   const sent = events.filter(e => e.event_type === 'MAPBroadcastSent');
///   const received = events.filter(e => e.event_type === 'MAPBroadcastReceived');
///   const errors: string[] = [];
///   for (const broadcast of sent) {
///     const receivers = received.filter(r =>
///       r.session_id === broadcast.session_id &&
///       r.payload.broadcast_ref === broadcast.payload.broadcast_id
///     );
///     if (receivers.length === 0) {
///       errors.push(`Broadcast ${broadcast.payload.broadcast_id} has no receivers`);
///     }
///   }
///   return { valid: errors.length === 0, errors };
/// }
/// ```
pub(crate) fn validate_broadcast_receivers(
    events: &[Value],
) -> Result<ValidationResult, TypeError> {
    let sent = of_type(events, "MAPBroadcastSent")?;
    let received = of_type(events, "MAPBroadcastReceived")?;
    let mut errors = Vec::new();
    for broadcast in &sent {
        let mut receivers = 0usize;
        for r in &received {
            if r.get("session_id")?.strict_eq(broadcast.get("session_id")?)
                && r.get("payload")?
                    .get("broadcast_ref")?
                    .strict_eq(broadcast.get("payload")?.get("broadcast_id")?)
            {
                receivers += 1;
            }
        }
        if receivers == 0 {
            errors.push(format!(
                "Broadcast {} has no receivers",
                broadcast.get("payload")?.get("broadcast_id")?.template()
            ));
        }
    }
    Ok(ValidationResult {
        valid: errors.is_empty(),
        errors,
    })
}

/// The events of an NDJSON log, as JSON values (blank lines skipped, as
/// the MAP log readers do).
pub(crate) fn events(ndjson: &str) -> Vec<Value> {
    ndjson
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("not JSON ({e}): {l}")))
        .collect()
}

/// Both checks pass on `ndjson` (the message says which failed, and why).
pub(crate) fn assert_seed_checks_pass(ndjson: &str) {
    let events = events(ndjson);
    let turns = validate_turn_completion(&events);
    assert_eq!(
        turns,
        Ok(ValidationResult {
            valid: true,
            errors: vec![]
        }),
        "validateTurnCompletion\n{ndjson}"
    );
    let broadcasts = validate_broadcast_receivers(&events);
    assert_eq!(
        broadcasts,
        Ok(ValidationResult {
            valid: true,
            errors: vec![]
        }),
        "validateBroadcastReceivers\n{ndjson}"
    );
}
