// `tag_after` without a `tag`.
#[derive(mplp_core::Wire)]
#[wire(tag_after = "id")]
struct Event {
    id: String,
}

fn main() {}
