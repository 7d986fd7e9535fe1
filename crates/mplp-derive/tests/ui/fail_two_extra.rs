// Two extra maps.
#[derive(mplp_core::Wire)]
struct Note {
    #[wire(extra)]
    a: mplp_core::JsonObject,
    #[wire(extra)]
    b: mplp_core::JsonObject,
}

fn main() {}
