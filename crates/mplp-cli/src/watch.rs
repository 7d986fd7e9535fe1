//! `mplp watch`: validates a MAP or SA log while it is being written.
//!
//! The log comes from standard input (`-`) or a file; with `--follow` the
//! file is read like `tail -f`: at its end, `watch` waits for more. The log
//! goes through the one dispatch of `mplp validate`
//! (`mplp_check::validate_source`, as a log source), and each
//! violation is printed (and flushed) as soon as it is found, in
//! `validate`'s text or JSON format. What a log leaves open (sessions,
//! turns, runs) is judged only when the log ends: when standard input
//! closes, or when no new line has come for `--idle-timeout` seconds; then
//! it is an error, or with `--partial` a warning.
//!
//! A line is read only once it is complete, so a writer that appends half a
//! line and the rest later is read correctly.

use std::fs::File;
use std::io::{BufReader, Cursor, Read, Write};
use std::process::ExitCode;
use std::sync::mpsc::{Receiver, RecvTimeoutError, sync_channel};
use std::time::{Duration, Instant};

use crate::report::{FileReport, Limit};
use crate::validate::{Format, ProfileArg};

/// How often a followed file is looked at for new data.
const POLL: Duration = Duration::from_millis(100);

/// Which validator reads the log.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum WatchKind {
    /// From the first event: `SA...` is an SA log, anything else a MAP log.
    Auto,
    /// A MAP (multi-agent session) log.
    #[value(name = "map-log")]
    MapLog,
    /// An SA (single-agent) log.
    #[value(name = "sa-log")]
    SaLog,
}

/// Arguments of `mplp watch`.
#[derive(Debug, clap::Args)]
pub(crate) struct WatchArgs {
    /// The kind of log.
    #[arg(long, value_enum, default_value = "auto")]
    kind: WatchKind,
    /// Output format (as `mplp validate`'s; JSON is written and flushed as
    /// violations are found).
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// Which rules are errors: `strict` (the SDK's rules) or `canonical`.
    #[arg(long, value_enum, default_value = "strict")]
    profile: ProfileArg,
    /// Read FILE like `tail -f`: at its end, wait for more.
    #[arg(long)]
    follow: bool,
    /// End the log after this many seconds without a new line (then what it
    /// leaves open is judged). Without it, a followed file is watched until
    /// `watch` is stopped, and standard input until it closes.
    #[arg(long, value_name = "SECONDS")]
    idle_timeout: Option<f64>,
    /// What the log leaves open when it ends is a warning, not an error.
    #[arg(long, alias = "in-progress")]
    partial: bool,
    /// The log: a file, `-` for standard input, or `nats://HOST:PORT` (with
    /// SUBJECT; needs the `nats` feature).
    #[arg(value_name = "LOG")]
    log: String,
    /// With `nats://`: the subject to watch (wildcards allowed). A JetStream
    /// stream that stores it is read from its first message on; otherwise
    /// the messages published from now on.
    #[arg(value_name = "SUBJECT")]
    subject: Option<String>,
}

/// Runs `mplp watch`: 0 when the log is valid, 1 when it is not, 2 when it
/// cannot be read or the output cannot be written.
pub(crate) fn run(args: &WatchArgs) -> ExitCode {
    let idle = match args.idle_timeout {
        None => None,
        Some(s) if s.is_finite() && s > 0.0 => Some(Duration::from_secs_f64(s)),
        Some(s) => {
            eprintln!("mplp watch: --idle-timeout {s}: expected a positive number of seconds");
            return ExitCode::from(2);
        }
    };
    let nats = args.log.starts_with("nats://");
    if nats != args.subject.is_some() {
        eprintln!("mplp watch: SUBJECT goes with a nats://HOST:PORT log, and only with one");
        return ExitCode::from(2);
    }
    let (name, source): (String, Box<dyn Read>) = if args.log == "-" {
        let chunks = read_in_thread(std::io::stdin());
        ("-".to_owned(), Box::new(Idle::new(chunks, idle)))
    } else if let (true, Some(subject)) = (nats, &args.subject) {
        match nats_source(&args.log, subject) {
            Ok(chunks) => (
                format!("{} {subject}", args.log),
                Box::new(Idle::new(chunks, idle)),
            ),
            Err(message) => {
                eprintln!("mplp watch: {message}");
                return ExitCode::from(2);
            }
        }
    } else {
        match File::open(&args.log) {
            Ok(file) if args.follow => (args.log.clone(), Box::new(Tail::new(file, idle))),
            Ok(file) => (args.log.clone(), Box::new(file)),
            Err(e) => {
                eprintln!("mplp watch: cannot read `{}`: {e}", args.log);
                return ExitCode::from(2);
            }
        }
    };
    let reader = BufReader::with_capacity(1 << 16, source);
    let kind = match args.kind {
        WatchKind::Auto => None,
        WatchKind::MapLog => Some(&mplp_check::MAP_LOG),
        WatchKind::SaLog => Some(&mplp_check::SA_LOG),
    };
    let options = mplp_check::Options::default()
        .profile(args.profile.profile())
        .partial(args.partial);
    let mut out = Flushed(std::io::stdout().lock());
    let mut report = FileReport::new(
        &mut out,
        args.format == Format::Json,
        "watch",
        name.clone(),
        Limit::All,
    );
    // The kind comes from the first event, waited for until its line is
    // complete; `Break` stops the reading when the output fails, and the
    // outcome says so (`write_failed`), as in `mplp validate`.
    let _ = mplp_check::validate_source(
        kind,
        mplp_check::Source::log(&name, reader),
        &options,
        &mut report,
    );
    match report.finish() {
        Ok(outcome) if !outcome.write_failed => {
            ExitCode::from(u8::from(outcome.errors > 0 || outcome.unreadable))
        }
        _ => {
            eprintln!("mplp watch: cannot write the output (standard output closed or full)");
            ExitCode::from(2)
        }
    }
}

/// Says on standard error why the log is taken as ended.
fn ended_idle(idle: Duration) {
    eprintln!(
        "mplp watch: no new data for {:.1} s (--idle-timeout): the log is judged as ended",
        idle.as_secs_f64()
    );
}

/// Standard output flushed after every write, so each violation is seen as
/// soon as it is found.
struct Flushed<W: Write>(W);

impl<W: Write> Write for Flushed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.write_all(buf)?;
        self.0.flush()?;
        Ok(buf.len())
    }

    /// Nothing to do: every write has flushed already.
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A file read like `tail -f`: at its end, waits (polling) for more; ends
/// after `idle` without new data, or never.
struct Tail {
    file: File,
    idle: Option<Duration>,
    last: Instant,
}

impl Tail {
    fn new(file: File, idle: Option<Duration>) -> Self {
        Tail {
            file,
            idle,
            last: Instant::now(),
        }
    }
}

impl Read for Tail {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.file.read(buf)?;
            if n > 0 || buf.is_empty() {
                self.last = Instant::now();
                return Ok(n);
            }
            if let Some(idle) = self.idle.filter(|idle| self.last.elapsed() >= *idle) {
                ended_idle(idle);
                return Ok(0);
            }
            std::thread::sleep(POLL);
        }
    }
}

/// A reader fed by a thread, so that a blocking source (standard input)
/// can end after `idle` without data.
struct Idle {
    chunks: Chunks,
    idle: Option<Duration>,
    pending: Cursor<Vec<u8>>,
    done: bool,
}

/// Chunks of bytes (or the error that ended them) from a producer thread;
/// the channel closing is the end of the data.
type Chunks = Receiver<std::io::Result<Vec<u8>>>;

/// Reads `source` in a thread of its own, chunk by chunk.
fn read_in_thread(mut source: impl Read + Send + 'static) -> Chunks {
    let (send, chunks) = sync_channel(4);
    std::thread::spawn(move || {
        loop {
            let mut buf = vec![0u8; 1 << 16];
            let sent = match source.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    buf.truncate(n);
                    send.send(Ok(buf))
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => send.send(Err(e)),
            };
            if sent.is_err() {
                break;
            }
        }
    });
    chunks
}

impl Idle {
    fn new(chunks: Chunks, idle: Option<Duration>) -> Self {
        Idle {
            chunks,
            idle,
            pending: Cursor::new(Vec::new()),
            done: false,
        }
    }
}

impl Read for Idle {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let n = self.pending.read(buf)?;
            if n > 0 || buf.is_empty() || self.done {
                return Ok(n);
            }
            let next = match self.idle {
                Some(idle) => self.chunks.recv_timeout(idle),
                None => self
                    .chunks
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
            };
            match next {
                Ok(chunk) => self.pending = Cursor::new(chunk?),
                Err(RecvTimeoutError::Timeout) => {
                    ended_idle(self.idle.unwrap_or_default());
                    self.done = true;
                }
                Err(RecvTimeoutError::Disconnected) => self.done = true,
            }
        }
    }
}

/// The messages on `subject` of the NATS server at `url`, one line each:
/// from a JetStream stream that stores the subject (from its first message,
/// with an ordered consumer), or else as they are published.
#[cfg(feature = "nats")]
fn nats_source(url: &str, subject: &str) -> Result<Chunks, String> {
    use async_nats::jetstream::consumer::pull::OrderedConfig;
    use futures_util::StreamExt;

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the NATS client: {e}"))?;
    let client = runtime
        .block_on(async_nats::connect(url))
        .map_err(|e| format!("cannot connect to `{url}`: {e}"))?;
    let (send, chunks) = sync_channel::<std::io::Result<Vec<u8>>>(64);
    let subject = subject.to_owned();
    std::thread::spawn(move || {
        let line = |payload: &[u8]| {
            let mut line = payload.to_vec();
            line.push(b'\n');
            Ok(line)
        };
        let broken = |e: &dyn std::fmt::Display| Err(std::io::Error::other(e.to_string()));
        runtime.block_on(async move {
            let js = async_nats::jetstream::new(client.clone());
            if let Ok(name) = js.stream_by_subject(subject.as_str()).await {
                // The default delivery policy is `All`: from the first message.
                let config = OrderedConfig {
                    filter_subject: subject.clone(),
                    ..Default::default()
                };
                let messages = match js.get_stream(&name).await {
                    Ok(stream) => match stream.create_consumer(config).await {
                        Ok(consumer) => consumer.messages().await.map_err(|e| broken(&e)),
                        Err(e) => Err(broken(&e)),
                    },
                    Err(e) => Err(broken(&e)),
                };
                let mut messages = match messages {
                    Ok(m) => m,
                    Err(e) => {
                        let _ = send.send(e);
                        return;
                    }
                };
                while let Some(message) = messages.next().await {
                    let chunk = match message {
                        Ok(m) => line(&m.payload),
                        Err(e) => broken(&e),
                    };
                    if send.send(chunk).is_err() {
                        return;
                    }
                }
            } else {
                let mut messages = match client.subscribe(subject).await {
                    Ok(s) => s,
                    Err(e) => {
                        let _ = send.send(broken(&e));
                        return;
                    }
                };
                while let Some(m) = messages.next().await {
                    if send.send(line(&m.payload)).is_err() {
                        return;
                    }
                }
            }
        });
    });
    Ok(chunks)
}

/// Without the `nats` feature: a message saying how to get it.
#[cfg(not(feature = "nats"))]
fn nats_source(url: &str, _subject: &str) -> Result<Chunks, String> {
    Err(without_nats(url))
}

/// What `mplp watch nats://…` says when built without the `nats` feature:
/// how to build one with it. mplp-cli is not on crates.io, so the way is a
/// clone of the repository (`cargo install mplp-cli` would fail).
#[cfg_attr(feature = "nats", allow(dead_code))]
fn without_nats(url: &str) -> String {
    format!(
        "`{url}`: this mplp was built without NATS; build one with it from a clone of the \
         mplp-rs repository: `cargo install --path crates/mplp-cli --features nats`"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn without_nats_the_message_names_a_command_that_works_before_publication() {
        let m = without_nats("nats://127.0.0.1:4222");
        assert!(
            m.starts_with("`nats://127.0.0.1:4222`: this mplp was built without NATS"),
            "{m}"
        );
        assert!(
            m.contains("`cargo install --path crates/mplp-cli --features nats`"),
            "{m}"
        );
        assert!(!m.contains("install mplp-cli"), "{m}");
    }

    /// A reader that is interrupted once, gives `abc`, fails, then ends.
    struct Bumpy(u8);

    impl Read for Bumpy {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            self.0 += 1;
            match self.0 {
                1 => Err(std::io::ErrorKind::Interrupted.into()),
                2 => {
                    buf[..3].copy_from_slice(b"abc");
                    Ok(3)
                }
                3 => Err(std::io::Error::other("boom")),
                _ => Ok(0),
            }
        }
    }

    #[test]
    fn the_reading_thread_retries_an_interruption_and_passes_other_errors_on() {
        let chunks = read_in_thread(Bumpy(0));
        assert_eq!(chunks.recv().unwrap().unwrap(), b"abc");
        assert_eq!(chunks.recv().unwrap().unwrap_err().to_string(), "boom");
        assert!(
            chunks.recv().is_err(),
            "the end of the data closes the channel"
        );
    }
}
