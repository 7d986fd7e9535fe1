//! The check every lifecycle crate makes of its named transitions
//! (`activate`, `suspend`, ...): from every status, each does what firing
//! its trigger does. Included with
//! `#[path = "../../../tests/support/named_transitions.rs"] mod named_transitions;`.

use std::fmt::Display;

/// A named transition: a method that fires one trigger, now.
pub(crate) type Named<D> = fn(&mut D) -> Result<(), mplp_core::Error>;

/// For every status `s` of `statuses` and every `(method, trigger)` of
/// `named`: runs `method` on `at_status(s)` and asserts that it is accepted
/// exactly when `fire(s, trigger)` gives a status, and that the document is
/// then in that status (else still in `s`). Gives each outcome (the start
/// status, the trigger, the document after, whether it was accepted) for
/// the checks a crate adds.
pub(crate) fn check_named_transitions<D, S, T>(
    statuses: &[S],
    at_status: impl Fn(S) -> D,
    status_of: impl Fn(&D) -> S,
    named: &[(Named<D>, T)],
    fire: impl Fn(S, T) -> Option<S>,
) -> Vec<(S, T, D, bool)>
where
    S: Copy + PartialEq + std::fmt::Debug + Display,
    T: Copy + Display,
{
    let mut outcomes = Vec::new();
    for s in statuses {
        for (method, t) in named {
            let mut doc = at_status(*s);
            let accepted = method(&mut doc).is_ok();
            let expected = fire(*s, *t);
            assert_eq!(accepted, expected.is_some(), "{s}: {t}");
            assert_eq!(status_of(&doc), expected.unwrap_or(*s), "{s}: {t}");
            outcomes.push((*s, *t, doc, accepted));
        }
    }
    outcomes
}

/// What firing every trigger of `triggers` reaches from `start`, breadth
/// first: the `(from, to)` edges taken, and every status reached (`start`
/// included). A crate compares them with its table written out, to show
/// that every edge is reachable from where a new document starts.
#[allow(dead_code)] // not every includer has a table to walk
pub(crate) fn reachable<S, T>(
    start: S,
    triggers: &[T],
    fire: impl Fn(S, T) -> Option<S>,
) -> (
    std::collections::BTreeSet<(S, S)>,
    std::collections::BTreeSet<S>,
)
where
    S: Copy + Ord,
    T: Copy,
{
    let mut edges = std::collections::BTreeSet::new();
    let mut statuses = std::collections::BTreeSet::from([start]);
    let mut queue = std::collections::VecDeque::from([start]);
    while let Some(s) = queue.pop_front() {
        for &t in triggers {
            if let Some(next) = fire(s, t) {
                edges.insert((s, next));
                if statuses.insert(next) {
                    queue.push_back(next);
                }
            }
        }
    }
    (edges, statuses)
}
