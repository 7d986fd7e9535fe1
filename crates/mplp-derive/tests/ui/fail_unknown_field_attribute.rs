// A misspelt field attribute.
#[derive(mplp_core::Wire)]
struct Note {
    #[wire(renam = "name")]
    title: String,
}

fn main() {}
