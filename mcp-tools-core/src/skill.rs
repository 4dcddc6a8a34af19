//! Skills, as the `io.modelcontextprotocol/skills` extension (SEP-2640) serves them: folders
//! that hold a `SKILL.md` whose YAML frontmatter names and describes the skill, with any
//! supporting files beside it. [`scan`] reads a folder of skills from disk and checks every
//! rule at once: the `skills!` macro calls it at compile time, `Skills::from_dir` at run time,
//! so both refuse the same skills with the same words.
//!
//! The rules: a skill's folder name equals the frontmatter's `name`, which follows the Agent
//! Skills naming rule ([`check_name`]); `description` is a string of 1 to 1024 characters; no
//! `metadata` key starts with the reserved prefix `io.modelcontextprotocol/`; a skill has at
//! most [`MAX_FILES`] files and [`MAX_BYTES`] bytes. Every file and folder name must fit in a
//! `skill://` URI as it is ([`check_segment`]). Hidden entries (names starting with `.`, such
//! as `.git` or `.DS_Store`) are skipped; symbolic links are refused, so nothing outside the
//! folder is ever served. A folder with a `SKILL.md` inside another skill is a skill of its
//! own, and its files belong to the enclosing skill too.

use saphyr::{LoadableYamlNode, Scalar, Yaml};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};

/// The file at the root of every skill.
pub const SKILL_FILE: &str = "SKILL.md";

/// The most files a skill may have, `SKILL.md` included.
pub const MAX_FILES: usize = 512;

/// The most bytes a skill's files may hold together (16 MiB).
pub const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The most characters a skill's `description` may have.
pub const MAX_DESCRIPTION: usize = 1024;

/// The prefix of `metadata` keys reserved for MCP extensions.
pub const RESERVED_METADATA_PREFIX: &str = "io.modelcontextprotocol/";

/// One thing wrong with a folder of skills: the file or folder, and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Problem {
    /// The file or folder at fault, as the folder of skills was given joined with the path
    /// below it.
    pub path: PathBuf,
    /// What is wrong, lowercase, with what is accepted.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}`: {}", self.path.display(), self.message)
    }
}

/// A file of one or more skills.
#[derive(Debug, Clone)]
pub struct File {
    /// The path below the folder of skills, `/`-separated: `notes/SKILL.md`.
    pub path: String,
    /// Where it was read from.
    pub source: PathBuf,
    /// Its contents.
    pub bytes: Vec<u8>,
    /// `sha256:` and the 64 lowercase hex digits of its SHA-256.
    pub digest: String,
    /// Its MIME type ([`mime_type`]).
    pub mime_type: &'static str,
}

/// A skill: a folder with a `SKILL.md`.
#[derive(Debug, Clone)]
pub struct Skill {
    /// The folder below the folder of skills, `/`-separated; its last segment is the name.
    pub path: String,
    /// The frontmatter of its `SKILL.md`, as a JSON object in the order written.
    pub frontmatter: Map<String, Value>,
    /// Its files, as indices into [`Tree::files`]: `SKILL.md` first, then the others in
    /// path order, nested skills' files included.
    pub files: Vec<usize>,
}

/// The skills of a folder, checked.
#[derive(Debug, Clone, Default)]
pub struct Tree {
    /// Every file of some skill, in path order.
    pub files: Vec<File>,
    /// The skills, in path order.
    pub skills: Vec<Skill>,
}

/// Reads and checks every skill below `root`: the skills, or every problem found.
pub fn scan(root: &Path) -> Result<Tree, Vec<Problem>> {
    let mut walk = Walk::default();
    match std::fs::symlink_metadata(root) {
        Ok(meta) if meta.is_dir() => walk.dir(root, ""),
        Ok(_) => walk.problem(root, "is not a folder; give the folder that holds the skills"),
        Err(error) => walk.problem(root, format!("cannot be read: {error}")),
    }
    let Walk {
        entries,
        mut problems,
    } = walk;
    let mut skill_paths = Vec::new();
    for (path, entry) in &entries {
        if entry.is_none() || file_name(path) != SKILL_FILE {
            continue;
        }
        match path.rsplit_once('/') {
            Some((folder, _)) => skill_paths.push(folder.to_owned()),
            None => problems.push(Problem {
                path: root.join(path),
                message: "a `SKILL.md` directly in the folder of skills belongs to no skill; put each skill in a folder named after it".to_owned(),
            }),
        }
    }
    let mut files: BTreeMap<String, Option<File>> = BTreeMap::new();
    let mut skills = Vec::new();
    for folder in skill_paths {
        let prefix = format!("{folder}/");
        let mut members: Vec<(&String, u64)> = entries
            .iter()
            .filter(|(path, _)| path.starts_with(&prefix))
            .filter_map(|(path, size)| size.map(|size| (path, size)))
            .collect();
        let skill_md = format!("{folder}/{SKILL_FILE}");
        members.sort_by_key(|(path, _)| **path != skill_md);
        let total: u64 = members.iter().map(|(_, size)| size).sum();
        let before = problems.len();
        if members.len() > MAX_FILES {
            problems.push(Problem {
                path: root.join(&folder),
                message: format!(
                    "the skill has {} files; a skill has at most {MAX_FILES}, `SKILL.md` included",
                    members.len()
                ),
            });
        }
        if total > MAX_BYTES {
            problems.push(Problem {
                path: root.join(&folder),
                message: format!(
                    "the skill's files hold {total} bytes; a skill holds at most {MAX_BYTES} bytes (16 MiB)"
                ),
            });
        }
        if problems.len() > before {
            continue;
        }
        for (path, _) in &members {
            if !files.contains_key(*path) {
                let read = read_file(root, path)
                    .map_err(|problem| problems.push(problem))
                    .ok();
                files.insert((*path).clone(), read);
            }
        }
        let Some(Some(manifest)) = files.get(&skill_md) else {
            continue;
        };
        let checked = frontmatter(&manifest.bytes).and_then(|frontmatter| {
            let problems = check_frontmatter(&frontmatter, file_name(&folder));
            if problems.is_empty() {
                Ok(frontmatter)
            } else {
                Err(problems)
            }
        });
        match checked {
            Ok(frontmatter) => skills.push((folder, frontmatter, members)),
            Err(messages) => problems.extend(messages.into_iter().map(|message| Problem {
                path: root.join(&skill_md),
                message,
            })),
        }
    }
    if problems.is_empty() && skills.is_empty() {
        problems.push(Problem {
            path: root.to_owned(),
            message: "holds no skill: a skill is a folder with a `SKILL.md`".to_owned(),
        });
    }
    if !problems.is_empty() {
        return Err(problems);
    }
    let paths: Vec<String> = files.keys().cloned().collect();
    let index = |path: &str| paths.binary_search_by(|p| p.as_str().cmp(path)).unwrap_or(0);
    let skills = skills
        .into_iter()
        .map(|(path, frontmatter, members)| Skill {
            path,
            frontmatter,
            files: members.iter().map(|(path, _)| index(path)).collect(),
        })
        .collect();
    Ok(Tree {
        files: files.into_values().flatten().collect(),
        skills,
    })
}

/// What the walk found: each path below the root, with the size of a file (`None` for a
/// folder), and the problems met.
#[derive(Default)]
struct Walk {
    entries: BTreeMap<String, Option<u64>>,
    problems: Vec<Problem>,
}

impl Walk {
    fn problem(&mut self, path: &Path, message: impl Into<String>) {
        self.problems.push(Problem {
            path: path.to_owned(),
            message: message.into(),
        });
    }

    fn dir(&mut self, dir: &Path, below: &str) {
        let listing = match std::fs::read_dir(dir) {
            Ok(listing) => listing,
            Err(error) => return self.problem(dir, format!("cannot be read: {error}")),
        };
        let mut names = Vec::new();
        for entry in listing {
            match entry {
                Ok(entry) => names.push(entry.file_name()),
                Err(error) => return self.problem(dir, format!("cannot be read: {error}")),
            }
        }
        names.sort();
        for name in names {
            let path = dir.join(&name);
            let Some(name) = name.to_str() else {
                self.problem(
                    &path,
                    "the name is not UTF-8; a `skill://` URI needs a name of text",
                );
                continue;
            };
            if name.starts_with('.') {
                continue;
            }
            if let Err(message) = check_segment(name) {
                self.problem(&path, message);
                continue;
            }
            let relative = if below.is_empty() {
                name.to_owned()
            } else {
                format!("{below}/{name}")
            };
            match std::fs::symlink_metadata(&path) {
                Err(error) => self.problem(&path, format!("cannot be read: {error}")),
                Ok(meta) if meta.file_type().is_symlink() => self.problem(
                    &path,
                    "is a symbolic link; a skill holds regular files and folders only",
                ),
                Ok(meta) if meta.is_dir() => {
                    self.entries.insert(relative.clone(), None);
                    self.dir(&path, &relative);
                }
                Ok(meta) if meta.is_file() => {
                    self.entries.insert(relative, Some(meta.len()));
                }
                Ok(_) => self.problem(&path, "is neither a file nor a folder"),
            }
        }
    }
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

fn read_file(root: &Path, path: &str) -> Result<File, Problem> {
    let source = root.join(path);
    let bytes = std::fs::read(&source).map_err(|error| Problem {
        path: source.clone(),
        message: format!("cannot be read: {error}"),
    })?;
    Ok(File {
        path: path.to_owned(),
        digest: digest(&bytes),
        mime_type: mime_type(path, &bytes),
        source,
        bytes,
    })
}

/// The problems of a skill's frontmatter, for a skill in folder `folder`.
fn check_frontmatter(frontmatter: &Map<String, Value>, folder: &str) -> Vec<String> {
    let mut problems = Vec::new();
    match frontmatter.get("name") {
        None => problems.push("the frontmatter has no `name`; it needs `name` and `description`".to_owned()),
        Some(Value::String(name)) => {
            if let Err(problem) = check_name(name) {
                problems.push(problem);
            }
            if name != folder {
                problems.push(format!(
                    "`name` is `{name}` but the skill's folder is `{folder}`; they must be the same"
                ));
            }
        }
        Some(other) => problems.push(format!("`name` is {}; it must be a string", kind(other))),
    }
    match frontmatter.get("description") {
        None => problems
            .push("the frontmatter has no `description`; it needs `name` and `description`".to_owned()),
        Some(Value::String(description)) => {
            let length = description.chars().count();
            if description.trim().is_empty() {
                problems
                    .push("`description` is empty; say what the skill does and when to use it".to_owned());
            } else if length > MAX_DESCRIPTION {
                problems.push(format!(
                    "`description` is {length} characters long; a description has at most {MAX_DESCRIPTION}"
                ));
            }
        }
        Some(other) => problems.push(format!("`description` is {}; it must be a string", kind(other))),
    }
    match frontmatter.get("metadata") {
        None => {}
        Some(Value::Object(metadata)) => {
            for key in metadata
                .keys()
                .filter(|key| key.starts_with(RESERVED_METADATA_PREFIX))
            {
                problems.push(format!(
                    "the `metadata` key `{key}` uses the prefix `{RESERVED_METADATA_PREFIX}`, which is reserved for MCP extensions; choose a key without it"
                ));
            }
        }
        Some(other) => problems.push(format!("`metadata` is {}; it must be a mapping", kind(other))),
    }
    problems
}

fn kind(value: &Value) -> &'static str {
    match value {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "a list",
        Value::Object(_) => "a mapping",
    }
}

/// Checks a skill name against the Agent Skills rule: 1 to 64 characters, lowercase ASCII
/// letters, digits and hyphens, neither starting nor ending with a hyphen, and no `--`.
pub fn check_name(name: &str) -> Result<(), String> {
    let length = name.chars().count();
    if name.is_empty() {
        return Err("`name` is empty; a skill name has 1 to 64 characters".to_owned());
    }
    if length > 64 {
        return Err(format!(
            "`name` is {length} characters long; a skill name has at most 64"
        ));
    }
    if let Some(c) = name.chars().find(|c| !matches!(c, 'a'..='z' | '0'..='9' | '-')) {
        return Err(format!(
            "`name` `{name}` has `{c}`; a skill name has lowercase letters, digits and hyphens only"
        ));
    }
    if name.starts_with('-') || name.ends_with('-') {
        return Err(format!(
            "`name` `{name}` starts or ends with a hyphen; it may not"
        ));
    }
    if name.contains("--") {
        return Err(format!("`name` `{name}` has two hyphens in a row; it may not"));
    }
    Ok(())
}

/// Checks that a file or folder name can be a segment of a `skill://` URI as it is (and the
/// first segment its authority): ASCII letters, digits and `-._~!$&'()*+,;=` only.
pub fn check_segment(name: &str) -> Result<(), String> {
    let allowed = |c: char| c.is_ascii_alphanumeric() || "-._~!$&'()*+,;=".contains(c);
    match name.chars().find(|&c| !allowed(c)) {
        None => Ok(()),
        Some(c) => Err(format!(
            "the name has `{}`, which a `skill://` URI cannot hold as it is; name files and folders with ASCII letters, digits and `-._~`",
            c.escape_debug()
        )),
    }
}

/// The frontmatter of a `SKILL.md` as a JSON object, keys in the order written: the YAML
/// between a first line `---` and the next line `---`. A UTF-8 byte order mark and CRLF line
/// ends are accepted.
pub fn frontmatter(text: &[u8]) -> Result<Map<String, Value>, Vec<String>> {
    let one = |message: String| vec![message];
    let text = std::str::from_utf8(text).map_err(|_| one("`SKILL.md` is not UTF-8 text".to_owned()))?;
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let no_start = "`SKILL.md` does not begin with YAML frontmatter: its first line must be `---`";
    let rest = text
        .strip_prefix("---\n")
        .or_else(|| text.strip_prefix("---\r\n"))
        .ok_or_else(|| one(no_start.to_owned()))?;
    let mut end = None;
    let mut offset = 0;
    for line in rest.split_inclusive('\n') {
        if line.trim_end_matches(['\n', '\r']).trim_end_matches([' ', '\t']) == "---" {
            end = Some(offset);
            break;
        }
        offset += line.len();
    }
    let end = end.ok_or_else(|| one("the frontmatter has no closing `---` line".to_owned()))?;
    let yaml = &rest[..end];
    let documents = Yaml::load_from_str(yaml)
        .map_err(|error| one(format!("the frontmatter is not valid YAML: {error}")))?;
    let empty = "the frontmatter is empty; it needs `name` and `description`";
    let document = match documents.as_slice() {
        [] => return Err(one(empty.to_owned())),
        [document] => document,
        _ => return Err(one("the frontmatter holds more than one YAML document".to_owned())),
    };
    match to_json(document).map_err(one)? {
        Value::Object(map) => Ok(map),
        Value::Null => Err(one(empty.to_owned())),
        other => Err(one(format!(
            "the frontmatter is {}; it must be a mapping",
            kind(&other)
        ))),
    }
}

fn to_json(node: &Yaml<'_>) -> Result<Value, String> {
    Ok(match node {
        Yaml::Value(scalar) => match scalar {
            Scalar::Null => Value::Null,
            Scalar::Boolean(b) => Value::Bool(*b),
            Scalar::Integer(i) => Value::from(*i),
            Scalar::FloatingPoint(f) => serde_json::Number::from_f64(f.into_inner())
                .map(Value::Number)
                .ok_or_else(|| format!("the frontmatter has the number `{f}`, which JSON cannot hold"))?,
            Scalar::String(s) => Value::String(s.to_string()),
        },
        Yaml::Sequence(items) => Value::Array(items.iter().map(to_json).collect::<Result<_, _>>()?),
        Yaml::Mapping(entries) => {
            let mut map = Map::new();
            for (key, value) in entries {
                let Yaml::Value(Scalar::String(key)) = key else {
                    return Err(
                        "a key of the frontmatter is not a string; write every key as text".to_owned(),
                    );
                };
                map.insert(key.to_string(), to_json(value)?);
            }
            Value::Object(map)
        }
        Yaml::Tagged(tag, _) => {
            return Err(format!(
                "the frontmatter has the YAML tag `{tag}`; tags are not accepted"
            ));
        }
        Yaml::Alias(_) => return Err("the frontmatter has a YAML alias; aliases are not accepted".to_owned()),
        Yaml::Representation(..) | Yaml::BadValue => {
            return Err("a value of the frontmatter does not parse".to_owned());
        }
    })
}

/// `sha256:` and the 64 lowercase hex digits of the SHA-256 of `bytes`.
pub fn digest(bytes: &[u8]) -> String {
    format!("sha256:{:x}", Sha256::digest(bytes))
}

/// The MIME type of a skill file, by its extension: the formats skills hold (Markdown, text,
/// scripts, data, images, PDF); anything else is `text/plain` when it is UTF-8 text, else
/// `application/octet-stream`. `SKILL.md` is `text/markdown`.
pub fn mime_type(path: &str, bytes: &[u8]) -> &'static str {
    let extension = file_name(path)
        .rsplit_once('.')
        .map(|(_, extension)| extension.to_ascii_lowercase());
    let known = match extension.as_deref() {
        Some("md" | "markdown") => "text/markdown",
        Some("txt" | "text") => "text/plain",
        Some("html" | "htm") => "text/html",
        Some("css") => "text/css",
        Some("csv") => "text/csv",
        Some("py") => "text/x-python",
        Some("sh" | "bash") => "application/x-sh",
        Some("js" | "mjs") => "text/javascript",
        Some("ts") => "text/x-typescript",
        Some("rs") => "text/x-rust",
        Some("json") => "application/json",
        Some("yaml" | "yml") => "application/yaml",
        Some("toml") => "application/toml",
        Some("xml") => "application/xml",
        Some("sql") => "application/sql",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("gif") => "image/gif",
        Some("webp") => "image/webp",
        Some("pdf") => "application/pdf",
        Some("zip") => "application/zip",
        _ => "",
    };
    match known {
        "" if std::str::from_utf8(bytes).is_ok() => "text/plain",
        "" => "application/octet-stream",
        known => known,
    }
}

/// Whether a file of this MIME type is sent as text (when it is UTF-8) rather than base64.
pub fn is_text(mime_type: &str) -> bool {
    mime_type.starts_with("text/")
        || matches!(
            mime_type,
            "application/json"
                | "application/yaml"
                | "application/toml"
                | "application/xml"
                | "application/sql"
                | "application/x-sh"
                | "image/svg+xml"
        )
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// A fresh folder under the system's temporary folder, removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let path = std::env::temp_dir().join(format!("mcp-skill-{name}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&path);
            std::fs::create_dir_all(&path).unwrap();
            Scratch(path)
        }

        fn file(&self, path: &str, text: &str) -> &Scratch {
            let path = self.0.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
            self
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn messages(problems: &[Problem], root: &Path) -> Vec<String> {
        problems
            .iter()
            .map(|p| {
                let path = p.path.strip_prefix(root).unwrap().display();
                format!("{path}: {}", p.message)
            })
            .collect()
    }

    #[test]
    fn frontmatter_keeps_order_and_types_and_accepts_a_bom_and_crlf() {
        let text = "\u{feff}---\r\nname: pdf\r\ndescription: Fill PDF forms\r\nversion: 2\r\nratio: 1.5\r\nok: true\r\nmetadata:\r\n  team: docs\r\ntags: [a, b]\r\n---  \r\n# Body\r\n";
        let map = frontmatter(text.as_bytes()).unwrap();
        assert_eq!(
            Value::Object(map.clone()),
            json!({"name": "pdf", "description": "Fill PDF forms", "version": 2, "ratio": 1.5, "ok": true, "metadata": {"team": "docs"}, "tags": ["a", "b"]})
        );
        assert_eq!(
            map.keys().collect::<Vec<_>>(),
            [
                "name",
                "description",
                "version",
                "ratio",
                "ok",
                "metadata",
                "tags"
            ]
        );
    }

    #[test]
    fn frontmatter_mistakes_say_what_is_wrong() {
        let cases = [
            ("# no frontmatter\n", "its first line must be `---`"),
            ("---\nname: a\n", "no closing `---` line"),
            ("---\n---\n", "the frontmatter is empty"),
            (
                "---\n- a\n---\n",
                "the frontmatter is a list; it must be a mapping",
            ),
            ("---\nname: [a\n---\n", "not valid YAML"),
            ("---\n1: a\n---\n", "a key of the frontmatter is not a string"),
            ("---\nname: !custom a\n---\n", "the YAML tag"),
            ("---\nname: a\nname: b\n---\n", "not valid YAML"),
        ];
        for (text, expected) in cases {
            let problems = frontmatter(text.as_bytes()).unwrap_err();
            assert!(problems[0].contains(expected), "{text:?}: {problems:?}");
        }
        assert!(frontmatter(b"\xff---").unwrap_err()[0].contains("not UTF-8"));
    }

    #[test]
    fn names_follow_the_agent_skills_rule() {
        for good in ["a", "pdf-processing", "x1", &"a".repeat(64)] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        let bad = [
            ("", "is empty"),
            (&"a".repeat(65), "65 characters long"),
            ("Pdf", "has `P`"),
            ("-a", "starts or ends with a hyphen"),
            ("a-", "starts or ends with a hyphen"),
            ("a--b", "two hyphens in a row"),
            ("a_b", "has `_`"),
        ];
        for (name, expected) in bad {
            assert!(check_name(name).unwrap_err().contains(expected), "{name}");
        }
        assert_eq!(check_segment("report.v2~final"), Ok(()));
        assert!(check_segment("my file.md").unwrap_err().contains("has ` `"));
        assert!(check_segment("a@b").is_err());
    }

    #[test]
    fn digests_and_mime_types() {
        assert_eq!(
            digest(b"abc"),
            "sha256:ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
        );
        assert_eq!(mime_type("a/SKILL.md", b""), "text/markdown");
        assert_eq!(mime_type("a/run.PY", b""), "text/x-python");
        assert_eq!(mime_type("a/LICENSE", b"MIT"), "text/plain");
        assert_eq!(mime_type("a/blob", b"\xff\xfe"), "application/octet-stream");
        assert!(is_text("text/markdown") && is_text("application/json") && !is_text("image/png"));
    }

    #[test]
    fn a_folder_of_skills_is_read_with_nested_skills_and_hidden_files_skipped() {
        let dir = Scratch::new("tree");
        dir.file("README.md", "not a skill")
            .file(
                "billing/SKILL.md",
                "---\nname: billing\ndescription: Bills\n---\n",
            )
            .file("billing/templates/invoice.md", "# Invoice")
            .file(
                "billing/refunds/SKILL.md",
                "---\nname: refunds\ndescription: Refunds\n---\n",
            )
            .file("billing/.DS_Store", "junk")
            .file(
                "acme/notes/SKILL.md",
                "---\nname: notes\ndescription: Notes\n---\n",
            );
        let tree = scan(&dir.0).unwrap();
        let paths: Vec<&str> = tree.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "acme/notes/SKILL.md",
                "billing/SKILL.md",
                "billing/refunds/SKILL.md",
                "billing/templates/invoice.md"
            ]
        );
        let skills: Vec<(&str, Vec<&str>)> = tree
            .skills
            .iter()
            .map(|s| (s.path.as_str(), s.files.iter().map(|&i| paths[i]).collect()))
            .collect();
        assert_eq!(
            skills,
            [
                ("acme/notes", vec!["acme/notes/SKILL.md"]),
                (
                    "billing",
                    vec![
                        "billing/SKILL.md",
                        "billing/refunds/SKILL.md",
                        "billing/templates/invoice.md"
                    ]
                ),
                ("billing/refunds", vec!["billing/refunds/SKILL.md"]),
            ]
        );
        assert_eq!(tree.files[3].bytes, b"# Invoice");
        assert_eq!(tree.files[3].digest, digest(b"# Invoice"));
        assert_eq!(tree.skills[1].frontmatter["description"], "Bills");
    }

    #[test]
    fn every_problem_is_reported_at_once_naming_its_file() {
        let dir = Scratch::new("problems");
        dir.file("SKILL.md", "---\nname: root\ndescription: d\n---\n")
            .file("wrong/SKILL.md", "---\nname: right\ndescription: d\n---\n")
            .file("bare/SKILL.md", "---\ntitle: x\n---\n")
            .file(
                "meta/SKILL.md",
                "---\nname: meta\ndescription: d\nmetadata:\n  io.modelcontextprotocol/x: y\n---\n",
            )
            .file("Upper/SKILL.md", "---\nname: Upper\ndescription: 7\n---\n")
            .file("good/has space.md", "x")
            .file("good/SKILL.md", "---\nname: good\ndescription: d\n---\n");
        let problems = scan(&dir.0).unwrap_err();
        assert_eq!(
            messages(&problems, &dir.0),
            [
                "good/has space.md: the name has ` `, which a `skill://` URI cannot hold as it is; name files and folders with ASCII letters, digits and `-._~`",
                "SKILL.md: a `SKILL.md` directly in the folder of skills belongs to no skill; put each skill in a folder named after it",
                "Upper/SKILL.md: `name` `Upper` has `U`; a skill name has lowercase letters, digits and hyphens only",
                "Upper/SKILL.md: `description` is a number; it must be a string",
                "bare/SKILL.md: the frontmatter has no `name`; it needs `name` and `description`",
                "bare/SKILL.md: the frontmatter has no `description`; it needs `name` and `description`",
                "meta/SKILL.md: the `metadata` key `io.modelcontextprotocol/x` uses the prefix `io.modelcontextprotocol/`, which is reserved for MCP extensions; choose a key without it",
                "wrong/SKILL.md: `name` is `right` but the skill's folder is `wrong`; they must be the same",
            ]
        );
    }

    #[test]
    fn limits_are_checked_before_files_are_read() {
        let dir = Scratch::new("limits");
        dir.file("many/SKILL.md", "---\nname: many\ndescription: d\n---\n");
        for i in 0..MAX_FILES {
            dir.file(&format!("many/f{i}.txt"), "");
        }
        let big = dir.0.join("big");
        std::fs::create_dir_all(&big).unwrap();
        std::fs::write(big.join("SKILL.md"), "---\nname: big\ndescription: d\n---\n").unwrap();
        std::fs::File::create(big.join("data.bin"))
            .unwrap()
            .set_len(MAX_BYTES)
            .unwrap();
        let problems = scan(&dir.0).unwrap_err();
        let text = messages(&problems, &dir.0);
        assert_eq!(text.len(), 2, "{text:?}");
        assert!(
            text[0].starts_with(
                "big: the skill's files hold 16777249 bytes; a skill holds at most 16777216 bytes"
            )
        );
        assert_eq!(
            text[1],
            "many: the skill has 513 files; a skill has at most 512, `SKILL.md` included"
        );
    }

    #[test]
    fn a_missing_or_empty_folder_or_a_symbolic_link_is_a_problem() {
        let dir = Scratch::new("links");
        let missing = scan(&dir.0.join("nothing")).unwrap_err();
        assert!(missing[0].message.starts_with("cannot be read: "));
        let empty = scan(&dir.0).unwrap_err();
        assert_eq!(
            empty[0].message,
            "holds no skill: a skill is a folder with a `SKILL.md`"
        );
        dir.file("s/SKILL.md", "---\nname: s\ndescription: d\n---\n");
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", dir.0.join("s/link")).unwrap();
            let problems = scan(&dir.0).unwrap_err();
            assert_eq!(
                messages(&problems, &dir.0),
                ["s/link: is a symbolic link; a skill holds regular files and folders only"]
            );
        }
    }
}
