// A `tag` with no `#[wire(tagged)]` field.
#[derive(mplp_core::Wire)]
#[wire(tag = "event_type")]
struct Event {
    id: String,
    payload: mplp_core::JsonObject,
}

fn main() {}
