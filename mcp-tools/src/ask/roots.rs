//! `roots/list`: the directories and files the client lets the server work on.

use super::{answer_as, read};
use crate::context::Context;
use crate::error::{AskError, ClientCapability};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use std::fmt;
use std::future::{Future, IntoFuture};
use std::io::Write as _;
use std::path::{Component, Path, PathBuf};
use std::pin::Pin;

/// A root the client shares: a directory or file the server may work on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct Root {
    /// The root's URI, `file://` for now.
    pub uri: String,
    /// A name for people, when the client gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// The root's `_meta`, when the client sent one.
    #[serde(default, rename = "_meta", skip_serializing_if = "Option::is_none")]
    pub meta: Option<Map<String, Value>>,
}

impl Root {
    /// A root at this URI, with no name and no `_meta` (a client sends roots; a test
    /// makes its own with this).
    pub fn new(uri: impl Into<String>) -> Root {
        Root {
            uri: uri.into(),
            name: None,
            meta: None,
        }
    }

    /// The local folder (or file) of a `file://` root: `file:///home/ada/src` is
    /// `/home/ada/src`, with percent-escapes decoded.
    ///
    /// The URI is client input, so it is read strictly (RFC 3986: an escaped reserved
    /// character is data, not a delimiter). Refused, with the reason: a scheme other than
    /// `file`, a host other than none or `localhost`, a query or fragment, a `%2F`
    /// (`/`), `%5C` (`\`) or `%00` (NUL) inside a path segment, a `\` anywhere, a `.`
    /// or `..` segment (escaped or not), and escapes that do not decode to UTF-8. What
    /// is accepted is an absolute path that names exactly the folder the URI names.
    ///
    /// To reach a file below the root, use [`Root::join`] (checked) or
    /// [`Root::write_file`] (checked, and safe against a symlink at the target), never
    /// `path()?.join(..)` with a path from outside.
    ///
    /// ```
    /// use mcp_toolkit::ask::Root;
    /// use mcp_toolkit::ask::RootError;
    ///
    /// let root = |uri: &str| Root::new(uri);
    /// assert_eq!(root("file:///home/ada/my%20src").path().unwrap(), std::path::Path::new("/home/ada/my src"));
    /// assert!(matches!(root("https://example.com/").path(), Err(RootError::NotAFileUri)));
    /// // One segment named `src/../etc`: data, not a way up.
    /// let escape = root("file:///home/ada/src%2F..%2Fetc").path().unwrap_err();
    /// assert_eq!(escape.to_string(), "the root's URI has `%2F` inside a path segment; an escaped `/`, `\\` or NUL would be read as a separator or an end, so the root is refused");
    /// ```
    pub fn path(&self) -> Result<PathBuf, RootError> {
        let uri = self.uri.as_str();
        let scheme_ends = uri.find("://").ok_or(RootError::NotAFileUri)?;
        if !uri[..scheme_ends].eq_ignore_ascii_case("file") {
            return Err(RootError::NotAFileUri);
        }
        let rest = &uri[scheme_ends + 3..];
        let path_starts = rest.find('/').unwrap_or(rest.len());
        let host = &rest[..path_starts];
        if !host.is_empty() && !host.eq_ignore_ascii_case("localhost") {
            return Err(RootError::OtherHost);
        }
        let path = &rest[path_starts..];
        if path.is_empty() {
            return Err(RootError::NoPath);
        }
        if path.contains(['?', '#']) {
            return Err(RootError::QueryOrFragment);
        }
        if path.contains('\\') {
            return Err(RootError::Backslash);
        }
        let mut decoded = String::with_capacity(path.len());
        for segment in path.split('/').skip(1) {
            let bytes = percent_decode(segment);
            for (escape, byte) in [("%2F", b'/'), ("%5C", b'\\'), ("%00", 0)] {
                if bytes.contains(&byte) {
                    return Err(RootError::EscapedSeparator(escape));
                }
            }
            let text = String::from_utf8(bytes).map_err(|_| RootError::NotUtf8)?;
            if text == "." || text == ".." {
                return Err(RootError::DotSegment(if text == "." { "." } else { ".." }));
            }
            decoded.push('/');
            decoded.push_str(&text);
        }
        Ok(PathBuf::from(decoded))
    }

    /// The path of `relative` below this root: [`Root::path`] joined with `relative`,
    /// which must stay below it. Refused, with the reason: an empty path, an absolute
    /// one (`/etc/passwd`), a `..` component anywhere, a drive or prefix (`C:`,
    /// `\\server\share`), a `\` (a separator on Windows), a NUL byte. `.` components are
    /// dropped.
    ///
    /// The check reads the path, not the disk: a symlink below the root can still lead
    /// out of it. To write a file, [`Root::write_file`] also checks the disk.
    ///
    /// ```
    /// use mcp_toolkit::ask::Root;
    /// use mcp_toolkit::ask::RootError;
    /// use std::path::Path;
    ///
    /// let root = Root::new("file:///home/ada/notes");
    /// assert_eq!(root.join("2025/june.md").unwrap(), Path::new("/home/ada/notes/2025/june.md"));
    /// assert!(matches!(root.join("../.ssh/id_ed25519"), Err(RootError::Climbs)));
    /// assert!(matches!(root.join("/etc/passwd"), Err(RootError::Absolute)));
    /// ```
    pub fn join(&self, relative: impl AsRef<Path>) -> Result<PathBuf, RootError> {
        let folder = self.path()?;
        let relative = relative.as_ref();
        let bytes = relative.as_os_str().as_encoded_bytes();
        if bytes.contains(&0) {
            return Err(RootError::Nul);
        }
        if bytes.contains(&b'\\') {
            return Err(RootError::Backslash);
        }
        let drive = bytes.len() >= 2 && bytes[0].is_ascii_alphabetic() && bytes[1] == b':';
        if drive {
            return Err(RootError::Prefix);
        }
        let mut joined = folder;
        let mut named = false;
        for component in relative.components() {
            match component {
                Component::Normal(part) => {
                    joined.push(part);
                    named = true;
                }
                Component::CurDir => {}
                Component::ParentDir => return Err(RootError::Climbs),
                Component::RootDir => return Err(RootError::Absolute),
                Component::Prefix(_) => return Err(RootError::Prefix),
            }
        }
        if !named {
            return Err(RootError::Empty);
        }
        Ok(joined)
    }

    /// Writes `contents` to the file `relative` names below this root ([`Root::join`]),
    /// replacing one already there, and returns its path.
    ///
    /// The file is written whole to a new temporary file beside it (created exclusively,
    /// so nothing there is opened or followed) and then renamed over the target: a
    /// symlink at the target is replaced, not followed, and a reader never sees half a
    /// file. Refused before anything is written: a root that is not an existing
    /// directory, and a target whose folder resolves outside the root (a symlinked
    /// folder below it). The new file has fresh permissions. This blocks while it
    /// writes; for large contents call it from `tokio::task::spawn_blocking`.
    ///
    /// ```
    /// use mcp_toolkit::ask::Root;
    ///
    /// let folder = std::env::temp_dir().join(format!("root-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&folder).unwrap();
    /// let root = Root::new(format!("file://{}", folder.display()));
    /// let written = root.write_file("notes.md", "# Notes\n").unwrap();
    /// assert_eq!(std::fs::read_to_string(&written).unwrap(), "# Notes\n");
    /// assert!(root.write_file("../notes.md", "# Notes\n").is_err());
    /// # std::fs::remove_dir_all(&folder).unwrap();
    /// ```
    pub fn write_file(
        &self,
        relative: impl AsRef<Path>,
        contents: impl AsRef<[u8]>,
    ) -> Result<PathBuf, RootError> {
        let folder = self.path()?;
        let target = self.join(relative)?;
        let io = |path: &Path| {
            let path = path.to_owned();
            move |source| RootError::Io { path, source }
        };
        if !std::fs::metadata(&folder).map_err(io(&folder))?.is_dir() {
            return Err(RootError::NotADirectory);
        }
        let parent = target.parent().unwrap_or(&folder);
        let real_folder = folder.canonicalize().map_err(io(&folder))?;
        if !parent
            .canonicalize()
            .map_err(io(parent))?
            .starts_with(&real_folder)
        {
            return Err(RootError::Outside);
        }
        let name = target.file_name().unwrap_or_default().to_string_lossy();
        let mut attempts = 0;
        let (temporary, mut file) = loop {
            let suffix = crate::protocol::random_hex::<8>().map_err(|e| RootError::Io {
                path: parent.to_owned(),
                source: std::io::Error::other(e.to_string()),
            })?;
            let temporary = parent.join(format!(".{name}.{suffix}.tmp"));
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(&temporary)
            {
                Ok(file) => break (temporary, file),
                Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists && attempts < 3 => {
                    attempts += 1;
                }
                Err(error) => return Err(io(&temporary)(error)),
            }
        };
        let written = file
            .write_all(contents.as_ref())
            .and_then(|()| file.sync_all())
            .and_then(|()| std::fs::rename(&temporary, &target));
        if let Err(error) = written {
            let _ = std::fs::remove_file(&temporary);
            return Err(io(&target)(error));
        }
        Ok(target)
    }
}

/// Why a root, or a path below it, cannot be used: what [`Root::path`], [`Root::join`] and
/// [`Root::write_file`] refuse. The roots come from the client, so these are the client's
/// (or the model's) mistakes, except [`RootError::Io`].
///
/// `?` in a tool makes it an internal error (the client reads `internal error`); to tell
/// the model why, make it a message: `.map_err(|e| ToolError::new(e.to_string()))`.
///
/// ```
/// use mcp_toolkit::ask::Root;
/// use mcp_toolkit::ask::RootError;
///
/// let root = Root::new("file:///srv/share/%2E%2E");
/// assert!(matches!(root.path(), Err(RootError::DotSegment(".."))));
/// ```
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum RootError {
    /// The URI's scheme is not `file`.
    #[error("the root is not a `file://` URI; only `file://` roots name local folders")]
    NotAFileUri,
    /// The `file://` URI names a host other than this machine (`file://server/share`).
    #[error("the root names another host; only `file:///path` and `file://localhost/path` name this machine")]
    OtherHost,
    /// The `file://` URI has no path.
    #[error("the root's URI has no path; expected `file:///` and an absolute path")]
    NoPath,
    /// The URI has a query (`?`) or a fragment (`#`), which a folder's URI has not.
    #[error("the root's URI has a query or fragment; a folder's URI is `file:///` and a path alone")]
    QueryOrFragment,
    /// A path segment holds an escaped separator or NUL: `%2F`, `%5C` or `%00`.
    #[error(
        "the root's URI has `{0}` inside a path segment; an escaped `/`, `\\` or NUL would be read as a separator or an end, so the root is refused"
    )]
    EscapedSeparator(&'static str),
    /// A path segment is `.` or `..` (also escaped, `%2E%2E`).
    #[error("the root's URI has a `{0}` segment; a root must name its folder without `.` or `..`")]
    DotSegment(&'static str),
    /// The escapes do not decode to UTF-8.
    #[error("the root's URI does not decode to UTF-8 text")]
    NotUtf8,
    /// A `\`, which is a separator on Windows.
    #[error("the path has a `\\`; separate folders with `/`")]
    Backslash,
    /// A NUL byte, which ends a path at the system's interface.
    #[error("the path has a NUL byte")]
    Nul,
    /// The relative path names nothing below the root.
    #[error("the path is empty; name a file below the root")]
    Empty,
    /// The relative path has a `..` component.
    #[error("the path climbs out of the root with `..`; give a path below the root")]
    Climbs,
    /// The relative path is absolute.
    #[error("the path is absolute; give a path relative to the root")]
    Absolute,
    /// The relative path starts with a drive or prefix (`C:`, `\\server\share`).
    #[error("the path starts with a drive or prefix; give a path relative to the root")]
    Prefix,
    /// The root is not an existing directory.
    #[error("the root is not a directory; share a folder")]
    NotADirectory,
    /// The target's folder resolves outside the root (a symlink below the root).
    #[error("the path leads out of the root through a symlink; give a path below the root")]
    Outside,
    /// The file system refused: the path it refused, and why.
    #[error("could not write `{}`", path.display())]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
}

/// The bytes of a URI segment with its `%XX` escapes decoded; a `%` not followed by two
/// hex digits stays as it is.
fn percent_decode(segment: &str) -> Vec<u8> {
    let bytes = segment.as_bytes();
    let mut decoded = Vec::with_capacity(bytes.len());
    let mut at = 0;
    while at < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[at] == b'%'
            && let (Some(&h), Some(&l)) = (bytes.get(at + 1), bytes.get(at + 2))
            && let (Some(h), Some(l)) = (hex(h), hex(l))
        {
            decoded.push((h * 16 + l) as u8);
            at += 3;
        } else {
            decoded.push(bytes[at]);
            at += 1;
        }
    }
    decoded
}

/// The result of `roots/list`.
#[derive(Deserialize)]
struct ListRootsResult {
    roots: Vec<Root>,
}

/// Whether an answer is a `ListRootsResult`: roots, each with a `uri` string, and a `name`
/// string and a `_meta` object when it has them.
fn check(answer: &Value) -> Result<(), String> {
    read::<ListRootsResult>(answer).map(drop)
}

/// An ask for the client's roots, made by [`Context::list_roots`]; `.await` it.
#[must_use = "an ask does nothing until it is awaited"]
pub struct ListRoots<'a> {
    cx: &'a Context,
    key: Option<String>,
}

impl ListRoots<'_> {
    /// The key of this ask among the call's input requests in revision 2026-07-28
    /// (`roots_1`, `roots_2`, ... in the order asked, by default). Keys must differ within
    /// a call.
    pub fn key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl<'a> IntoFuture for ListRoots<'a> {
    type Output = Result<Vec<Root>, AskError>;
    type IntoFuture = Pin<Box<dyn Future<Output = Self::Output> + Send + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            let answer = (self.cx)
                .ask(
                    &[ClientCapability::Roots],
                    "roots/list",
                    json!({}),
                    self.key.as_deref(),
                    check,
                )
                .await?;
            Ok(answer_as::<ListRootsResult>("roots/list", &answer)?.roots)
        })
    }
}

impl Context {
    /// Asks the client for its roots: the directories and files it lets the server work
    /// on. Needs the client's `roots` capability; see [the asks](crate::ask) for how this
    /// works in each protocol era.
    ///
    /// ```
    /// use mcp_toolkit::{tool, tools, Context, Server, ToolError};
    /// use serde_json::json;
    ///
    /// /// Names the folders it may search.
    /// #[tool]
    /// async fn search_scope(cx: Context) -> Result<String, ToolError> {
    ///     let roots = cx.list_roots().await?;
    ///     let names: Vec<String> = roots.iter().map(|r| r.name.clone().unwrap_or(r.uri.clone())).collect();
    ///     Ok(names.join(", "))
    /// }
    ///
    /// # #[tokio::main(flavor = "current_thread")]
    /// # async fn main() -> Result<(), mcp_toolkit::testing::ClientError> {
    /// let client = Server::new("search", "1.0.0")
    ///     .tools(tools![search_scope])
    ///     .test_client()?
    ///     .with_roots([("file:///home/ada/src", "src"), ("file:///home/ada/notes", "notes")]);
    /// assert_eq!(client.call("search_scope", json!({})).await?.text(), Some("src, notes"));
    /// # Ok(())
    /// # }
    /// ```
    pub fn list_roots(&self) -> ListRoots<'_> {
        ListRoots { cx: self, key: None }
    }
}

impl fmt::Debug for ListRoots<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ListRoots")
            .field("key", &self.key)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether an error is the one a case expects.
    type Expected = fn(&RootError) -> bool;

    fn root(uri: &str) -> Root {
        Root {
            uri: uri.into(),
            name: None,
            meta: None,
        }
    }

    #[test]
    fn a_root_path_is_the_folder_the_uri_names() {
        let cases = [
            ("file:///home/ada/src", "/home/ada/src"),
            ("file://localhost/home/ada/src", "/home/ada/src"),
            ("FILE://LocalHost/home/ada/src/", "/home/ada/src/"),
            ("file:///home/ada/my%20src", "/home/ada/my src"),
            ("file:///home/caf%C3%A9", "/home/café"),
            ("file:///", "/"),
            // Dots inside a name are a name, and a `%` that escapes nothing stays.
            ("file:///srv/..hidden/a..b/.c", "/srv/..hidden/a..b/.c"),
            ("file:///srv/100%/x%zz", "/srv/100%/x%zz"),
        ];
        for (uri, path) in cases {
            assert_eq!(root(uri).path().unwrap(), Path::new(path), "{uri}");
        }
    }

    #[test]
    fn a_root_that_could_climb_or_is_not_local_is_refused_with_the_reason() {
        let cases: [(&str, Expected); 17] = [
            ("https://example.com/", |e| matches!(e, RootError::NotAFileUri)),
            ("file:relative/path", |e| matches!(e, RootError::NotAFileUri)),
            ("/home/ada", |e| matches!(e, RootError::NotAFileUri)),
            ("file://server/share", |e| matches!(e, RootError::OtherHost)),
            ("file://", |e| matches!(e, RootError::NoPath)),
            ("file:///tmp/x?y=1", |e| matches!(e, RootError::QueryOrFragment)),
            ("file:///tmp/x#top", |e| matches!(e, RootError::QueryOrFragment)),
            ("file:///tmp/x/root%2F..%2Foutside", |e| {
                matches!(e, RootError::EscapedSeparator("%2F"))
            }),
            ("file:///tmp/x/root%2f..%2f..%2fetc", |e| {
                matches!(e, RootError::EscapedSeparator("%2F"))
            }),
            ("file:///tmp/x/root%5C..%5Coutside", |e| {
                matches!(e, RootError::EscapedSeparator("%5C"))
            }),
            ("file:///tmp/x/notes%00.md", |e| {
                matches!(e, RootError::EscapedSeparator("%00"))
            }),
            ("file:///tmp/x\\..\\y", |e| matches!(e, RootError::Backslash)),
            ("file:///tmp/x/../../etc", |e| {
                matches!(e, RootError::DotSegment(".."))
            }),
            ("file:///tmp/x/%2E%2E/etc", |e| {
                matches!(e, RootError::DotSegment(".."))
            }),
            ("file:///tmp/x/%2e.", |e| matches!(e, RootError::DotSegment(".."))),
            ("file:///tmp/./x", |e| matches!(e, RootError::DotSegment("."))),
            ("file:///tmp/%FF", |e| matches!(e, RootError::NotUtf8)),
        ];
        for (uri, expected) in cases {
            let error = root(uri).path().unwrap_err();
            assert!(expected(&error), "{uri}: {error:?}");
        }
    }

    #[test]
    fn join_stays_below_the_root() {
        let notes = root("file:///home/ada/notes");
        let accepted = [
            ("notes.md", "/home/ada/notes/notes.md"),
            ("2025/june.md", "/home/ada/notes/2025/june.md"),
            ("./a/./b.md", "/home/ada/notes/a/b.md"),
            ("a/", "/home/ada/notes/a"),
            ("..hidden", "/home/ada/notes/..hidden"),
            ("notes: draft.md", "/home/ada/notes/notes: draft.md"),
        ];
        for (relative, path) in accepted {
            assert_eq!(notes.join(relative).unwrap(), Path::new(path), "{relative}");
        }
        let refused: [(&str, Expected); 12] = [
            ("", |e| matches!(e, RootError::Empty)),
            (".", |e| matches!(e, RootError::Empty)),
            ("..", |e| matches!(e, RootError::Climbs)),
            ("../x", |e| matches!(e, RootError::Climbs)),
            ("a/../../x", |e| matches!(e, RootError::Climbs)),
            ("a/..", |e| matches!(e, RootError::Climbs)),
            ("/etc/passwd", |e| matches!(e, RootError::Absolute)),
            ("C:\\Windows", |e| matches!(e, RootError::Backslash)),
            ("C:/Windows", |e| matches!(e, RootError::Prefix)),
            ("c:notes.md", |e| matches!(e, RootError::Prefix)),
            ("\\\\server\\share", |e| matches!(e, RootError::Backslash)),
            ("notes\0.md", |e| matches!(e, RootError::Nul)),
        ];
        for (relative, expected) in refused {
            let error = notes.join(relative).unwrap_err();
            assert!(expected(&error), "{relative:?}: {error:?}");
        }
        // A root that is refused refuses every join.
        assert!(matches!(
            root("file:///tmp/x%2F..").join("notes.md"),
            Err(RootError::EscapedSeparator("%2F"))
        ));
    }

    /// A fresh directory under the system's temporary one; removed when dropped.
    struct Scratch(PathBuf);

    impl Scratch {
        fn new(name: &str) -> Scratch {
            let suffix = crate::protocol::random_hex::<8>().unwrap();
            let dir = std::env::temp_dir().join(format!("roots-{name}-{suffix}"));
            std::fs::create_dir_all(&dir).unwrap();
            Scratch(dir)
        }

        fn root(&self, below: &str) -> Root {
            root(&format!("file://{}{below}", self.0.display()))
        }
    }

    impl Drop for Scratch {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    #[cfg(unix)]
    #[test]
    fn write_file_replaces_a_symlink_instead_of_following_it() {
        let scratch = Scratch::new("symlink");
        let shared = scratch.0.join("shared");
        std::fs::create_dir(&shared).unwrap();
        let outside = scratch.0.join("outside.txt");
        std::fs::write(&outside, "keep me").unwrap();
        std::os::unix::fs::symlink(&outside, shared.join("notes.md")).unwrap();
        let root = scratch.root("/shared");

        let written = root.write_file("notes.md", "# Notes\n").unwrap();
        assert_eq!(written, shared.join("notes.md"));
        assert_eq!(std::fs::read_to_string(&outside).unwrap(), "keep me");
        let meta = std::fs::symlink_metadata(&written).unwrap();
        assert!(meta.is_file(), "{meta:?}");
        assert_eq!(std::fs::read_to_string(&written).unwrap(), "# Notes\n");
        // Nothing else is left behind.
        let names: Vec<_> = std::fs::read_dir(&shared)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["notes.md"]);

        // A folder below the root that links out of it is refused.
        std::os::unix::fs::symlink(&scratch.0, shared.join("up")).unwrap();
        assert!(matches!(
            root.write_file("up/notes.md", "x"),
            Err(RootError::Outside)
        ));
        assert!(!scratch.0.join("notes.md").exists());
    }

    #[test]
    fn write_file_needs_a_folder() {
        let scratch = Scratch::new("folder");
        let file = scratch.0.join("file.txt");
        std::fs::write(&file, "a file").unwrap();
        assert!(matches!(
            scratch.root("/file.txt").write_file("notes.md", "x"),
            Err(RootError::NotADirectory)
        ));
        assert!(matches!(
            scratch.root("/missing").write_file("notes.md", "x"),
            Err(RootError::Io { .. })
        ));
        assert!(matches!(
            scratch.root("").write_file("../notes.md", "x"),
            Err(RootError::Climbs)
        ));
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "a file");
    }
}
