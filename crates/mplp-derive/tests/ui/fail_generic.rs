// A generic struct.
#[derive(mplp_core::Wire)]
struct Holder<T> {
    item: T,
}

fn main() {}
