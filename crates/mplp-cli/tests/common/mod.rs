//! Helpers shared by the end-to-end tests: running `mplp` from the repository root.
// Each test binary uses a part of them.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// Runs `mplp` with `args` and an empty standard input.
pub(crate) fn mplp(args: &[&str]) -> Output {
    mplp_stdin(args, b"")
}

/// Runs `mplp` with `args`, writing `input` to its standard input.
pub(crate) fn mplp_stdin(args: &[&str], input: &[u8]) -> Output {
    let mut command = Command::new(env!("CARGO_BIN_EXE_mplp"));
    command.args(args).current_dir(repo());
    output_with_stdin(command, input)
}

/// Runs `command` to its end, writing `input` to its standard input and
/// collecting its standard output and error. The input is written from a
/// thread of its own while the outputs are read: written first, a command
/// that answers before it has read all of its input (a usage error, or a
/// report streamed as the input comes) would block on a full output pipe
/// while the test blocks on its full input pipe.
pub(crate) fn output_with_stdin(mut command: Command, input: &[u8]) -> Output {
    let mut child = command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    std::thread::scope(|s| {
        s.spawn(move || {
            // The command may exit before reading (usage errors): ignore a closed pipe.
            let _ = stdin.write_all(input);
        });
        child.wait_with_output().unwrap()
    })
}

/// Runs `mplp` with `args` and a standard output that cannot be written
/// (`/dev/full`: every write fails with "no space left on device").
pub(crate) fn mplp_to_full_device(args: &[&str]) -> Output {
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .unwrap();
    Command::new(env!("CARGO_BIN_EXE_mplp"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::null())
        .stdout(full)
        .output()
        .unwrap()
}

/// The repository root.
pub(crate) fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Standard output, lossily decoded.
pub(crate) fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Standard error, lossily decoded.
pub(crate) fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts the exit status (showing both streams when it differs) and that
/// nothing panicked.
pub(crate) fn assert_exit(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "stdout:\n{}\nstderr:\n{}",
        stdout(o),
        stderr(o)
    );
    assert!(!stderr(o).contains("panicked"), "{}", stderr(o));
}
