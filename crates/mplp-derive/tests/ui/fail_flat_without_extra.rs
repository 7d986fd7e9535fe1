// A flattened body without an extra map to take its members from.
#[derive(mplp_core::Wire)]
#[wire(tag = "family")]
struct Event {
    id: String,
    #[wire(tagged, flatten)]
    body: mplp_core::JsonObject,
}

fn main() {}
