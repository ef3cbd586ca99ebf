//! The shipped `zkforge` command (default features) links no peer library: blst, arkworks,
//! halo2curves and Plonky3 belong to the `bench` feature only (issue 16).

#[test]
fn default_build_links_no_peer_crate() {
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::process::Command::new(cargo)
        .current_dir(&root)
        .args(["tree", "-p", "zkforge-cli", "--edges", "normal", "--prefix", "none", "--offline"])
        .output()
        .expect("run cargo tree");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.contains("zkforge-hashsig"), "{tree}");
    for peer in ["blst", "ark-ff", "ark-ec", "halo2curves", "p3-koala-bear", "zkforge-bench"] {
        assert!(!tree.lines().any(|l| l.starts_with(&format!("{peer} "))), "the default zkforge links {peer}:\n{tree}");
    }
    // and the bench feature does bring them in (the check above looks at the right names)
    let out = std::process::Command::new(cargo)
        .current_dir(&root)
        .args(["tree", "-p", "zkforge-cli", "--features", "bench", "--edges", "normal", "--prefix", "none", "--offline"])
        .output()
        .expect("run cargo tree");
    let tree = String::from_utf8_lossy(&out.stdout);
    assert!(tree.lines().any(|l| l.starts_with("blst ")), "{tree}");
}
