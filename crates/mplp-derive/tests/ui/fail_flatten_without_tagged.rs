// `flatten` without `tagged`.
#[derive(mplp_core::Wire)]
struct Event {
    #[wire(flatten)]
    body: mplp_core::JsonObject,
}

fn main() {}
