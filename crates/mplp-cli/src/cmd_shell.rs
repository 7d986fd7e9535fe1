//! `mplp completions SHELL` and `mplp man`: the shell completion script and
//! the manual pages, both generated from the same clap declaration as the
//! parser itself (`clap_complete`, `clap_mangen`), so they cannot drift
//! from the options the command accepts.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::CommandFactory;
use clap_complete::Shell;

/// Arguments of `mplp completions`.
#[derive(Debug, clap::Args)]
pub(crate) struct CompletionsArgs {
    /// The shell to write the completion script for. Bash:
    /// `mplp completions bash > ~/.local/share/bash-completion/completions/mplp`;
    /// zsh: into a directory of `$fpath` as `_mplp`; fish:
    /// `~/.config/fish/completions/mplp.fish`.
    #[arg(value_enum)]
    shell: Shell,
}

/// Arguments of `mplp man`.
#[derive(Debug, clap::Args)]
pub(crate) struct ManArgs {
    /// Write one page per command (`mplp.1`, `mplp-validate.1`,
    /// `mplp-plan-render.1`, ...) into this directory instead of printing
    /// `mplp.1` to standard output.
    #[arg(long, value_name = "DIR")]
    out_dir: Option<PathBuf>,
}

/// Prints the completion script of `shell`.
pub(crate) fn completions(args: &CompletionsArgs) -> ExitCode {
    let mut cmd = crate::Cli::command();
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut cmd, "mplp", &mut out);
    crate::io::emit(&String::from_utf8_lossy(&out))
}

/// Prints `mplp.1`, or writes every page into `--out-dir`.
pub(crate) fn man(args: &ManArgs) -> ExitCode {
    let cmd = crate::Cli::command();
    if let Some(dir) = &args.out_dir {
        let written =
            std::fs::create_dir_all(dir).and_then(|()| clap_mangen::generate_to(cmd, dir));
        return match written {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!(
                    "mplp man: cannot write the pages into `{}`: {e}",
                    dir.display()
                );
                ExitCode::from(2)
            }
        };
    }
    let mut out = Vec::new();
    if let Err(e) = clap_mangen::Man::new(cmd).render(&mut out) {
        eprintln!("mplp man: cannot render the page: {e}");
        return ExitCode::from(2);
    }
    crate::io::emit(&String::from_utf8_lossy(&out))
}
