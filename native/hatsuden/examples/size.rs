//! Prints the sizes of the compact state and its parts (docs/native.md quotes them).
fn main() {
    println!(
        "State {} bytes (Stack {}, Log {}, Move {})",
        std::mem::size_of::<hatsuden::State>(),
        std::mem::size_of::<hatsuden::Stack>(),
        std::mem::size_of::<hatsuden::Log>(),
        std::mem::size_of::<hatsuden::Move>()
    );
}
