// A member name JSON writes escaped.
#[derive(mplp_core::Wire)]
struct Note {
    #[wire(rename = "a\"b")]
    title: String,
}

fn main() {}
