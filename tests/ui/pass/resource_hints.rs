use mcp_toolkit::content::Role;
use mcp_toolkit::protocol::ProtocolVersion;
use mcp_toolkit::{resource::CacheScope, resource, resources};
use serde_json::json;

/// The logo.
#[resource(
    uri = "assets://logo.png",
    mime_type = "image/png",
    size = 4,
    annotations(audience = ["user", "assistant"], priority = 1, last_modified = "2025-01-12T15:00:58+01:00"),
    cache(ttl_ms = 86_400_000u64, scope = "public")
)]
fn logo() -> Vec<u8> {
    vec![0x89, b'P', b'N', b'G']
}

/// A page of the caller's mail.
#[resource(
    uri = "mail://inbox/{page}",
    annotations(audience = ["assistant"], priority = 0.25),
    cache(scope = "private")
)]
fn inbox(page: u32) -> String {
    format!("page {page}")
}

/// The status, read again each time.
#[resource(uri = "status://now", annotations(), cache(ttl_ms = 0))]
fn status() -> &'static str {
    "up"
}

fn main() {
    let resources = resources![logo, inbox, status];
    let logo = &resources[0];
    assert_eq!(logo.size(), Some(4));
    let annotations = logo.annotations().unwrap();
    assert_eq!(annotations.audience, Some(vec![Role::User, Role::Assistant]));
    assert_eq!(annotations.priority, Some(1.0));
    assert_eq!(
        (logo.ttl_ms(), logo.cache_scope()),
        (Some(86_400_000), Some(CacheScope::Public))
    );
    assert_eq!(
        logo.definition(ProtocolVersion::V2025_06_18)["annotations"],
        json!({ "audience": ["user", "assistant"], "priority": 1.0, "lastModified": "2025-01-12T15:00:58+01:00" })
    );

    let inbox = &resources[1];
    assert_eq!(inbox.size(), None);
    assert_eq!(inbox.annotations().unwrap().last_modified, None);
    assert_eq!(
        (inbox.ttl_ms(), inbox.cache_scope()),
        (Some(0), Some(CacheScope::Private))
    );

    let status = &resources[2];
    assert_eq!(status.annotations(), None);
    assert_eq!(
        (status.ttl_ms(), status.cache_scope()),
        (Some(0), Some(CacheScope::Public))
    );
}
