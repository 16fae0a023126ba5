//! Checks over the whole workspace: the dependency direction of DESIGN.md (from
//! `cargo metadata`) and that every Rust file carries a module doc.

#[test]
fn dependency_direction_follows_the_design() {
    let root = ci::workspace_root();
    let graph = ci::arch::load(&root).expect("cargo metadata");
    let known = ci::arch::CRATES.iter().map(|rule| rule.name);
    for name in known.chain(ci::arch::EXEMPT.iter().copied()) {
        assert!(
            graph.members.contains(name),
            "workspace member {name} is missing"
        );
    }
    let bad = ci::arch::violations(&graph);
    assert!(
        bad.is_empty(),
        "architecture violations:\n{}",
        bad.join("\n")
    );
}

#[test]
fn every_rust_file_has_a_module_doc() {
    let missing = ci::tidy::missing_module_docs(&ci::workspace_root());
    assert!(
        missing.is_empty(),
        "files without a `//!` module doc:\n{}",
        missing.join("\n")
    );
}

#[test]
fn heavy_crates_stay_in_their_module() {
    let found = ci::tidy::heavy_crates_outside_their_module(&ci::workspace_root());
    assert!(
        found.is_empty(),
        "heavy crates named outside their module (see ci::arch::HEAVY):\n{}",
        found.join("\n")
    );
}
