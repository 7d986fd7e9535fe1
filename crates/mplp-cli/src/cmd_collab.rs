//! `mplp collab ...` subcommands.

use std::io::Write;
use std::process::ExitCode;

use mplp_collab::simulate::{SimConfig, simulate};
use mplp_collab::sink::NdjsonSink;
use mplp_core::CollabMode;
use mplp_plan::Plan;

/// The collaboration modes, as the command line spells them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ModeArg {
    /// One message fans out to every participant, whose answers fan back in.
    Broadcast,
    /// Participants take turns in a fixed order.
    #[value(name = "round_robin", alias = "round-robin")]
    RoundRobin,
    /// An orchestrator dispatches each turn.
    Orchestrated,
    /// Participants claim independent tasks in parallel.
    Swarm,
    /// Exactly two participants alternate.
    Pair,
}

impl From<ModeArg> for CollabMode {
    fn from(m: ModeArg) -> Self {
        match m {
            ModeArg::Broadcast => CollabMode::Broadcast,
            ModeArg::RoundRobin => CollabMode::RoundRobin,
            ModeArg::Orchestrated => CollabMode::Orchestrated,
            ModeArg::Swarm => CollabMode::Swarm,
            ModeArg::Pair => CollabMode::Pair,
        }
    }
}

/// The diagram languages of `mplp collab render`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum SessionFormat {
    /// A Mermaid sequence diagram.
    Mermaid,
    /// An SVG sequence diagram, laid out without any system tool.
    Svg,
}
/// The most turns `collab simulate` runs (a usage error beyond). The
/// simulation streams its events in memory that does not grow with the
/// turns; the bound keeps a mistyped count from running for hours.
pub(crate) const MAX_TURNS: u64 = 1_000_000_000;

/// Subcommands of `mplp collab`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum CollabCommand {
    /// Draw a session from its MAP event log: participants as lifelines,
    /// turns, broadcasts with their answers, conflicts with their
    /// resolution. Lines that are not valid MAP events are reported on
    /// standard error and left out of the picture (exit status 1). A log
    /// read from a file is validated too, and what the validation finds is
    /// marked at its events, with the rule ids.
    Render {
        /// The diagram language.
        #[arg(long, value_enum)]
        format: SessionFormat,
        /// The NDJSON MAP event log (`-` reads standard input).
        log: String,
    },
    /// Write the MAP event log of a simulated session as NDJSON to standard
    /// output (deterministic for a given seed; it always passes
    /// `mplp validate --kind map-log`).
    Simulate {
        /// The collaboration mode.
        #[arg(long, value_enum)]
        mode: ModeArg,
        /// How many participants (exactly 2 for `pair`; the orchestrator counts;
        /// 1 to 10,000).
        #[arg(long, allow_negative_numbers = true, value_parser = crate::args::counts_to::<u16>(1, 10_000, "participants"))]
        participants: u16,
        /// How many turns (broadcast rounds in `broadcast`, tasks in `swarm`,
        /// at most this many plan steps with `--plan`; at most 1,000,000,000).
        #[arg(long, allow_negative_numbers = true, value_parser = crate::args::counts_to::<u64>(0, MAX_TURNS, "turns"))]
        turns: u64,
        /// The seed of the simulation.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// A plan whose ready steps drive the turns (`-` reads standard input).
        #[arg(long)]
        plan: Option<String>,
    },
}

/// Runs a `mplp collab` subcommand: exit 0 on success, 1 when the plan or
/// the log is invalid, 2 on usage errors (e.g. `pair` with 3 participants)
/// and I/O errors.
pub(crate) fn run(cmd: CollabCommand) -> ExitCode {
    match cmd {
        CollabCommand::Render { format, log } => render(format, &log),
        CollabCommand::Simulate {
            mode,
            participants,
            turns,
            seed,
            plan,
        } => run_simulate(
            mode.into(),
            usize::from(participants),
            turns,
            seed,
            plan.as_deref(),
        ),
    }
}

fn run_simulate(
    mode: CollabMode,
    participants: usize,
    turns: u64,
    seed: u64,
    plan: Option<&str>,
) -> ExitCode {
    if mode == CollabMode::Pair && participants != 2 {
        eprintln!(
            "mplp collab simulate: `--mode pair` takes exactly 2 participants, not {participants}: pass `--participants 2`"
        );
        return ExitCode::from(2);
    }
    let mut config = SimConfig::new(mode, participants, turns).with_seed(seed);
    if let Some(path) = plan {
        match crate::io::load::<Plan>(path) {
            Ok(p) => config = config.with_plan(p),
            Err(code) => return code,
        }
    }
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let result = simulate(&config, NdjsonSink::new(&mut out));
    let flushed = out.flush();
    match (result, flushed) {
        (Ok(_), Ok(())) => ExitCode::SUCCESS,
        (Err(mplp_collab::runtime::SessionError::Sink(e)), _) | (Ok(_), Err(e)) => {
            eprintln!("mplp: cannot write the event log: {e}");
            ExitCode::from(2)
        }
        (Err(e), _) => {
            eprintln!("mplp: collab simulate: {e}");
            ExitCode::from(1)
        }
    }
}

/// The most findings `mplp collab render` marks on a picture.
const MAX_MARKED: usize = 500;

/// The first [`MAX_MARKED`] findings of a log's validation.
#[derive(Default)]
struct Findings(Vec<mplp_core::Violation>);

impl mplp_check::Sink for Findings {
    fn violation(&mut self, v: mplp_core::Violation) -> std::ops::ControlFlow<()> {
        if self.0.len() < MAX_MARKED {
            self.0.push(v);
        }
        std::ops::ControlFlow::Continue(())
    }
}

/// `mplp collab render`: reads the log line by line (streamed), draws the
/// events that parse; a log read from a file is also validated (the one
/// dispatch, as `mplp validate --kind map-log`, a second streamed pass) and
/// the first [`MAX_MARKED`] findings are marked at their events.
fn render(format: SessionFormat, path: &str) -> ExitCode {
    let reader: Box<dyn std::io::BufRead> = if path == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        match std::fs::File::open(path) {
            Ok(f) => Box::new(std::io::BufReader::new(f)),
            Err(e) => {
                eprintln!("mplp: cannot read `{path}`: {e}");
                return ExitCode::from(2);
            }
        }
    };
    let mut events = Vec::new();
    let mut bad = 0usize;
    for entry in mplp_events::log::LogReader::<_, mplp_events::MapEvent>::new(reader) {
        match entry.event {
            Ok(e) => events.push((entry.line, e)),
            Err(found) => {
                for v in &found {
                    if v.rule == mplp_events::log::LOG_READ_ERROR {
                        eprintln!("mplp: cannot read `{path}`: {}", v.message);
                        return ExitCode::from(2);
                    }
                    eprintln!("{path}:{}: error: {v}", entry.line);
                }
                bad += 1;
            }
        }
    }
    let mut findings = Findings::default();
    if path != "-" {
        // A file that vanished since: drawn without its findings.
        let _ = mplp_check::validate_path(
            Some(&mplp_check::MAP_LOG),
            std::path::Path::new(path),
            &mplp_check::Options::default(),
            &mut findings,
        );
    }
    let text = match format {
        SessionFormat::Mermaid => {
            mplp_collab::render::mermaid_sequence_checked(&events, &findings.0)
        }
        SessionFormat::Svg => mplp_collab::render::svg_sequence_checked(&events, &findings.0),
    };
    let code = crate::io::emit(&text);
    if bad > 0 && code == ExitCode::SUCCESS {
        ExitCode::from(1)
    } else {
        code
    }
}
