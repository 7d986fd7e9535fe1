// A `#[wire(tagged)]` payload without the envelope's `tag`.
#[derive(mplp_core::Wire)]
struct Event {
    id: String,
    #[wire(tagged)]
    payload: mplp_core::JsonObject,
}

fn main() {}
