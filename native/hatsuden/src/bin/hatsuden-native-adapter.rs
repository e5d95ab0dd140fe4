//! The conformance adapter: `hatsuden-conformance --adapter hatsuden-native-adapter`.

fn main() {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    if let Err(e) = hatsuden::adapter::serve(stdin.lock(), stdout.lock()) {
        eprintln!("hatsuden-native-adapter: {e}");
        std::process::exit(1);
    }
}
