// A member whose type has no `CheckValue` (nor a `check = ".."`).
#[derive(mplp_core::Wire)]
struct Note {
    title: String,
    took: std::time::Duration,
}

fn main() {}
