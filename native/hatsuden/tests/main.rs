//! The rules crate's integration tests, in one test binary (`cargo test -p hatsuden --test
//! rules`): each file of this folder is a module of it. One binary links the crate once where a
//! binary per file linked it six times; `make mutation-native` builds it for every mutant
//! (MUTATION.md, "Rust rules crate"), so the link is paid thousands of times.
//!
//! `autotests = false` (Cargo.toml) stops Cargo from also building each file as a binary of its
//! own; `every_file_of_the_folder_is_a_module` makes sure a new file is not left out silently.

mod accessors;
mod adapter_requests;
mod api;
mod ascii_tokens;
mod capacity;
mod conformance;
mod documents;
mod golden;
mod json_reader;
mod learning_recall;
mod positions_and_records;
mod robust;
mod sampling;

/// A test file added to `tests/` without a `mod` line here would never run: fail instead.
#[test]
fn every_file_of_the_folder_is_a_module() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let main = std::fs::read_to_string(dir.join("main.rs")).expect("tests/main.rs");
    for entry in std::fs::read_dir(&dir).expect("the tests folder") {
        let path = entry.expect("a directory entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_owned();
        if path.extension().is_some_and(|e| e == "rs") && name != "main" {
            assert!(main.contains(&format!("\nmod {name};\n")), "tests/{name}.rs is not declared in tests/main.rs");
        }
    }
}
