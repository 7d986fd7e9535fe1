//! An orchestrated session of a planner, a coder and a reviewer over a
//! small plan: prints the MAP event log (NDJSON) and a Mermaid sequence
//! diagram. `cargo run -p mplp-collab --example orchestrated_review`

use mplp_collab::render::mermaid_sequence;
use mplp_collab::runtime::{MapSession, SessionError, TurnContext, TurnOutcome};
use mplp_collab::sink::{MemorySink, SimClock};
use mplp_collab::{Collab, Participant, ParticipantKind};
use mplp_core::{CollabMode, ContextId, NonEmptyVec};
use mplp_plan::{ConfirmDecision, Plan, StepSpec};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let context = ContextId::new();
    let mut b = Plan::builder(
        context,
        "Add a --json flag",
        "Teach `mplp validate` to print JSON",
    );
    let design = b.add(StepSpec::new("Design the output format").role("planner"));
    let code = b.add(
        StepSpec::new("Implement the flag")
            .role("coder")
            .after(design),
    );
    let review = b.add(
        StepSpec::new("Review the change")
            .role("reviewer")
            .after(code),
    );
    let mut plan = b.build()?;
    plan.propose()?;
    plan.approve(&ConfirmDecision::approved("lead"))?;

    let mut people = NonEmptyVec::new(Participant::orchestrator("lead", ParticipantKind::Agent)?);
    people.push(Participant::new("planner-1", ParticipantKind::Agent)?.with_role("planner"));
    people.push(Participant::new("coder-1", ParticipantKind::Agent)?.with_role("coder"));
    people.push(Participant::new("reviewer-1", ParticipantKind::Human)?.with_role("reviewer"));
    let collab = Collab::new(
        context,
        "JSON output",
        "Ship `--format json`",
        CollabMode::Orchestrated,
        people,
    )?;

    let mut session = MapSession::with_clock(collab, MemorySink::new(), SimClock::new(2025))?;
    session.start()?;
    // Real agents would call a model here; these write a line to the shared notes.
    let mut agent = |turn: &mut TurnContext<'_>| -> Result<TurnOutcome, SessionError> {
        let line = format!(
            "{} did: {}",
            turn.participant().participant_id,
            turn.task().unwrap_or("?")
        );
        turn.write("notes", serde_json::json!(line))?;
        Ok(TurnOutcome::completed().with_summary(line))
    };
    let run = session.run_plan(&mut plan, 10, &mut agent)?;
    let mut question = mplp_core::JsonObject::new();
    question.insert("question", "Ready to merge?");
    session.broadcast(0, question, &mut agent)?;
    let summary = session.complete()?;
    assert_eq!(run.completed, [design, code, review]);

    print!("{}", session.sink().to_ndjson());
    println!();
    println!("{}", mermaid_sequence(&session.sink().events));
    eprintln!(
        "plan: {} ({} turns); session: {summary:?}",
        plan.status(),
        run.turns
    );
    Ok(())
}
