// A skipped field with another attribute.
#[derive(mplp_core::Wire)]
struct Note {
    title: String,
    #[wire(skip, default)]
    cache: u8,
}

fn main() {}
