//! Prints the compat-policy table (`mplp_core::policy::RULES`) as Markdown,
//! for `docs/spec-notes.md` ("Compat policy", between the rule-table markers).
//!
//! `cargo run -q -p mplp-core --example policy_table`

fn main() {
    print!("{}", mplp_core::policy::markdown_table());
}
