//! Checks over the whole workspace: the dependency direction of DESIGN.md (from
//! `cargo metadata`) and the source rules of `ci::tidy` (module docs, heavy crates in
//! their module, one module layout, long functions explained, no module circles).

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

#[test]
fn one_module_layout() {
    let found = ci::tidy::files_beside_their_folder(&ci::workspace_root());
    assert!(
        found.is_empty(),
        "modules written as `name.rs` beside a `name/` folder (move them to `name/mod.rs`):\n{}",
        found.join("\n")
    );
}

#[test]
fn every_long_function_says_why_it_is_long() {
    let found = ci::tidy::long::long_functions(&ci::workspace_root());
    let unexplained: Vec<String> = found
        .iter()
        .filter(|f| !f.explained)
        .map(ToString::to_string)
        .collect();
    assert!(
        unexplained.is_empty(),
        "functions over {} lines whose doc does not say why they are long (cut them where \
         they divide, or add a sentence with \"long because\"):\n{}",
        ci::tidy::long::MOST_LINES,
        unexplained.join("\n")
    );
}

#[test]
fn no_module_circles() {
    let found = ci::tidy::circle::unexempted_module_circles(&ci::workspace_root());
    let found: Vec<String> = found.iter().map(ToString::to_string).collect();
    assert!(
        found.is_empty(),
        "modules that use each other in a circle (cut it, or name it in \
         ci::tidy::circle::EXEMPT with the reason):\n{}",
        found.join("\n")
    );
}
