//! What the session does when a step fails ([`FailurePolicy`]).

use std::fmt;
use std::str::FromStr;
use std::time::Duration;

/// How long to wait before retry `n` (1 = the first retry):
/// `initial × factorⁿ⁻¹`, at most `max`.
///
/// ```
/// use std::time::Duration;
/// use mplp_runtime::Backoff;
/// let b = Backoff { initial: Duration::from_millis(100), factor: 2, max: Duration::from_millis(300) };
/// assert_eq!(b.delay(1), Duration::from_millis(100));
/// assert_eq!(b.delay(2), Duration::from_millis(200));
/// assert_eq!(b.delay(3), Duration::from_millis(300)); // capped
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Backoff {
    /// The wait before the first retry.
    pub initial: Duration,
    /// The factor between two waits (1: constant).
    pub factor: u32,
    /// The longest wait.
    pub max: Duration,
}

impl Backoff {
    /// No wait at all.
    pub const NONE: Backoff = Backoff {
        initial: Duration::ZERO,
        factor: 1,
        max: Duration::ZERO,
    };

    /// The wait before retry `n` (1-based).
    pub fn delay(&self, n: u32) -> Duration {
        let mut d = self.initial;
        for _ in 1..n {
            d = d.saturating_mul(self.factor);
            if d >= self.max {
                break;
            }
        }
        d.min(self.max)
    }
}

impl Default for Backoff {
    /// 100 ms, doubling, at most 10 s.
    fn default() -> Self {
        Backoff {
            initial: Duration::from_millis(100),
            factor: 2,
            max: Duration::from_secs(10),
        }
    }
}

/// What happens when a step has failed and has no retry left.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum OnExhausted {
    /// The step is critical: the plan becomes `failed` and the run ends.
    #[default]
    FailPlan,
    /// The plan goes on without the step: every step that depends on it
    /// (directly or not) is skipped, the failed attempt stays in the
    /// history and the step itself ends `skipped` (see docs/spec-notes.md).
    SkipDependents,
}

impl OnExhausted {
    /// The text used in logs and on the command line.
    pub const fn as_str(self) -> &'static str {
        match self {
            OnExhausted::FailPlan => "fail_plan",
            OnExhausted::SkipDependents => "skip_dependents",
        }
    }
}

impl fmt::Display for OnExhausted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for OnExhausted {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fail_plan" | "fail-plan" => Ok(OnExhausted::FailPlan),
            "skip_dependents" | "skip-dependents" => Ok(OnExhausted::SkipDependents),
            _ => Err(format!(
                "unknown failure policy `{s}`: expected `fail_plan` or `skip_dependents`"
            )),
        }
    }
}

/// The failure policy of a step: retry up to `retries` times with
/// `backoff` between attempts, then `on_exhausted`.
///
/// What happened is visible in the plan (`plan.step.failed`,
/// `plan.step.retried`, `plan.step.skipped` events and the statuses), in
/// the trace (one failed segment per failed attempt) and in the log
/// (`SAStepFailed` with `attempt`, `reason` and `disposition`).
///
/// ```
/// use mplp_runtime::{FailurePolicy, OnExhausted};
/// let p = FailurePolicy::retry(3).then(OnExhausted::SkipDependents);
/// assert_eq!((p.retries, p.on_exhausted), (3, OnExhausted::SkipDependents));
/// assert_eq!(FailurePolicy::default().retries, 0);
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FailurePolicy {
    /// How many times a failed step is tried again.
    pub retries: u32,
    /// The waits between attempts.
    pub backoff: Backoff,
    /// What happens after the last failed attempt.
    pub on_exhausted: OnExhausted,
}

impl FailurePolicy {
    /// `retries` retries with the default backoff, then fail the plan.
    pub fn retry(retries: u32) -> Self {
        FailurePolicy {
            retries,
            ..FailurePolicy::default()
        }
    }

    /// The same policy with another ending.
    #[must_use]
    pub fn then(mut self, on_exhausted: OnExhausted) -> Self {
        self.on_exhausted = on_exhausted;
        self
    }

    /// The same policy with another backoff.
    #[must_use]
    pub fn with_backoff(mut self, backoff: Backoff) -> Self {
        self.backoff = backoff;
        self
    }
}
