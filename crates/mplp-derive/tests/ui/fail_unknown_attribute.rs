// A misspelt struct attribute.
#[derive(mplp_core::Wire)]
#[wire(documnet)]
struct Note {
    title: String,
}

fn main() {}
