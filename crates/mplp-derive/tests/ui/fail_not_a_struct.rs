// An enum, and a tuple struct.
#[derive(mplp_core::Wire)]
enum Status {
    Open,
}

#[derive(mplp_core::Wire)]
struct Pair(String, String);

fn main() {}
