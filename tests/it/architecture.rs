//! The runtime's layers hold: every `crate::`/`super::` path in `mcp-tools/src` names a
//! module of its own layer or a lower one (the order the README's architecture section
//! draws), and no files import each other in a circle.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The top-level modules, lowest layer first.
const LAYERS: &[&str] = &[
    "protocol",
    "content",
    "error",
    "result",
    "context",
    "form",
    "app",
    "tool",
    "completion",
    "prompt",
    "resource",
    "skill",
    "ask",
    "seal",
    "task",
    "registry",
    "discovery",
    "extension",
    "private",
    "middleware",
    "otel",
    "rate",
    "engine",
    "wire_log",
    "transport",
    "oauth",
    "server",
    "export",
    "client",
    "testing",
    "cli",
];

/// A source file and the module path it defines (`engine/tools.rs` is `["engine", "tools"]`).
struct File {
    module: Vec<String>,
    text: String,
}

fn files() -> BTreeMap<String, File> {
    fn walk(dir: &Path, root: &Path, out: &mut BTreeMap<String, File>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, root, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(root).unwrap().to_string_lossy().into_owned();
                let mut module: Vec<String> = relative
                    .trim_end_matches(".rs")
                    .split('/')
                    .map(str::to_owned)
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                let text = std::fs::read_to_string(&path).unwrap();
                // Unit tests may reach anywhere; comments name what they like.
                let text = text.split("#[cfg(test)]").next().unwrap_or_default();
                let text: String = text
                    .lines()
                    .map(|line| line.split("//").next().unwrap_or_default())
                    .collect::<Vec<_>>()
                    .join("\n");
                out.insert(relative, File { module, text });
            }
        }
    }
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp-tools/src");
    let mut out = BTreeMap::new();
    walk(&root, &root, &mut out);
    out
}

/// The files each file names through `crate::`, `super::` and `self::` paths (including
/// grouped `use crate::{a, b}`), resolved to the longest module path that is a file.
fn edges(files: &BTreeMap<String, File>) -> BTreeMap<&str, BTreeSet<&str>> {
    let by_module: BTreeMap<&[String], &str> = files
        .iter()
        .map(|(name, file)| (file.module.as_slice(), name.as_str()))
        .collect();
    let resolve = |path: &[String]| -> Option<&str> {
        (0..=path.len())
            .rev()
            .find_map(|n| by_module.get(&path[..n]).copied())
    };
    let reexports = root_reexports(&files["lib.rs"].text);
    let mut out: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    for (name, file) in files {
        let own = file.module.clone();
        let parent = own[..own.len().saturating_sub(1)].to_vec();
        let base = |keyword: &str| -> Vec<String> {
            match keyword {
                "crate" => Vec::new(),
                "super" => parent.clone(),
                _ => own.clone(),
            }
        };
        let mut targets: Vec<Vec<String>> = Vec::new();
        let bytes = file.text.as_bytes();
        for keyword in ["crate", "super", "self"] {
            let needle = format!("{keyword}::");
            let mut from = 0;
            while let Some(at) = file.text[from..].find(&needle) {
                let start = from + at;
                from = start + needle.len();
                if start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || bytes[start - 1] == b'_') {
                    continue; // part of a longer name, such as `$crate::`
                }
                let rest = &file.text[from..];
                if let Some(group) = rest.strip_prefix('{') {
                    // `use crate::{a::B, c};`: each item's first segment.
                    let group = &group[..group.find("};").unwrap_or(group.len())];
                    for item in group.split(',') {
                        let first = item.trim().split("::").next().unwrap_or_default().trim();
                        if !first.is_empty()
                            && first != "self"
                            && first.chars().all(|c| c.is_alphanumeric() || c == '_')
                        {
                            let mut path = base(keyword);
                            path.push(first.to_owned());
                            targets.push(path);
                        }
                    }
                    continue;
                }
                let segments: Vec<String> = rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap_or_default()
                    .split("::")
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect();
                let mut path = base(keyword);
                path.extend(segments);
                targets.push(path);
            }
        }
        for mut target in targets {
            // Generated code's module is declared as `__private`, from `private/`.
            if target.first().is_some_and(|first| first == "__private") {
                target[0] = "private".to_owned();
            }
            // A path into the crate's root is followed through the root's re-exports
            // (`crate::Server` is `server::builder::Server`); what is declared there itself
            // (the macros' re-exports, the guide) is no edge.
            let target = reexports.get(target.as_slice()).cloned().unwrap_or(target);
            if let Some(to) = resolve(&target)
                && to != name
                && to != "lib.rs"
            {
                out.entry(name.as_str()).or_default().insert(to);
            }
        }
    }
    out
}

/// What the crate's root re-exports, by the path a file names it with: `["Server"]` is
/// `["server", "builder", "Server"]`, and an inline module's item (`pub mod auth { pub use
/// crate::context::Principal; }`) is `["auth", "Principal"]`. Each `pub use` of a
/// crate path, one item or a `{..}` group, at the top level or one inline module deep.
fn root_reexports(lib: &str) -> BTreeMap<Vec<String>, Vec<String>> {
    let mut out = BTreeMap::new();
    let mut inline: Option<String> = None;
    let mut depth = 0usize;
    let statements = lib.split(';');
    for statement in statements {
        for line in statement.lines() {
            let trimmed = line.trim();
            if let Some(rest) = trimmed.strip_prefix("pub mod ")
                && let Some(name) = rest.strip_suffix('{').map(str::trim)
            {
                inline = Some(name.to_owned());
                depth = 0;
            }
            depth += trimmed.matches('{').count();
            depth = depth.saturating_sub(trimmed.matches('}').count());
            if depth == 0 && inline.is_some() && trimmed.starts_with('}') {
                inline = None;
            }
        }
        let Some(at) = statement.find("pub use ") else {
            continue;
        };
        let path = statement[at + "pub use ".len()..]
            .split_whitespace()
            .collect::<String>();
        let path = path.strip_prefix("crate::").unwrap_or(&path);
        let (base, items): (&str, Vec<&str>) = match path.split_once("::{") {
            Some((base, group)) => (base, group.trim_end_matches('}').split(',').collect()),
            None => match path.rsplit_once("::") {
                Some((base, item)) => (base, vec![item]),
                None => continue,
            },
        };
        for item in items {
            let item = item.split("::").next().unwrap_or_default().trim();
            if item.is_empty() || !item.chars().all(|c| c.is_alphanumeric() || c == '_') {
                continue;
            }
            let mut named: Vec<String> = inline.iter().cloned().collect();
            named.push(item.to_owned());
            let mut full: Vec<String> = base.split("::").map(str::to_owned).collect();
            full.push(item.to_owned());
            out.insert(named, full);
        }
    }
    out
}

fn layer_of(file: &File) -> Option<usize> {
    let top = file.module.first()?;
    LAYERS.iter().position(|layer| layer == top)
}

#[test]
fn every_module_names_only_its_own_layer_or_lower_ones() {
    let files = files();
    for (name, file) in &files {
        if name != "lib.rs" {
            assert!(
                layer_of(file).is_some(),
                "`{name}` belongs to no layer; add its module to LAYERS"
            );
        }
    }
    let mut upward = Vec::new();
    for (from, targets) in edges(&files) {
        for to in targets {
            let (Some(a), Some(b)) = (layer_of(&files[from]), layer_of(&files[to])) else {
                continue;
            };
            if b > a {
                upward.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        upward.is_empty(),
        "modules that name a higher layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn no_files_import_each_other_in_a_circle() {
    let files = files();
    let edges = edges(&files);
    // Depth-first search; a file met again while still on the path closes a cycle.
    fn visit<'a>(
        file: &'a str,
        edges: &BTreeMap<&'a str, BTreeSet<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
        cycles: &mut Vec<String>,
    ) {
        if let Some(at) = path.iter().position(|f| *f == file) {
            let mut cycle = path[at..].to_vec();
            cycle.push(file);
            cycles.push(cycle.join(" -> "));
            return;
        }
        if !done.insert(file) {
            return;
        }
        path.push(file);
        for next in edges.get(file).into_iter().flatten() {
            visit(next, edges, path, done, cycles);
        }
        path.pop();
    }
    let mut cycles = Vec::new();
    let mut done = BTreeSet::new();
    for file in files.keys() {
        visit(file, &edges, &mut Vec::new(), &mut done, &mut cycles);
    }
    assert!(
        cycles.is_empty(),
        "files in an import cycle:\n{}",
        cycles.join("\n")
    );
}

#[test]
fn the_checker_finds_the_edges_that_are_there() {
    // The checks above are only as good as the edges they find: pin what they find in
    // files known to have them.
    let files = files();
    let edges = edges(&files);
    assert!(edges["engine/asks/asking.rs"].contains("engine/asks/client.rs"));
    assert!(edges["engine/methods/tools.rs"].contains("engine/tasks/mod.rs"));
    assert!(
        edges["engine/methods/tools.rs"].contains("registry/catalog.rs")
            || edges["engine/state/listing.rs"].contains("registry/catalog.rs")
    );
    assert!(edges["server/builder.rs"].contains("server/error.rs"));
    // Through the root's re-exports: `crate::ToolError` is `error::ToolError`.
    assert!(edges["cli/mod.rs"].contains("error.rs"));
    assert!(edges["transport/http/endpoint.rs"].contains("protocol/messages.rs"));
}

/// The engine's stages, in the order a message's way through them is built: each names only
/// its own stage and those before it (the order `engine/mod.rs` documents).
const ENGINE_STAGES: &[&str] = &["wire", "state", "asks", "tasks", "budgets", "methods", "route"];

/// The stage of a file below `engine/` (`engine/budgets.rs` is the stage `budgets`).
fn stage_of(name: &str) -> Option<usize> {
    let below = name.strip_prefix("engine/")?;
    let room = below.split('/').next()?.trim_end_matches(".rs");
    ENGINE_STAGES.iter().position(|stage| *stage == room)
}

#[test]
fn the_engine_is_laid_out_by_stage_and_no_stage_names_a_later_one() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp-tools/src/engine");
    let mut rooms: Vec<String> = std::fs::read_dir(&root)
        .unwrap()
        .map(|entry| {
            entry
                .unwrap()
                .file_name()
                .to_string_lossy()
                .trim_end_matches(".rs")
                .to_owned()
        })
        .filter(|room| room != "mod")
        .collect();
    rooms.sort();
    let mut stages: Vec<String> = ENGINE_STAGES.iter().map(|s| s.to_string()).collect();
    stages.sort();
    assert_eq!(rooms, stages, "engine/ holds exactly the stages of ENGINE_STAGES");
    assert!(ENGINE_STAGES.len() <= 8, "at most 8 rooms in engine/");

    let files = files();
    let mut wrong = Vec::new();
    for (from, targets) in edges(&files) {
        let Some(a) = stage_of(from) else { continue };
        for to in targets {
            if to == "engine/mod.rs" {
                // The engine's own re-exports are for the layers above it.
                wrong.push(format!("{from} -> {to} (name the stage's module instead)"));
            } else if let Some(b) = stage_of(to)
                && b > a
            {
                wrong.push(format!("{from} -> {to}"));
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "engine files that name a later stage:\n{}",
        wrong.join("\n")
    );
}

/// The rows of ARCHITECTURE.md's table of the runtime's layers: each row's module (its
/// first cell, `engine/` read as `engine`) and the rest of the row.
fn documented_layers() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("ARCHITECTURE.md")).unwrap();
    let section = text
        .split("## The runtime crate, bottom up")
        .nth(1)
        .expect("ARCHITECTURE.md has its section on the runtime's layers");
    section
        .lines()
        .skip_while(|line| !line.starts_with("| layer |"))
        .skip(2)
        .take_while(|line| line.starts_with('|'))
        .map(|line| {
            let mut cells = line.trim_matches('|').splitn(2, '|');
            let module = cells
                .next()
                .unwrap_or_default()
                .trim()
                .trim_matches('`')
                .trim_end_matches('/');
            (module.to_owned(), cells.next().unwrap_or_default().to_owned())
        })
        .collect()
}

#[test]
fn architecture_md_lists_the_layers_as_they_are() {
    let rows = documented_layers();
    let listed: Vec<&str> = rows.iter().map(|(module, _)| module.as_str()).collect();
    assert_eq!(
        listed, LAYERS,
        "ARCHITECTURE.md's table lists the layers of LAYERS, in order"
    );
    // Each module the table names exists, as a file or a folder.
    let src = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("mcp-tools/src");
    for module in &listed {
        assert!(
            src.join(format!("{module}.rs")).is_file() || src.join(module).join("mod.rs").is_file(),
            "ARCHITECTURE.md names the module `{module}`, which is not in mcp-tools/src"
        );
    }
    // The engine's row names each stage, in the order of ENGINE_STAGES.
    let engine = &rows.iter().find(|(module, _)| module == "engine").unwrap().1;
    let mut at = 0;
    for stage in ENGINE_STAGES {
        let named = [format!("`{stage}/`"), format!("`{stage}`")]
            .iter()
            .filter_map(|name| engine[at..].find(name.as_str()))
            .min();
        let Some(found) = named else {
            panic!("ARCHITECTURE.md's engine row does not name the stage `{stage}` after the ones before it");
        };
        at += found + 1;
    }
}

/// Generated-code support is hidden once, at `__private`'s root: `#[doc(hidden)]` appears
/// nowhere else but on a public trait's items that generated code calls (`ToolFn::tool`,
/// `FromArgument::parameter`), and on a type shown at the crate's root, its one documented
/// path (said so in a comment above it).
#[test]
fn generated_code_support_is_hidden_in_one_place() {
    let mut scattered = Vec::new();
    for (name, file) in files() {
        if name == "lib.rs" || name.starts_with("private/") {
            continue;
        }
        let source = std::fs::read_to_string(
            PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                .join("mcp-tools/src")
                .join(&name),
        )
        .unwrap();
        let lines: Vec<&str> = source.lines().collect();
        for (at, line) in lines.iter().enumerate() {
            if line.trim() != "#[doc(hidden)]" {
                continue;
            }
            let in_trait = line.starts_with("    ")
                && lines[..at]
                    .iter()
                    .rev()
                    .find(|l| !l.starts_with(' ') && !l.is_empty() && !l.starts_with('}'))
                    .is_some_and(|l| l.starts_with("pub trait ") || l.starts_with("pub unsafe trait "));
            let shown_at_root = at > 0 && lines[at - 1].contains("Shown at the crate's root");
            if !in_trait && !shown_at_root {
                scattered.push(format!("{name}:{}", at + 1));
            }
        }
        let _ = file;
    }
    assert!(
        scattered.is_empty(),
        "`#[doc(hidden)]` outside `private/` (move the item there, or out of the public modules):\n{}",
        scattered.join("\n")
    );
}

/// README's feature table names every feature of the runtime crate, and only those.
#[test]
fn the_readme_lists_every_feature() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let manifest = std::fs::read_to_string(root.join("mcp-tools/Cargo.toml")).unwrap();
    let section = manifest.split("[features]").nth(1).unwrap();
    let section = section.split("\n[").next().unwrap();
    let mut features: Vec<&str> = section
        .lines()
        .filter(|line| !line.starts_with('#'))
        .filter_map(|line| line.split_once(" = ").map(|(name, _)| name.trim()))
        .filter(|name| *name != "default")
        .collect();
    let readme = std::fs::read_to_string(root.join("README.md")).unwrap();
    let mut listed: Vec<&str> = readme
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|line| {
            line.split_once("` | ")
                .filter(|(_, rest)| rest.starts_with("on") || rest.starts_with("off"))
        })
        .map(|(name, _)| name)
        .collect();
    features.sort_unstable();
    listed.sort_unstable();
    assert_eq!(
        listed, features,
        "README.md's feature table against mcp-tools/Cargo.toml"
    );
}
