// Two `#[wire(tagged)]` fields for one tag.
#[derive(mplp_core::Wire)]
#[wire(tag = "event_type")]
struct Event {
    #[wire(tagged)]
    payload: mplp_core::JsonObject,
    #[wire(tagged)]
    other: mplp_core::JsonObject,
}

fn main() {}
