//! What generated code names. Not public API: it changes without notice.
//!
//! The macros of `mcp-toolkit-macros` expand to paths under `::mcp_toolkit::__private`, and
//! nothing else names them: the builders that assemble a tool, prompt, resource or method
//! from what a macro read, the probes that pick how a parameter is read, the checks of
//! `tools![..]`-style lists. Hidden from the docs once, here.

pub use mcp_toolkit_macros::method_tools;

mod method;
mod prompt;
mod resource;
mod tool;

pub use crate::protocol::arguments::RawArguments;
pub use crate::tool::args::Arguments;
pub use crate::tool::invocation::{Built, FormCheckFn, Invocation, MethodTool};
pub use crate::tool::param::{
    DefaultShown, DefaultUnshown, FormAsked, FormUnasked, InjectedProbe, OptionalProbe, Param, Plan,
    RequiredProbe, Slot,
};
pub use tool::{Ret, ToolBuilder};

pub use crate::prompt::work::{HandlerError, PromptArguments, PromptInvocation, RequestArguments, Work};
pub use crate::resource::ReadOutput;
pub use prompt::{Converter, PromptBuilder, PromptRet};
pub use resource::{ResourceArguments, ResourceBuilder, ResourceInvocation, ResourceRet};

pub use method::{MethodArguments, MethodBuilder, MethodInvocation};

use crate::Tool;
use crate::prompt::Prompt;
use crate::resource::Resource;

/// The skills `skills!` embedded: each file's path below the folder, bytes, digest and
/// MIME type, and each skill's path, frontmatter (JSON) and files (indices).
pub fn skills(
    files: &[(&'static str, &'static [u8], &'static str, &'static str)],
    skills: &[(&'static str, &'static str, &'static [usize])],
) -> crate::skill::Skills {
    crate::skill::Skills::embedded(files, skills)
}

/// A tool of `tools![...]`: its name, for the duplicate check, and its constructor.
pub type Entry = (&'static str, fn() -> Tool);

/// A prompt of `prompts![...]`: its name and its constructor.
pub type PromptEntry = (&'static str, fn() -> Prompt);

/// A method of `methods![...]`: its name, for the duplicate check, and its constructor.
pub type MethodEntry = (&'static str, fn() -> crate::extension::Method);

/// A resource of `resources![...]`: its URI, for the duplicate check, and its constructor.
pub type ResourceEntry = (&'static str, fn() -> Resource);

/// The body of a tool or prompt whose macro had errors; never runs, because the crate
/// does not compile.
pub fn unreachable_stub<T>() -> T {
    unreachable!("a `#[tool]`, `#[prompt]` or `#[resource]` with compile errors was built")
}

/// The names (URIs) of the entries of `tools![...]`, `prompts![...]` or `resources![...]`.
pub const fn names<const N: usize, F>(entries: &[(&'static str, F)]) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = entries[i].0;
        i += 1;
    }
    names
}

/// The message of two entries of `tools![...]` (`noun` is `"tool"`) or `prompts![...]`
/// (`"prompt"`) with one name, if any. The macro panics with it in a `const` of its own,
/// so the compile error is at the macro's call and passes through no function.
pub const fn duplicate_name<const N: usize>(entries: &[&'static str; N], noun: &str) -> Option<Duplicate> {
    let Some(name) = first_duplicate(entries) else {
        return None;
    };
    let (noun, name) = (noun.as_bytes(), name.as_bytes());
    Some(Duplicate::of(&[
        b"two ",
        noun,
        b"s in `",
        noun,
        b"s![...]` are named `",
        name,
        b"`; every ",
        noun,
        b" needs its own name: rename one with `#[",
        noun,
        b"(name = \"...\")]`",
    ]))
}

/// The message of two entries of `resources![...]` with one URI, if any.
pub const fn duplicate_uri<const N: usize>(entries: &[&'static str; N]) -> Option<Duplicate> {
    let Some(uri) = first_duplicate(entries) else {
        return None;
    };
    Some(Duplicate::of(&[
        b"two resources in `resources![...]` have the URI `",
        uri.as_bytes(),
        b"`; every resource needs its own URI",
    ]))
}

/// What two entries of a list clash on, said in a message.
#[allow(missing_debug_implementations)] // support for generated code, not public API
pub struct Duplicate {
    buffer: [u8; 512],
    len: usize,
}

impl Duplicate {
    /// The message made of `parts`, cut at 512 bytes.
    const fn of(parts: &[&[u8]]) -> Duplicate {
        let mut buffer = [0u8; 512];
        let mut len = 0;
        let mut p = 0;
        while p < parts.len() {
            let part = parts[p];
            let mut i = 0;
            while i < part.len() && len < buffer.len() {
                buffer[len] = part[i];
                len += 1;
                i += 1;
            }
            p += 1;
        }
        Duplicate { buffer, len }
    }

    /// The message.
    pub const fn message(&self) -> &str {
        let (message, _) = self.buffer.split_at(self.len);
        match core::str::from_utf8(message) {
            Ok(message) => message,
            // Cut inside a character: say it without the names.
            Err(_) => "two entries of `tools![...]`, `prompts![...]` or `resources![...]` clash",
        }
    }
}

/// A string that is in `entries` twice, if any: the entries are sorted (a heapsort, in
/// `N log N` comparisons, so hundreds of entries stay cheap to check), then neighbours
/// compared.
const fn first_duplicate<const N: usize>(entries: &[&'static str; N]) -> Option<&'static str> {
    let mut order = [0usize; N];
    let mut i = 0;
    while i < N {
        order[i] = i;
        i += 1;
    }
    let mut start = N / 2;
    while start > 0 {
        start -= 1;
        sift_down(&mut order, entries, start, N);
    }
    let mut end = N;
    while end > 1 {
        end -= 1;
        let top = order[0];
        order[0] = order[end];
        order[end] = top;
        sift_down(&mut order, entries, 0, end);
    }
    let mut k = 1;
    while k < N {
        let name = entries[order[k]];
        if str_eq(entries[order[k - 1]], name) {
            return Some(name);
        }
        k += 1;
    }
    None
}

/// Restores the max-heap order of `order[root..end]` by name.
const fn sift_down<const N: usize>(
    order: &mut [usize; N],
    entries: &[&'static str; N],
    mut root: usize,
    end: usize,
) {
    loop {
        let mut child = 2 * root + 1;
        if child >= end {
            return;
        }
        if child + 1 < end && str_lt(entries[order[child]], entries[order[child + 1]]) {
            child += 1;
        }
        if !str_lt(entries[order[root]], entries[order[child]]) {
            return;
        }
        let parent = order[root];
        order[root] = order[child];
        order[child] = parent;
        root = child;
    }
}

/// Byte-wise `a < b`.
const fn str_lt(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut i = 0;
    while i < a.len() && i < b.len() {
        if a[i] != b[i] {
            return a[i] < b[i];
        }
        i += 1;
    }
    a.len() < b.len()
}

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_a_duplicate_wherever_it_is() {
        const UNIQUE: [&str; 7] = ["b", "a", "ab", "ba", "abc", "c", "aa"];
        const _: () = assert!(duplicate_name::<7>(&UNIQUE, "tool").is_none());
        let cases = [
            ["x", "b", "c", "d", "e", "f", "x"],
            ["a", "b", "c", "d", "c", "f", "g"],
            ["g", "f", "e", "d", "c", "b", "g"],
        ];
        for names in cases {
            assert!(duplicate_name::<7>(&names, "tool").is_some(), "{names:?}");
        }
    }

    #[test]
    fn names_the_duplicate_and_the_attribute_that_renames() {
        let message = |noun: &str| {
            duplicate_name::<3>(&["b", "a", "b"], noun)
                .expect("`b` is there twice")
                .message()
                .to_owned()
        };
        assert_eq!(
            message("tool"),
            "two tools in `tools![...]` are named `b`; every tool needs its own name: rename one with `#[tool(name = \"...\")]`"
        );
        assert_eq!(
            message("prompt"),
            "two prompts in `prompts![...]` are named `b`; every prompt needs its own name: rename one with `#[prompt(name = \"...\")]`"
        );
    }

    #[test]
    fn names_the_duplicate_uri() {
        const _: () = assert!(duplicate_uri::<2>(&["docs://a", "docs://{a}"]).is_none());
        let duplicate = duplicate_uri::<3>(&["a://x", "b://{y}", "a://x"]).expect("`a://x` is there twice");
        assert_eq!(
            duplicate.message(),
            "two resources in `resources![...]` have the URI `a://x`; every resource needs its own URI"
        );
    }

    #[test]
    fn a_message_cut_inside_a_character_is_said_without_the_names() {
        let long: &'static str = "é".repeat(300).leak();
        let duplicate = duplicate_uri::<2>(&[long, long]);
        let message = duplicate.expect("the URI is there twice").message().to_owned();
        assert!(message.len() <= 512, "{message}");
    }

    #[test]
    fn the_names_are_the_entries_first_halves() {
        const ENTRIES: &[Entry] = &[("a", unreachable_stub::<Tool>), ("b", unreachable_stub::<Tool>)];
        assert_eq!(names::<2, _>(ENTRIES), ["a", "b"]);
    }
}
