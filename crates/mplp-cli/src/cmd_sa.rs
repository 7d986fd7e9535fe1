//! `mplp sa ...` subcommands: run a plan under the SA profile with a
//! simulated executor into a directory store (an evidence pack).

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use mplp_context::{Context, ContextRoot};
use mplp_core::{StepId, Timestamp};
use mplp_events::log::NullSink;
use mplp_plan::Plan;
use mplp_runtime::session::SESSION_CHECKPOINT;
use mplp_runtime::store::{DirStore, Store};
use mplp_runtime::{
    AutoApprove, Backoff, FailurePolicy, OnExhausted, SaOutcome, SaReport, SaSession, StepRequest,
    StepResult,
};
use serde_json::{Value, json};

/// The checkpoint that keeps the simulation's settings for `--resume`.
const SIM_CHECKPOINT: &str = "sa-simulate";

/// The endings of a step's failure policy, as the command line spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ExhaustedArg {
    /// The plan fails.
    #[value(name = "fail_plan", alias = "fail-plan")]
    FailPlan,
    /// The step's dependents are skipped, the others run, the plan ends failed.
    #[value(name = "skip_dependents", alias = "skip-dependents")]
    SkipDependents,
}

/// Subcommands of `mplp sa`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum SaCommand {
    /// Run a plan under the SA profile with a deterministic simulated
    /// executor, into a directory store laid out as an evidence pack
    /// (`manifest.json`, `artifacts/`, `timeline/events.ndjson`,
    /// `integrity/sha256sums.txt`). With `--seed`, about one first attempt
    /// in eight fails and is retried. Exit status: 0 when the plan
    /// completed (or the run stopped on `--stop-after-events`), 1 when it
    /// failed or was rejected, 2 on usage, input and store errors.
    Simulate(SimulateArgs),
}

/// Arguments of `mplp sa simulate`.
#[derive(Debug, clap::Args)]
pub(crate) struct SimulateArgs {
    /// The plan to run (a draft plan is proposed and approved by the simulator).
    #[arg(required_unless_present = "resume", conflicts_with = "resume")]
    plan: Option<String>,
    /// The Context to run in (default: an active Context with the plan's `context_id`).
    #[arg(long, conflicts_with = "resume")]
    context: Option<String>,
    /// The directory to write the store to (created; it must not hold a session).
    #[arg(
        long,
        value_name = "DIR",
        required_unless_present = "resume",
        conflicts_with = "resume"
    )]
    out: Option<PathBuf>,
    /// Finish the run stopped in this directory.
    #[arg(long, value_name = "DIR")]
    resume: Option<PathBuf>,
    /// The seed of the simulated executor (0: no transient failures).
    #[arg(long, default_value_t = 0, conflicts_with = "resume")]
    seed: u64,
    /// This step fails on every attempt.
    #[arg(long, value_name = "STEP_ID", conflicts_with = "resume")]
    fail_step: Option<String>,
    /// Retries of a failed step.
    #[arg(long, default_value_t = 2, conflicts_with = "resume", allow_negative_numbers = true, value_parser = crate::args::counts::<u32>(0, "retries"))]
    retries: u32,
    /// What happens when a step has no retry left.
    #[arg(
        long,
        value_enum,
        default_value = "fail_plan",
        conflicts_with = "resume"
    )]
    on_exhausted: ExhaustedArg,
    /// Stop (as a crash would) once the log holds this many events.
    #[arg(long, value_name = "N", allow_negative_numbers = true, value_parser = crate::args::counts::<u64>(0, "events"))]
    stop_after_events: Option<u64>,
    /// Crash tests: the N-th write to the store (1 = the first) fails
    /// half-way with an I/O error, as a crash would leave it; the command
    /// exits 2 and `--resume` finishes the run.
    #[arg(long, value_name = "N", hide = true, allow_negative_numbers = true, value_parser = crate::args::counts::<u64>(1, "writes"))]
    fail_write: Option<u64>,
}

/// Runs a `mplp sa` subcommand.
pub(crate) fn run(cmd: SaCommand) -> ExitCode {
    match cmd {
        SaCommand::Simulate(args) => simulate(&args),
    }
}

/// The settings of a simulation, kept in the store for `--resume` (with
/// the plan and the Context, so that a run stopped before its session was
/// created can start it again).
#[derive(Clone, Copy, Debug)]
struct Settings {
    seed: u64,
    fail_position: Option<usize>,
    retries: u32,
    on_exhausted: OnExhausted,
}

impl Settings {
    fn to_json(self) -> Value {
        json!({
            "seed": self.seed,
            "fail_position": self.fail_position,
            "retries": self.retries,
            "on_exhausted": self.on_exhausted.as_str(),
        })
    }

    fn from_json(v: &Value) -> Option<Self> {
        Some(Settings {
            seed: v.get("seed")?.as_u64()?,
            fail_position: match v.get("fail_position")? {
                Value::Null => None,
                p => Some(usize::try_from(p.as_u64()?).ok()?),
            },
            retries: u32::try_from(v.get("retries")?.as_u64()?).ok()?,
            on_exhausted: v.get("on_exhausted")?.as_str()?.parse().ok()?,
        })
    }

    fn policy(self) -> FailurePolicy {
        FailurePolicy::retry(self.retries)
            .with_backoff(Backoff::NONE)
            .then(self.on_exhausted)
    }
}

/// SplitMix64: a fixed, well-mixed function of the seed and the attempt.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The simulated executor: deterministic in the seed, the step's position and the attempt.
fn executor(settings: Settings) -> impl FnMut(&StepRequest<'_>) -> StepResult {
    move |req| {
        if settings.fail_position == Some(req.position) {
            return StepResult::failure("simulated failure (--fail-step)");
        }
        let roll = mix(settings.seed ^ mix(req.position as u64) ^ u64::from(req.attempt) << 48);
        if settings.seed != 0 && req.attempt == 1 && roll % 8 == 0 {
            return StepResult::failure("simulated transient failure (--seed)");
        }
        let mut out = mplp_core::JsonObject::new();
        out.insert("simulated", true);
        out.insert("position", req.position as u64);
        out.insert("attempt", u64::from(req.attempt));
        StepResult::Output(out)
    }
}

fn fail(message: impl std::fmt::Display) -> ExitCode {
    eprintln!("mplp sa simulate: {message}");
    ExitCode::from(2)
}

fn simulate(args: &SimulateArgs) -> ExitCode {
    if let Some(dir) = &args.resume {
        return resume(dir, args.stop_after_events, args.fail_write);
    }
    let (Some(plan_path), Some(out)) = (&args.plan, &args.out) else {
        return fail("give a PLAN and --out DIR, or --resume DIR");
    };
    let plan = match crate::io::load::<Plan>(plan_path) {
        Ok(p) => p,
        Err(code) => return code,
    };
    let context = match &args.context {
        Some(path) => match crate::io::load::<Context>(path) {
            Ok(c) => c,
            Err(code) => return code,
        },
        None => {
            let root = ContextRoot::new("mplp-sa-simulate", "simulation");
            let made = Context::new_at(plan.context_id, "Simulated run", root, Timestamp::now())
                .and_then(|mut c| c.activate().map(|()| c));
            match made {
                Ok(c) => c,
                Err(e) => return fail(e),
            }
        }
    };
    let fail_position = match &args.fail_step {
        None => None,
        Some(text) => {
            let found = StepId::parse(text).ok().and_then(|id| plan.position(id));
            match found {
                Some(p) => Some(p),
                None => {
                    return fail(format!(
                        "--fail-step {text}: the plan has no step with this step_id"
                    ));
                }
            }
        }
    };
    let settings = Settings {
        seed: args.seed,
        fail_position,
        retries: args.retries,
        on_exhausted: match args.on_exhausted {
            ExhaustedArg::FailPlan => OnExhausted::FailPlan,
            ExhaustedArg::SkipDependents => OnExhausted::SkipDependents,
        },
    };
    if out.is_dir() && std::fs::read_dir(out).is_ok_and(|mut d| d.next().is_some()) {
        return fail(format!(
            "{}: the directory is not empty; give a new directory, or --resume it",
            out.display()
        ));
    }
    // The session's own checks first: a plan or Context it refuses leaves
    // nothing behind.
    if let Err(e) = context
        .ensure_active()
        .and_then(|()| plan.check_context(context.context_id))
        .and_then(|()| plan.dag().map(|_| ()))
    {
        eprintln!("mplp sa simulate: {e}");
        return ExitCode::from(1);
    }
    let mut store = match DirStore::open(out) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(n) = args.fail_write {
        store.fail_write(n);
    }
    let mut kept = settings.to_json();
    kept["plan"] = serde_json::to_value(&plan).unwrap_or(Value::Null);
    kept["context"] = serde_json::to_value(&context).unwrap_or(Value::Null);
    if let Err(e) = store.put_checkpoint(SIM_CHECKPOINT, kept.to_string().as_bytes()) {
        return fail(format!("{}: {e}", out.display()));
    }
    start(context, plan, store, settings, args.stop_after_events, out)
}

/// Creates the session in `store` and runs it.
fn start(
    context: Context,
    plan: Plan,
    store: DirStore,
    settings: Settings,
    stop_after: Option<u64>,
    dir: &Path,
) -> ExitCode {
    match SaSession::new(context, plan, NullSink::default(), store) {
        Ok(session) => finish(session, settings, stop_after, dir),
        Err(mplp_runtime::SaError::Mplp(e)) => {
            eprintln!("mplp sa simulate: {e}");
            ExitCode::from(1)
        }
        Err(e) => fail(format!("{}: {e}", dir.display())),
    }
}

fn resume(dir: &Path, stop_after: Option<u64>, fail_write: Option<u64>) -> ExitCode {
    let mut store = match DirStore::open(dir) {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    if let Some(n) = fail_write {
        store.fail_write(n);
    }
    let not_settings = || {
        fail(format!(
            "{}: checkpoints/{SIM_CHECKPOINT}.json: not the settings of `mplp sa simulate`",
            dir.display()
        ))
    };
    let (settings, kept) = match store.checkpoint(SIM_CHECKPOINT) {
        Ok(Some(bytes)) => {
            let Ok(kept) = serde_json::from_slice::<Value>(&bytes) else {
                return not_settings();
            };
            match Settings::from_json(&kept) {
                Some(s) => (s, kept),
                None => return not_settings(),
            }
        }
        Ok(None) => {
            return fail(format!(
                "{}: no `mplp sa simulate` run here (checkpoints/{SIM_CHECKPOINT}.json is missing)",
                dir.display()
            ));
        }
        Err(e) => return fail(format!("{}: {e}", dir.display())),
    };
    match store.checkpoint(SESSION_CHECKPOINT) {
        Ok(Some(_)) => {}
        Ok(None) => {
            // Stopped after the settings were written, before the session
            // was: start it again from the plan and Context they keep.
            let plan = kept
                .get("plan")
                .cloned()
                .map(serde_json::from_value::<Plan>);
            let context = kept
                .get("context")
                .cloned()
                .map(serde_json::from_value::<Context>);
            return match (plan, context) {
                (Some(Ok(plan)), Some(Ok(context))) => {
                    start(context, plan, store, settings, stop_after, dir)
                }
                (Some(Err(e)), _) | (_, Some(Err(e))) => fail(format!(
                    "{}: checkpoints/{SIM_CHECKPOINT}.json: the kept plan or Context is not valid: {e}",
                    dir.display()
                )),
                _ => fail(format!(
                    "{}: the run stopped before its session was created, and checkpoints/{SIM_CHECKPOINT}.json does not keep the plan and Context (an older `mplp`): run it again in a new directory",
                    dir.display()
                )),
            };
        }
        Err(e) => return fail(format!("{}: {e}", dir.display())),
    }
    match SaSession::resume(NullSink::default(), store) {
        Ok(session) => finish(session, settings, stop_after, dir),
        Err(e) => fail(format!("{}: {e}", dir.display())),
    }
}

fn finish(
    session: SaSession<NullSink, DirStore>,
    settings: Settings,
    stop_after: Option<u64>,
    dir: &Path,
) -> ExitCode {
    let mut session = session.with_policy(settings.policy());
    if let Some(n) = stop_after {
        session = session.stop_after_events(n);
    }
    let mut exec = executor(settings);
    let report = match session.run(&mut exec, &mut AutoApprove("simulator".to_owned())) {
        Ok(r) => r,
        Err(e) => return fail(format!("{}: {e}", dir.display())),
    };
    println!("{}", summary(&report, dir));
    match report.outcome {
        SaOutcome::Completed | SaOutcome::Stopped => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    }
}

fn summary(r: &SaReport, dir: &Path) -> String {
    let tail = if r.outcome == SaOutcome::Stopped {
        format!(
            "; finish with `mplp sa simulate --resume {}`",
            dir.display()
        )
    } else {
        String::new()
    };
    format!(
        "{}: {} attempts, {} completed, {} failed, {} retries, {} skipped, {} events in {}{tail}",
        r.outcome,
        r.attempts,
        r.completed,
        r.failures,
        r.retries,
        r.skipped,
        r.events,
        dir.display()
    )
}
