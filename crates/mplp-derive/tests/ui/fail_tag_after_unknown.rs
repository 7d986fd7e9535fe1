// `tag_after` naming no member.
#[derive(mplp_core::Wire)]
#[wire(tag = "event_type", tag_after = "event_id")]
struct Event {
    id: String,
    #[wire(tagged)]
    payload: mplp_core::JsonObject,
}

fn main() {}
