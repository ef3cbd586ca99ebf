//! Writes `data/mainnet_setup.bin`, the fast-load form of the mainnet setup that
//! `KzgSettings::mainnet` reads, from `data/trusted_setup.txt` (every point decoded and
//! subgroup-checked, FK20's transformed setup computed). The crate's test
//! `embedded_setup_equals_the_text_file` fails when the two disagree.
//!
//! `cargo run --release -p zkforge-kzg --example embed_setup`

fn main() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data");
    let text = std::fs::read_to_string(format!("{dir}/trusted_setup.txt")).expect("data/trusted_setup.txt");
    let bytes = zkforge_kzg::embedded_from_text(&text).expect("the text setup is valid");
    std::fs::write(format!("{dir}/mainnet_setup.bin"), &bytes).expect("write data/mainnet_setup.bin");
    println!("wrote {dir}/mainnet_setup.bin ({} bytes)", bytes.len());
}
