//! `mplp dialog ...` subcommands.
//!
//! ```text
//! mplp dialog convert --to openai|anthropic [--model M] [--max-tokens N] DIALOG.json
//! mplp dialog prune --max-tokens N [--safety-margin M] DIALOG.json
//! mplp dialog fork [--last-n N] [--first-k K | --all] [--node] DIALOG.json
//! mplp dialog send --provider openai|anthropic --base-url URL --model MODEL [--stream] DIALOG.json
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
        #[arg(long, default_value_t = 1024, allow_negative_numbers = true, value_parser = crate::args::counts::<u32>(1, "tokens"))]
        max_tokens: u32,
        /// The dialog document (`-` reads standard input).
        dialog: String,
    },
    /// Print a copy of the dialog pruned to fit a context window: the first
    /// message kept, the most recent ones kept, the oldest partial one cut.
    Prune {
        /// The context window, in tokens (estimated at 4 characters per token).
        #[arg(long, allow_negative_numbers = true, value_parser = crate::args::counts::<usize>(0, "tokens"))]
        max_tokens: usize,
        /// Tokens kept free below the window.
        #[arg(long, default_value_t = DEFAULT_SAFETY_MARGIN, allow_negative_numbers = true, value_parser = crate::args::counts::<usize>(0, "tokens"))]
        safety_margin: usize,
        /// The dialog document (`-` reads standard input).
        dialog: String,
    },
    /// Print a child dialog with the first K and the last N messages (a tool
    /// call and its results are kept or left out together), or with all of
    /// them (`--all`, seed 003's default `fork()`).
    Fork {
        /// Trailing messages to keep.
        #[arg(long, default_value_t = 0, allow_negative_numbers = true, value_parser = crate::args::counts::<usize>(0, "messages"))]
        last_n: usize,
        /// Leading messages to keep (the system prompt is usually first).
        #[arg(long, default_value_t = 1, allow_negative_numbers = true, value_parser = crate::args::counts::<usize>(0, "messages"))]
        first_k: usize,
        /// Keep every message: a full copy (seed 003's `fork()` with its defaults).
        #[arg(long, conflicts_with_all = ["last_n", "first_k"])]
        all: bool,
        /// Print the child's dialog-tree node (ids and structure) instead of the child.
        #[arg(long)]
        node: bool,
        /// The dialog document (`-` reads standard input).
        dialog: String,
    },
    /// Send the dialog to an OpenAI-compatible Chat Completions server or
    /// the Anthropic Messages API, append the reply and print the new
    /// dialog; the usage goes to standard error. The API key is read from
    /// OPENAI_API_KEY or ANTHROPIC_API_KEY (or `--api-key-env`). A dialog the
    /// provider would refuse is not sent (exit 1); an error answer exits 2
    /// with the server's message.
    #[cfg(feature = "http")]
    Send {
        /// The API.
        #[arg(long, value_enum)]
        provider: Provider,
        /// The server: up to the version for OpenAI-compatible servers
        /// (`https://api.openai.com/v1`, `http://localhost:11434/v1`), the
        /// host for Anthropic (`https://api.anthropic.com`).
        #[arg(long)]
        base_url: String,
        /// The model to ask.
        #[arg(long, value_parser = clap::builder::NonEmptyStringValueParser::new())]
        model: String,
        /// Stream the reply (its text is echoed to standard error as it arrives).
        #[arg(long)]
        stream: bool,
        /// The longest reply, in tokens (required by Anthropic; sent to OpenAI only when given).
        #[arg(long, allow_negative_numbers = true, value_parser = crate::args::counts::<u32>(1, "tokens"))]
        max_tokens: Option<u32>,
        /// The environment variable that holds the API key.
        #[arg(long)]
        api_key_env: Option<String>,
        /// Seconds to wait for the reply (for a stream: for each chunk).
        #[arg(long, default_value_t = 60, allow_negative_numbers = true, value_parser = crate::args::counts::<u64>(0, "seconds"))]
        timeout: u64,
        /// Retries on 429, 5xx, timeouts and connection failures.
        #[arg(long, default_value_t = 2, allow_negative_numbers = true, value_parser = crate::args::counts::<u32>(0, "retries"))]
        max_retries: u32,
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
            all,
            node,
            dialog,
        } => with_dialog(&dialog, |d| {
            let (last_n, first_k) = if all {
                (d.messages().len(), 0)
            } else {
                (last_n, first_k)
            };
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
        #[cfg(feature = "http")]
        DialogCommand::Send {
            provider,
            base_url,
            model,
            stream,
            max_tokens,
            api_key_env,
            timeout,
            max_retries,
            dialog,
        } => with_dialog(&dialog, |d| {
            send::send(
                d,
                &send::SendArgs {
                    provider,
                    base_url,
                    model,
                    stream,
                    max_tokens,
                    api_key_env,
                    timeout,
                    max_retries,
                },
            )
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

#[cfg(feature = "http")]
mod send {
    use std::io::Write;
    use std::time::Duration;

    use mplp_dialog::Dialog;
    use mplp_dialog::agent::AgentDialog;
    use mplp_dialog::agent::client::{
        ApiKey, Backoff, BlockingChatClient, ChatConfig, ChatError, Delta, Provider as Api,
    };

    use super::Provider;

    /// The options of `mplp dialog send`.
    pub(super) struct SendArgs {
        pub(super) provider: Provider,
        pub(super) base_url: String,
        pub(super) model: String,
        pub(super) stream: bool,
        pub(super) max_tokens: Option<u32>,
        pub(super) api_key_env: Option<String>,
        pub(super) timeout: u64,
        pub(super) max_retries: u32,
    }

    /// Sends `dialog` and returns the new dialog's JSON, or the exit status
    /// and message: 1 when the dialog cannot be sent as it is, 2 when the
    /// server refuses it or cannot be reached.
    pub(super) fn send(dialog: &Dialog, args: &SendArgs) -> Result<String, (u8, String)> {
        let read = AgentDialog::from_mplp(dialog).map_err(|e| (1, e.to_string()))?;
        let mut agent = read.dialog;
        let (api, key_env) = match args.provider {
            Provider::Openai => (Api::Openai, "OPENAI_API_KEY"),
            Provider::Anthropic => (Api::Anthropic, "ANTHROPIC_API_KEY"),
        };
        let key_env = args.api_key_env.as_deref().unwrap_or(key_env);
        let mut config = ChatConfig::new(api, args.base_url.clone(), args.model.clone())
            .with_timeout(Duration::from_secs(args.timeout))
            .with_retries(args.max_retries, Backoff::default());
        if let Some(key) = ApiKey::from_env(key_env) {
            config = config.with_api_key(key);
        }
        if let Some(m) = args.max_tokens {
            config = config.with_max_tokens(m);
        }
        let client = BlockingChatClient::new(config).map_err(|e| (2, e.to_string()))?;
        // Refused before anything is sent.
        client
            .client()
            .request_body(&agent, args.stream)
            .map_err(|e| (1, e.to_string()))?;
        let result = if args.stream {
            let mut err = std::io::stderr();
            let r = client.send_streaming(&mut agent, |delta, _| {
                if let Delta::Text(t) = delta {
                    let _ = err.write_all(t.as_bytes());
                    let _ = err.flush();
                }
            });
            eprintln!();
            r
        } else {
            client.send(&mut agent)
        };
        let reply = result.map_err(|e| match e {
            ChatError::Refused(_) | ChatError::NotActive(_) => (1, e.to_string()),
            ChatError::Status {
                status, message, ..
            } => (2, format!("the server answered {status}: {message}")),
            other => (2, other.to_string()),
        })?;
        let usage = reply.usage.unwrap_or_default();
        let mut line = format!(
            "usage: {} input tokens ({} cached), {} output tokens; model {}",
            usage.input_tokens,
            usage.cache_read_tokens,
            usage.output_tokens,
            agent.messages()[reply.index]
                .model
                .as_deref()
                .unwrap_or(&args.model),
        );
        if let Some(c) = reply.cost_usd {
            line.push_str(&format!("; ${c:.6}"));
        }
        if !reply.tool_calls.is_empty() {
            let names: Vec<&str> = reply.tool_calls.iter().map(|c| c.name.as_str()).collect();
            line.push_str(&format!("; tool calls: {}", names.join(", ")));
        }
        eprintln!("{line}");
        Ok(mplp_core::Document::to_json_pretty(&agent.to_mplp()))
    }
}
