//! Skills (the `io.modelcontextprotocol/skills` extension, SEP-2640): folders of
//! instructions, each with a `SKILL.md`, that a server offers for the model to load when
//! a task calls for them. [`skills!`](crate::skills!) embeds a folder of skills at compile time
//! and checks it then; [`Skills::from_dir`] reads one at run time, with the same checks. Give
//! either to [`Server::skills`](crate::Server::skills).
//!
//! A server with skills serves `skills/list`, `skills/get` and `resources/directory/read`,
//! declares the extension (with `directoryRead`) in revision 2026-07-28, and serves every
//! skill file as a resource at `skill://<path below the folder>`: `SKILL.md` with the
//! skill's name and description and `text/markdown`, the others by their extension. What
//! the guide's [skills chapter](crate::guide::skills) shows end to end.

use crate::resource::{ReadOutput, Resource};
use mcp_toolkit_core::skill as rules;
use serde_json::{Map, Value, json};
use std::borrow::Cow;
use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// One thing wrong with a folder of skills: the file or folder at fault
/// ([`path`](SkillProblem::path)) and what is wrong ([`message`](SkillProblem::message)).
#[doc(inline)]
pub use mcp_toolkit_core::skill::Problem as SkillProblem;

/// Why [`Skills::from_dir`] refused a folder of skills.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SkillsError {
    /// The folder breaks the rules of skills: every problem found, each naming its file.
    #[error("{}", invalid(dir, problems))]
    Invalid {
        /// The folder of skills.
        dir: PathBuf,
        /// Every problem, in path order.
        problems: Vec<SkillProblem>,
    },
}

fn invalid(dir: &Path, problems: &[SkillProblem]) -> String {
    let mut text = match problems.len() {
        1 => format!("the skills in `{}` have a problem:", dir.display()),
        n => format!("the skills in `{}` have {n} problems:", dir.display()),
    };
    for problem in problems {
        text.push_str("\n  ");
        text.push_str(&problem.to_string());
    }
    text
}

/// The skills a server offers: from [`skills!`](crate::skills!) (embedded and checked at
/// compile time) or [`Skills::from_dir`] (read at run time). Cheap to clone.
///
/// ```
/// use mcp_toolkit::{skills, Server};
///
/// # #[tokio::main(flavor = "current_thread")]
/// # async fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let skills = skills!("../examples/skills");
/// assert_eq!(skills.len(), 1);
/// let client = Server::new("notes", "1.0.0").skills(skills).test_client()?;
/// let listed = client.request("skills/list", serde_json::json!({})).await?;
/// assert_eq!(listed["skills"][0]["uri"], "skill://notes-workflow/SKILL.md");
/// # Ok(())
/// # }
/// ```
#[derive(Clone, Default)]
pub struct Skills {
    files: Vec<File>,
    skills: Vec<Skill>,
}

#[derive(Clone)]
struct File {
    path: Cow<'static, str>,
    bytes: Bytes,
    digest: Cow<'static, str>,
    mime_type: Cow<'static, str>,
}

#[derive(Clone)]
enum Bytes {
    Embedded(&'static [u8]),
    Loaded(Arc<[u8]>),
}

impl Bytes {
    fn get(&self) -> &[u8] {
        match self {
            Bytes::Embedded(bytes) => bytes,
            Bytes::Loaded(bytes) => bytes,
        }
    }
}

#[derive(Clone)]
struct Skill {
    path: Cow<'static, str>,
    frontmatter: Arc<Map<String, Value>>,
    /// Indices into `files`, `SKILL.md` first.
    files: Vec<usize>,
}

impl fmt::Debug for Skills {
    /// The URIs of the skills' `SKILL.md`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Skills")
            .field("skills", &self.skills.iter().map(Skill::uri).collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

impl Skill {
    fn uri(&self) -> String {
        format!("skill://{}/{}", self.path, rules::SKILL_FILE)
    }
}

impl Skills {
    /// Reads every skill below `dir` (each folder with a `SKILL.md`), for skills that change
    /// without a rebuild: read once, when called. It checks what
    /// [`skills!`](crate::skills!) checks at compile time, and refuses the folder with every
    /// problem at once ([`SkillsError::Invalid`]). Hidden files and folders (`.git`,
    /// `.DS_Store`) are skipped; symbolic links are refused.
    ///
    /// ```
    /// use mcp_toolkit::skill::{Skills, SkillsError};
    ///
    /// let skills = Skills::from_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../examples/skills"))?;
    /// assert_eq!(skills.len(), 1);
    ///
    /// let Err(SkillsError::Invalid { problems, .. }) = Skills::from_dir("no/such/folder") else {
    ///     panic!("a missing folder is refused");
    /// };
    /// assert!(problems[0].message.starts_with("cannot be read"));
    /// # Ok::<(), SkillsError>(())
    /// ```
    pub fn from_dir(dir: impl AsRef<Path>) -> Result<Skills, SkillsError> {
        let dir = dir.as_ref();
        let tree = rules::scan(dir).map_err(|problems| SkillsError::Invalid {
            dir: dir.to_owned(),
            problems,
        })?;
        let files = tree
            .files
            .into_iter()
            .map(|file| File {
                path: Cow::Owned(file.path),
                bytes: Bytes::Loaded(file.bytes.into()),
                digest: Cow::Owned(file.digest),
                mime_type: Cow::Borrowed(file.mime_type),
            })
            .collect();
        let skills = tree
            .skills
            .into_iter()
            .map(|skill| Skill {
                path: Cow::Owned(skill.path),
                frontmatter: Arc::new(skill.frontmatter),
                files: skill.files,
            })
            .collect();
        Ok(Skills { files, skills })
    }

    /// Skills embedded by `skills!`: each file's path, bytes, digest and MIME type, and each
    /// skill's path, frontmatter (a JSON object) and files (indices into `files`).
    pub(crate) fn embedded(
        files: &[(&'static str, &'static [u8], &'static str, &'static str)],
        skills: &[(&'static str, &'static str, &'static [usize])],
    ) -> Skills {
        let files = files
            .iter()
            .map(|&(path, bytes, digest, mime_type)| File {
                path: Cow::Borrowed(path),
                bytes: Bytes::Embedded(bytes),
                digest: Cow::Borrowed(digest),
                mime_type: Cow::Borrowed(mime_type),
            })
            .collect();
        let skills = skills
            .iter()
            .map(|&(path, frontmatter, files)| Skill {
                path: Cow::Borrowed(path),
                // Written by the macro from a map it parsed: it reads back.
                frontmatter: Arc::new(serde_json::from_str(frontmatter).unwrap_or_default()),
                files: files.to_vec(),
            })
            .collect();
        Skills { files, skills }
    }

    /// How many skills there are.
    pub fn len(&self) -> usize {
        self.skills.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.skills.is_empty()
    }

    /// Adds `other`'s skills after these.
    pub(crate) fn merge(&mut self, other: Skills) {
        let offset = self.files.len();
        self.files.extend(other.files);
        self.skills.extend(other.skills.into_iter().map(|mut skill| {
            skill.files.iter_mut().for_each(|index| *index += offset);
            skill
        }));
    }

    /// Each skill's `SKILL.md` URI and its entry, as `skills/list` and `skills/get` send it:
    /// the URI, the frontmatter verbatim, and every file's URI, digest and size.
    pub(crate) fn entries(&self) -> Vec<(String, Value)> {
        self.skills
            .iter()
            .map(|skill| {
                let resources: Vec<Value> = skill
                    .files
                    .iter()
                    .map(|&index| {
                        let file = &self.files[index];
                        json!({
                            "uri": file_uri(&file.path),
                            "digest": file.digest,
                            "size": file.bytes.get().len(),
                        })
                    })
                    .collect();
                let uri = skill.uri();
                let entry = json!({
                    "uri": uri,
                    "frontmatter": *skill.frontmatter,
                    "resources": resources,
                });
                (uri, entry)
            })
            .collect()
    }

    /// Every file as a resource: a skill's `SKILL.md` named and described by its
    /// frontmatter, any other file named by its file name.
    pub(crate) fn resources(&self) -> Vec<Resource> {
        let manifests: BTreeMap<String, &Skill> = self
            .skills
            .iter()
            .map(|skill| (format!("{}/{}", skill.path, rules::SKILL_FILE), skill))
            .collect();
        self.files
            .iter()
            .map(|file| {
                let text = |key: &str, skill: &Skill| {
                    skill
                        .frontmatter
                        .get(key)
                        .and_then(Value::as_str)
                        .map(str::to_owned)
                };
                let (name, description) = match manifests.get(file.path.as_ref()) {
                    Some(skill) => (text("name", skill), text("description", skill)),
                    None => (None, None),
                };
                let name = name.unwrap_or_else(|| file_name(&file.path).to_owned());
                let bytes = file.bytes.clone();
                let as_text = rules::is_text(&file.mime_type);
                let read = move || {
                    let bytes = bytes.get();
                    match std::str::from_utf8(bytes) {
                        Ok(text) if as_text => ReadOutput::Text(text.to_owned()),
                        _ => ReadOutput::Blob(bytes.to_vec()),
                    }
                };
                let size = file.bytes.get().len() as u64;
                Resource::held(
                    file_uri(&file.path),
                    name,
                    description,
                    &file.mime_type,
                    size,
                    read,
                )
            })
            .collect()
    }

    /// Every folder of a skill (its root and the folders below it) by URI, with the
    /// definitions of its direct children in name order: files as `resources/list` shows
    /// them (`resources`, in the order of [`Skills::resources`]), folders as
    /// `{uri, name, mimeType: "inode/directory"}`.
    pub(crate) fn directories(&self, resources: &[Resource]) -> BTreeMap<String, Vec<Value>> {
        let version = crate::protocol::ProtocolVersion::LATEST;
        let mut children: BTreeMap<String, BTreeMap<String, Value>> = BTreeMap::new();
        for skill in &self.skills {
            children.entry(skill.path.to_string()).or_default();
            for &index in &skill.files {
                let path = &self.files[index].path;
                let Some((parent, name)) = path.rsplit_once('/') else {
                    continue;
                };
                let definition = resources[index].definition(version);
                children
                    .entry(parent.to_owned())
                    .or_default()
                    .insert(name.to_owned(), definition);
                // Each folder between the skill's root and the file is a child of the one
                // above it.
                let mut folder = parent;
                while folder.len() > skill.path.len() {
                    let Some((above, name)) = folder.rsplit_once('/') else {
                        break;
                    };
                    let listing = json!({
                        "uri": file_uri(folder),
                        "name": name,
                        "mimeType": "inode/directory",
                    });
                    children
                        .entry(above.to_owned())
                        .or_default()
                        .insert(name.to_owned(), listing);
                    folder = above;
                }
            }
        }
        children
            .into_iter()
            .map(|(folder, listed)| (file_uri(&folder), listed.into_values().collect()))
            .collect()
    }
}

fn file_uri(path: &str) -> String {
    format!("skill://{path}")
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Skills {
        Skills::embedded(
            &[
                (
                    "billing/SKILL.md",
                    b"---\nname: billing\n---\n",
                    "sha256:aa",
                    "text/markdown",
                ),
                ("billing/refunds/SKILL.md", b"r", "sha256:bb", "text/markdown"),
                ("billing/templates/a/x.png", b"\x89PNG", "sha256:cc", "image/png"),
            ],
            &[
                (
                    "billing",
                    r#"{"name":"billing","description":"Bills"}"#,
                    &[0, 1, 2],
                ),
                (
                    "billing/refunds",
                    r#"{"name":"refunds","description":"Refunds"}"#,
                    &[1],
                ),
            ],
        )
    }

    #[test]
    fn entries_list_every_file_of_a_skill_with_its_digest_and_size() {
        let entries = sample().entries();
        assert_eq!(entries[1].0, "skill://billing/refunds/SKILL.md");
        assert_eq!(
            entries[0].1,
            json!({
                "uri": "skill://billing/SKILL.md",
                "frontmatter": {"name": "billing", "description": "Bills"},
                "resources": [
                    {"uri": "skill://billing/SKILL.md", "digest": "sha256:aa", "size": 22},
                    {"uri": "skill://billing/refunds/SKILL.md", "digest": "sha256:bb", "size": 1},
                    {"uri": "skill://billing/templates/a/x.png", "digest": "sha256:cc", "size": 4},
                ],
            })
        );
    }

    #[test]
    fn directories_hold_their_direct_children_and_manifests_their_skill_names() {
        let skills = sample();
        let resources = skills.resources();
        let version = crate::protocol::ProtocolVersion::LATEST;
        assert_eq!(
            resources[1].definition(version),
            json!({"uri": "skill://billing/refunds/SKILL.md", "name": "refunds", "description": "Refunds", "mimeType": "text/markdown", "size": 1})
        );
        let directories = skills.directories(&resources);
        let keys: Vec<&str> = directories.keys().map(String::as_str).collect();
        assert_eq!(
            keys,
            [
                "skill://billing",
                "skill://billing/refunds",
                "skill://billing/templates",
                "skill://billing/templates/a"
            ]
        );
        let names =
            |uri: &str| -> Vec<Value> { directories[uri].iter().map(|c| c["name"].clone()).collect() };
        assert_eq!(
            names("skill://billing"),
            [json!("billing"), json!("refunds"), json!("templates")]
        );
        assert_eq!(
            directories["skill://billing/templates"],
            [json!({"uri": "skill://billing/templates/a", "name": "a", "mimeType": "inode/directory"})]
        );
        assert_eq!(names("skill://billing/templates/a"), [json!("x.png")]);
    }

    #[test]
    fn merged_skills_keep_their_own_files() {
        let mut skills = sample();
        skills.merge(Skills::embedded(
            &[("solo/SKILL.md", b"s", "sha256:dd", "text/markdown")],
            &[("solo", r#"{"name":"solo","description":"Solo"}"#, &[0])],
        ));
        assert_eq!(skills.len(), 3);
        assert_eq!(skills.entries()[2].1["resources"][0]["digest"], "sha256:dd");
        assert_eq!(
            format!("{skills:?}"),
            "Skills { skills: [\"skill://billing/SKILL.md\", \"skill://billing/refunds/SKILL.md\", \"skill://solo/SKILL.md\"], .. }"
        );
    }
}
