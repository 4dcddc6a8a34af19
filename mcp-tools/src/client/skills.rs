//! Skills as a client reads them (SEP-2640, the `io.modelcontextprotocol/skills` extension):
//! `skills/list` gives each skill's `SKILL.md` URI, its frontmatter and every file with its
//! digest and size; [`Client::read_skill_file`] reads one file and checks it against that
//! listing before handing it over, so a file changed between the listing and the read (or
//! a server that lies in one of them) is refused, never given to the model.

use super::results::Listed;
use super::{Client, ClientError};
use crate::content::ResourceContents;
use serde::Deserialize;
use serde_json::{Map, Value};

/// A skill as `skills/list` describes it.
///
/// The example on [`Client::read_skill_file`] lists and reads one.
#[derive(Debug, Clone)]
pub struct ListedSkill {
    wire: WireSkill,
    json: Value,
}

#[derive(Debug, Clone, Deserialize)]
struct WireSkill {
    uri: String,
    #[serde(default)]
    frontmatter: Map<String, Value>,
    #[serde(default)]
    resources: Vec<SkillFile>,
}

/// One file of a skill, as `skills/list` lists it: where it is, and what a read of it must
/// give.
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[non_exhaustive]
pub struct SkillFile {
    /// The file's resource URI, such as `skill://pdf-processing/references/FORMS.md`.
    pub uri: String,
    /// `sha256:` and the hex SHA-256 of its bytes, when the server gave it.
    #[serde(default)]
    pub digest: Option<String>,
    /// Its length in bytes, when the server gave it.
    #[serde(default)]
    pub size: Option<u64>,
}

impl Listed for ListedSkill {
    const METHOD: &'static str = "skills/list";
    const KEY: &'static str = "skills";
    const WHAT: &'static str = "a skill";

    fn read(json: Value) -> Result<ListedSkill, serde_json::Error> {
        WireSkill::deserialize(&json).map(|wire| ListedSkill { wire, json })
    }
}

impl ListedSkill {
    /// The URI of its `SKILL.md`, such as `skill://pdf-processing/SKILL.md`.
    pub fn uri(&self) -> &str {
        &self.wire.uri
    }

    /// Its name, from the frontmatter.
    pub fn name(&self) -> Option<&str> {
        self.wire.frontmatter.get("name").and_then(Value::as_str)
    }

    /// Its description, from the frontmatter: what the model reads to decide whether to
    /// load it.
    pub fn description(&self) -> Option<&str> {
        self.wire.frontmatter.get("description").and_then(Value::as_str)
    }

    /// Its frontmatter, as listed.
    pub fn frontmatter(&self) -> &Map<String, Value> {
        &self.wire.frontmatter
    }

    /// Its files, `SKILL.md` among them.
    pub fn files(&self) -> &[SkillFile] {
        &self.wire.resources
    }

    /// The entry as the server sent it.
    pub fn json(&self) -> &Value {
        &self.json
    }
}

impl Client {
    /// The server's skills (`skills/list`, every page). Nothing is read: a host loads a
    /// skill's files only when a request calls for it, with
    /// [`read_skill_file`](Client::read_skill_file).
    pub async fn list_skills(&self) -> Result<Vec<ListedSkill>, ClientError> {
        self.list().await
    }

    /// Reads file `uri` of `skill` (`resources/read`) and gives its bytes once they match
    /// the listing: the size and the digest listed for the file and, for `SKILL.md`, every
    /// field of the listed frontmatter. A file that does not match is
    /// [`ClientError::SkillMismatch`], and a URI that is not among the skill's files is
    /// refused before anything is sent.
    ///
    /// ```
    /// use mcp_toolkit::client::ClientError;
    /// use mcp_toolkit::{skills, Server};
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), ClientError> {
    /// let client = Server::new("notes", "1.0.0")
    ///     .skills(skills!("../examples/skills"))
    ///     .test_client()?;
    /// let skills = client.list_skills().await?;
    /// let skill = &skills[0];
    /// assert_eq!(skill.name(), Some("notes-workflow"));
    /// let manifest = client.read_skill_file(skill, skill.uri()).await?;
    /// assert!(String::from_utf8(manifest).unwrap().starts_with("---\n"));
    /// # Ok(())
    /// # }
    /// ```
    pub async fn read_skill_file(&self, skill: &ListedSkill, uri: &str) -> Result<Vec<u8>, ClientError> {
        let mismatch = |reason: String| ClientError::SkillMismatch {
            uri: uri.to_owned(),
            reason,
        };
        let Some(file) = skill.files().iter().find(|file| file.uri == uri) else {
            return Err(mismatch(format!(
                "it is not among the files `skills/list` gives for {}",
                skill.uri()
            )));
        };
        let read = self.read_resource(uri).await?;
        let bytes = match read.contents().first() {
            Some(ResourceContents::Text { text, .. }) => text.clone().into_bytes(),
            Some(ResourceContents::Blob { blob, .. }) => {
                use base64::Engine as _;
                base64::engine::general_purpose::STANDARD
                    .decode(blob)
                    .map_err(|_| mismatch("its `blob` is not Base64".to_owned()))?
            }
            None => return Err(mismatch("`resources/read` gave no contents".to_owned())),
        };
        if let Some(size) = file.size.filter(|size| *size != bytes.len() as u64) {
            return Err(mismatch(format!(
                "it is {} bytes; `skills/list` says {size}",
                bytes.len()
            )));
        }
        if let Some(digest) = &file.digest {
            let actual = mcp_toolkit_core::skill::digest(&bytes);
            if !actual.eq_ignore_ascii_case(digest) {
                return Err(mismatch(format!(
                    "its digest is {actual}; `skills/list` says {digest}"
                )));
            }
        }
        if uri == skill.uri() {
            let read = mcp_toolkit_core::skill::frontmatter(&bytes).map_err(|problems| {
                mismatch(format!("its frontmatter does not read: {}", problems.join("; ")))
            })?;
            for (key, listed) in skill.frontmatter() {
                if read.get(key) != Some(listed) {
                    return Err(mismatch(format!(
                        "its frontmatter's `{key}` is not the one `skills/list` gives"
                    )));
                }
            }
            if let Some(key) = read.keys().find(|key| !skill.frontmatter().contains_key(*key)) {
                return Err(mismatch(format!(
                    "its frontmatter has `{key}`, which `skills/list` does not give"
                )));
            }
        }
        Ok(bytes)
    }
}
