//! The rule of a custom method's name (`#[method(name = "vendor/name")]`, an extension's
//! methods and notifications): a vendor prefix and a name, joined by `/`, that is none of the
//! protocol's own methods. The macros check it at compile time, the runtime when a server
//! starts and when a tool sends a custom notification.

use std::fmt;

/// Every method and notification of the protocol, in every revision (2024-11-05 to
/// 2026-07-28, from their schemas), and those of the extensions the framework serves
/// (tasks, skills): no custom method may take one of these names.
pub const CORE_METHODS: &[&str] = &[
    "completion/complete",
    "elicitation/create",
    "initialize",
    "logging/setLevel",
    "notifications/cancelled",
    "notifications/elicitation/complete",
    "notifications/initialized",
    "notifications/message",
    "notifications/progress",
    "notifications/prompts/list_changed",
    "notifications/resources/list_changed",
    "notifications/resources/updated",
    "notifications/roots/list_changed",
    "notifications/subscriptions/acknowledged",
    "notifications/tasks/status",
    "notifications/tools/list_changed",
    "ping",
    "prompts/get",
    "prompts/list",
    "resources/directory/read",
    "resources/list",
    "resources/read",
    "resources/subscribe",
    "resources/templates/list",
    "resources/unsubscribe",
    "roots/list",
    "sampling/createMessage",
    "server/discover",
    "skills/get",
    "skills/list",
    "subscriptions/listen",
    "tasks/cancel",
    "tasks/get",
    "tasks/list",
    "tasks/result",
    "tasks/update",
    "tools/call",
    "tools/list",
];

/// The longest custom method name, in bytes.
pub const MAX_LEN: usize = 256;

/// Why a custom method name breaks the rule. Its text starts with "name", to follow the
/// kind of thing named: "method name \`stats\` has no `/`; ...".
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum MethodNameError {
    /// The name is one of the protocol's own methods ([`CORE_METHODS`]).
    Core(String),
    /// The name has no `/` between a vendor prefix and a name, or one side of it is empty.
    NoPrefix(String),
    /// The name has whitespace or control characters.
    Characters(String),
    /// The name is longer than [`MAX_LEN`] bytes.
    TooLong(usize),
}

/// Checks a custom method name: `vendor/name` (both sides not empty), no whitespace or
/// control characters, at most [`MAX_LEN`] bytes, and not a method of the protocol.
pub fn check(name: &str) -> Result<(), MethodNameError> {
    if CORE_METHODS.contains(&name) {
        return Err(MethodNameError::Core(name.to_owned()));
    }
    if name.len() > MAX_LEN {
        return Err(MethodNameError::TooLong(name.len()));
    }
    if name.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(MethodNameError::Characters(name.to_owned()));
    }
    match name.split_once('/') {
        Some((vendor, rest)) if !vendor.is_empty() && !rest.is_empty() && !rest.ends_with('/') => Ok(()),
        _ => Err(MethodNameError::NoPrefix(name.to_owned())),
    }
}

impl fmt::Display for MethodNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MethodNameError::Core(name) => write!(
                f,
                "name `{name}` is a method of the protocol; a custom method needs a name of its own under a vendor prefix, such as `com.example/{}`",
                name.rsplit('/').next().unwrap_or(name)
            ),
            MethodNameError::NoPrefix(name) => write!(
                f,
                "name `{name}` has no vendor prefix; write `vendor/name`, such as `com.example/{}`",
                name.trim_matches('/')
            ),
            MethodNameError::Characters(name) => write!(
                f,
                "name `{}` contains whitespace or a control character; write `vendor/name` without them",
                name.escape_debug()
            ),
            MethodNameError::TooLong(len) => {
                write!(f, "name is {len} bytes long; at most {MAX_LEN} are allowed")
            }
        }
    }
}

impl std::error::Error for MethodNameError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_vendor_prefix_and_a_name_pass() {
        assert_eq!(check("notes/stats"), Ok(()));
        assert_eq!(check("com.example/notes/stats"), Ok(()));
    }

    #[test]
    fn core_names_and_names_without_a_prefix_fail_with_what_to_write() {
        assert_eq!(
            check("tools/call").unwrap_err().to_string(),
            "name `tools/call` is a method of the protocol; a custom method needs a name of its own under a vendor prefix, such as `com.example/call`"
        );
        for name in ["stats", "/stats", "notes/", ""] {
            assert!(matches!(check(name), Err(MethodNameError::NoPrefix(_))), "{name}");
        }
        assert_eq!(
            check("stats").unwrap_err().to_string(),
            "name `stats` has no vendor prefix; write `vendor/name`, such as `com.example/stats`"
        );
        assert!(matches!(check("a/b c"), Err(MethodNameError::Characters(_))));
        assert!(matches!(
            check(&format!("a/{}", "b".repeat(300))),
            Err(MethodNameError::TooLong(302))
        ));
    }

    #[test]
    fn the_core_list_is_sorted_and_has_no_duplicates() {
        assert!(CORE_METHODS.windows(2).all(|w| w[0] < w[1]));
    }
}
