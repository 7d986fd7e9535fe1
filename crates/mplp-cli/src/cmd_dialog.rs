//! `mplp dialog ...` subcommands.
//!
//! ```text
//! mplp dialog convert --to openai|anthropic [--model M] [--max-tokens N] DIALOG.json
//! mplp dialog prune --max-tokens N [--safety-margin M] DIALOG.json
//! mplp dialog fork [--last-n N] [--first-k K] [--node] DIALOG.json
//! mplp dialog overview DIALOG.json
//! ```
//!
//! Every subcommand reads one dialog (`-` for standard input), prints its
//! warnings to standard error, and exits 0 on success, 1 when the dialog is
//! invalid or cannot be converted, 2 on usage and I/O errors.

use std::process::ExitCode;

use mplp_core::Document;
use mplp_dialog::{
    ContextManager, DEFAULT_SAFETY_MARGIN, DefaultContextManager, Dialog, DialogTree,
};

/// The provider request formats of `mplp dialog convert`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Provider {
    /// An OpenAI chat-completions request body (`agent` becomes `assistant`).
    Openai,
    /// An Anthropic Messages request body (system prompt on top, roles alternating).
    Anthropic,
}

/// Subcommands of `mplp dialog`.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum DialogCommand {
    /// Print the LLM provider request body for a dialog.
    Convert {
        /// The provider format.
        #[arg(long, value_enum)]
        to: Provider,
        /// The model to name in the request (default: gpt-4o for OpenAI,
        /// claude-sonnet-4-5 for Anthropic; never empty).
        #[arg(long, value_parser = clap::builder::NonEmptyStringValueParser::new())]
        model: Option<String>,
        /// Anthropic's required `max_tokens` (the longest reply allowed; at least 1).
        #[arg(long, default_value_t = 1024, value_parser = clap::value_parser!(u32).range(1..))]
        max_tokens: u32,
        /// The dialog document (`-` reads standard input).
        dialog: String,
    },
    /// Print a copy of the dialog pruned to fit a context window: the first
    /// message kept, the most recent ones kept, the oldest partial one cut.
    Prune {
        /// The context window, in tokens (estimated at 4 characters per token).
        #[arg(long)]
        max_tokens: usize,
        /// Tokens kept free below the window.
        #[arg(long, default_value_t = DEFAULT_SAFETY_MARGIN)]
        safety_margin: usize,
        /// The dialog document (`-` reads standard input).
        dialog: String,
    },
    /// Print a child dialog with the first K and the last N messages.
    Fork {
        /// Trailing messages to keep.
        #[arg(long, default_value_t = 0)]
        last_n: usize,
        /// Leading messages to keep (the system prompt is usually first).
        #[arg(long, default_value_t = 1)]
        first_k: usize,
        /// Print the child's dialog-tree node (ids and structure) instead of the child.
        #[arg(long)]
        node: bool,
        /// The dialog document (`-` reads standard input).
        dialog: String,
    },
    /// Print a readable transcript of the dialog.
    Overview {
        /// The dialog document (`-` reads standard input).
        dialog: String,
    },
}

/// Runs a `mplp dialog` subcommand.
pub(crate) fn run(cmd: DialogCommand) -> ExitCode {
    match cmd {
        DialogCommand::Convert {
            to,
            model,
            max_tokens,
            dialog,
        } => with_dialog(&dialog, |d| convert(d, to, model, max_tokens)),
        DialogCommand::Prune {
            max_tokens,
            safety_margin,
            ..
        } if safety_margin >= max_tokens => {
            let default = if safety_margin == DEFAULT_SAFETY_MARGIN {
                " (the default)"
            } else {
                ""
            };
            eprintln!(
                "mplp dialog prune: the safety margin of {}{default} leaves nothing of a window of {}: \
                 pass a smaller `--safety-margin` (for example `--safety-margin {}`) or a larger `--max-tokens`",
                mplp_core::text::count(safety_margin, "token"),
                mplp_core::text::count(max_tokens, "token"),
                max_tokens / 10,
            );
            ExitCode::from(2)
        }
        DialogCommand::Prune {
            max_tokens,
            safety_margin,
            dialog,
        } => with_dialog(&dialog, |d| {
            let manager = DefaultContextManager::new(max_tokens).with_safety_margin(safety_margin);
            match manager.prune(d) {
                Ok(pruned) => Ok(pruned.to_json_pretty()),
                Err(e) => Err((2, e.to_string())),
            }
        }),
        DialogCommand::Fork {
            last_n,
            first_k,
            node,
            dialog,
        } => with_dialog(&dialog, |d| {
            let mut tree = DialogTree::new();
            let child = tree
                .fork(d, last_n, first_k)
                .map_err(|e| (1, e.to_string()))?;
            if node {
                let node = tree
                    .node(&child.dialog_id)
                    .ok_or_else(|| (1, "the fork was not recorded".to_owned()))?;
                serde_json::to_string(node).map_err(|e| (2, e.to_string()))
            } else {
                Ok(child.to_json_pretty())
            }
        }),
        DialogCommand::Overview { dialog } => with_dialog(&dialog, |d| {
            let mut text = d.overview();
            if text.ends_with('\n') {
                text.pop();
            }
            Ok(text)
        }),
    }
}

fn convert(
    dialog: &Dialog,
    to: Provider,
    model: Option<String>,
    max_tokens: u32,
) -> Result<String, (u8, String)> {
    let body = match to {
        Provider::Openai => dialog
            .to_openai_request(model.unwrap_or_else(|| "gpt-4o".to_owned()))
            .map(|r| serde_json::to_string_pretty(&r)),
        Provider::Anthropic => dialog
            .to_anthropic_request(
                model.unwrap_or_else(|| "claude-sonnet-4-5".to_owned()),
                max_tokens,
            )
            .map(|r| serde_json::to_string_pretty(&r)),
    };
    match body {
        Ok(Ok(json)) => Ok(json),
        Ok(Err(e)) => Err((2, format!("cannot write the request: {e}"))),
        Err(e) => Err((1, e.to_string())),
    }
}

/// Reads and validates the dialog at `path`, then prints what `action`
/// returns, or its error with the given exit status.
fn with_dialog(
    path: &str,
    action: impl FnOnce(&Dialog) -> Result<String, (u8, String)>,
) -> ExitCode {
    let dialog: Dialog = match crate::io::load(path) {
        Ok(d) => d,
        Err(code) => return code,
    };
    match action(&dialog) {
        Ok(mut text) => {
            text.push('\n');
            crate::io::emit(&text)
        }
        Err((code, message)) => {
            eprintln!("mplp: {path}: {message}");
            ExitCode::from(code)
        }
    }
}
